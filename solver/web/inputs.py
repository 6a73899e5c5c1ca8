"""A position and orders as a request gives them, read with the library's readers (as
``dipsat adjudicate`` reads its files), from text only: no path on the server's disk is
ever opened at a request's say-so.

A position is one of

- a bundled variant's name (``standard``, ``modern``): its initial position;
- a dipsat JSON state or result (text, or the object itself: :mod:`dipsat.formats.dipsat_json`);
- a case file's text (jDip/DATC format; its first case, or the case ``case`` names);
- a DATC test as the DATC writes it, or an empty position: orders under power names and
  no position, so the units are the ones the orders name (the standard map, Spring 1901).

Any of them (but a recorded game, which has its own) may be played with one of the variant's
player set-ups (``players``, as a case's ``PLAYERS`` line: the neutral powers' orders ignored).

Every problem is a :class:`InputError` naming the field and, where there is one, the line.
"""

from __future__ import annotations

import io
import json
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..errors import DipsatError, NotationError
from ..notation import RejectedOrder, parse_orders
from ..orders import Order
from ..rules import Rules, RulesError
from ..state import State, state_problems

__all__ = ["InputError", "Position", "read_position", "read_orders", "read_rules", "FROM_ORDERS"]

FROM_ORDERS = "the units the orders name (no position given)"
"""The note a position read from its orders carries (``Position.note``)."""


class InputError(DipsatError, ValueError):
    """A request's input that cannot be used: one line per problem, each naming the field."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


@dataclass
class Position:
    """A position read from a request, with what came with it."""

    state: State
    name: str  # the case id, the variant's initial position, or "position"
    orders_text: str | None = None  # orders that came with the position (a case's ORDERS, a JSON state's orders)
    orders: list[Order] | None = None  # those orders, read
    rejected: list[RejectedOrder] = field(default_factory=list)  # their lines that cannot be read
    rule_words: list[str] = field(default_factory=list)  # the case's RULES line, the JSON's rules
    silent: dict[str, str] = field(default_factory=dict)  # PLAYERS: neutral powers, whose orders are ignored
    crop: bool = False  # pictures show a corner of the map (a case, a DATC test)
    title: str = ""
    note: str = ""  # how the position was read, when the page should say so
    phases: list[str] = field(default_factory=list)  # a recorded game's phases (the position is one of them)
    phase: str = ""  # that phase
    players: int | None = None  # the player set-up (a case's PLAYERS line, the request's players)


def read_position(position: Any, case_id: str | None = None, orders_text: str = "",
                  phase: str | None = None, players: int | None = None) -> Position:
    """The position a request names (see the module's docstring).

    :param orders_text: the orders as given: an empty position takes its units from them.
    :param phase: the phase of a recorded game (``F1902M``; default: its first).
    :param players: the variant's set-up for that many players (default: a case's PLAYERS
        line, else one player per power).
    :raises InputError: the position cannot be read.
    """
    if _recorded_game(position):
        if players is not None:
            raise InputError(["players: a recorded game is played with its own set-up"])
        return _recorded_position(position if isinstance(position, str) else json.dumps(position), phase)
    if phase:
        raise InputError(["phase: names a phase of a recorded game, and the position is not one"])
    if isinstance(position, str) and not position.lstrip().startswith("{") and any(
            line.split()[:1] == ["CASE"] for line in position.splitlines()):
        return _case_position(position, case_id, players)
    read = _plain_position(position, orders_text)
    if players is None:
        return read
    from ..runners.cases import players_setup
    from ..setups import SetupError

    try:
        state, silent = players_setup(read.state, players)
    except SetupError as exc:
        raise InputError([f"players: {exc}"]) from None
    return replace(read, state=state, silent=silent, players=players)


def _plain_position(position: Any, orders_text: str) -> Position:
    """A position that is not a case file nor a recorded game."""
    from ..maps import bundled_variants

    if isinstance(position, dict):
        return _json_position(position)
    if not isinstance(position, str):
        raise InputError([f"position: expected text or a dipsat JSON object, found {type(position).__name__}"])
    text = position.strip()
    if text.lower() in bundled_variants():
        from ..maps import load_variant
        return Position(load_variant(text.lower()).initial_state(), f"{text.lower()} initial position")
    if text.startswith("{"):
        from ..formats.dipsat_json import JsonFormatError, parse_json
        try:
            data = parse_json(text, "position")
        except JsonFormatError as exc:
            raise InputError(exc.problems) from None
        return _json_position(data)
    if not text:
        return _orders_position(orders_text, "orders")
    return _orders_position(position, "position")


def read_orders(text: str, state: State, source: str = "orders") -> tuple[list[Order], list[RejectedOrder], list[dict[str, Any]]]:
    """Orders as pasted, one a line (a power's name alone on a line gives it to the lines
    under it, as the DATC writes them), the lines that cannot be read (as the command line
    lists them), and where each of those is, for the page to mark it beside its line: its
    ``line`` and ``column`` (1-based: where reading stopped), the ``length`` of the fragment
    there, and the reader's ``message`` without the line's text (what was expected and
    found, "did you mean" where there is a suggestion)."""
    orders, errors = parse_orders(text, state.variant, state.phase.kind)
    lines = text.splitlines()
    return orders, [RejectedOrder.of(source, exc) for exc in errors], [_unread(lines, exc) for exc in errors
                                                                        if exc.line is not None]


def _unread(lines: list[str], error: NotationError) -> dict[str, Any]:
    number = error.line or 0
    line = lines[number - 1] if 0 < number <= len(lines) else ""
    start = max(line.find(error.text), 0)  # the text read is the line without its indentation
    column = min(start + error.position, len(line))
    found = error.found or ""
    message = str(error).removeprefix(f"{error.text.rstrip()!r}: at column {error.position + 1}: ")
    return {"line": number, "column": column + 1, "length": len(found) if line[column:column + len(found)] == found else 0,
            "message": message}


def read_rules(text: str, position_words: Sequence[str] = ()) -> Rules:
    """A profile name optionally followed by ``ISSUE=CHOICE`` overrides (``2000 4.A.2=d``),
    as ``--rules``/``--rule`` take them; blank: the position's own rules (a case's RULES
    line), else the default profile.

    :raises InputError: a profile or an option that does not exist."""
    words = text.replace(",", " ").split()
    if not any("=" not in w for w in words):  # only overrides: over the position's rules
        words = [*position_words, *words]
    try:
        return Rules.parse(words)
    except RulesError as exc:
        raise InputError([f"rules: {exc}"]) from None


def _json_position(data: Any) -> Position:
    from ..formats.dipsat_json import JsonFormatError, position_from_json

    try:
        state, order_texts = position_from_json(data, source="position")
    except JsonFormatError as exc:
        raise InputError(exc.problems) from None
    rules = data.get("rules") if isinstance(data, dict) else None
    if rules is not None and not isinstance(rules, str):
        raise InputError([f"position: $.rules: expected the rules as text, e.g. \"2000 4.A.2=d\", "
                          f"found {type(rules).__name__}"])
    orders_text = None if order_texts is None else "\n".join(line for _, line in order_texts)
    return Position(state, "position", orders_text, rule_words=rules.split() if isinstance(rules, str) else [])


def _case_position(text: str, case_id: str | None, players: int | None) -> Position:
    from ..errors import CaseFileError
    from ..formats.casefile import read_cases
    from ..runners.cases import apply_players, build_position, case_orders, position_problems

    cases, errors = read_cases(io.StringIO(text), "position")
    if not cases:
        raise InputError([str(e) for e in errors[:5]] or ["position: no CASE in the text"])
    if case_id:
        matches = [c for c in cases if c.id.casefold() == case_id.casefold()]
        if not matches:
            raise InputError([f"position: no case {case_id!r} (cases: {', '.join(c.id for c in cases[:8])})"])
        case = matches[0]
    else:
        case = cases[0]
    if players is not None:  # the request's set-up, over the case's PLAYERS line
        case = replace(case, players=players, players_line=0)
    position_only = replace(case, blocks={k: v for k, v in case.blocks.items() if k != "ORDERS"})
    try:
        state, _, problems = build_position(position_only, Rules.profile())
        state, silent = apply_players(case, state)
    except CaseFileError as exc:
        raise InputError([f"players: {exc.message}" if exc.message.startswith("PLAYERS") and players is not None
                          else str(exc)]) from None
    except (ValueError, DipsatError) as exc:
        message = str(exc)
        raise InputError([message if message.startswith("position:") else f"position:{case.line}: {message}"]) from None
    problems += position_problems(case, state)
    if problems:
        raise InputError(problems)
    orders, rejected = None, []
    orders_text = None
    if case.has("ORDERS"):
        found, errs = case_orders(case, state.variant, state.phase.kind)
        orders, rejected = found, [RejectedOrder.of("position", e) for e in errs]
        orders_text = "\n".join(("\n" if line.blank_before else "") + line.text for line in case.block("ORDERS"))
    return Position(state, case.id, orders_text, orders, rejected, list(case.rules or []), silent, crop=True,
                    title=case.title, players=case.players)


def _orders_position(text: str, source: str) -> Position:
    """A DATC test as the DATC writes it: the standard map in Spring 1901 with the home
    centres, and on it the units the orders name (:mod:`dipsat.formats.pasted`, as
    ``dipsat adjudicate --from-orders`` takes them)."""
    from ..formats.pasted import position_from_orders
    from ..maps import load_variant

    variant = load_variant("standard")
    orders, errors = parse_orders(text, variant, variant.initial_state().phase.kind)
    problems = [f"{source}:{e.line}: {e}" for e in errors]
    if not orders and not problems:
        problems.append(f"{source}: no position and no orders: give a variant's name (standard), a case, a dipsat "
                        f"JSON state, or orders under power names (the units are the ones they name)")
    if problems:
        raise InputError(problems)
    state, _, taken_problems = position_from_orders(orders, variant)
    problems = [f"{source}: {p}" for p in taken_problems + state_problems(state)]
    if problems:
        raise InputError(problems)
    return Position(state, "DATC test", text if source == "position" else None, orders if source == "position" else None,
                    crop=True, note=FROM_ORDERS)


def _recorded_game(position: Any) -> bool:
    """A whole game (a godip history, a saved game of the diplomacy package, a dipsat game file)."""
    from ..formats.godip import is_godip_history

    if isinstance(position, dict):
        return "phases" in position
    if not isinstance(position, str):
        return False
    text = position.lstrip()
    if text.startswith("{"):
        return '"phases"' in text and text.rstrip().endswith("}") and _has_phases(text)
    return is_godip_history(text[:4096].encode("utf-8", "replace"))


def _has_phases(text: str) -> bool:
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return False
    return isinstance(data, dict) and "phases" in data


def _recorded_position(text: str, phase: str | None) -> Position:
    """A phase of a recorded game, read by the command line's reader (:mod:`dipsat.runners.recorded`)
    from a file of the server's own making, never one the request names."""
    from ..runners.recorded import load_record, recorded_position

    with tempfile.TemporaryDirectory(prefix="dipsat-serve-") as folder:
        path = str(Path(folder) / "game.txt")
        Path(path).write_text(text, encoding="utf-8")
        try:
            names = [p.name for p in load_record(path).phases]
            if not names:
                raise InputError(["position: a recorded game without phases"])
            chosen = phase or names[0]
            recorded = recorded_position(path, chosen)
        except DipsatError as exc:
            raise InputError([str(exc).replace(path, "position").replace("--phase", "phase")]) from None
    from ..notation import format_order

    orders = "\n".join(format_order(order) for order in recorded.orders)
    warnings = [w.replace(path, "position") for w in recorded.warnings]
    return Position(recorded.state, recorded.name.replace("game ", "", 1) if recorded.name.startswith("game ")
                    else recorded.name, orders, recorded.orders, silent=recorded.silent,
                    note="; ".join(warnings), phases=names, phase=chosen)
