"""The game file (``docs/game.md``, format ``dipsat-game/2``) read into a typed record.

:func:`read_game_file` checks every field of a decoded game file and gives a
:class:`GameRecord`, or raises :class:`~dipsat.errors.GameError` naming the JSON path of each
bad field and what was expected. :class:`dipsat.game.Game` is the record with the rules of
play over it, made from the record: the rules of play never read JSON. Writing is :meth:`dipsat.game.Game.to_json`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from ..board import PhaseKind, Power
from ..errors import GameError, NotationError
from ..maps import Variant, bundled_variants, load_variant, resolve_variant
from ..notation import parse_order
from ..orders import Disband, Retreat
from ..rules import Rules, RulesError
from ..setups import Setup, setup_for, setup_problem
from ..state import State
from .dipsat_json import MAX_YEAR, JsonFormatError, shown, state_from_json

GAME_FORMAT = "dipsat-game/2"
GAME_FORMATS = ("dipsat-game/1", GAME_FORMAT)
"""What the reader accepts: dipsat-game/2 differs from /1 only in its results, which write units
in outcome facts as dipsat/2 does; nothing the reader checks changed."""

__all__ = ["GAME_FORMAT", "GAME_FORMATS", "GameRecord", "GameStatus", "PhaseRecord", "bundled_variant", "read_game_file"]


class GameStatus(StrEnum):
    """Where a game stands (saved as its value: ``"status": {"state": "won", ...}``)."""

    ACTIVE = "active"  # still played
    WON = "won"  # a player reached the victory centres (the set-up's or the variant's)
    DRAWN = "drawn"  # the variant's draw rule or a set-up's ended it


@dataclass
class PhaseRecord:
    """One phase of a game: the position, and once played its orders and results."""

    state: State
    orders: list[str] | None = None
    """The orders as given (canonical notation), in the order given; None: not yet played."""
    report: dict[str, Any] | None = None
    """The results as a ``dipsat/2`` result document writes them (``orders``, ``dislodged``, ``disbanded``)."""
    auto: bool = False
    """Settled without orders: nobody could give one."""
    civil_disorder: tuple[Power, ...] = ()
    """Powers in civil disorder during this phase."""
    advance: list[str] = field(default_factory=list)
    """(movement) Retreat orders given in advance with the movement orders (seed 001, 10a)."""
    prefilled: list[str] = field(default_factory=list)
    """(retreat) Retreat orders derived from those advance orders; used for every unit the
    orders given in this phase leave out."""

    @property
    def played(self) -> bool:
        return self.orders is not None

    @property
    def name(self) -> str:
        return self.state.phase.short


@dataclass
class GameRecord:
    """A game as its file has it, checked: what :class:`dipsat.game.Game` plays on."""

    variant: Variant
    """The variant as played (wings switched on or not); a closed map is derived per phase."""
    setup: Setup
    seed: int = 0
    rules: Rules = field(default_factory=Rules.profile)
    phases: list[PhaseRecord] = field(default_factory=list)
    joined: int | None = None
    """The player the neutral powers joined (set-ups with a coin), 0-based."""
    status: GameStatus = GameStatus.ACTIVE
    winners: tuple[str, ...] = ()
    detail: str = ""
    history: list[dict[str, Any]] = field(default_factory=list)
    """Per fall turn: the year, each power's counted centres, whether any centre changed owner."""
    events: list[dict[str, str]] = field(default_factory=list)
    """What happened besides the orders: coin, eliminations, victory, draw (phase, text)."""
    eliminated: dict[Power, str] = field(default_factory=dict)


def read_game_file(data: Any, source: str | None = None) -> GameRecord:
    """A decoded game file (``docs/game.md``) as a typed record. Every field is checked: a
    game that loads can be played, shown and saved.

    :raises GameError: naming the JSON path of each bad field and what was expected."""
    where = f"{source}: " if source else ""
    if not isinstance(data, dict) or data.get("format") not in GAME_FORMATS:
        raise GameError(f"{where}not a dipsat game file (expected \"format\": \"{GAME_FORMAT}\")")
    reader = _GameReader()
    game = reader.game(data)
    if reader.problems or game is None:
        problems = reader.problems or ["$: not a usable game"]
        more = f" (and {len(problems) - 5} more)" if len(problems) > 5 else ""
        text = problems[0] if len(problems) == 1 else f"{len(problems)} problems: " + "; ".join(problems[:5]) + more
        raise GameError(where + text)
    return game


def bundled_variant(name: str, wings: bool = False) -> Variant:
    """A bundled variant, by its name or its case-file name (``DATC_Standard``): never a path."""
    try:
        variant = resolve_variant(name)
    except ValueError:
        key = name.lower()
        if key not in bundled_variants():
            raise GameError(f"unknown variant {shown(name)} (expected one of {', '.join(bundled_variants())}, "
                            "or DATC_Standard)") from None
        variant = load_variant(key)
    return replace(variant, wings=True) if wings and not variant.wings else variant


_REQUIRED = object()


def _is_text(value: Any) -> bool:
    """A JSON string that can be printed (no lone surrogate halves)."""
    if not isinstance(value, str):
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _only_text(value: Any) -> bool:
    """Every string in a decoded JSON value (keys too) can be printed and saved."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if not all(_is_text(k) for k in item):
                return False
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str) and not _is_text(item):
            return False
    return True


def _is_count(low: int, high: int) -> Callable[[Any], bool]:
    return lambda value: type(value) is int and low <= value <= high


def _is_bool(value: Any) -> bool:
    return type(value) is bool


def _is_texts(value: Any) -> bool:
    return isinstance(value, list) and all(_is_text(v) for v in value)


class _GameReader:
    """Reads a game file, recording one problem per bad field with its JSON path."""

    def __init__(self) -> None:
        self.problems: list[str] = []
        self.powers: tuple[Power, ...] = ()

    def fail(self, path: str, message: str) -> None:
        self.problems.append(f"{path}: {message}")

    def field(self, data: dict[str, Any], key: str, path: str, check: Callable[[Any], bool], expected: str, default: Any = _REQUIRED) -> Any:
        """``data[key]`` when `check` accepts it; else a problem, and `default` (None if required)."""
        if key not in data:
            if default is _REQUIRED:
                self.fail(f"{path}.{key}", f"missing (expected {expected})")
                return None
            return default
        value = data[key]
        if not check(value):
            self.fail(f"{path}.{key}", f"expected {expected}, found {shown(value)}")
            return None if default is _REQUIRED else default
        return value

    def obj(self, data: Any, path: str, what: str) -> dict[str, Any] | None:
        if not isinstance(data, dict):
            self.fail(path, f"expected an object ({what}), found {shown(data)}")
            return None
        return data

    def items(self, data: dict[str, Any], key: str, path: str, what: str, required: bool = False) -> list[tuple[str, Any]]:
        """(path, item) of the list ``data[key]`` (missing: empty, or a problem when required)."""
        value = self.field(data, key, path, lambda v: isinstance(v, list), f"a list of {what}",
                           _REQUIRED if required else [])
        return [(f"{path}.{key}[{i}]", item) for i, item in enumerate(value or [])]

    def is_power(self, value: Any) -> bool:
        return isinstance(value, str) and value in self.powers

    # --- the game ---------------------------------------------------------------------
    def game(self, data: dict[str, Any]) -> GameRecord | None:
        if data.get("type", "game") != "game":
            self.fail("$.type", f"expected 'game', found {shown(data.get('type'))}")
        name = self.field(data, "variant", "$", _is_text, "the name of a bundled variant such as 'standard'")
        wings = self.field(data, "wings", "$", _is_bool, "true or false", False)
        if name is None:
            return None
        try:
            variant = bundled_variant(name, wings)
        except GameError as exc:
            self.fail("$.variant", str(exc))
            return None
        self.powers = tuple(p.name for p in variant.powers)
        rules_text = self.field(data, "rules", "$", _is_text, "rules such as '2000' or '2023 4.A.5=a'", "")
        try:
            rules = Rules.parse(rules_text.split())
        except RulesError as exc:
            self.fail("$.rules", str(exc))
            rules = Rules.profile()
        seed = self.field(data, "seed", "$", _is_count(-2**63, 2**63 - 1), "a whole number of at most 19 digits", 0)
        setup = self.setup(data, variant)
        game = GameRecord(variant, setup, seed, rules)
        game.joined = self.field(data, "joined", "$", lambda v: v is None or _is_count(0, setup.players - 1)(v),
                                 f"null or a player's index (0 to {setup.players - 1})", None)
        self.status(data, game)
        self.history(data, game)
        for where, event in self.items(data, "events", "$", "{\"phase\", \"text\"} objects"):
            if self.obj(event, where, "{\"phase\", \"text\"}") is not None:
                phase = self.field(event, "phase", where, _is_text, "a phase name such as 'F1901M'")
                text = self.field(event, "text", where, _is_text, "text")
                if phase is not None and text is not None:
                    game.events.append({"phase": phase, "text": text})
        eliminated = self.field(data, "eliminated", "$", lambda v: isinstance(v, dict), "an object {power: phase}", {})
        for power, when in eliminated.items():
            if not self.is_power(power) or not _is_text(when):
                self.fail(f"$.eliminated.{power}", f"expected a power of {variant.name} and the phase it was "
                                                   f"eliminated in, found {shown(power)}: {shown(when)}")
            else:
                game.eliminated[power] = when
        for where, item in self.items(data, "phases", "$", "phases", required=True):
            record = self.phase(item, where, game)
            if record is not None:
                game.phases.append(record)
        if not game.phases and not self.problems:
            self.fail("$.phases", "the game has no phases")
        return game

    def setup(self, data: dict[str, Any], variant: Variant) -> Setup:
        value = self.obj(data.get("setup"), "$.setup", "{\"players\", \"controls\", \"neutral\"}")
        if value is None:
            return setup_for(variant, None)
        n = len(variant.powers)
        year = _is_count(1, MAX_YEAR)
        players = self.field(value, "players", "$.setup", _is_count(1, n), f"a number of players (1 to {n})")
        controls = self.field(value, "controls", "$.setup", lambda v: isinstance(v, list) and all(
            isinstance(g, list) and all(self.is_power(p) for p in g) for g in v),
            f"a list of lists of powers of {variant.name}")
        neutral = self.field(value, "neutral", "$.setup", lambda v: isinstance(v, list) and all(
            self.is_power(p) for p in v), f"a list of powers of {variant.name}", [])
        optional = {key: self.field(value, key, "$.setup", lambda v: v is None or check(v), expected, None)
                    for key, check, expected in (
                        ("start_year", year, f"a year (1 to {MAX_YEAR})"),
                        ("victory_centres", _is_count(1, len(variant.centres)), "a number of centres"),
                        ("join_year", year, f"a year (1 to {MAX_YEAR})"))}
        victory_by = self.field(value, "victory_by", "$.setup", lambda v: v in ("power", "player"),
                                "'power' or 'player'", "power")
        impassable = self.field(value, "neutral_impassable", "$.setup", _is_bool, "true or false", False)
        if players is None or controls is None:
            return setup_for(variant, None)
        setup = Setup(players, tuple(tuple(g) for g in controls), tuple(neutral), optional["start_year"],
                      optional["victory_centres"], victory_by, impassable, optional["join_year"])
        problem = setup_problem(setup, self.powers)
        if problem is not None:
            self.fail("$.setup", problem)
            return setup_for(variant, None)
        return setup

    def status(self, data: dict[str, Any], game: GameRecord) -> None:
        value = self.obj(data.get("status", {}), "$.status", "{\"state\", \"winners\", \"detail\"}")
        if value is None:
            return
        game.status = GameStatus(self.field(value, "state", "$.status", lambda v: v in tuple(GameStatus),
                                            "'active', 'won' or 'drawn'", GameStatus.ACTIVE.value))
        game.winners = tuple(self.field(value, "winners", "$.status", _is_texts, "a list of names", []))
        game.detail = self.field(value, "detail", "$.status", _is_text, "text", "")

    def history(self, data: dict[str, Any], game: GameRecord) -> None:
        for where, entry in self.items(data, "history", "$", "{\"year\", \"centres\", \"changed\"} objects"):
            if self.obj(entry, where, "{\"year\", \"centres\", \"changed\"}") is None:
                continue
            year = self.field(entry, "year", where, _is_count(1, MAX_YEAR), f"a year (1 to {MAX_YEAR})")
            centres = self.field(entry, "centres", where, lambda v: isinstance(v, dict) and all(
                self.is_power(p) and _is_count(0, 10**6)(c) for p, c in v.items()), "an object {power: centres}")
            changed = self.field(entry, "changed", where, _is_bool, "true or false")
            if year is not None and centres is not None and changed is not None:
                game.history.append({"year": year, "centres": dict(centres), "changed": changed})

    # --- one phase --------------------------------------------------------------------
    def phase(self, item: Any, path: str, game: GameRecord) -> PhaseRecord | None:
        if self.obj(item, path, "a phase: {\"phase\", \"state\", ...}") is None:
            return None
        self.field(item, "phase", path, _is_text, "a phase name such as 'S1901M'", "")
        if "state" not in item:
            self.fail(f"{path}.state", "missing (expected a dipsat/2 state)")
            return None
        try:
            state = state_from_json(item["state"])
        except JsonFormatError as exc:
            self.problems += [f"{path}.state{p[1:] if p.startswith('$') else ': ' + p}" for p in exc.problems]
            return None
        if (state.variant.name, state.variant.wings) != (game.variant.name, game.variant.wings):
            self.fail(f"{path}.state.variant", f"expected the game's variant {game.variant.name} "
                                               f"(wings {str(game.variant.wings).lower()})")
            return None
        state = state.with_(variant=game.setup.variant_in(game.variant, state.phase.year))
        record = PhaseRecord(state)
        record.prefilled = self.orders(item, "prefilled", path, state, PhaseKind.RETREAT, (Retreat, Disband))
        if record.prefilled and state.phase.kind is not PhaseKind.RETREAT:
            self.fail(f"{path}.prefilled", f"retreat orders given in advance belong to a retreat phase, not {state.phase}")
        record.advance = self.field(item, "advance_retreats", path, _is_texts, "a list of lines", [])
        if "orders" in item:
            record.orders = self.orders(item, "orders", path, state, state.phase.kind)
            record.auto = self.field(item, "auto", path, _is_bool, "true or false", False)
            record.civil_disorder = tuple(self.field(item, "civil_disorder", path, lambda v: isinstance(v, list) and all(
                self.is_power(p) for p in v), f"a list of powers of {game.variant.name}", []))
            record.report = self.results(item.get("results"), f"{path}.results")
        return record

    def orders(self, item: dict[str, Any], key: str, path: str, state: State, kind: PhaseKind,
               types: tuple[type, ...] | None = None) -> list[str]:
        texts = self.field(item, key, path, _is_texts, "a list of orders as text", [])
        for i, text in enumerate(texts):
            try:
                order = parse_order(text, state.variant, kind)
            except NotationError as exc:
                self.fail(f"{path}.{key}[{i}]", str(exc))
                continue
            if types is not None and not isinstance(order, types):
                self.fail(f"{path}.{key}[{i}]", f"expected a retreat or a disband, found {shown(text)}")
        return list(texts)

    def results(self, value: Any, path: str) -> dict[str, Any] | None:
        """The results as a dipsat result document writes them; the fields ``game show`` prints are checked."""
        if value is None:
            return None
        if self.obj(value, path, "{\"orders\", \"dislodged\", \"disbanded\"}") is None:
            return None
        optional_text = lambda v: v is None or _is_text(v)  # noqa: E731
        fields = {
            "orders": (("order", _is_text, "text"), ("power", optional_text, "a power or null"),
                       ("result", _is_text, "text"), ("succeeded", _is_bool, "true or false"),
                       ("detail", _is_text, "text")),
            "dislodged": (("power", _is_text, "a power"), ("kind", _is_text, "'A', 'F' or 'W'"),
                          ("location", _is_text, "a location"), ("retreat_options", _is_texts, "a list of locations")),
            "disbanded": (("power", _is_text, "a power"), ("kind", _is_text, "'A', 'F' or 'W'"),
                          ("location", _is_text, "a location"), ("reason", _is_text, "text")),
        }
        for key, checks in fields.items():
            for where, entry in self.items(value, key, path, "objects"):
                if self.obj(entry, where, "an object") is not None:
                    for name, check, expected in checks:
                        self.field(entry, name, where, check, expected)
        self.field(value, "backup_rules", path, _is_texts, "a list of texts", [])
        if not _only_text(value):  # the results are saved again as they are: every string must be writable
            self.fail(path, "a string that is not text (a lone surrogate half); expected the results as dipsat wrote them")
        results: dict[str, Any] = value
        return results
