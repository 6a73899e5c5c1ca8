"""A record's judge (:class:`dipsat.runners.judge.Judge`) judges many rules variants at once
(:meth:`~dipsat.runners.judge.Judge.judge_many`: the evidence of every option of every issue
in few batches), taking results over between variants where a turn reads alike (the same
prescan, the same model read again). Whatever it takes over, each phase's result and
differences must be exactly what a judge that has judged nothing else gives (no shortcut at
all), and what asking one variant after the other gives. Checked on games of the bundled
corpus in both of its forms: with per-order results, and as godip histories (positions
only: retreat phases judged from our adjudication of their movement phase)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from dipsat.formats.diplomacy_json import read_game
from dipsat.formats.godip import read_godip_game, write_godip_game
from dipsat.formats.records import RecordedGame
from dipsat.rules import ISSUES, Rules
from dipsat.runners.judge import NOT_IN_RECORDS, Judge

CORPUS = Path(__file__).resolve().parent.parent / "cases" / "corpus" / "random_games.jsonl.gz"
GAMES = 6


def _games() -> list[RecordedGame]:
    with gzip.open(CORPUS, "rt", encoding="utf-8") as handle:
        lines = [next(handle) for _ in range(GAMES)]
    return [read_game(json.loads(line)) for line in lines]


def _godip(game: RecordedGame) -> RecordedGame:
    return read_godip_game(write_godip_game(game), game.id)


def _asked(judge: Judge) -> list[tuple[list[int], Rules]]:
    """Every option of every issue the record touches, on the phases it can affect."""
    out = []
    for issue in sorted({n for i in judge.playable for n in judge.scope[i]}):
        if issue in ISSUES and not issue.startswith(NOT_IN_RECORDS):
            for option in sorted(ISSUES[issue].options):
                out.append((judge.affected(issue), judge.rules_with({issue: option})))
    return out


@pytest.mark.parametrize("form", ["results", "godip"])
def test_many_variants_at_once_give_what_each_alone_gives(form: str) -> None:
    rules = Rules.profile()
    seen = {"variants": 0, "taken over or read again": 0, "retreats taken over": 0}
    for game in _games():
        game = _godip(game) if form == "godip" else game
        batched = Judge(game, rules)
        asked = _asked(batched)
        batched.judge(batched.playable, rules)
        answers = batched.judge_many(asked)
        one_by_one = Judge(game, rules)
        one_by_one.judge(one_by_one.playable, rules)
        for (phases, variant), answer in zip(asked, answers):
            assert one_by_one.judge(phases, variant) == answer, (game.id, str(variant))
            for i in phases:
                alone = Judge(game, rules).judge([i], variant)[i]  # nothing else judged: nothing taken over
                assert alone == answer[i], (game.id, game.phases[i].name, str(variant))
                seen["variants"] += 1
        turns = [result.trace.solved for result, _ in batched.cache.values() if result.trace is not None]
        seen["taken over or read again"] += len(turns) - len({id(solved) for solved in turns})  # not solved again
        retreats = [result.after for (i, _), (result, _) in batched.cache.items() if batched._needs_previous(i)]
        seen["retreats taken over"] += len(retreats) - len({id(after) for after in retreats})  # not judged again
    assert seen["variants"] > 300
    assert seen["taken over or read again"] > 50  # the shortcuts were taken
    if form == "godip":  # retreat phases judged from our movement: taken over where the movement turn was
        assert seen["retreats taken over"] > 10


def test_a_retreat_phase_judged_from_our_movement_waits_for_it() -> None:
    """godip records: a retreat phase's position comes from our adjudication of the movement
    before it under the same rules, judged first even when only the retreat phase is asked."""
    rules = Rules.profile()
    for game in map(_godip, _games()):
        judge = Judge(game, rules)
        later = [i for i in judge.affected("4.A.3") if judge._needs_previous(i)]  # results cached by 4.A.3
        if not later:
            continue
        variants = [judge.rules_with({"4.A.3": o}) for o in sorted(ISSUES["4.A.3"].options)]
        answers = judge.judge_many([(later, v) for v in variants])
        for variant, answer in zip(variants, answers):
            for i in later:
                assert judge.key(i - 1, variant) in judge.cache
                assert Judge(game, rules).judge([i], variant)[i] == answer[i]
        return
    pytest.fail("no godip game of the sample has a retreat phase after a 4.A.3 question")
