"""Recorded games in the Droidippy/godip game-history format.

The format of the largest public archive of real games (zond/godip-history,
``classical/droidippy/games/game_N.txt``): one phase after another, each a
``PHASE`` line, its position and its orders::

    PHASE 1901 Fall Movement
    POSITIONS
    Turkey: fleet ank            a unit; fleets on split coasts as stp/sc
    Turkey: supply ank           centre ownership
    Italy: army/dislodged pie    (retreat phases) a dislodged unit
    ORDERS
    ank move bla                 move (a retreat in a retreat phase)
    smy move con via convoy
    rom support ven              support to hold
    bud support vie move gal     support to move
    nth convoy lon move nwy
    nap hold
    pie disband
    build Army ber               (adjustment phases)
    build Fleet stp/nc
    remove war

- Phases: ``PHASE <year> Spring|Fall Movement|Retreat|Adjustment``; a retreat phase
  only when a unit was dislodged, an adjustment phase every fall. The next phase's
  POSITIONS are the result of a phase; the last phase has no result.
- Provinces are godip's abbreviations: dipsat's ids except ``mid`` (mao), ``nat``
  (nao), ``nrg`` (nwg) and ``gol`` (lyo); the reader takes any name the map knows.
- Orders name no power: the order goes to the unit in its province (in a retreat
  phase the dislodged one) and is that unit's owner's; a build is the centre's
  owner's. A unit without an order holds; a power that must remove units and gives
  no order has them removed by the civil-disorder rule.
- The record has no per-order results: every phase is read with
  ``results_recorded = False`` and judged on the positions alone.

:func:`read_godip_game` reads leniently. An order for a province without a unit,
for the wrong coast, or of another phase kind is kept as written (dipsat judges it
illegal and the unit holds). An order whose provinces or coasts the map does not
know cannot be typed: it is listed in the phase's :attr:`GodipPhase.unread` and the
unit holds, the phase is still judged. A line that cannot be read at all (an unknown
keyword, an unknown province or power in POSITIONS, bytes that are not UTF-8) makes
its phase a :class:`~dipsat.formats.diplomacy_json.RecordError` naming the line and
what was expected; the other phases are read as usual. :func:`write_godip_game`
writes a recorded game back in this format (strictly: every phase needs a position).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from ..board import Location, Phase, PhaseKind, Power, Season, Unit, UnitKind
from ..maps import Variant, fold, load_variant
from ..notation import VariantTables
from ..orders import (Build, Convoy, Disband, Hold, Move, Order, Remove, Retreat, SupportHold, SupportMove,
                      UnitRef, Waive)
from ..state import Dislodged, State, in_place_order
from .records import (RecordError, RecordedGame, RecordedPhase, next_phase_names, package_phase_name,
                      position_contradiction)

__all__ = ["GodipPhase", "GodipTables", "read_godip_game", "write_godip_game", "is_godip_history",
           "GODIP_NAMES", "format_godip_order"]

GODIP_NAMES = {"mao": "mid", "nao": "nat", "nwg": "nrg", "lyo": "gol"}
"""dipsat province ids that godip abbreviates differently (the others are the same)."""

_SEASONS = {"spring": Season.SPRING, "fall": Season.FALL, "autumn": Season.FALL, "winter": Season.FALL}
_KINDS = {"movement": PhaseKind.MOVEMENT, "retreat": PhaseKind.RETREAT, "adjustment": PhaseKind.ADJUSTMENT}
_UNIT_WORDS = {"army": UnitKind.ARMY, "fleet": UnitKind.FLEET}
_PHASE_LINE = re.compile(r"^PHASE(?:\s+(\S+))?(?:\s+(\S+))?(?:\s+(\S+))?\s*(.*)$")
_SURROGATE = re.compile("[\udc80-\udcff]")
_POSITION_LINE = re.compile(r"^([^:]+):\s*(\S+)\s+(\S+)$")
_ORDER_FORMS = ("'ank move bla', 'smy move con via convoy', 'rom support ven', 'bud support vie move gal', "
                "'nth convoy lon move nwy', 'nap hold', 'pie disband', 'build Army ber', 'build Fleet stp/nc' "
                "or 'remove war'")


@dataclass
class GodipPhase(RecordedPhase):
    """A phase of a godip history: a :class:`RecordedPhase` (no per-order results) plus
    where it is in the file and the orders that could not be typed."""

    results_recorded: bool = False
    """Never: the format records positions and orders, no per-order results."""
    line: int = 0
    """The line of its ``PHASE`` header (1-based)."""
    unread: list[str] = field(default_factory=list)
    """Orders that could not be typed (``line N: ...``); their units hold."""
    followed: bool = False
    """Another phase follows: its POSITIONS record this phase's outcome."""

    @property
    def processed(self) -> bool:
        """The phase was played: the next phase records its outcome (the last one was not)."""
        return self.followed


def is_godip_history(text: str | bytes) -> bool:
    """Whether the text's first non-blank line starts with ``PHASE `` (a godip history,
    not a case file or JSON)."""
    head = text[:4096]
    if isinstance(head, bytes):
        head = head.decode("utf-8", errors="replace")
    for line in head.lstrip("\ufeff").splitlines():
        if line.strip():
            return line.lstrip().startswith("PHASE ")
    return False


# --- reading -----------------------------------------------------------------------------


class _PhaseFailed(Exception):
    """The current phase cannot be read past this line."""


class _Untyped(Exception):
    """An order line of a known form naming something the map does not know."""


_Position = tuple[str, Power, Unit | None, bool]
"""A position line read: (province, power, the unit or None for a supply line, dislodged)."""
_Shape = tuple[str, Location, Location | None, Location | None, UnitKind | None]
"""An order line read before the position: (form, the unit's location, the second and the
third location written, the kind of a build)."""
_Made = dict[tuple[str, int, int], tuple[Unit | None, Unit | None, Order]]
"""Orders made in phases of one kind: (line, id of the unit ordered, id of the unit supported
or convoyed) -> (those units, the order). The entry holds the units, so their ids stay theirs."""
_SUPPORTING = frozenset({"support", "support move", "convoy"})


class GodipTables:
    """What the reader makes of each distinct position and order line, per variant: a
    cache kept by whoever reads many games (an archive run in one process), never
    module-level. Each line's reading depends on the variant alone (a game repeats its
    lines, an archive repeats them across games: 200 Droidippy games have 57,310 order
    lines and 4,542 distinct ones). An order line is typed once for each unit it goes
    to (and unit it supports or convoys) and kind of phase: orders are values."""

    __slots__ = ("positions", "shapes", "places", "orders", "headers")

    def __init__(self) -> None:
        self.headers: dict[str, tuple[Phase, str]] = {}
        """A PHASE line's phase and name (any variant's: the phases are the same)."""
        self.positions: VariantTables[str, _Position] = VariantTables()
        self.shapes: VariantTables[str, _Shape | Exception] = VariantTables()
        self.places: VariantTables[str, Location | None] = VariantTables()
        self.orders: VariantTables[PhaseKind, _Made] = VariantTables()

    def __reduce__(self) -> tuple[type[GodipTables], tuple[()]]:
        return type(self), ()  # a cache: sent to another process, it arrives empty


class _Reader:
    def __init__(self, source: str, variant: Variant, tables: GodipTables | None = None) -> None:
        self.source = source
        self.game = Path(source).stem or source
        self.variant = variant
        self.map = variant.map
        self.phases: list[GodipPhase] = []
        tables = tables if tables is not None else GodipTables()
        self.seen = tables.positions.of(variant)
        self.places = tables.places.of(variant)
        self.shapes = tables.shapes.of(variant)
        self.made = tables.orders.of(variant)
        self.headers = tables.headers

    def fail(self, entry: GodipPhase, number: int, message: str) -> None:
        if entry.error is None:
            entry.error = RecordError(self.game, entry.name, f"line {number}: {message}")

    # --- names -----------------------------------------------------------------
    def province(self, word: str) -> str | None:
        if word in self.map.provinces:
            return word
        return self.map.province_names.get(fold(word))

    def location(self, text: str) -> Location | None:
        """A province with an optional coast as godip writes it; None: unknown name."""
        if text not in self.places:
            self.places[text] = self.parse_location(text)
        return self.places[text]

    def parse_location(self, text: str) -> Location | None:
        name, slash, coast = text.partition("/")
        province = self.province(name)
        if province is None:
            return None
        if not slash:
            return Location(province)
        coast_id = coast if coast in self.map.coast_titles else self.map.coast_names.get(fold(coast))
        return Location(province, coast_id) if coast_id else None

    # --- lines -----------------------------------------------------------------
    def read(self, lines: list[str | None]) -> None:
        """Read the lines of a history (None: a line that is not UTF-8), line 1 first."""
        entry: GodipPhase | None = None
        section = ""
        units: dict[str, Unit] = {}
        dislodged: dict[str, Unit] = {}
        owners: dict[str, Power] = {}
        order_lines: list[tuple[int, str]] = []
        stray: tuple[int, str] | None = None
        seen = self.seen
        fast = False  # in the POSITIONS of a phase read so far without error

        def close() -> None:
            if entry is None:
                return
            if entry.error is None and section == "":
                self.fail(entry, entry.line, "expected a POSITIONS line after the PHASE line")
            if entry.error is None and entry.phase is not None:
                # by province (one unit, one dislodged unit, one owner each): a state's order, as State() puts them
                entry.state = State.in_order(
                    self.variant, entry.phase, in_place_order(units.values(), one_an_area=True),
                    tuple(sorted(owners.items())),
                    tuple(Dislodged(u) for u in in_place_order(dislodged.values(), one_an_area=True)), by_province=units)
                self.orders(entry, order_lines)
            self.phases.append(entry)

        for number, text in enumerate(lines, start=1):
            if fast and text is not None:  # most lines: a unit or a centre read before (in seen)
                parsed = seen.get(text.strip())
                if parsed is not None:
                    province, power, unit, flag = parsed
                    if unit is None:
                        if owners.setdefault(province, power) == power:
                            continue
                    elif not flag and province not in units:
                        units[province] = unit
                        continue
                    # else a problem, or a dislodged unit: read below
            fast = False  # until this line is read
            line = text.strip() if text is not None else ""
            if text is not None and not line:
                continue
            if line.startswith("PHASE"):
                close()
                entry = self.header(number, line)
                section, units, dislodged, owners, order_lines = "", {}, {}, {}, []
                if stray is not None:
                    self.fail(entry, stray[0], f"expected a 'PHASE <year> <season> <kind>' line first, found {stray[1]!r}")
                    stray = None
                continue
            if entry is None:
                if stray is None:
                    stray = (number, "bytes that are not UTF-8" if text is None else text.strip())
                continue
            if entry.error is not None:
                continue  # the phase is rejected already: skip to the next PHASE
            if text is None:
                self.fail(entry, number, "bytes that are not UTF-8 (expected a text line in UTF-8)")
                continue
            try:
                if line in ("POSITIONS", "ORDERS"):
                    expected = "" if line == "POSITIONS" else "POSITIONS"
                    if section != expected:
                        raise _PhaseFailed(f"{line} out of place (expected "
                                           + ("a position line or ORDERS" if section == "POSITIONS"
                                              else "an order or the next PHASE" if section else "POSITIONS") + ")")
                    section = line
                elif section == "POSITIONS":  # the common line: read inline, each distinct line once
                    parsed = seen.get(line)
                    if parsed is None:
                        parsed = seen[line] = self.parse_position(line)
                    province, power, unit, flag = parsed
                    if unit is None:
                        if owners.setdefault(province, power) != power:
                            raise _PhaseFailed(f"supply centre {province} owned twice ({owners[province]} and {power})")
                    elif not flag:
                        if province in units:
                            raise _PhaseFailed(f"two units in {province}")
                        units[province] = unit
                    elif entry.phase is not None and entry.phase.kind is not PhaseKind.RETREAT:
                        raise _PhaseFailed(f"a dislodged unit outside a retreat phase: {line!r}")
                    elif province in dislodged:
                        raise _PhaseFailed(f"two dislodged units in {province}")
                    else:
                        dislodged[province] = unit
                elif section == "ORDERS":
                    order_lines.append((number, line))
                else:
                    raise _PhaseFailed(f"expected POSITIONS after the PHASE line, found {line!r}")
            except _PhaseFailed as exc:
                self.fail(entry, number, str(exc))
            fast = section == "POSITIONS" and entry.error is None
        close()
        if stray is not None:
            raise RecordError(self.game, None, f"line {stray[0]}: expected a 'PHASE <year> <season> <kind>' line "
                                               f"(a godip game history), found {stray[1]!r}")

    def header(self, number: int, line: str) -> GodipPhase:
        index = len(self.phases)
        known = self.headers.get(line)
        if known is not None:
            return GodipPhase(index, known[1], known[0], line=number)
        m = _PHASE_LINE.match(line)
        year, season, kind, rest = m.groups() if m else (None, None, None, "x")
        if (m and year and re.fullmatch(r"[0-9]{1,4}", year) and season and season.lower() in _SEASONS
                and kind and kind.lower() in _KINDS and not rest):
            phase = Phase(int(year), _SEASONS[season.lower()], _KINDS[kind.lower()])
            if phase.kind is PhaseKind.ADJUSTMENT and phase.season is Season.SPRING:
                entry = GodipPhase(index, f"#{index}", line=number)
                self.fail(entry, number, f"no spring adjustment phase on this map, found {line!r}")
                return entry
            self.headers[line] = phase, package_phase_name(phase)
            return GodipPhase(index, package_phase_name(phase), phase, line=number)
        entry = GodipPhase(index, f"#{index}", line=number)
        self.fail(entry, number, f"expected 'PHASE <year> Spring|Fall Movement|Retreat|Adjustment', found {line!r}")
        return entry

    def parse_position(self, line: str) -> _Position:
        """(province, power, the unit or None for a supply line, whether the unit is
        dislodged) of a position line (read once per distinct line: positions repeat)."""
        m = _POSITION_LINE.match(line)
        if not m:
            raise _PhaseFailed(f"expected a position like 'Turkey: fleet ank', 'Turkey: supply ank' or "
                               f"'Italy: army/dislodged pie', found {line!r}")
        power_text, what, where = m.group(1).strip(), m.group(2).lower(), m.group(3)
        power = self.variant.power_names.get(fold(power_text))
        if power is None:
            raise _PhaseFailed(f"unknown power {power_text!r} (expected one of "
                               f"{', '.join(p.name for p in self.variant.powers)})")
        loc = self.location(where)
        if loc is None:
            raise _PhaseFailed(f"unknown province or coast {where!r} (expected a province of the "
                               f"{self.map.name} map, e.g. ank, stp/sc)")
        if what == "supply":
            if loc.coast is not None or not self.map.provinces[loc.province].centre:
                raise _PhaseFailed(f"{where!r} is not a supply centre")
            return loc.province, power, None, False
        word, _, flag = what.partition("/")
        if word not in _UNIT_WORDS or flag not in ("", "dislodged"):
            raise _PhaseFailed(f"expected army, fleet, army/dislodged, fleet/dislodged or supply, found {what!r}")
        kind = _UNIT_WORDS[word]
        if not self.map.can_occupy(kind, loc):
            raise _PhaseFailed(f"a {word} cannot stand in {where}" + (
                " (a fleet there needs its coast)" if kind is UnitKind.FLEET and loc.coast is None
                and self.map.provinces[loc.province].coasts else ""))
        return loc.province, power, Unit(power, kind, loc), flag == "dislodged"

    # --- orders ----------------------------------------------------------------
    def orders(self, entry: GodipPhase, lines: list[tuple[int, str]]) -> None:
        state = entry.state
        assert state is not None
        kind = state.phase.kind
        find = state.unit_at  # the unit an order goes to: in a retreat phase the dislodged one
        if kind is PhaseKind.RETREAT and state.dislodged:
            dislodged = {d.unit.province: d.unit for d in state.dislodged}
            find = lambda province: dislodged.get(province) or state.unit_at(province)  # noqa: E731
        made = self.made.setdefault(kind, {})
        for number, line in lines:
            try:
                order = self.order(line, state, kind, find, made)
            except _PhaseFailed as exc:
                self.fail(entry, number, str(exc))
                return
            except _Untyped as exc:
                entry.unread.append(f"line {number}: {line!r}: {exc} (not typed: the unit holds)")
                continue
            entry.orders.append((order, line))

    def order(self, line: str, state: State, kind: PhaseKind, find: Callable[[str], Unit | None],
              made: _Made) -> Order:
        """The order of a line in a phase of `kind` from `state`; `find`: the unit an order
        goes to; `made`: the orders made before in phases of this kind."""
        shape = self.shapes.get(line)
        if shape is None:
            try:
                shape = self.shape(line.split())
            except (_PhaseFailed, _Untyped) as exc:
                shape = exc
            self.shapes[line] = shape
        if isinstance(shape, Exception):
            raise type(shape)(*shape.args)
        verb, first, second, third, built = shape
        if verb == "build":
            assert second is not None and built is not None
            return Build(second, built, state.owner_of.get(second.province)
                         or self.variant.home_of.get(second.province))
        unit = find(first.province)
        target_unit = state.unit_at(second.province) if second is not None and verb in _SUPPORTING else None
        key = (line, id(unit), id(target_unit))  # the supported or convoyed unit stands there
        known = made.get(key)
        if known is not None and known[0] is unit and known[1] is target_unit:
            return known[2]
        order = self.typed(verb, first, second, third, kind, unit, target_unit)
        made[key] = (unit, target_unit, order)
        return order

    def typed(self, verb: str, first: Location, second: Location | None, third: Location | None, kind: PhaseKind,
              unit: Unit | None, target_unit: Unit | None) -> Order:
        """The order of a line of the form `verb` (with its locations) in a phase of `kind`,
        given to `unit` (None: no unit there), supporting or convoying `target_unit`."""
        ref = UnitRef(first, unit.kind if unit is not None else None)
        power = unit.power if unit is not None else None
        if verb == "remove":
            return Remove(ref, power)
        match verb:
            case "hold":
                return Hold(ref, power)
            case "disband":
                return Remove(ref, power) if kind is PhaseKind.ADJUSTMENT else Disband(ref, power)
            case "move" | "move via convoy":
                assert second is not None
                if kind is PhaseKind.RETREAT:
                    return Retreat(ref, second, power)
                return Move(ref, second, verb != "move", power)
        assert second is not None
        target = UnitRef(second, target_unit.kind if target_unit is not None else None)
        if verb == "support":
            return SupportHold(ref, target, power)
        assert third is not None
        if verb == "support move":
            return SupportMove(ref, target, third, power)
        return Convoy(ref, target, third, power)

    def shape(self, w: list[str]) -> _Shape:
        """What an order line says, before the position is read: its form ("move",
        "support move", ...), its locations in the order written and the kind of a
        build (read once per distinct line: a game repeats its orders). The unit's
        province comes first; a build has only its centre (second)."""
        verb = w[0].lower() if w else ""
        if verb == "build":
            if len(w) != 3 or w[1].lower() not in _UNIT_WORDS:
                raise _PhaseFailed(f"expected 'build Army <province>' or 'build Fleet <province>', found {' '.join(w)!r}")
            loc = self.known(w[2])
            return verb, loc, loc, None, _UNIT_WORDS[w[1].lower()]
        if verb == "remove":
            if len(w) != 2:
                raise _PhaseFailed(f"expected 'remove <province>', found {' '.join(w)!r}")
            return verb, self.known(w[1]), None, None, None
        action = [x.lower() for x in w[1:]]
        if not action or action[0] not in ("move", "hold", "support", "convoy", "disband"):
            raise _PhaseFailed(f"expected an order like {_ORDER_FORMS}, found {' '.join(w)!r}")
        verb, size = action[0], len(action)
        if verb in ("hold", "disband"):
            well_formed = size == 1
        elif verb == "move":
            well_formed = size == 2 or (size == 4 and action[2:] == ["via", "convoy"])
        elif verb == "support":
            well_formed = size == 2 or (size == 4 and action[2] == "move")
        else:
            well_formed = size == 4 and action[2] == "move"
        if not well_formed:
            raise _PhaseFailed(f"expected an order like {_ORDER_FORMS}, found {' '.join(w)!r}")
        unit = self.known(w[0])
        if size == 1:
            return verb, unit, None, None, None
        second = self.known(w[2])
        if verb == "move":
            return ("move" if size == 2 else "move via convoy"), unit, second, None, None
        if size == 2:
            return verb, unit, second, None, None
        return ("support move" if verb == "support" else verb), unit, second, self.known(w[4]), None

    def known(self, word: str) -> Location:
        loc = self.location(word)
        if loc is None:
            raise _Untyped(f"unknown province or coast {word!r}")
        return loc


def _lines(text: str | bytes) -> list[str | None]:
    """The text of each line (line 1 first); None for a line that is not UTF-8."""
    out: list[str | None] = []
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")  # the common case: the whole file is UTF-8
        except UnicodeDecodeError:
            pass
    if isinstance(text, bytes):
        for raw in text.split(b"\n"):
            try:
                out.append(raw.decode("utf-8"))
            except UnicodeDecodeError:
                out.append(None)
    else:
        # text decoded with errors="surrogateescape" keeps bad bytes as lone surrogates
        if text.isascii() or _SURROGATE.search(text) is None:  # (a surrogate is not ASCII)
            out = list(text.split("\n"))  # every line is text
        else:
            out = [None if _SURROGATE.search(line) else line for line in text.split("\n")]
    if out and out[0] is not None:
        out[0] = out[0].lstrip("\ufeff")
    return out


def read_godip_game(text: str | bytes, source: str = "<godip>", variant: Variant | None = None,
                    tables: GodipTables | None = None) -> RecordedGame:
    """A godip game history -> :class:`RecordedGame` of :class:`GodipPhase` entries.

    `text` is the file's content (``bytes`` to have lines that are not UTF-8 reported
    on their phase); `source` its name (the game id is its stem, ``game_804``). Each
    phase has its position (``state``: units, centre owners, dislodged units with the
    attacker's origin unknown), its orders as ``(order, text as recorded)`` with the
    power of the unit (or centre) ordered, no results. Problems of a phase are its
    ``error``; a position the phase before cannot lead to under any adjudication is
    noted on that phase (:attr:`RecordedPhase.contradiction`: it is judged, not rejected).

    `tables`: the readings of lines kept from the games read before (whoever reads many
    keeps them; by default each game reads its own lines).

    :raises RecordError: the text is no godip history at all (no ``PHASE`` line first).
    """
    reader = _Reader(source, variant or load_variant("standard"), tables)
    reader.read(_lines(text))
    phases = reader.phases
    if not phases:
        raise RecordError(reader.game, None, "expected a 'PHASE <year> <season> <kind>' line (a godip game "
                                             "history), found no PHASE line")
    for prev, nxt in zip(phases, phases[1:]):
        prev.followed = True
        if prev.error is None and nxt.error is None:
            problem = position_contradiction(prev, nxt)
            if problem and prev.phase is not None and nxt.name in next_phase_names(prev.phase):
                prev.contradiction = f"line {nxt.line}: {problem}"  # judged, not rejected
    return RecordedGame(reader.game, reader.variant.map.name, (), reader.variant, list(phases), format="godip")


# --- writing -----------------------------------------------------------------------------


def write_godip_game(game: RecordedGame | Iterable[RecordedPhase]) -> str:
    """A recorded game (every phase with a position) in the godip history format.

    Positions and orders are written as godip does: sorted by province, godip's
    abbreviations (``mid``, ``nat``, ``nrg``, ``gol``), the unit's location with its
    coast, no powers. ``Waive`` has no godip form and is left out, as are orders that
    were not typed (:attr:`GodipPhase.unread`).

    :raises ValueError: a phase without a position.
    """
    phases = game.phases if isinstance(game, RecordedGame) else list(game)
    out: list[str] = []
    for entry in phases:
        if entry.phase is None or entry.state is None:
            raise ValueError(f"phase {entry.name}: no position to write")
        phase, state = entry.phase, entry.state
        out.append(f"PHASE {phase.year} {phase.season} {phase.kind}")
        out.append("POSITIONS")
        out.extend(_position_lines(state))
        out.append("ORDERS")
        lines = [(ordered, text) for ordered, text in
                 ((_order_province(o), format_godip_order(o)) for o, _ in entry.orders) if text]
        out.extend(text for _, text in sorted(lines, key=lambda item: item[0]))
    return "\n".join(out) + "\n"


def _name(loc: Location) -> str:
    province = GODIP_NAMES.get(loc.province, loc.province)
    return f"{province}/{loc.coast}" if loc.coast else province


def _position_lines(state: State) -> list[str]:
    """Sorted as godip sorts them: by location, then by what stands there (army, army/dislodged,
    fleet, fleet/dislodged, supply)."""
    rows: list[tuple[str, str, str]] = []
    word = {UnitKind.ARMY: "army", UnitKind.FLEET: "fleet", UnitKind.WING: "wing"}
    for unit in state.units:
        rows.append((str(unit.location), word[unit.kind], f"{unit.power}"))
    for d in state.dislodged:
        rows.append((str(d.unit.location), f"{word[d.unit.kind]}/dislodged", d.unit.power))
    for centre, power in state.owners:
        rows.append((centre, "supply", power))
    return [f"{power}: {what} {_name(Location.parse(where))}" for where, what, power in sorted(rows)]


def _order_province(order: Order) -> str:
    if isinstance(order, Build):
        return order.location.province
    if isinstance(order, Waive):
        return ""
    return order.unit.province


def format_godip_order(order: Order) -> str:
    """One order as godip writes it: locations as the order gives them, godip's
    abbreviations, no power ('' for Waive, which godip has no form for).

    :raises ValueError: a build without a unit kind."""
    match order:
        case Hold(unit=u):
            return f"{_name(u.location)} hold"
        case Move(unit=u, dest=d, via_convoy=via):
            return f"{_name(u.location)} move {_name(d)}" + (" via convoy" if via else "")
        case SupportHold(unit=u, target=t):
            return f"{_name(u.location)} support {_name(t.location)}"
        case SupportMove(unit=u, target=t, dest=d):
            return f"{_name(u.location)} support {_name(t.location)} move {_name(d)}"
        case Convoy(unit=u, target=t, dest=d):
            return f"{_name(u.location)} convoy {_name(t.location)} move {_name(d)}"
        case Retreat(unit=u, dest=d):
            return f"{_name(u.location)} move {_name(d)}"
        case Disband(unit=u):
            return f"{_name(u.location)} disband"
        case Build(location=loc, kind=k) if k is not None:
            return f"build {'Fleet' if k is UnitKind.FLEET else 'Army'} {_name(loc)}"
        case Remove(unit=u):
            return f"remove {_name(u.location)}"
        case Waive():
            return ""
    raise ValueError(f"no godip form for {order!r}")
