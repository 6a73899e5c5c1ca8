"""Whole games: every phase's position, orders and results, from the first turn to the end.

A :class:`Game` is a value that is saved as one JSON file (``docs/game.md``). Playing a
phase adjudicates it with :func:`dipsat.adjudicate` and advances:

- movement -> retreats (only when some dislodged unit can retreat) -> the next movement;
- after the fall turn and its retreats centre ownership changes (``phases``), then the
  end of the year is checked (victory, the variant's draw rule, a set-up's coin) and the
  adjustment phase follows, skipped when no power can or must adjust.

Phases nobody can order are settled at once and recorded as ``auto``: a retreat phase
whose dislodged units all belong to neutral powers or powers in civil disorder (they
are disbanded), an adjustment phase in which only such powers must remove units (the
civil-disorder rule picks them). Phases where nothing happens are not recorded.

Neutral powers (a set-up's, ``dipsat.setups``) and powers in civil disorder give no
orders: orders written for them are rejected (reported, not adjudicated). A power is in
civil disorder from a movement phase in which it has units but gives no order until the
next movement phase in which it gives one (seed 000, "Bürgerkrieg": its units hold and do
not support each other, dislodged units are disbanded, it builds nothing, its removals
follow the civil-disorder rule in force, DATC 4.D.8).

Everything is deterministic: the same game and orders give the same file, byte for byte
(the coin of the two-player game is seeded by the game's seed).
"""

from __future__ import annotations

import json
import os
import secrets
import stat
from collections.abc import Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from .adjudicator import adjudicate
from .adjustments import adjustment_count, blockaded_centres, counted_centres
from .advance import AdvanceRetreats, split_advance
from .board import Phase, PhaseKind, Power, Season
from .errors import GameError
from .formats.dipsat_json import JsonFormatError, parse_json, result_to_json, state_to_json
from .formats.game_file import GAME_FORMAT, GAME_FORMATS, GameRecord, GameStatus, PhaseRecord, bundled_variant, read_game_file
from .maps import Variant
from .notation import format_order, parse_order, parse_orders
from .orders import Disband, Order, Retreat, order_power, order_unit, ordered_province
from .phases import after_adjustments
from .results import PhaseResult
from .rules import Rules
from .setups import coin_flip, draw_after_unchanged_falls, setup_for
from .state import State

__all__ = ["GAME_FORMAT", "GAME_FORMATS", "Game", "GameError", "GameStatus", "PhaseRecord", "load_game", "new_game",
           "order_power", "order_unit"]


@dataclass
class Game(GameRecord):
    """A game: its record (:class:`~dipsat.formats.game_file.GameRecord`: the variant, set-up,
    rules, phases ...) and the rules of play over it."""

    # --- facts ----------------------------------------------------------------------
    @property
    def current(self) -> PhaseRecord:
        return self.phases[-1]

    @property
    def state(self) -> State:
        return self.current.state

    @property
    def over(self) -> bool:
        return self.status is not GameStatus.ACTIVE

    def neutral(self, year: int) -> tuple[Power, ...]:
        return self.setup.neutral_in(year)

    def variant_in(self, year: int) -> Variant:
        """The variant of `year`: with the neutral home countries closed while the set-up says so."""
        return self.setup.variant_in(self.variant, year)

    def civil_disorder(self) -> tuple[Power, ...]:
        """The powers in civil disorder now: as in the last movement phase played."""
        for record in reversed(self.phases):
            if record.played and record.state.phase.kind is PhaseKind.MOVEMENT:
                return record.civil_disorder
        return ()

    def silent(self, year: int) -> set[Power]:
        """Powers that give no orders: neutral ones and those in civil disorder."""
        return set(self.neutral(year)) | set(self.civil_disorder())

    def players(self, year: int | None = None) -> list[tuple[str, tuple[Power, ...]]]:
        """(name, powers) per player in `year` (default: now); joined powers count from their join year."""
        year = self.state.phase.year if year is None else year
        joins = self.setup.join_year is None or year >= self.setup.join_year
        joined = self.joined if joins else None
        return [(self.setup.player_name(i, joined), self.setup.powers_of(i, joined))
                for i in range(self.setup.players)]

    def find(self, text: str) -> PhaseRecord:
        """The phase named ``S1902M`` (``W1902A`` for an adjustment also works) or
        ``Spring 1902, Movement``."""
        phase = parse_phase_name(text)
        for record in self.phases:
            if record.state.phase == phase:
                return record
        known = ", ".join(r.name for r in self.phases)
        raise GameError(f"the game has no phase {text!r} (phases: {known})")

    def centre_counts(self, state: State | None = None) -> dict[Power, int]:
        state = state or self.state
        return {p.name: len(counted_centres(state, p.name)) for p in self.variant.powers}

    # --- playing --------------------------------------------------------------------
    def play(self, orders: list[Order], advance: AdvanceRetreats | None = None) -> list[PhaseResult]:
        """Adjudicate the current phase with `orders` and advance; the results of every
        phase settled (the one ordered, then any settled automatically). `advance`: retreat
        orders given in advance with movement orders (``dipsat.advance.split_advance``)."""
        if self.over:
            raise GameError(f"the game is over: {self.detail}")
        record = self.current
        state = record.state
        if advance and state.phase.kind is not PhaseKind.MOVEMENT:
            raise GameError(f"retreat orders in advance go with movement orders, not in a {state.phase.kind} phase")
        advance = advance or AdvanceRetreats()
        neutral = set(self.neutral(state.phase.year))
        if record.prefilled:
            orders = list(orders) + self._prefilled(state, orders, record.prefilled)
        if state.phase.kind is PhaseKind.MOVEMENT:
            ordering = {order_power(state, o) for o in orders} | advance.powers(state)
            disorder = tuple(sorted(p.name for p in self.variant.powers
                                    if p.name not in neutral and state.units_of(p.name) and p.name not in ordering))
        else:
            disorder = self.civil_disorder()
        result = self._adjudicate(state, orders, neutral, set(disorder))
        record.orders = [format_order(o) for o in orders]
        record.report = _report(result)
        record.civil_disorder = disorder
        record.advance = list(advance.lines)
        played = [result]
        self._advance(result.after, played, advance)
        return played

    def _prefilled(self, state: State, orders: list[Order], texts: list[str]) -> list[Order]:
        ordered = {o.unit.province for o in orders if isinstance(o, (Retreat, Disband))}
        extra = [parse_order(t, state.variant, state.phase.kind) for t in texts]
        return [o for o in extra if ordered_province(o) not in ordered]

    def _adjudicate(self, state: State, orders: list[Order], neutral: set[Power], disorder: set[Power]) -> PhaseResult:
        return adjudicate(state, orders, self.rules, self._silenced(neutral, disorder))

    def _silenced(self, neutral: set[Power], disorder: set[Power]) -> dict[Power, str]:
        silent = {p: f"{p} is neutral: nobody orders its units ({self.setup.players}-player set-up)" for p in neutral}
        silent.update({p: f"{p} is in civil disorder (it gave no movement orders): no retreats, builds or "
                          "removals of its own" for p in disorder if p not in silent})
        return silent

    def _advance(self, state: State, played: list[PhaseResult], advance: AdvanceRetreats | None = None) -> None:
        prefilled: list[Order] = []
        while True:
            kind = state.phase.kind
            if kind is PhaseKind.ADJUSTMENT and not self._year_checked(state):
                self._end_of_fall(state)
                if self.over:
                    break
            silent = self.silent(state.phase.year)
            if kind is PhaseKind.RETREAT:
                covered = advance.covered(state) - silent if advance else set()
                prefilled = advance.orders_for(state, covered, self.rules) if advance else []
                if all(d.unit.power in silent | covered for d in state.dislodged):
                    state = self._auto(state, played, prefilled)
                    prefilled = []
                    continue
            if kind is PhaseKind.ADJUSTMENT:
                can, must_silent = self._adjusters(state, silent)
                if not can:
                    state = self._auto(state, played) if must_silent else after_adjustments(state)
                    continue
            break
        state = state.with_(variant=self.variant_in(state.phase.year))
        self.phases.append(PhaseRecord(state, prefilled=[format_order(o) for o in prefilled]))
        self._eliminations(state)

    def _auto(self, state: State, played: list[PhaseResult], orders: Sequence[Order] = ()) -> State:
        """Settle a phase nobody can order (with the retreat orders given in advance, if any)."""
        record = PhaseRecord(state, auto=True, civil_disorder=self.civil_disorder())
        result = adjudicate(state, list(orders), self.rules)
        record.orders, record.report = [format_order(o) for o in orders], _report(result)
        self.phases.append(record)
        played.append(result)
        return result.after

    def _adjusters(self, state: State, silent: set[Power]) -> tuple[bool, bool]:
        """(a power that gives orders can or must adjust, a silent power must remove)."""
        blockaded = blockaded_centres(state)
        can = must_silent = False
        for info in self.variant.powers:
            delta = adjustment_count(state, info.name)
            if info.name in silent:
                must_silent |= delta < 0
            elif delta < 0:
                can = True
            elif delta > 0:
                can |= any(state.owner_of.get(c) == info.name and state.unit_at(c) is None and c not in blockaded
                           for c in info.home_centres)
        return can, must_silent

    def _year_checked(self, state: State) -> bool:
        return any(h["year"] == state.phase.year for h in self.history)

    def _end_of_fall(self, state: State) -> None:
        """Centre ownership has just changed: history, coin, victory, draw."""
        year = state.phase.year
        before = self._fall_start(year)
        changed = before is not None and dict(before.owners) != dict(state.owners)
        counts = self.centre_counts(state)
        self.history.append({"year": year, "centres": {p: n for p, n in counts.items() if n},
                             "changed": changed})
        when = state.phase.short
        if self.setup.join_year is not None and self.joined is None and year == self.setup.join_year - 1:
            self.joined = coin_flip(self.seed, self.setup.players, year)
            self._event(when, f"coin (seed {self.seed}): {', '.join(self.setup.neutral)} will join "
                              f"{self.setup.player_name(self.joined)} in spring {self.setup.join_year}")
        threshold = self.setup.victory_centres or self.variant.victory_centres
        if self.setup.victory_by == "player":
            totals = {name: sum(counts[p] for p in powers) for name, powers in self.players(year)}
        else:
            totals = counts
        best = max(totals.values(), default=0)
        if best >= threshold:
            self.status = GameStatus.WON
            self.winners = tuple(sorted(n for n, c in totals.items() if c == best))
            self.detail = f"{' and '.join(self.winners)} won with {best} centres ({threshold} needed) in fall {year}"
            self._event(when, self.detail)
            return
        falls = draw_after_unchanged_falls(self.variant)
        recent = self.history[-falls:] if falls else []
        if falls and len(recent) == falls and not any(h["changed"] for h in recent):
            self.status = GameStatus.DRAWN
            alive = [p.name for p in self.variant.powers if counts[p.name] or state.units_of(p.name)]
            self.winners = tuple(alive)
            self.detail = (f"drawn: no centre changed owner in {falls} fall turns in a row "
                           f"({recent[0]['year']}-{year}); shared by {', '.join(alive)}")
            self._event(when, self.detail)

    def _fall_start(self, year: int) -> State | None:
        for record in reversed(self.phases):
            phase = record.state.phase
            if phase.year == year and phase.season is Season.FALL and phase.kind is PhaseKind.MOVEMENT:
                return record.state
        return None

    def _eliminations(self, state: State) -> None:
        for info in self.variant.powers:
            name = info.name
            if name in self.eliminated:
                continue
            if not state.units_of(name) and not state.centres_of(name) and not any(
                    d.unit.power == name for d in state.dislodged):
                self.eliminated[name] = state.phase.short
                self._event(state.phase.short, f"{name} is eliminated (no units, no centres)")

    def _event(self, phase: str, text: str) -> None:
        self.events.append({"phase": phase, "text": text})

    # --- files ----------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        phases = []
        for record in self.phases:
            item: dict[str, Any] = {"phase": record.name, "state": state_to_json(record.state)}
            if record.prefilled:
                item["prefilled"] = list(record.prefilled)
            if record.played:
                item["orders"] = list(record.orders or [])
                if record.advance:
                    item["advance_retreats"] = list(record.advance)
                item["auto"] = record.auto
                item["civil_disorder"] = list(record.civil_disorder)
                item["results"] = record.report
            phases.append(item)
        return {
            "format": GAME_FORMAT,
            "type": "game",
            "variant": self.variant.name,
            "wings": self.variant.wings,
            "rules": str(self.rules),
            "seed": self.seed,
            "setup": self.setup.to_json(),
            "joined": self.joined,
            "status": {"state": self.status.value, "winners": list(self.winners), "detail": self.detail},
            "history": self.history,
            "events": self.events,
            "eliminated": dict(sorted(self.eliminated.items())),
            "phases": phases,
        }

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=2, ensure_ascii=False) + "\n"

    def save(self, path: str | Path) -> None:
        """Write the game file atomically (a temporary file, then a rename; its permissions
        kept), after reading it back: what cannot be loaded is never saved.

        :raises GameError: the game could not be read back (e.g. played beyond the last year)."""
        path = Path(path)
        text = self.dumps()
        Game.from_json(json.loads(text), f"{path} (not saved)")
        _replace_file(path, text)

    @classmethod
    def from_json(cls, data: Any, source: str | None = None) -> Game:
        """A game from its decoded file (``docs/game.md``), checked by
        :func:`dipsat.formats.game_file.read_game_file`: a game that loads can be played,
        shown and saved.

        :raises GameError: naming the JSON path of each bad field and what was expected."""
        read = read_game_file(data, source)
        return cls(**{f.name: getattr(read, f.name) for f in fields(read)})

    def replay(self, index: int) -> PhaseResult:
        """Adjudicate a played phase again from its stored position and orders."""
        record = self.phases[index]
        if not record.played:
            raise GameError(f"{record.name} has not been played")
        state, orders, silent = self.replay_input(index)
        return adjudicate(state, orders, self.rules, silent)

    def replay_input(self, index: int) -> tuple[State, list[Order], dict[Power, str]]:
        """A phase as stored: its position, its orders (none yet for the current phase) and
        the powers whose orders are ignored (neutral, in civil disorder) with the reason."""
        record = self.phases[index]
        state = record.state
        orders = [parse_order(text, state.variant, state.phase.kind) for text in record.orders or []]
        neutral = set(self.neutral(state.phase.year))
        disorder = set(record.civil_disorder if record.played else self.civil_disorder())
        if state.phase.kind is PhaseKind.MOVEMENT:
            disorder = set()
        return state, orders, self._silenced(neutral, disorder)


# --- construction and files ------------------------------------------------------------


def new_game(variant_name: str = "standard", players: int | None = None, seed: int = 0,
             rules: Rules | None = None) -> Game:
    """A game at its first phase. `variant_name`: ``standard``, ``modern``, or a case-file
    name such as ``DATC_Standard`` (the standard map with wings)."""
    variant = bundled_variant(variant_name)
    setup = setup_for(variant, players)
    game = Game(variant, setup, seed, rules or Rules.profile())
    year = setup.start_year or variant.start_year
    state = variant.initial_state().with_(phase=Phase(year, Season.SPRING, PhaseKind.MOVEMENT),
                                          variant=game.variant_in(year))
    game.phases.append(PhaseRecord(state))
    return game


def _replace_file(path: Path, text: str) -> None:
    """Write `text` to `path` through a temporary file and a rename. The file keeps its
    permissions; a new one gets them from the umask (as ``open`` would give them). A
    symbolic link is followed: the file it points to is replaced, the link stays."""
    path = Path(os.path.realpath(path))
    try:
        mode: int | None = stat.S_IMODE(os.stat(path).st_mode)
    except FileNotFoundError:
        mode = None
    while True:
        tmp = path.parent / f".{path.name}.{secrets.token_hex(6)}"
        try:
            handle = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)  # the umask applies
            break
        except FileExistsError:
            continue
    try:
        if mode is not None:
            os.chmod(tmp, mode)
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def load_game(path: str | Path) -> Game:
    path = Path(path)
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except OSError as exc:
        raise GameError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise GameError(f"{path}: not UTF-8 ({exc.reason} at byte {exc.start}): expected a dipsat game file "
                        "(JSON)") from None
    try:
        data = parse_json(text, str(path))
    except JsonFormatError as exc:
        raise GameError(str(exc)) from None
    return Game.from_json(data, str(path))


def parse_game_orders(text: str, game: Game) -> tuple[list[Order], AdvanceRetreats, list[tuple[int, str]]]:
    """The orders of an order file for the current phase; in a movement phase also the
    retreat orders given in advance (``dipsat.advance``). Problems: (line, message)."""
    state = game.state
    advance, problems = AdvanceRetreats(), list[tuple[int, str]]()
    if state.phase.kind is PhaseKind.MOVEMENT:
        text, advance, problems = split_advance(text, state.variant)
    orders, errors = parse_orders(text, state.variant, state.phase.kind)
    problems += [(getattr(exc, "line", 0), str(exc)) for exc in errors]
    return orders, advance, sorted(problems)


def parse_phase_name(text: str) -> Phase:
    try:
        return Phase.parse(text)
    except ValueError:
        raise GameError(f"phase {text!r}: expected e.g. S1902M, F1902R, W1902A or 'Spring 1902, Movement'") from None


def _report(result: PhaseResult) -> dict[str, Any]:
    doc = result_to_json(result)
    out = {"orders": doc["orders"], "dislodged": doc["dislodged"], "disbanded": doc["disbanded"]}
    if doc["solver"]["backup_rules"]:
        out["backup_rules"] = doc["solver"]["backup_rules"]
    return out

