"""dipsat JSON: states, orders and full phase results (schema ``dipsat/2``; ``dipsat/1`` is read too).

The schema is documented in ``docs/json.md``. Writers are deterministic: keys
come in a fixed order and every list is sorted, so the same input always gives
byte-identical ``json.dumps(doc, indent=2)`` output. The reader is lenient about
spelling (power aliases, ``army``/``A``, ``stp/nc`` or ``St. Petersburg (north
coast)``, a phase as an object or as ``"Spring 1901, Movement"``) and strict about
meaning: it checks every province, power and unit placement against the variant,
collects every problem, and raises one :class:`JsonFormatError` whose
``problems`` name the JSON path of each bad field and what was expected.
"""

from __future__ import annotations

import json
import re
import reprlib
import sys
from dataclasses import replace
from typing import Any

from ..board import Location, Phase, PhaseKind, Season, Unit, UnitKind
from ..errors import DipsatError, NotationError
from ..maps import Variant, bundled_variants, fold, load_variant
from ..notation import format_order, parse_location
from .outcome_json import disorder_json, outcome_json, unit_json
from ..orders import (Build, Convoy, Disband, Hold, Move, Order, Remove, Retreat, SupportHold,
                      SupportMove, Waive)
from ..report import adjustment_counts, disbanded_report, dislodged_report, loc_key, order_power, sorted_results, status_word, unit_key
from ..results import PhaseResult
from ..state import Dislodged, State, placement_problem

__all__ = ["FORMAT", "READ_FORMATS", "MAX_YEAR", "JsonFormatError", "parse_json", "shown", "state_to_json", "state_from_json",
           "position_from_json", "result_to_json"]

FORMAT = "dipsat/2"
READ_FORMATS = ("dipsat/1", FORMAT)
"""What the reader accepts: dipsat/2 changed only how results write units in outcome facts
(docs/json.md), so states and orders of dipsat/1 read as they did."""
MAX_YEAR = 9999
"""The last year a document may name (a game file refuses to play beyond it)."""

ORDER_TYPES: dict[type, str] = {
    Hold: "hold", Move: "move", SupportHold: "support_hold", SupportMove: "support_move",
    Convoy: "convoy", Retreat: "retreat", Disband: "disband", Build: "build", Remove: "remove",
    Waive: "waive",
}


class JsonFormatError(DipsatError, ValueError):
    """A dipsat JSON document that cannot be read.

    ``problems`` holds one line per bad field: ``[source: ]$.path: what is wrong
    (expected ...)``. The message is the single problem, or all of them joined.
    """

    def __init__(self, problems: list[str], source: str | None = None) -> None:
        self.source = source
        self.problems = [f"{source}: {p}" if source else p for p in problems]
        if len(self.problems) == 1:
            message = self.problems[0]
        else:
            message = f"{len(self.problems)} problems: " + "; ".join(self.problems)
        super().__init__(message)


# --- writing ---------------------------------------------------------------------------


def phase_to_json(phase: Phase) -> dict[str, Any]:
    return {"year": phase.year, "season": phase.season.value, "kind": phase.kind.value}


def _dislodged_to_json(d: Dislodged) -> dict[str, Any]:
    return {**unit_json(d.unit), "attacker_origin": d.attacker_origin, "by_convoy": d.by_convoy}


def _state_body(state: State) -> dict[str, Any]:
    return {
        "variant": state.variant.name,
        "wings": state.variant.wings,
        "phase": phase_to_json(state.phase),
        "units": [unit_json(u) for u in sorted(state.units, key=unit_key)],
        "owners": {centre: power for centre, power in sorted(state.owners)},
        "dislodged": [_dislodged_to_json(d) for d in sorted(state.dislodged, key=lambda d: unit_key(d.unit))],
        "standoffs": sorted(state.standoffs),
    }


def state_to_json(state: State, orders: list[Order] | None = None) -> dict[str, Any]:
    """A ``state`` document; with `orders`, it also carries them (in the order given)."""
    doc: dict[str, Any] = {"format": FORMAT, "type": "state", **_state_body(state)}
    if orders is not None:
        doc["orders"] = [format_order(o) for o in orders]
    return doc


def result_to_json(result: PhaseResult) -> dict[str, Any]:
    """A ``result`` document: every order's outcome, dislodgements, the new state."""
    orders = []
    for index, r in sorted_results(result):
        orders.append({
            "index": index,
            "order": format_order(r.order),
            "type": ORDER_TYPES[type(r.order)],
            "power": order_power(r),
            "unit": unit_json(r.unit) if r.unit else None,
            "succeeded": r.succeeded,
            "result": status_word(r),
            "reason": str(r.reason) if r.reason else None,
            "detail": r.detail,
            "outcome": outcome_json(r.outcome),
        })
    dislodged = [{**_dislodged_to_json(i.dislodged), "retreat_options": [str(o) for o in sorted(i.options, key=loc_key)]}
                 for i in dislodged_report(result)]
    disbanded = [{**unit_json(i.unit), "reason": i.reason} for i in disbanded_report(result)]
    disorder = [disorder_json(d) for d in result.civil_disorder]
    return {
        "format": FORMAT,
        "type": "result",
        "rules": str(result.rules),
        "phase": phase_to_json(result.before.phase),
        "next_phase": phase_to_json(result.after.phase),
        "orders": orders,
        "dislodged": dislodged,
        "disbanded": disbanded,
        "civil_disorder": disorder,
        "adjustments": [count.to_json() for count in adjustment_counts(result)],
        "solver": {
            "calls": result.solver_calls,
            "resolutions": result.resolutions,
            "resolutions_capped": result.resolutions_capped,
            "backup_rules": list(result.backup_rules),
        },
        "after": _state_body(result.after),
        "before": _state_body(result.before),
    }


# --- reading ---------------------------------------------------------------------------

_CANONICAL = re.compile(r"^[a-z0-9_]+(/[a-z0-9_]+)?$")
_KIND_WORDS = {"a": UnitKind.ARMY, "army": UnitKind.ARMY, "f": UnitKind.FLEET, "fleet": UnitKind.FLEET,
               "w": UnitKind.WING, "wing": UnitKind.WING}


def shown(value: Any) -> str:
    """A value read from a document, as an error message shows it: short (lists and objects
    a few items deep, ``[5]``, ``{'a': 1, ...}``), never the whole of a large one."""
    short = reprlib.Repr()
    short.maxlevel, short.maxlist, short.maxdict = 2, 4, 3
    short.maxstring = short.maxother = short.maxlong = 30
    text = short.repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


class _Reader:
    """Reads a state body, recording one problem per bad field (with its JSON path)."""

    def __init__(self) -> None:
        self.problems: list[str] = []
        self.variant: Variant | None = None

    def fail(self, path: str, message: str) -> None:
        self.problems.append(f"{path}: {message}")

    _show = staticmethod(shown)

    # --- whole document --------------------------------------------------------------
    def document(self, data: Any, path: str, want: tuple[str, ...]) -> str | None:
        """Checks ``format`` and ``type``; returns the type (None if unusable)."""
        if not isinstance(data, dict):
            self.fail(path, f"expected a JSON object (a dipsat/2 document), found {self._show(data)}")
            return None
        fmt = data.get("format", FORMAT)
        if fmt not in READ_FORMATS:
            self.fail(f"{path}.format", f"unsupported format {self._show(fmt)} (expected {' or '.join(map(repr, READ_FORMATS))})")
            return None
        kind = data.get("type", want[0])
        if kind not in want:
            self.fail(f"{path}.type", f"expected {' or '.join(map(repr, want))}, found {self._show(kind)}")
            return None
        return str(kind)

    def state(self, data: Any, path: str) -> State | None:
        if not isinstance(data, dict):
            self.fail(path, f"expected a JSON object (a state), found {self._show(data)}")
            return None
        variant = self.read_variant(data, path)
        if variant is None:
            return None
        self.variant = variant
        phase = self.phase(data.get("phase"), f"{path}.phase") if "phase" in data else None
        if "phase" not in data:
            self.fail(f"{path}.phase", "missing (expected e.g. {\"year\": 1901, \"season\": \"Spring\", \"kind\": \"Movement\"})")
        units = self.units(data, path)
        owners = self.owners(data, path, variant)
        dislodged = self.dislodged(data, path, phase, units)
        standoffs = self.standoffs(data, path, phase, units)
        if phase is None or self.problems:
            return None
        return State(variant, phase, tuple(units), owners, tuple(dislodged), frozenset(standoffs))

    def read_variant(self, data: dict[str, Any], path: str) -> Variant | None:
        name = data.get("variant")
        if not isinstance(name, str) or not name.strip():
            self.fail(f"{path}.variant", f"expected a variant name such as 'standard', found {self._show(name)}")
            return None
        key = fold(name).replace(" ", "_")
        wings = data.get("wings", False)
        if key == "datc_standard":
            key, wings = "standard", True
        if not isinstance(wings, bool):
            self.fail(f"{path}.wings", f"expected true or false, found {self._show(wings)}")
            wings = False
        if key not in bundled_variants():
            self.fail(f"{path}.variant", f"expected the name of a bundled variant ({', '.join(bundled_variants())}), "
                                         f"found {self._show(name)}")
            return None
        variant = load_variant(key)
        return replace(variant, wings=True) if wings and not variant.wings else variant

    def phase(self, value: Any, path: str) -> Phase | None:
        if isinstance(value, str):
            return self._phase_text(value, path)
        if not isinstance(value, dict):
            self.fail(path, f"expected an object {{\"year\", \"season\", \"kind\"}} or text like "
                            f"'Spring 1901, Movement', found {self._show(value)}")
            return None
        year = value.get("year")
        ok = True
        if isinstance(year, bool) or not isinstance(year, int) or not 1 <= year <= MAX_YEAR:
            self.fail(f"{path}.year", f"expected a year such as 1901 (1 to {MAX_YEAR}), found {self._show(year)}")
            ok = False
        season = {"spring": Season.SPRING, "fall": Season.FALL, "autumn": Season.FALL}.get(
            fold(value["season"]) if isinstance(value.get("season"), str) else "")
        if season is None:
            self.fail(f"{path}.season", f"expected 'Spring' or 'Fall', found {self._show(value.get('season'))}")
            ok = False
        kind_text = fold(value["kind"]) if isinstance(value.get("kind"), str) else ""
        kind = next((k for k in PhaseKind if kind_text and k.value.lower().startswith(kind_text.rstrip("s"))), None)
        if kind is None and kind_text.startswith("build"):
            kind = PhaseKind.ADJUSTMENT
        if kind is None:
            self.fail(f"{path}.kind", f"expected 'Movement', 'Retreat' or 'Adjustment', found {self._show(value.get('kind'))}")
            ok = False
        if not ok or season is None or kind is None:
            return None
        return Phase(value["year"], season, kind)

    def _phase_text(self, text: str, path: str) -> Phase | None:
        try:
            phase = Phase.parse(text)
            if 1 <= phase.year <= MAX_YEAR:
                return phase
        except ValueError:
            pass
        self.fail(path, f"expected a phase like 'Spring 1901, Movement' or 'S1901M' (years 1 to {MAX_YEAR}), "
                        f"found {self._show(text)}")
        return None

    # --- names -----------------------------------------------------------------------
    def power(self, value: Any, path: str) -> str | None:
        assert self.variant is not None
        name = self.variant.power_names.get(fold(value)) if isinstance(value, str) else None
        if name is None:
            known = ", ".join(p.name for p in self.variant.powers)
            self.fail(path, f"expected a power of {self.variant.name} ({known}), found {self._show(value)}")
        return name

    def location(self, value: Any, path: str) -> Location | None:
        assert self.variant is not None
        the_map = self.variant.map
        if not isinstance(value, str) or not value.strip():
            self.fail(path, f"expected a location such as 'lon' or 'stp/nc', found {self._show(value)}")
            return None
        text = value.strip().lower()
        loc = Location.parse(text) if _CANONICAL.match(text) else None
        prov = the_map.provinces.get(loc.province) if loc is not None else None
        if loc is not None and prov is not None:  # the canonical form: coasts checked strictly
            if loc.coast is not None and loc.coast not in prov.coasts:
                has = f"its coasts are {', '.join(f'{loc.province}/{c}' for c in prov.coasts)}" if prov.coasts else "it has no split coasts"
                self.fail(path, f"{prov.name} has no coast {loc.coast!r} ({has})")
                return None
            return loc
        try:
            return parse_location(value, self.variant)
        except NotationError:
            self.fail(path, f"unknown location {value!r} (expected a province id of the {self.variant.name} "
                            f"map, such as 'lon' or 'stp/nc')")
            return None

    def province(self, value: Any, path: str) -> str | None:
        loc = self.location(value, path)
        if loc is None:
            return None
        if loc.coast is not None:
            self.fail(path, f"expected a province without a coast, found {value!r}")
            return None
        return loc.province

    # --- units -----------------------------------------------------------------------
    def unit(self, value: Any, path: str) -> Unit | None:
        assert self.variant is not None
        if not isinstance(value, dict):
            self.fail(path, f"expected a unit object {{\"power\", \"kind\", \"location\"}}, found {self._show(value)}")
            return None
        power = self.power(value.get("power"), f"{path}.power")
        raw_kind = value.get("kind")
        kind = _KIND_WORDS.get(fold(raw_kind)) if isinstance(raw_kind, str) else None
        if kind is None:
            self.fail(f"{path}.kind", f"expected 'A', 'F' or 'W', found {self._show(raw_kind)}")
        elif kind is UnitKind.WING and not self.variant.wings:
            self.fail(f"{path}.kind", "wings are not used in this variant (expected 'A' or 'F'; set \"wings\": true to allow them)")
            kind = None
        loc = self.location(value.get("location"), f"{path}.location")
        if kind is not None and loc is not None:
            why = placement_problem(self.variant, kind, loc)
            if why is not None:
                self.fail(f"{path}.location", why)
                return None
        if power is None or kind is None or loc is None:
            return None
        return Unit(power, kind, loc)

    def unit_list(self, data: dict[str, Any], key: str, path: str, required: bool) -> list[tuple[str, Unit, dict[str, Any]]]:
        if key not in data and required:
            self.fail(f"{path}.{key}", "missing (expected a list of units, e.g. [{\"power\": \"England\", \"kind\": \"F\", \"location\": \"lon\"}])")
            return []
        value = data.get(key, [])
        if not isinstance(value, list):
            self.fail(f"{path}.{key}", f"expected a list of units, found {self._show(value)}")
            return []
        out = []
        for i, item in enumerate(value):
            unit = self.unit(item, f"{path}.{key}[{i}]")
            if unit is not None:
                out.append((f"{path}.{key}[{i}]", unit, item))
        return out

    def units(self, data: dict[str, Any], path: str) -> list[Unit]:
        seen: dict[str, str] = {}
        out = []
        for where, unit, _ in self.unit_list(data, "units", path, required=True):
            if unit.province in seen:
                self.fail(f"{where}.location", f"{unit.province} already holds the unit at {seen[unit.province]} "
                                               "(expected one unit per province)")
                continue
            seen[unit.province] = where
            out.append(unit)
        return out

    def owners(self, data: dict[str, Any], path: str, variant: Variant) -> tuple[tuple[str, str], ...]:
        if "owners" not in data:
            return tuple((c, p.name) for p in variant.powers for c in p.home_centres)
        value = data["owners"]
        if not isinstance(value, dict):
            self.fail(f"{path}.owners", f"expected an object {{centre: power}}, found {self._show(value)}")
            return ()
        pairs: list[tuple[str, Any, str]] = []
        if value and all(isinstance(v, list) for v in value.values()):  # lenient: {power: [centres]}
            for power_text, centres in value.items():
                for i, centre in enumerate(centres):
                    pairs.append((centre, power_text, f"{path}.owners.{power_text}[{i}]"))
        else:
            pairs = [(centre, power, f"{path}.owners.{centre}") for centre, power in value.items()]
        owners: dict[str, str] = {}
        for centre_text, power_text, where in pairs:
            if power_text is None:
                continue  # written out as unowned
            centre = self.province(centre_text, where)
            power = self.power(power_text, where)
            if centre is None or power is None:
                continue
            if not variant.map.provinces[centre].centre:
                self.fail(where, f"{variant.map.provinces[centre].name} is not a supply centre")
                continue
            if centre in owners and owners[centre] != power:
                self.fail(where, f"{centre} is already owned by {owners[centre]}")
                continue
            owners[centre] = power
        return tuple(sorted(owners.items()))

    def dislodged(self, data: dict[str, Any], path: str, phase: Phase | None, units: list[Unit]) -> list[Dislodged]:
        entries = self.unit_list(data, "dislodged", path, required=False)
        if entries and phase is not None and phase.kind is not PhaseKind.RETREAT:
            self.fail(f"{path}.dislodged", f"dislodged units only exist in a retreat phase (the phase is {phase})")
            return []
        seen: dict[str, str] = {}
        out = []
        for where, unit, item in entries:
            if unit.province in seen:
                self.fail(f"{where}.location", f"a unit dislodged from {unit.province} is already listed at {seen[unit.province]}")
                continue
            seen[unit.province] = where
            origin = item.get("attacker_origin")
            if origin is not None:
                origin = self.province(origin, f"{where}.attacker_origin")
            by_convoy = item.get("by_convoy", False)
            if not isinstance(by_convoy, bool):
                self.fail(f"{where}.by_convoy", f"expected true or false, found {self._show(by_convoy)}")
                by_convoy = False
            out.append(Dislodged(unit, origin, by_convoy))
        return sorted(out, key=lambda d: unit_key(d.unit))

    def standoffs(self, data: dict[str, Any], path: str, phase: Phase | None, units: list[Unit]) -> list[str]:
        value = data.get("standoffs", [])
        if not isinstance(value, list):
            self.fail(f"{path}.standoffs", f"expected a list of provinces, found {self._show(value)}")
            return []
        if value and phase is not None and phase.kind is not PhaseKind.RETREAT:
            self.fail(f"{path}.standoffs", f"standoffs only matter in a retreat phase (the phase is {phase})")
            return []
        occupied = {u.province for u in units}
        out = []
        for i, item in enumerate(value):
            province = self.province(item, f"{path}.standoffs[{i}]")
            if province is None:
                continue
            if province in occupied:
                self.fail(f"{path}.standoffs[{i}]", f"{province} is occupied (a standoff leaves a province empty)")
                continue
            out.append(province)
        return out

    def order_texts(self, data: dict[str, Any], path: str) -> list[tuple[str, str]] | None:
        if "orders" not in data:
            return None
        value = data["orders"]
        if not isinstance(value, list):
            self.fail(f"{path}.orders", f"expected a list of order strings, found {self._show(value)}")
            return None
        out = []
        for i, item in enumerate(value):
            if isinstance(item, str):
                out.append((f"{path}.orders[{i}]", item))
            else:
                self.fail(f"{path}.orders[{i}]", f"expected an order as text, such as 'England: F lon - nth', found {self._show(item)}")
        return out


def parse_json(text: str, source: str) -> Any:
    """``json.loads``, with every way it can fail as one :class:`JsonFormatError`
    ``source:line:column: not valid JSON: ...`` (too deeply nested, a number too long)."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise JsonFormatError([f"{source}:{exc.lineno}:{exc.colno}: not valid JSON: {exc.msg}"]) from None
    except RecursionError:
        raise JsonFormatError([f"{source}: cannot read this JSON: arrays or objects nested too deeply"]) from None
    except ValueError:  # int() refuses more digits than sys.get_int_max_str_digits()
        raise JsonFormatError([f"{source}: cannot read this JSON: a number with more than "
                               f"{sys.get_int_max_str_digits()} digits"]) from None


def state_from_json(data: Any, source: str | None = None) -> State:
    """Read a ``state`` document (``format`` and ``type`` may be left out).

    :raises JsonFormatError: listing every bad field by JSON path.
    """
    reader = _Reader()
    state = None
    if reader.document(data, "$", ("state",)) is not None:
        state = reader.state(data, "$")
    if state is None:
        raise JsonFormatError(reader.problems or ["$: not a usable state"], source)
    return state


def position_from_json(data: Any, source: str | None = None) -> tuple[State, list[tuple[str, str]] | None]:
    """A position to adjudicate: a ``state`` document (and its optional ``orders``,
    as ``(json path, text)`` pairs), or a ``result`` document (its ``after`` state,
    so results chain into the next phase; no orders).

    :raises JsonFormatError: listing every bad field by JSON path.
    """
    reader = _Reader()
    kind = reader.document(data, "$", ("state", "result"))
    state, orders = None, None
    if kind == "state":
        state = reader.state(data, "$")
        orders = reader.order_texts(data, "$")
    elif kind == "result":
        if "after" not in data:
            reader.fail("$.after", "missing (a result document holds the new state in 'after')")
        else:
            state = reader.state(data["after"], "$.after")
    if state is None or reader.problems:
        raise JsonFormatError(reader.problems or ["$: not a usable position"], source)
    return state, orders
