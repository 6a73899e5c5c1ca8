"""Recorded games in the saved-game JSON format of the ``diplomacy`` Python package.

The format (``diplomacy.utils.export.to_saved_game_format``; read here from the
documented structure, the package itself is never imported — it is AGPL-licensed)::

    {"id": "...", "map": "standard", "rules": [...],
     "phases": [{"name": "S1901M",
                 "state": {"name": "S1901M",
                           "units": {"FRANCE": ["A PAR", "F BRE", "*A MAR"], ...},
                           "retreats": {"FRANCE": {"A MAR": ["GAS", "BUR"]}, ...},
                           "centers": {"FRANCE": ["BRE", "MAR", "PAR"], ...}, ...},
                 "orders": {"FRANCE": ["A PAR - BUR", ...], ...},
                 "results": {"A PAR": ["bounce"], "F BRE": [], ...}}, ...]}

- Phase names: ``S1901M``, ``F1901M`` (movement), ``S1901R``, ``F1901R``
  (retreats), ``W1901A`` (adjustments, read as dipsat's "Fall 1901, Adjustment"),
  and ``COMPLETED`` / ``FORMING`` (no position to adjudicate). Phases in which
  nothing is to be done are skipped by the package (no retreat phase without a
  dislodged unit that can retreat; no adjustment phase when nobody can build or
  must remove); the last phase of a record is the one not yet processed (no orders).
- A phase's ``state`` is the position *before* its orders; the next phase's
  state is therefore the recorded outcome. ``*`` marks a dislodged unit (retreat
  phases only); ``retreats`` lists each dislodged unit's retreat options.
- Provinces are the standard abbreviations in capitals (``NAO``, ``MAO``,
  ``NWG``, ``LYO``, ``ENG``, ``NWY``, ...), coasts as ``STP/SC``, ``SPA/NC``,
  ``BUL/EC``; dipsat's ids are the same in lower case.
- Orders: ``A PAR H``, ``A PAR - BUR``, ``A LVP - EDI VIA`` (by convoy),
  ``A MUN S A BER - SIL``, ``A MUN S A BER`` (support to hold, also ``... H``),
  ``F NTH C A LON - NWY``; retreats ``A PAR R BUR``, ``A PAR D``; adjustments
  ``A PAR B``, ``F STP/SC B``, ``A PAR D`` (a removal), ``WAIVE``. The package
  writes supported and convoyed destinations without coasts. Anything else is
  read with :mod:`dipsat.notation` (``VIA`` read as ``via convoy``).
- Results: per unit (as it stood at the start of the phase, or the built unit)
  a list of codes: ``""`` or no code (success), ``bounce``, ``void``, ``cut``,
  ``dislodged``, ``no convoy``, ``disrupted``, ``disband`` (and ``maybe``,
  which only exists during the package's adjudication). See
  :mod:`dipsat.runners.validate` for what each code means and how it is compared.

:func:`read_game` turns a record (the decoded JSON) into a :class:`RecordedGame`:
for each phase dipsat's :class:`~dipsat.state.State`, typed orders and the
recorded results. A phase that cannot be read carries a :class:`RecordError`
(naming the game, the phase and what was expected) instead of failing the
whole game; a record that is not a saved game at all raises one. A position that
contradicts the recorded result of the phase before it is no reason to reject it
(a buggy adjudicator writes such records): the contradiction is kept on that phase
(:attr:`RecordedPhase.contradiction`), which is judged.
"""

from __future__ import annotations

import re
from dataclasses import replace
from collections.abc import Callable
from typing import Any

from ..board import Location, Phase, PhaseKind, Power, Season, Unit, UnitKind
from ..errors import NotationError
from ..maps import fold, load_variant
from ..notation import VariantTables, parse_order
from ..orders import (Build, Convoy, Disband, Hold, Move, Order, Remove, Retreat, SupportHold,
                      SupportMove, UnitRef, Waive, order_power, order_unit)
from .records import (MOVE_FAILURES, RecordedGame, RecordedPhase, RecordError, contradiction, format_location,
                      format_unit, next_phase_names, package_phase_name, position_contradiction)
from ..state import Dislodged, State, in_place_order

__all__ = ["DiplomacyTables", "RecordError", "RecordedGame", "RecordedPhase", "read_game", "parse_phase_name",
           "package_phase_name", "format_unit", "format_location", "RESULT_CODES", "write_game", "package_order"]

RESULT_CODES = frozenset({"", "bounce", "void", "cut", "dislodged", "no convoy", "disrupted", "disband", "maybe"})
MAPS = {"standard": "standard"}



# --- names -------------------------------------------------------------------------------


def parse_phase_name(name: str) -> Phase | None:
    """``S1901M`` -> Spring 1901, Movement; ``W1901A`` -> Fall 1901, Adjustment;
    ``COMPLETED``/``FORMING`` -> None. Raises ValueError otherwise."""
    if name in ("COMPLETED", "FORMING"):
        return None
    try:
        phase = Phase.parse_short(name, strict=True)
    except ValueError:
        raise ValueError(f"phase name {name!r} is not like S1901M, F1901R, W1901A or COMPLETED") from None
    if phase.kind is PhaseKind.ADJUSTMENT:
        if phase.season is Season.SPRING:
            raise ValueError(f"phase name {name!r}: no spring adjustment phase on this map")
    elif name.startswith("W"):
        raise ValueError(f"phase name {name!r}: winter is the adjustment phase (W...A)")
    return phase


# --- reading -----------------------------------------------------------------------------


class DiplomacyTables:
    """What the reader makes of each distinct location, unit and order text, per variant:
    a cache kept by whoever reads many records (an archive run in one process), never
    module-level. A text's reading depends on the variant (and for a unit or an order on
    its power and the kind of phase) alone, and an archive repeats its texts from game to
    game: the bundled corpus has 57,310 order texts, a tenth of them distinct within their
    game and fewer across games. Only readings that succeed are kept (an error names its
    record and phase); they are values."""

    __slots__ = ("locations", "units", "orders", "spellings", "centres", "phases", "result_units", "result_codes")

    def __init__(self) -> None:
        self.locations: VariantTables[str, Location] = VariantTables()
        self.centres: VariantTables[str, str] = VariantTables()
        """A supply centre's province, by the text it is written as."""
        self.units: VariantTables[Power, dict[str, tuple[Unit, bool]]] = VariantTables()
        """Per power: a unit (and whether it is dislodged), by its text."""
        self.orders: VariantTables[tuple[Power, PhaseKind | None], dict[str, tuple[Order, str]]] = VariantTables()
        """Per power and kind of phase: an order and its text (as a phase's orders keep it), by
        its text."""
        self.spellings: VariantTables[tuple[str, PhaseKind | None], _Spelling] = VariantTables()
        """What an order's text (in a kind of phase) says, whoever gives it: :meth:`_Reader.order`."""
        self.phases: dict[str, Phase | None] = {}
        """A phase by its name (any variant)."""
        self.result_units: VariantTables[str, str] = VariantTables()
        """The province of a unit written as a key of a phase's results."""
        self.result_codes: set[tuple[str, ...]] = set()
        """The lists of result codes found valid (any variant)."""

    def __reduce__(self) -> tuple[type[DiplomacyTables], tuple[()]]:
        return type(self), ()  # a cache: sent to another process, it arrives empty


class _Reader:
    def __init__(self, record: Any, tables: DiplomacyTables | None = None) -> None:
        if not isinstance(record, dict):
            raise RecordError(None, None, f"expected a JSON object (a saved game), found {type(record).__name__}")
        gid = record.get("id")
        self.game = str(gid) if gid is not None else None
        map_name = record.get("map", "standard")
        if not isinstance(map_name, str) or map_name not in MAPS:
            raise RecordError(self.game, None, f"map {map_name!r} is not supported (expected one of: {', '.join(MAPS)})")
        self.map_name = map_name
        self.variant = load_variant(MAPS[map_name])
        phases = record.get("phases")
        if not isinstance(phases, list):
            raise RecordError(self.game, None, "expected a list 'phases' of phase objects")
        self.raw_phases = phases
        rules = record.get("rules", [])
        self.rules = tuple(str(r) for r in rules) if isinstance(rules, list) else ()
        self.powers = {p.name.upper(): p.name for p in self.variant.powers}
        self._named: dict[str, Power] = {}  # a power by its name as written in this record
        # texts read once per record, or per run with `tables`: the same units and orders recur
        tables = tables if tables is not None else DiplomacyTables()
        self._result_provinces = tables.result_units.of(self.variant)  # a result's unit as written -> its province
        self._result_codes = tables.result_codes
        self._locations = tables.locations.of(self.variant)
        self._units = tables.units.of(self.variant)
        self._orders = tables.orders.of(self.variant)
        self._centres = tables.centres.of(self.variant)
        self._phases = tables.phases
        self._spellings = tables.spellings.of(self.variant)
        self._last_centres: tuple[dict[Any, Any], tuple[tuple[str, Power], ...]] = ({}, ())  # a phase's centres read

    # errors
    def fail(self, phase: str | None, message: str) -> RecordError:
        return RecordError(self.game, phase, message)

    # names
    def power(self, name: Any, phase: str, where: str) -> Power:
        if isinstance(name, str):
            found = self._named.get(name) or self.powers.get(name.upper()) or self.variant.power_names.get(fold(name))
            if found:
                self._named[name] = found
                return found
        raise self.fail(phase, f"{where}: unknown power {name!r} (expected one of {', '.join(sorted(self.powers))})")

    def location(self, text: str, phase: str, where: str) -> Location:
        known = self._locations.get(text)
        if known is None:
            known = self._locations[text] = self._location(text, phase, where)
        return known

    def _location(self, text: str, phase: str, where: str) -> Location:
        prov, _, coast = text.strip().partition("/")
        pid = prov.lower()
        the_map = self.variant.map
        if pid not in the_map.provinces:
            extra = " (impassable)" if fold(pid) in the_map.impassable else ""
            raise self.fail(phase, f"{where}: unknown province {prov!r}{extra} (expected a province "
                                   f"abbreviation of the {self.map_name} map, e.g. PAR, NTH, STP/SC)")
        if coast:
            cid = coast.lower()
            if cid not in the_map.provinces[pid].coasts:
                have = ", ".join(c.upper() for c in the_map.provinces[pid].coasts) or "none"
                raise self.fail(phase, f"{where}: unknown coast {text!r} (coasts of {prov.upper()}: {have})")
            return Location(pid, cid)
        return Location(pid)

    def unit(self, text: Any, power: Power, phase: str, where: str) -> tuple[Unit, bool]:
        if isinstance(text, str):
            texts = self._units.get(power)
            if texts is None:
                texts = self._units[power] = {}
            known = texts.get(text)
            if known is None:
                known = texts[text] = self._unit(text, power, phase, where)
            return known
        return self._unit(text, power, phase, where)

    def _unit(self, text: Any, power: Power, phase: str, where: str) -> tuple[Unit, bool]:
        if not isinstance(text, str):
            raise self.fail(phase, f"{where}: expected a unit like 'A PAR' or '*F STP/SC', found {text!r}")
        body = text.strip()
        dislodged = body.startswith("*")
        body = body.lstrip("*").strip()
        parts = body.split()
        if len(parts) != 2 or parts[0].upper() not in ("A", "F"):
            raise self.fail(phase, f"{where}: expected a unit like 'A PAR' or '*F STP/SC', found {text!r}")
        kind = UnitKind(parts[0].upper())
        loc = self.location(parts[1], phase, where)
        the_map = self.variant.map
        if not the_map.can_occupy(kind, loc):
            prov = the_map.provinces[loc.province]
            need = (" (a fleet there needs its coast: " + ", ".join(f"{loc.province.upper()}/{c.upper()}" for c in prov.coasts) + ")"
                    if kind is UnitKind.FLEET and prov.coasts and loc.coast is None else "")
            raise self.fail(phase, f"{where}: {text!r} cannot stand there{need}")
        return Unit(power, kind, loc), dislodged

    def centre(self, text: Any, phase: str, where: str) -> str:
        """The province of a supply centre written `text` (kept in the tables once read)."""
        if not isinstance(text, str):
            raise self.fail(phase, f"{where}: expected a province, found {text!r}")
        loc = self.location(text, phase, where)
        if not self.variant.map.provinces[loc.province].centre:
            raise self.fail(phase, f"{where}: {text} is not a supply centre")
        self._centres[text] = loc.province
        return loc.province

    # phases
    def phases(self) -> list[RecordedPhase]:
        out = []
        for index, raw in enumerate(self.raw_phases):
            name = raw.get("name") if isinstance(raw, dict) else None
            label = str(name) if isinstance(name, str) else f"#{index}"
            entry = RecordedPhase(index, label)
            try:
                if not isinstance(raw, dict):
                    raise self.fail(label, f"expected a phase object, found {type(raw).__name__}")
                self.read_phase(entry, raw)
            except RecordError as exc:
                entry.error = exc
            out.append(entry)
        # Results are recorded where a phase with orders has a non-empty 'results'
        # (webDiplomacy exports: every phase has "results": {}). A phase without orders
        # follows the game: it has results when the game's other phases do.
        any_results = any(entry.results for entry in out)
        for entry in out:
            entry.results_recorded = bool(entry.results) or (not entry.orders and any_results)
        for i, entry in enumerate(out):
            if entry.error is None and entry.kind is PhaseKind.RETREAT:
                try:
                    self.dislodgements(entry, out[i - 1] if i > 0 else None)
                except RecordError as exc:
                    entry.error = exc
        for prev, nxt in zip(out, out[1:]):
            # (a phase that cannot follow is no contradiction: both are judged on their own)
            if (prev.error is None and nxt.error is None and nxt.state is not None and prev.phase is not None
                    and nxt.name in next_phase_names(prev.phase)):
                problem = contradiction(prev, nxt) if prev.results_recorded else position_contradiction(prev, nxt)
                if problem:
                    prev.contradiction = problem  # judged, not rejected: a buggy adjudicator writes such records
        return out

    def read_phase(self, entry: RecordedPhase, raw: dict[str, Any]) -> None:
        name = entry.name
        if not isinstance(raw.get("name"), str):
            raise self.fail(name, "expected a phase 'name' like S1901M")
        if name in self._phases:
            entry.phase = self._phases[name]
        else:
            try:
                entry.phase = self._phases[name] = parse_phase_name(name)
            except ValueError as exc:
                raise self.fail(name, str(exc)) from None
        state = raw.get("state")
        if not isinstance(state, dict):
            raise self.fail(name, "expected a 'state' object with 'units' and 'centers'")
        units_raw, centres_raw = state.get("units"), state.get("centers")
        if not isinstance(units_raw, dict) or not isinstance(centres_raw, dict):
            raise self.fail(name, "expected 'state.units' and 'state.centers' objects keyed by power")
        units, dislodged = self._known_units(units_raw) or self.units(units_raw, name)
        if dislodged and entry.phase is not None and entry.phase.kind is not PhaseKind.RETREAT:
            raise self.fail(name, f"state.units: dislodged unit {format_unit(dislodged[0])} outside a retreat phase")
        owners = self._known_owners(centres_raw) or self.owners(centres_raw, name)
        retreats = state.get("retreats", {}) or {}
        entry.retreat_options_recorded = isinstance(state.get("retreats"), dict)
        # (the common case: no table has an entry, and every power named is known)
        if isinstance(retreats, dict) and (any(retreats.values()) or not retreats.keys() <= self._named.keys()):
            for pname, table in sorted(retreats.items()):
                if not isinstance(table, dict):
                    continue
                power = self.power(pname, name, "state.retreats")
                for unit_text, options in sorted(table.items()):
                    unit, _ = self.unit(unit_text, power, name, f"state.retreats.{pname}")
                    where = f"state.retreats.{pname}.{unit_text}"
                    options = [] if options is None else options
                    if not isinstance(options, list) or not all(isinstance(o, str) for o in options):
                        raise self.fail(name, f"{where}: expected a list of locations, found {options!r}")
                    opts = tuple(format_location(self.location(o, name, where)) for o in options)
                    entry.retreat_options[unit.province] = opts
        phase = entry.phase or Phase(0, Season.SPRING, PhaseKind.MOVEMENT)
        # one unit (and one dislodged unit) a province, one owner a centre: put in a state's
        # order here, as State() would (a quarter of its time)
        entry.state = State.in_order(self.variant, phase, in_place_order(units, one_an_area=True), owners,
                                     tuple(Dislodged(u) for u in in_place_order(dislodged, one_an_area=True))
                                     if dislodged else ())
        self.read_orders(entry, raw)
        self.read_results(entry, raw)

    def _known_units(self, units_raw: dict[Any, Any]) -> tuple[list[Unit], list[Unit]] | None:
        """The units and dislodged units of `units_raw` (in the order :meth:`units` reads
        them) when each power and text is known from records read before and no province
        holds two; None: :meth:`units` reads them (and says what is wrong)."""
        named, known = self._named, self._units
        units: list[Unit] = []
        dislodged: list[Unit] = []
        try:
            for pname, lst in sorted(units_raw.items()):
                if not isinstance(lst, list):
                    return None
                texts = known[named[pname]]
                for text in lst:
                    unit, is_dislodged = texts[text]
                    (dislodged if is_dislodged else units).append(unit)
        except (KeyError, TypeError):  # a text not read yet (or not a text)
            return None
        if len({u.location.province for u in units}) < len(units):
            return None
        if dislodged and len({u.location.province for u in dislodged}) < len(dislodged):
            return None
        return units, dislodged

    def units(self, units_raw: dict[Any, Any], name: str) -> tuple[list[Unit], list[Unit]]:
        """The units and dislodged units of a phase's ``state.units``, each text read (and kept)."""
        named = self._named
        units: list[Unit] = []
        dislodged: list[Unit] = []
        seen: dict[str, str] = {}  # a province's unit (as written)
        seen_dislodged: dict[str, str] = {}  # a province's dislodged unit (as written)
        for pname, lst in sorted(units_raw.items()):
            power = named.get(pname) or self.power(pname, name, "state.units")
            if not isinstance(lst, list):
                raise self.fail(name, f"state.units.{pname}: expected a list of units")
            for text in lst:
                unit, is_dislodged = self.unit(text, power, name, f"state.units.{pname}")
                taken = seen_dislodged if is_dislodged else seen
                province = unit.location.province
                if province in taken:
                    raise self.fail(name, f"state.units: two units in {province.upper()} ({taken[province]} and {text})")
                taken[province] = text
                (dislodged if is_dislodged else units).append(unit)
        return units, dislodged

    def _known_owners(self, centres_raw: dict[Any, Any]) -> tuple[tuple[str, Power], ...] | None:
        """The owner of each centre of `centres_raw` by centre when each power and text is
        known from records read before and no centre is named twice; None: :meth:`owners`
        reads them (and says what is wrong)."""
        if centres_raw == self._last_centres[0]:  # the common case: as in the phase before
            return self._last_centres[1]
        named, known = self._named, self._centres
        owners: dict[str, Power] = {}
        count = 0
        try:
            for pname, lst in centres_raw.items():
                if not isinstance(lst, list):
                    return None
                power = named[pname]
                for text in lst:
                    owners[known[text]] = power
                count += len(lst)
        except (KeyError, TypeError):  # a text not read yet (or not a text)
            return None
        if len(owners) != count:
            return None
        found = tuple(sorted(owners.items()))
        self._last_centres = (centres_raw, found)
        return found

    def owners(self, centres_raw: dict[Any, Any], name: str) -> tuple[tuple[str, Power], ...]:
        """The owner of each centre of a phase's ``state.centers``, by centre, each text read (and kept)."""
        named = self._named
        owners: dict[str, Power] = {}
        centres = self._centres
        for pname, lst in sorted(centres_raw.items()):
            power = named.get(pname) or self.power(pname, name, "state.centers")
            if not isinstance(lst, list):
                raise self.fail(name, f"state.centers.{pname}: expected a list of supply centres")
            for text in lst:
                centre = centres.get(text) if isinstance(text, str) else None
                if centre is None:
                    centre = self.centre(text, name, f"state.centers.{pname}")
                owner = owners.setdefault(centre, power)
                if owner != power:
                    raise self.fail(name, f"state.centers: {text} is owned by both {owner} and {power}")
        return tuple(sorted(owners.items()))

    def read_orders(self, entry: RecordedPhase, raw: dict[str, Any]) -> None:
        orders = raw.get("orders", {}) or {}
        name = entry.name
        if not isinstance(orders, dict):
            raise self.fail(name, "expected 'orders' as an object keyed by power")
        kind = entry.kind
        tables = self._orders
        named = self._named
        read = entry.orders
        for pname, lst in sorted(orders.items()):
            power = named.get(pname) or self.power(pname, name, "orders")
            if lst is None:
                continue
            if not isinstance(lst, list):
                raise self.fail(name, f"orders.{pname}: expected a list of orders")
            known = tables.get((power, kind))
            if known is None:
                known = tables[(power, kind)] = {}
            done = len(read)
            try:  # the common case: every text read before (in this record or another)
                for text in lst:
                    read.append(known[text])
                continue
            except (KeyError, TypeError):  # a text not read yet (or not a text)
                del read[done:]
            for text in lst:
                pair = known.get(text) if type(text) is str else None
                if pair is None:
                    if not isinstance(text, str):
                        raise self.fail(name, f"orders.{pname}: expected an order (text), found {text!r}")
                    if not text.strip():
                        continue
                    pair = known[text] = (self.order(text, power, kind, name, f"orders.{pname}"), text)
                read.append(pair)

    def order(self, text: str, power: Power, kind: PhaseKind | None, phase: str, where: str) -> Order:
        """The order `text` of `power`, read once for every power (texts recur across powers)."""
        known = self._spellings.get((text, kind))
        if known is None:
            known = self._spellings[(text, kind)] = self.spelling(text, kind, phase, where)
        make, fields = known
        return make(*fields, power)

    def spelling(self, text: str, kind: PhaseKind | None, phase: str, where: str) -> _Spelling:
        words = text.split()
        if words and words[-1] == "?":  # the package marks orders it could not check
            words = words[:-1]
        if len(words) == 1 and words[0].upper() == "WAIVE":
            return Waive, ()
        try:
            return self.package_order(words, kind, phase, where)
        except _NotPackageSpelling:
            pass
        body = re.sub(r"\bVIA\s*$", "via convoy", " ".join(words), flags=re.IGNORECASE)
        try:
            order = parse_order(body, self.variant, kind)
        except NotationError as exc:
            raise self.fail(phase, f"{where}: cannot read order {text!r}: {exc}") from None
        return _given_by, (order,)

    def package_order(self, w: list[str], kind: PhaseKind | None, phase: str, where: str) -> _Spelling:
        """The package's own spelling, read exactly; anything else raises _NotPackageSpelling."""
        if len(w) < 2 or w[0] not in ("A", "F") or not _is_loc(w[1]):
            raise _NotPackageSpelling
        unit = UnitRef(self.word_location(w[1], w, phase, where), _KINDS[w[0]])
        rest = w[2:]
        if rest in ([], ["H"]):
            return Hold, (unit,)
        if len(rest) in (2, 3) and rest[0] in ("-", "R") and _is_loc(rest[1]) and (len(rest) == 2 or rest[2] == "VIA"):
            dest = self.word_location(rest[1], w, phase, where)
            if rest[0] == "R" or kind is PhaseKind.RETREAT:
                return Retreat, (unit, dest)
            return Move, (unit, dest, len(rest) == 3)
        if rest == ["D"]:
            if kind is PhaseKind.ADJUSTMENT:
                return Remove, (unit,)
            return Disband, (unit,)
        if rest == ["B"]:
            return Build, (unit.location, unit.kind)
        if rest and rest[0] in ("S", "C"):
            target, tail = self.target(rest[1:], w, phase, where)
            if rest[0] == "S" and tail in ([], ["H"]):
                return SupportHold, (unit, target)
            if len(tail) == 2 and tail[0] == "-" and _is_loc(tail[1]):
                dest = self.word_location(tail[1], w, phase, where)
                if rest[0] == "S":
                    return SupportMove, (unit, target, dest)
                return Convoy, (unit, target, dest)
        raise _NotPackageSpelling

    def target(self, w: list[str], order: list[str], phase: str, where: str) -> tuple[UnitRef, list[str]]:
        if len(w) >= 2 and w[0] in ("A", "F") and _is_loc(w[1]):
            return UnitRef(self.word_location(w[1], order, phase, where), _KINDS[w[0]]), w[2:]
        if w and _is_loc(w[0]):
            return UnitRef(self.word_location(w[0], order, phase, where)), w[1:]
        raise _NotPackageSpelling

    def word_location(self, word: str, order: list[str], phase: str, where: str) -> Location:
        """The location `word` of the words of an `order` names (an error names the order)."""
        known = self._locations.get(word)
        return known if known is not None else self.location(word, phase, f"{where}: order {' '.join(order)!r}")

    def read_results(self, entry: RecordedPhase, raw: dict[str, Any]) -> None:
        results = raw.get("results", {}) or {}
        name = entry.name
        if not isinstance(results, dict):
            raise self.fail(name, "expected 'results' as an object keyed by unit")
        provinces, valid = self._result_provinces, self._result_codes
        if self._known_results(entry, results):
            return
        for unit_text, codes in sorted(results.items()):
            province = provinces.get(unit_text)
            if province is None:
                parts = unit_text.split()
                if len(parts) != 2 or parts[0] not in ("A", "F"):
                    if unit_text.upper() == "WAIVE" or unit_text.startswith(("INVALID", "REORDER", "ORDER")):
                        continue
                    raise self.fail(name, f"results: expected a unit like 'A PAR' as key, found {unit_text!r}")
                loc = self._locations.get(parts[1]) or self.location(parts[1], name, f"results.{unit_text}")
                province = provinces[unit_text] = loc.province
            if isinstance(codes, str):
                codes = [codes]
            if not isinstance(codes, list):
                raise self.fail(name, f"results.{unit_text}: expected a list of result codes")
            recorded = tuple(codes)
            try:
                checked = recorded in valid
            except TypeError:  # a code that is a list or an object: named below
                checked = False
            if not checked:
                for code in codes:
                    if not isinstance(code, str) or code not in RESULT_CODES:
                        raise self.fail(name, f"results.{unit_text}: unknown result code {code!r} (expected one of "
                                              + ", ".join(repr(c) for c in sorted(RESULT_CODES)) + ")")
                valid.add(recorded)
            entry.results[province] = recorded
            entry.result_units[province] = unit_text

    def _known_results(self, entry: RecordedPhase, results: dict[Any, Any]) -> bool:
        """Whether the results of a phase were read as :meth:`read_results` reads them: each
        unit read before (in any record) and each list of codes seen before; else nothing is kept."""
        provinces, valid = self._result_provinces, self._result_codes
        found: dict[str, tuple[str, ...]] = {}
        units: dict[str, str] = {}
        try:
            for text in sorted(results):
                codes = results[text]
                if type(codes) is not list:
                    return False
                recorded = tuple(codes)
                if recorded not in valid:
                    return False
                province = provinces[text]
                found[province] = recorded
                units[province] = text
        except (KeyError, TypeError):  # a unit not read yet, a code that is not a text
            return False
        entry.results, entry.result_units = found, units
        return True

    def dislodgements(self, entry: RecordedPhase, prev: RecordedPhase | None) -> None:
        """A retreat phase: each dislodged unit's attacker origin (and whether it came by
        convoy), and the provinces left empty by a standoff, from the movement before."""
        state = entry.state
        assert state is not None and entry.phase is not None
        expected = Phase(entry.phase.year, entry.phase.season, PhaseKind.MOVEMENT)
        if prev is None or prev.phase != expected:
            raise self.fail(entry.name, f"a retreat phase must follow the movement phase {package_phase_name(expected)}")
        if prev.error is not None or prev.state is None:
            raise self.fail(entry.name, f"the movement phase before it ({prev.name}) is rejected: attacker origins unknown")
        if not prev.results_recorded:
            return  # no result codes: the attackers are found by validate (positions, adjudication)
        moves = [(o, prev.results.get(o.unit.province, ())) for o, _ in prev.orders if isinstance(o, Move)]
        convoys = [(o, prev.results.get(o.unit.province, ())) for o, _ in prev.orders if isinstance(o, Convoy)]
        the_map = self.variant.map
        dislodged = []
        for d in state.dislodged:
            attackers = [o for o, codes in moves if o.dest.province == d.unit.province and not (set(codes) & MOVE_FAILURES)]
            if len(attackers) != 1:
                raise self.fail(entry.name, f"dislodged unit {format_unit(d.unit)}: expected one successful move into "
                                            f"{d.unit.province.upper()} in {prev.name}, found {len(attackers)}")
            attack = attackers[0]
            origin = attack.unit.province
            attacker = prev.state.unit_at(origin)
            by_convoy = False
            if attacker is not None and attacker.kind is UnitKind.ARMY:
                over_land = the_map.can_move(UnitKind.ARMY, Location(origin), Location(d.unit.province))
                carried = [o for o, codes in convoys
                           if o.target.province == origin and o.dest.province == d.unit.province
                           and not (set(codes) & {"void", "no convoy", "dislodged", "disrupted"})]
                own = any(getattr(prev.state.unit_at(o.unit.province), "power", None) == attacker.power
                          for o in carried)
                by_convoy = not over_land or (bool(carried) and (attack.via_convoy or own))
            dislodged.append(Dislodged(d.unit, origin, by_convoy))
        failed: dict[str, int] = {}
        entered = set()
        for o, codes in moves:
            if set(codes) & MOVE_FAILURES:
                if "bounce" in codes:
                    failed[o.dest.province] = failed.get(o.dest.province, 0) + 1
            else:
                entered.add(o.dest.province)
        occupied = {u.province for u in state.units}
        standoffs = frozenset(p for p, n in failed.items() if n >= 2 and p not in occupied and p not in entered)
        entry.state = state.with_(dislodged=tuple(dislodged), standoffs=standoffs)


class _NotPackageSpelling(Exception):
    pass


_Spelling = tuple[Callable[..., Order], tuple[Any, ...]]
"""What an order's text says whoever gives it: a maker and its arguments but the last, the power."""


def _given_by(order: Order, power: Power) -> Order:
    """An order read by :func:`dipsat.notation.parse_order`, given by `power`."""
    return replace(order, power=power) if hasattr(order, "power") else order


_KINDS = {"A": UnitKind.ARMY, "F": UnitKind.FLEET}


def _is_loc(word: str) -> bool:
    """A word of an order (no white space in it) is ``[A-Z]{3}`` or ``[A-Z]{3}/[A-Z]{2}``
    (string methods: a regular expression takes three times as long)."""
    if len(word) == 3:
        return word.isascii() and word.isalpha() and word.isupper()
    return (len(word) == 6 and word[3] == "/" and word.isascii() and word[:3].isalpha() and word[4:].isalpha()
            and word.isupper())


def read_game(record: Any, tables: DiplomacyTables | None = None) -> RecordedGame:
    """A decoded saved game -> :class:`RecordedGame`.

    `tables`: the readings of texts kept from the records read before (whoever reads many
    records); the game read is the same with or without.

    :raises RecordError: the record is not a saved game at all (not an object, no
        ``phases``, another map). Problems of single phases are kept on the phase.
    """
    reader = _Reader(record, tables)
    phases = reader.phases()
    gid = reader.game if reader.game is not None else "?"
    # records without any per-order result are webDiplomacy exports (Meta's Cicero games):
    # the same format, another adjudicator
    fmt = "diplomacy" if any(p.results for p in phases) else "webdiplomacy"
    return RecordedGame(gid, reader.map_name, reader.rules, reader.variant, phases, format=fmt)


# --- writing ------------------------------------------------------------------------------


def write_game(game: RecordedGame) -> dict[str, Any]:
    """A recorded game (any format read into a :class:`RecordedGame`) as a saved game of
    the package, the structure :func:`read_game` reads: per phase its name, position
    (``*`` for dislodged units) and orders by power in the package's spelling; no
    results (``"results": {}``). Orders that address no unit are left out (the package
    would not accept them).

    :raises ValueError: a phase without a position.
    """
    phases = []
    for entry in game.phases:
        if entry.state is None:
            raise ValueError(f"phase {entry.name}: no position to write")
        state = entry.state
        units: dict[str, list[str]] = {}
        for unit in state.units:
            units.setdefault(unit.power.upper(), []).append(format_unit(unit))
        for d in state.dislodged:
            units.setdefault(d.unit.power.upper(), []).append("*" + format_unit(d.unit))
        centres: dict[str, list[str]] = {}
        for centre, owner in state.owners:
            centres.setdefault(owner.upper(), []).append(centre.upper())
        orders: dict[str, list[str]] = {}
        for order, _ in entry.orders:
            power = order_power(state, order)
            text = package_order(order, state)
            if power is not None and text is not None:
                orders.setdefault(power.upper(), []).append(text)
        phases.append({"name": entry.name, "state": {"name": entry.name, "units": units, "centers": centres},
                       "orders": orders, "results": {}})
    return {"id": game.id, "map": game.map, "rules": list(game.rules), "phases": phases}


def package_order(order: Order, state: State) -> str | None:
    """One order in the package's spelling (``A PAR - BUR VIA``, ``F NTH C A LON - NWY``,
    ``A PAR B``); None for an order to no unit. The unit is written where it stands
    (with its coast), supported and convoyed destinations without coasts."""
    if isinstance(order, Waive):
        return "WAIVE"
    if isinstance(order, Build):
        return f"{order.kind or UnitKind.ARMY} {format_location(order.location)} B"
    unit = order_unit(state, order)
    if unit is None:
        return None
    me = format_unit(unit)

    def target(ref: UnitRef) -> str | None:
        found = state.unit_at(ref.province)
        return format_unit(found) if found is not None else None

    match order:
        case Hold():
            return f"{me} H"
        case Move(dest=dest, via_convoy=via):
            return f"{me} - {format_location(dest)}" + (" VIA" if via else "")
        case SupportHold(target=t) if target(t):
            return f"{me} S {target(t)}"
        case SupportMove(target=t, dest=dest) if target(t):
            return f"{me} S {target(t)} - {dest.province.upper()}"
        case Convoy(target=t, dest=dest) if target(t):
            return f"{me} C {target(t)} - {dest.province.upper()}"
        case Retreat(dest=dest):
            return f"{me} R {format_location(dest)}"
        case Disband() | Remove():
            return f"{me} D"
    return None
