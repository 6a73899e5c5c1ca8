"""Maps and variants as data: TOML files beside this module and their loader.

A map file declares provinces (kind, supply centre, split coasts, names), each
edge once per unit kind (``army``, ``fleet``, ``both``), the powers with their home
centres and starting units, and the variant facts (first year, centres to win).
The loader validates in stages and raises :class:`~dipsat.errors.MapError`
naming the file and key.
"""

from __future__ import annotations

import dataclasses
import difflib
import enum
import functools
import tomllib
import unicodedata
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..board import Location, Power, Unit, UnitKind
from ..errors import MapError
from ..state import State  # state.py names Variant for typing only: no cycle when the code runs

MAP_DIR = Path(__file__).resolve().parent


class ProvinceKind(enum.Enum):
    LAND = "land"
    COAST = "coast"
    SEA = "sea"


@dataclass(frozen=True, slots=True)
class Province:
    id: str
    name: str
    kind: ProvinceKind
    centre: bool = False
    coasts: tuple[str, ...] = ()
    home: Power | None = None

    @property
    def is_sea(self) -> bool:
        return self.kind is ProvinceKind.SEA

    @property
    def is_land(self) -> bool:
        return self.kind is not ProvinceKind.SEA


@dataclass(frozen=True, slots=True)
class PowerInfo:
    name: Power
    adjective: str
    home_centres: tuple[str, ...]
    units: tuple[Unit, ...]
    country: tuple[str, ...] = ()  # the provinces of its home country (centres or not)
    aliases: tuple[str, ...] = ()  # other names, as the map file writes them (AUS, Österreich ...)


@functools.lru_cache(maxsize=1 << 16)  # a pure function of short strings, asked again and again by the parsers
def fold(name: str) -> str:
    """Normalise a name for lookup: accents folded, case folded, dots dropped."""
    if name.isascii():
        return " ".join(name.casefold().replace(".", " ").split())
    decomposed = unicodedata.normalize("NFKD", name)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    plain = plain.replace("ß", "ss").casefold().replace(".", " ").replace("’", "'")
    return " ".join(plain.split())


_ARMY, _FLEET = UnitKind.ARMY, UnitKind.FLEET
"""Read once: a member read off its enum goes through the metaclass's attribute hook
(Python 3.11), and the prescan asks the map's moves of every unit."""

_CACHED = (("location", 1024), ("fleet_locations", None), ("reachable_coasts", None),
           ("_convoy_routes", 4096), ("convoy_reach", 4096), ("convoy_route_seas", 4096),  # bounded: the seas with
           ("distances_to", 256), ("fleet_distance", 4096), ("army_distance", 4096))  # fleets differ from game to game
"""The methods of :class:`Map` each map caches for itself, with the size of the cache."""


def _route_order(route: frozenset[str]) -> tuple[int, list[str]]:
    """Convoy routes in order: the shorter first, then by their seas' names."""
    return len(route), sorted(route)


@dataclass(frozen=True, eq=False)  # compared and hashed by identity: maps are loaded once and cached
class Map:
    """The geography of a variant: provinces, locations and adjacency per kind."""

    name: str
    provinces: dict[str, Province]
    army_adjacency: dict[str, frozenset[str]]
    fleet_adjacency: dict[Location, frozenset[Location]]
    province_names: dict[str, str]  # folded alias -> province id
    coast_names: dict[str, str]  # folded alias -> coast id
    coast_titles: dict[str, str]  # coast id -> "north coast"
    impassable: dict[str, str]  # folded alias -> id of an impassable area (Switzerland: swi)
    wing_adjacency: dict[str, frozenset[str]] = field(default_factory=dict)
    impassable_titles: dict[str, str] = field(default_factory=dict)  # impassable id -> "Switzerland"
    aliases: dict[str, tuple[str, ...]] = field(default_factory=dict)  # province, impassable or coast id -> its
    # other names as the map file writes them (English, German, Dutch, abbreviations): `dipsat map`
    closed: frozenset[str] = frozenset()
    """Provinces a player set-up closes (neutral home countries): no unit enters or leaves them."""
    base: str = ""
    """The bundled map this one is derived from by closing provinces ('' for a bundled map):
    its board geometry draws this one too."""

    @property
    def drawn_as(self) -> str:
        """The name of the map whose board geometry draws this one."""
        return self.base or self.name

    def __post_init__(self) -> None:
        self._add_caches()

    def _add_caches(self) -> None:
        """Each map answers the questions asked again and again of every phase once, from
        caches of its own (the map never changes): they go when the map goes."""
        for name, size in _CACHED:
            method = getattr(type(self), name).__get__(self)
            object.__setattr__(self, name, functools.lru_cache(maxsize=size)(method))

    def __getstate__(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k not in dict(_CACHED)}  # caches are not data

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._add_caches()

    # --- geography -------------------------------------------------------
    def province(self, pid: str) -> Province:
        return self.provinces[pid]

    def location(self, text: str) -> Location | None:
        """The location an id names on this map (``par``, ``stp/sc``), else None: made once
        per map and id (the readers of orders and positions ask for the same few)."""
        province, _, coast = text.partition("/")
        prov = self.provinces.get(province)
        if prov is None or (coast and coast not in prov.coasts):
            return None
        return Location(province, coast or None)

    def fleet_locations(self, pid: str) -> tuple[Location, ...]:
        """Where a fleet can stand in a province (its coasts, or the province)."""
        prov = self.provinces[pid]
        if prov.coasts:
            return tuple(Location(pid, c) for c in prov.coasts)
        if prov.kind is ProvinceKind.LAND:
            return ()
        return (Location(pid),)

    def can_occupy(self, kind: UnitKind, loc: Location) -> bool:
        """Can a unit of `kind` stand at `loc` (:attr:`placements`)?"""
        return (kind, loc.province, loc.coast) in self.placements

    @functools.cached_property
    def placements(self) -> frozenset[tuple[UnitKind, str, str | None]]:
        """Where a unit of each kind can stand, as (kind, province, coast), made once per map
        (reading a position asks it of every unit): an army in a land province, naming no
        coast; a fleet at sea or on a coast, naming the coast where the province has several
        (:meth:`fleet_locations`); a wing in any province, naming no coast."""
        out: set[tuple[UnitKind, str, str | None]] = set()
        for pid, prov in self.provinces.items():
            if prov.is_land:
                out.add((UnitKind.ARMY, pid, None))
            out.update((UnitKind.FLEET, pid, loc.coast) for loc in self.fleet_locations(pid))
            out.add((UnitKind.WING, pid, None))
        return frozenset(out)

    def can_move(self, kind: UnitKind, src: Location, dst: Location) -> bool:
        """Direct movement (no convoy) from src to dst, coasts exact for fleets."""
        if kind is _ARMY:
            return dst.coast is None and dst.province in self.army_adjacency.get(src.province, ())
        if kind is _FLEET:
            return dst in self.fleet_adjacency.get(src, ())
        return dst.province in self.wing_adjacency.get(src.province, ())

    def reachable_coasts(self, src: Location, dst_province: str) -> tuple[Location, ...]:
        """The locations of dst_province a fleet at src can move to directly."""
        return tuple(l for l in self.fleet_locations(dst_province) if l in self.fleet_adjacency.get(src, ()))

    def can_reach_province(self, kind: UnitKind, src: Location, dst_province: str) -> bool:
        """Could the unit move into the province at all (any coast)? DATC 6.B.4."""
        if kind is _FLEET:
            return dst_province in self._fleet_reach.get((src.province, src.coast), ())
        if kind is _ARMY:
            return dst_province in self.army_adjacency.get(src.province, ())
        return dst_province in self.wing_adjacency.get(src.province, ())

    @functools.cached_property
    def _fleet_reach(self) -> dict[tuple[str, str | None], frozenset[str]]:
        """The provinces a fleet at each location can move into (some coast of them, as
        :meth:`reachable_coasts` finds), keyed by (province, coast): a table made once per map."""
        return {(src.province, src.coast): frozenset(dst.province for dst in dsts
                                                     if dst in self.fleet_locations(dst.province))
                for src, dsts in self.fleet_adjacency.items()}

    @functools.cached_property
    def reach_table(self) -> dict[tuple[UnitKind, str, str | None], dict[str, frozenset[str | None]]]:
        """A table made once per map, for the prescan's common case: for a unit of each kind
        at each location, keyed by (kind, province, coast), the provinces other than its own
        that it can move into directly (:meth:`can_reach_province`), each with the coasts a
        move order may name to go there as written (:meth:`can_move`, with no DATC 4.B
        reading to make: None for a province without coasts, a coast the unit reaches for
        a fleet; none for a fleet's move inland). A location no unit of the kind can move
        from (an army on a coast, a fleet inland) has no entry."""
        table: dict[tuple[UnitKind, str, str | None], dict[str, frozenset[str | None]]] = {}
        for kind, adjacency in ((UnitKind.ARMY, self.army_adjacency), (UnitKind.WING, self.wing_adjacency)):
            for src, dsts in adjacency.items():
                table[kind, src, None] = {dst: frozenset({None}) for dst in dsts if dst in self.provinces and dst != src}
        for loc, locs in self.fleet_adjacency.items():
            reach = self._fleet_reach[loc.province, loc.coast] - {loc.province}
            table[UnitKind.FLEET, loc.province, loc.coast] = {
                dst: frozenset(d.coast for d in self.reachable_coasts(loc, dst)
                               if self.provinces[dst].kind is not ProvinceKind.LAND) for dst in reach}
        return table

    @functools.cached_property
    def reach_rows(self) -> dict[UnitKind, dict[str, dict[str, frozenset[str | None]]]]:
        """The rows of :attr:`reach_table` of the units that stand with no coast named (all
        but fleets on a split coast), by kind, then province: the prescan reads one for most
        units of every turn, with two subscripts and no key tuple to make and hash (a third
        of the time)."""
        rows: dict[UnitKind, dict[str, dict[str, frozenset[str | None]]]] = {kind: {} for kind in UnitKind}
        for (kind, province, coast), row in self.reach_table.items():
            if coast is None:
                rows[kind][province] = row
        return rows

    def neighbours(self, pid: str) -> frozenset[str]:
        """Provinces sharing a border with pid (any unit kind)."""
        return self.wing_adjacency.get(pid, frozenset())

    @functools.cached_property
    def sea_provinces(self) -> frozenset[str]:
        return frozenset(p for p, prov in self.provinces.items() if prov.is_sea)

    @functools.cached_property
    def sea_neighbours(self) -> dict[str, frozenset[str]]:
        """For convoys: the seas a fleet in each province's water touches."""
        out: dict[str, set[str]] = {p: set() for p in self.provinces}
        for src, dsts in self.fleet_adjacency.items():
            for dst in dsts:
                if dst.province in self.sea_provinces:
                    out[src.province].add(dst.province)
        return {p: frozenset(s) for p, s in out.items()}

    @functools.cached_property
    def _shores(self) -> dict[str, frozenset[str]]:
        """For convoys, a table made once per map: the coastal provinces (where a convoyed
        army can land or embark) each sea touches."""
        coast = ProvinceKind.COAST
        return {sea: frozenset(p for p in self.neighbours(sea) if self.provinces[p].kind is coast)
                for sea in self.sea_provinces}

    @functools.cached_property
    def _touching(self) -> dict[str, frozenset[str]]:
        """For convoy routes, a table made once per map: the areas that share a border with
        each province (its :meth:`neighbours` read the other way: where a chain of seas can
        start from it or end at it)."""
        out: dict[str, set[str]] = {}
        for area, near in self.wing_adjacency.items():
            for p in near:
                out.setdefault(p, set()).add(area)
        return {p: frozenset(areas) for p, areas in out.items()}

    def convoy_possible(self, src: str, dst: str, seas: Iterable[str] | None = None) -> bool:
        """Is there a chain of seas (all of them, or only `seas`) from src to dst?"""
        allowed = self.sea_provinces if seas is None else frozenset(seas)
        return dst in self.convoy_reach(src, allowed)

    def convoy_reach(self, src: str, allowed: frozenset[str]) -> frozenset[str]:
        """The coastal provinces a chain of the seas `allowed` could convoy an army in src
        (a coastal province) to, src itself too when a chain touches it again: the shores of
        the seas `allowed` reached from src from one sea to the next (cached: the prescan asks
        it of every army it checks a convoy for)."""
        if self.provinces[src].kind is not ProvinceKind.COAST:
            return frozenset()
        step, shores = self.sea_neighbours, self._shores
        frontier = [sea for sea in step[src] if sea in allowed]
        seen = set(frontier)
        coasts: set[str] = set()
        while frontier:
            sea = frontier.pop()
            coasts |= shores[sea]
            for nxt in step[sea]:
                if nxt in allowed and nxt not in seen:
                    seen.add(nxt)
                    frontier.append(nxt)
        return frozenset(coasts)

    def convoy_routes(self, src: str, dst: str, seas: Iterable[str]) -> tuple[frozenset[str], ...]:
        """Minimal chains of `seas` from src to dst: no route contains another (DATC 6.G.19)."""
        return self._convoy_routes(src, dst, frozenset(seas))

    def convoy_route_seas(self, src: str, dst: str, allowed: frozenset[str]) -> frozenset[str]:
        """The seas on some minimal chain of the seas `allowed` from src to dst (:meth:`convoy_routes`),
        at once (cached: the prescan asks it of every convoy order, DATC 4.E.1, 6.G.19)."""
        return frozenset().union(*self._convoy_routes(src, dst, allowed))

    def _convoy_routes(self, src: str, dst: str, allowed: frozenset[str]) -> tuple[frozenset[str], ...]:
        provinces, coast = self.provinces, ProvinceKind.COAST
        if provinces[src].kind is not coast or provinces[dst].kind is not coast:
            return ()
        touching = self._touching
        ends = touching.get(dst, frozenset())  # the areas a chain can end in: those touching dst
        # every simple chain of allowed seas from one touching src, ended where it touches dst
        # (a stack, not a recursive closure: that would be a reference cycle left to the collector)
        stack: list[tuple[str, ...]] = [(start,) for start in touching.get(src, frozenset()) & allowed]
        step = self.sea_neighbours
        found: set[frozenset[str]] = set()
        while stack:
            path = stack.pop()
            here = path[-1]
            if here in ends:
                found.add(frozenset(path))
                continue
            stack.extend(path + (nxt,) for nxt in step[here] if nxt in allowed and nxt not in path)
        if len(found) < 2:
            return tuple(found)
        return tuple(sorted((r for r in found if not any(o < r for o in found)), key=_route_order))

    # --- distances (cached: the civil-disorder rule asks them every adjustment phase, DATC 4.D.8) ---
    def distances_to(self, targets: frozenset[str]) -> dict[str, int]:
        """Moves over land and sea (across any border, :meth:`neighbours`) from each
        province to the nearest of `targets` (0 for a target itself); a province from
        which none can be reached is left out. The table is the map's: read it, never
        change it."""
        out = {t: 0 for t in targets}
        queue = deque(targets)  # breadth first: each province's distance is final when it is first reached
        neighbours = self.neighbours
        while queue:
            here = queue.popleft()
            for nxt in neighbours(here):
                if nxt not in out:
                    out[nxt] = out[here] + 1
                    queue.append(nxt)
        return out

    def fleet_distance(self, start: Location, targets: frozenset[str]) -> int | None:
        """Fleet moves from `start` to the nearest location in one of the provinces
        `targets` (None: none can be reached)."""
        adjacency = self.fleet_adjacency
        seen = {start}
        frontier = [start]
        steps = 0
        while frontier:
            if any(loc.province in targets for loc in frontier):
                return steps
            steps += 1
            reached = []
            for loc in frontier:
                for n in adjacency.get(loc, ()):
                    if n not in seen:
                        seen.add(n)
                        reached.append(n)
            frontier = reached
        return None

    def army_distance(self, start: str, targets: frozenset[str], seas: frozenset[str]) -> int | None:
        """Army moves from `start` to the nearest of `targets`, a convoy along a chain of
        the seas `seas` counting as one move (:meth:`convoy_reach`); None: none can be reached."""
        seen = {start: 0}
        queue = deque([start])
        army_adjacency, reach = self.army_adjacency, self.convoy_reach
        while queue:
            here = queue.popleft()
            if here in targets:
                return seen[here]
            for nxt in army_adjacency.get(here, frozenset()) | (reach(here, seas) - {here}):
                if nxt not in seen:
                    seen[nxt] = seen[here] + 1
                    queue.append(nxt)
        return None

    # --- names -----------------------------------------------------------
    def province_title(self, pid: str) -> str:
        """The full name of a province (or of an impassable area: orders may name one)."""
        prov = self.provinces.get(pid)
        return prov.name if prov is not None else self.impassable_titles[pid]

    def location_title(self, loc: Location) -> str:
        base = self.provinces[loc.province].name
        return f"{base} ({self.coast_titles[loc.coast]})" if loc.coast else base


@dataclass(frozen=True)
class Variant:
    """A map plus the powers, their starting position and the victory rule."""

    name: str
    title: str
    map: Map
    powers: tuple[PowerInfo, ...]
    start_year: int
    victory_centres: int
    power_names: dict[str, Power]  # folded alias -> power
    wings: bool = False
    tables: dict[str, object] = field(default_factory=dict, compare=False, repr=False)
    """The map file's game-level tables the board does not read (``variant``, ``setups``),
    read by :mod:`dipsat.setups`."""
    derived: dict[object, Variant] = field(default_factory=dict, init=False, compare=False, repr=False)
    """Variants derived from this one, kept with it so that each is made once and keeps
    its identity (maps compare by identity): :func:`dipsat.setups.closed_variant`."""

    def power_named(self, text: str) -> Power | None:
        """The power a name means: an exact alias, or else one power name it is a
        near-misspelling of ("Germnay": case files in the wild have typos)."""
        key = fold(text)
        if key in self.power_names:
            return self.power_names[key]
        if len(key) < 5 or " " in key:
            return None
        close = difflib.get_close_matches(key, [fold(p.name) for p in self.powers], n=2, cutoff=0.8)
        return self.power_names[close[0]] if len(close) == 1 else None

    def power(self, name: Power) -> PowerInfo:
        for info in self.powers:
            if info.name == name:
                return info
        raise KeyError(name)

    @functools.cached_property
    def power_order(self) -> tuple[Power, ...]:
        """The powers' names, in the variant's order (the order adjustments are made in)."""
        return tuple(info.name for info in self.powers)

    @functools.cached_property
    def home_of(self) -> dict[str, Power]:
        return {c: info.name for info in self.powers for c in info.home_centres}

    @functools.cached_property
    def centres(self) -> frozenset[str]:
        return frozenset(p for p, prov in self.map.provinces.items() if prov.centre)

    def initial_state(self) -> State:
        return State.initial(self)


# --- loading ---------------------------------------------------------------


@functools.lru_cache(maxsize=None)
def bundled_variants() -> tuple[str, ...]:
    """The names of the variants shipped with dipsat (the map files beside this module)."""
    return tuple(sorted(p.stem for p in MAP_DIR.glob("*.toml")))


@functools.lru_cache(maxsize=None)
def load_variant(name: str = "standard") -> Variant:
    """Load a bundled variant by name (``standard``, ``modern``: :func:`bundled_variants`).

    Only those names are accepted: a name read from a file (a game, a JSON state) never
    reaches the file system. A map file of one's own is loaded with :func:`load_variant_file`."""
    if name not in bundled_variants():
        shown = repr(name) if len(name) <= 40 else repr(name[:37] + "...")
        raise MapError(f"unknown variant {shown} (known: {', '.join(bundled_variants())})")
    return load_variant_file(MAP_DIR / f"{name}.toml")


@functools.lru_cache(maxsize=None)  # the registry of loaded variants, one per map file: maps compare by identity
def load_variant_file(path: str | Path) -> Variant:
    """Load a variant from a map file named explicitly (by a program or on a command line)."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise MapError(f"{path}: cannot read: {getattr(exc, 'strerror', None) or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise MapError(f"{path.name}: {exc}") from None
    return _Loader(path.name, data).variant()


def load_map(name: str = "standard") -> Map:
    return load_variant(name).map


VARIANT_NAMES = {"standard": ("standard", False), "datc_standard": ("standard", True), "modern": ("modern", True)}
"""The variants by the names case files and game files give them (folded): the bundled map and
whether wings are on (``DATC_Standard``: the standard map with wings)."""


def resolve_variant(name: str) -> Variant:
    """The variant a VARIANT_ALL name means (``DATC_Standard``: standard map with wings).

    :raises ValueError: an unknown name."""
    key = fold(name).replace(" ", "_")
    if key not in VARIANT_NAMES:
        raise ValueError(f"unknown variant {name!r} (known: Standard, DATC_Standard, Modern)")
    map_name, wings = VARIANT_NAMES[key]
    variant = load_variant(map_name)
    return dataclasses.replace(variant, wings=True) if wings and not variant.wings else variant


def _other_names(key: str, entry: dict[str, Any]) -> tuple[str, ...]:
    """A map entry's aliases as written, without its id and its name, each once."""
    name = entry.get("name", key)
    return tuple(dict.fromkeys(a for a in entry.get("aliases", []) if fold(a) not in (fold(key), fold(name))))


class _Loader:
    """Staged validation: provinces -> names -> edges -> powers."""

    def __init__(self, source: str, data: dict[str, Any]) -> None:
        self.source = source
        self.data = data

    def fail(self, key: str, message: str) -> MapError:
        return MapError(f"{self.source}: [{key}] {message}")

    def variant(self) -> Variant:
        info = self.data.get("variant")
        if not isinstance(info, dict):
            raise self.fail("variant", "missing table")
        provinces = self.provinces()
        coast_names, coast_titles = self.coasts()
        army, fleet = self.edges(provinces)
        wing = self._wing_adjacency(army, fleet)
        homes, powers, power_names = self.powers(provinces)
        provinces = {
            pid: Province(p.id, p.name, p.kind, p.centre, p.coasts, homes.get(pid))
            for pid, p in provinces.items()
        }
        names = self.province_names(provinces, set(power_names) | set(coast_names))
        closed = self.data.get("impassable", {})
        impassable = {fold(alias): pid for pid, entry in closed.items()
                      for alias in [pid, entry.get("name", pid), *entry.get("aliases", [])]}
        for alias, pid in impassable.items():
            if alias in names:
                raise self.fail(f"impassable.{pid}", f"name {alias!r} also names the province {names[alias]!r}")
        written = {key: _other_names(key, entry) for table in ("provinces", "impassable", "coasts")
                   for key, entry in self.data.get(table, {}).items()}
        the_map = Map(info.get("name", "?"), provinces, army, fleet, names, coast_names,
                      coast_titles, impassable, wing, {pid: entry.get("name", pid) for pid, entry in closed.items()},
                      written)
        for power in powers:
            for unit in power.units:
                if not the_map.can_occupy(unit.kind, unit.location):
                    raise self.fail(f"powers.{power.name}", f"unit {unit.kind} {unit.location} cannot stand there")
        try:
            return Variant(
                name=info["name"], title=str(info.get("title", info["name"])), map=the_map,
                powers=tuple(powers), start_year=int(info["start_year"]),
                victory_centres=int(info["victory_centres"]), power_names=power_names,
                wings=bool(info.get("wings", False)),
                tables={"variant": info, "setups": self.data.get("setups", [])},
            )
        except KeyError as exc:
            raise self.fail("variant", f"missing key {exc.args[0]!r}") from None

    def provinces(self) -> dict[str, Province]:
        out: dict[str, Province] = {}
        for pid, entry in self.data.get("provinces", {}).items():
            try:
                kind = ProvinceKind(entry["kind"])
                out[pid] = Province(pid, entry["name"], kind, bool(entry.get("centre", False)),
                                    tuple(entry.get("coasts", ())))
            except (KeyError, ValueError) as exc:
                raise self.fail(f"provinces.{pid}", f"bad entry: {exc}") from None
        if not out:
            raise self.fail("provinces", "no provinces")
        return out

    def coasts(self) -> tuple[dict[str, str], dict[str, str]]:
        names: dict[str, str] = {}
        titles: dict[str, str] = {}
        for cid, entry in self.data.get("coasts", {}).items():
            titles[cid] = entry.get("name", cid)
            for alias in [cid, entry.get("name", cid), *entry.get("aliases", [])]:
                names[fold(alias)] = cid
        return names, titles

    def province_names(self, provinces: dict[str, Province], reserved: set[str]) -> dict[str, str]:
        names: dict[str, str] = {}
        for pid, entry in self.data["provinces"].items():
            for alias in [pid, entry["name"], *entry.get("aliases", [])]:
                key = fold(alias)
                other = names.get(key)
                if other is not None and other != pid:
                    raise self.fail(f"provinces.{pid}", f"name {alias!r} also names {other!r}")
                names[key] = pid
        return names

    def _location(self, text: str, provinces: dict[str, Province], key: str) -> Location:
        loc = Location.parse(text)
        prov = provinces.get(loc.province)
        if prov is None:
            raise self.fail(key, f"unknown province {loc.province!r}")
        if loc.coast is not None and loc.coast not in prov.coasts:
            raise self.fail(key, f"{prov.name} has no coast {loc.coast!r}")
        return loc

    def edges(self, provinces: dict[str, Province]) -> tuple[dict[str, frozenset[str]], dict[Location, frozenset[Location]]]:
        adjacency = self.data.get("adjacency", {})
        army: dict[str, set[str]] = {p: set() for p in provinces}
        fleet: dict[Location, set[Location]] = {}
        seen: set[frozenset[Location]] = set()
        for group in ("army", "fleet", "both"):
            for edge in adjacency.get(group, []):
                key = f"adjacency.{group}"
                parts = edge.split()
                if len(parts) != 2:
                    raise self.fail(key, f"edge {edge!r} is not 'a b'")
                a, b = (self._location(p, provinces, key) for p in parts)
                pair = frozenset((a, b))
                if pair in seen:
                    raise self.fail(key, f"edge {edge!r} declared twice")
                seen.add(pair)
                if group in ("army", "both"):
                    if not (provinces[a.province].is_land and provinces[b.province].is_land):
                        raise self.fail(key, f"army edge {edge!r} touches a sea")
                    army[a.province].add(b.province)
                    army[b.province].add(a.province)
                if group in ("fleet", "both"):
                    for x in (a, b):
                        if provinces[x.province].coasts and x.coast is None:
                            raise self.fail(key, f"fleet edge {edge!r}: {x.province} needs a coast")
                    fleet.setdefault(a, set()).add(b)
                    fleet.setdefault(b, set()).add(a)
        return ({p: frozenset(s) for p, s in army.items()}, {l: frozenset(s) for l, s in fleet.items()})

    @staticmethod
    def _wing_adjacency(army: dict[str, frozenset[str]], fleet: dict[Location, frozenset[Location]]) -> dict[str, frozenset[str]]:
        out: dict[str, set[str]] = {p: set(s) for p, s in army.items()}
        for src, dsts in fleet.items():
            out.setdefault(src.province, set()).update(d.province for d in dsts)
        return {p: frozenset(s) for p, s in out.items()}

    def powers(self, provinces: dict[str, Province]) -> tuple[dict[str, Power], list[PowerInfo], dict[str, Power]]:
        homes: dict[str, Power] = {}
        infos: list[PowerInfo] = []
        names: dict[str, Power] = {}
        for entry in self.data.get("powers", []):
            name = entry.get("name")
            key = f"powers.{name}"
            if not name:
                raise self.fail("powers", "power without a name")
            for centre in entry.get("home_centres", []):
                if centre not in provinces or not provinces[centre].centre:
                    raise self.fail(key, f"home centre {centre!r} is not a supply centre")
                homes[centre] = name
            units = []
            for text in entry.get("units", []):
                letter, _, where = text.partition(" ")
                try:
                    kind = UnitKind(letter.upper())
                except ValueError:
                    raise self.fail(key, f"unit {text!r}: unknown kind {letter!r}") from None
                units.append(Unit(name, kind, self._location(where, provinces, key)))
            adjective = entry.get("adjective", name)
            for alias in [name, adjective, *entry.get("aliases", [])]:
                names[fold(alias)] = name
            country = tuple(entry.get("country", entry.get("home_centres", [])))
            for pid in country:
                if pid not in provinces:
                    raise self.fail(key, f"country province {pid!r} is unknown")
            infos.append(PowerInfo(name, adjective, tuple(entry.get("home_centres", [])), tuple(units), country,
                                   tuple(a for a in entry.get("aliases", []) if a not in (name, adjective))))
        if not infos:
            raise self.fail("powers", "no powers")
        return homes, infos, names
