"""Board pictures as SVG: pure functions returning text, keyword-only options.

>>> import dipsat, dipsat.printers.svg
>>> state = dipsat.load_variant("standard").initial_state()
>>> picture = dipsat.printers.svg.board(state)
>>> picture.startswith("<svg")
True

:func:`board` draws a position (provinces, supply centres in their owner's colour, blockaded
centres, units, dislodged units), optionally the orders given (before adjudication) or the
result of a phase (:class:`~dipsat.results.PhaseResult`): every order with its outcome,
bounces, standoffs, dislodged units displaced with their retreat options, cut supports,
paradoxes with the rule that settled them; builds, removals, disbands and waives in the other
phases. A legend says what each mark means. Every element carries an id or classes
(``unit-england-F-lon``, ``order-move-lon-nth`` with classes ``order move failed bounced``)
so that programs and tests can find it. Same input, same bytes.

The map's layers are in ``<g id="map-layers">``; when the picture is too small to read the
units of small provinces (the whole map at its default width), an inset (``id="inset"``, class
``inset``) magnifies them in a corner, and ``id="inset-frame"`` outlines the part it shows
(:mod:`dipsat.printers.inset`). A label that has no room in its province beside its units
stands beside it with a line to it (``label-leader-<province>``, class ``label-leader``).

The map is drawn from the geometry in ``maps/<map>.geometry.json`` (our own data, see
``scripts/make_geometry.py``).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape

from ..board import Location, PhaseKind, Unit, UnitKind
from ..maps.geometry import Geometry, contains, load_geometry
from .inset import inset_svg, plan
from .placement import place_dislodged, place_labels, sea_route, square
from ..orders import (Build, Convoy, Disband, Hold, Move, Order, Remove, Retreat, SupportHold, SupportMove,
                     Waive, order_power)
from ..results import OrderResult, PhaseResult
from ..state import State

Point = tuple[float, float]

from .palette import IMPASSABLE, LAND, OFFBOARD, SEA, SPARE as _SPARE, shade  # noqa: F401
from .palette import POWER_COLOURS as POWER_COLOURS  # (dipsat.svg.POWER_COLOURS)
from .palette import mix as _mix

BORDER = "#6e6a60"
INK = "#222222"
FAILED = "#d0141b"
PARADOX = "#8e2bd0"
OPTION = "#7a7a7a"
HIGHLIGHT = "#ff00b4"


# --- reading a result: the one place that looks at an order's outcome value -----------------


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a picture shows of one order's outcome (:mod:`dipsat.outcomes`)."""

    succeeded: bool
    mark: str
    """``succeeds``, or the result code: ``bounced``, ``cut``, ``dislodged``, ``no-convoy``,
    ``paradox``, ``illegal``, ``void``, ``blocked``, ``fails``."""
    text: str
    """In words, for the tooltip: the outcome's first fact (``fails: bounced ...: standoff with ...``)."""


def outcome_of(result: OrderResult) -> Outcome:
    """What to draw of one order's outcome value: whether it succeeded, its result code as
    a CSS class, and its decisive fact in words (:func:`dipsat.printers.explain.explain_order`)."""
    from .explain import explain_order
    outcome = result.outcome
    text = explain_order(result)[0]
    if outcome.succeeds:
        return Outcome(True, "succeeds", text)
    code = outcome.code
    return Outcome(False, str(code).replace(" ", "-") if code is not None else "fails", text)


# --- layout helpers -------------------------------------------------------------------


def _loc_id(loc: Location) -> str:
    return f"{loc.province}-{loc.coast}" if loc.coast else loc.province


def _unit_id(prefix: str, unit: Unit) -> str:
    return f"{prefix}-{_slug(unit.power)}-{unit.kind.value}-{_loc_id(unit.location)}"


def _slug(text: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in text.lower())


def _f(v: float) -> str:
    """A coordinate: one decimal, no trailing zero (deterministic text)."""
    text = f"{v:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _ink_on(colour: str) -> str:
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#ffffff"


def _toward(a: Point, b: Point, d: float) -> Point:
    """The point `d` from a toward b."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = math.hypot(dx, dy) or 1.0
    return a[0] + dx / n * d, a[1] + dy / n * d


def _lerp(a: Point, b: Point, t: float) -> Point:
    return a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t


class _Ids:
    """Element ids, unique within a picture (a second order to the same unit gets -2)."""

    def __init__(self) -> None:
        self.seen: dict[str, int] = {}

    def __call__(self, base: str) -> str:
        n = self.seen.get(base, 0) + 1
        self.seen[base] = n
        return base if n == 1 else f"{base}-{n}"


@dataclass
class _Drawn:
    """A move's arrow, for the supports that aim at it."""

    start: Point
    end: Point
    dest: str


# --- the picture ----------------------------------------------------------------------


MIN_SIZE, MAX_SIZE = 64, 8192
"""The widths in pixels a picture may have."""
FULL_RADIUS = 8.0
"""The least radius in pixels of a unit on the whole map at its default width (the standard
map's at 1000 pixels: 8.4; small provinces get an inset, :mod:`dipsat.printers.inset`)."""
_COLOUR = re.compile(r"#[0-9a-fA-F]{6}")


def board(state: State | None = None, *, result: PhaseResult | None = None,
          orders: Sequence[Order] | None = None, area: Iterable[str] | str | None = None,
          size: int | None = None, legend: bool = True, labels: bool = True,
          title: str | None = None, colours: Mapping[str, str] | None = None,
          highlight: Iterable[str] = ()) -> str:
    """The board as SVG text.

    :param state: the position (with ``result``: leave it out, the result's position before
        the phase is drawn).
    :param result: a phase's result: its orders are drawn with their outcomes.
    :param orders: orders to draw without outcomes (before adjudication).
    :param area: ``None`` or ``"full"`` for the whole map, ``"auto"`` for the provinces the units
        and orders touch plus a margin (a corner of the map, as DATC diagrams show it), or province
        ids (an iterable, or one string of ids separated by commas).
    :param size: the picture's width in pixels, :data:`MIN_SIZE` to :data:`MAX_SIZE` (default 1000
        for the whole map, wider for a map whose units would be smaller than :data:`FULL_RADIUS`
        pixels, 760 for a corner).
    :param legend: add a legend of the marks used, with the title.
    :param labels: write the province abbreviations.
    :param title: the legend's title (default: the phase).
    :param colours: power name -> colour (``#rrggbb``), over :data:`POWER_COLOURS`.
    :param highlight: province ids to outline in :data:`HIGHLIGHT` (e.g. where two adjudications differ).
    """
    if state is None:
        if result is None:
            raise TypeError("board() needs a state or a result")
        state = result.before
    if size is not None and not MIN_SIZE <= size <= MAX_SIZE:
        raise ValueError(f"size: expected a width of {MIN_SIZE} to {MAX_SIZE} pixels, not {size}")
    for power, colour in (colours or {}).items():
        if not _COLOUR.fullmatch(colour):
            raise ValueError(f"colours: expected #rrggbb for {power}, not {colour!r}")
    geometry = load_geometry(state.map.drawn_as)
    painter = _Painter(state, geometry, result, colours or {})
    painter.highlight = sorted(set(highlight))
    if result is not None:
        painter.results(result)
    elif orders:
        painter.orders(orders)
    box = painter.view_box(area)
    return painter.svg(box, size, legend, labels, title)


def _power_colours(state: State, overrides: Mapping[str, str]) -> dict[str, str]:
    out = {}
    for i, info in enumerate(state.variant.powers):
        out[info.name] = overrides.get(info.name) or POWER_COLOURS.get(info.name) or _SPARE[i % len(_SPARE)]
    return out


class _Painter:
    def __init__(self, state: State, geometry: Geometry, result: PhaseResult | None,
                 overrides: Mapping[str, str]) -> None:
        self.state = state
        self.map = state.map
        self.geo = geometry
        self.colours = _power_colours(state, overrides)
        self.r = 42.0 / geometry.km_per_unit  # unit radius: about 42 km
        self.ids = _Ids()
        self.touched: set[str] = set()
        self.marks: list[str] = []  # order and result elements, in drawing order
        self.used: set[str] = set()  # legend entries
        self.notes: list[str] = []  # legend lines (paradox rules, waives)
        self.dislodged: dict[Unit, Point] = {}  # dislodged unit -> where it is drawn
        self.retreat_options: dict[Unit, tuple[Location, ...]] = {}
        self.standoffs: frozenset[str] = state.standoffs
        self.gone: set[Unit] = set()  # units removed or disbanded by an order or in the result
        self.moves: dict[str, _Drawn] = {}  # province of a moving unit -> its arrow
        self.given: tuple[Order, ...] = ()
        self.box = (0.0, 0.0, geometry.width, geometry.height)
        self.highlight: list[str] = []  # provinces outlined
        for d in state.dislodged:
            self.dislodged[d.unit] = self._displaced(d.unit, d.attacker_origin)
        if result is not None and state.phase.kind is PhaseKind.MOVEMENT:
            from ..report import dislodged_report
            for info in dislodged_report(result):
                unit = info.dislodged.unit
                self.dislodged[unit] = self._displaced(unit, info.dislodged.attacker_origin)
                self.retreat_options[unit] = info.options
            self.standoffs = result.after.standoffs | result.standoffs
        elif state.phase.kind is PhaseKind.RETREAT:
            from ..phases import retreat_options
            from ..rules import Rules
            rules = result.rules if result is not None else Rules.profile()
            for d in state.dislodged:
                self.retreat_options[d.unit] = retreat_options(state, d, rules)
        retreating = state.phase.kind is PhaseKind.RETREAT and self.dislodged
        for unit in self.dislodged if retreating else [*state.units, *self.dislodged]:
            self.touched.add(unit.province)  # a retreat phase: its corner is the dislodged units'
        for options in self.retreat_options.values():
            self.touched |= {loc.province for loc in options}

    # --- geometry of marks ------------------------------------------------------------

    def _displaced(self, unit: Unit, attacker: str | None) -> Point:
        """Where a dislodged unit is drawn: inside its own province, off the place of the unit
        that dislodged it, away from its attacker (:func:`~dipsat.printers.placement.place_dislodged`)."""
        home = self.geo.unit_point(unit.location)
        shape = self.geo.provinces.get(unit.province)
        if shape is None:
            return home[0] + self.r * 1.1, home[1] - self.r * 1.1
        came = self.geo.provinces[attacker].unit if attacker is not None and attacker in self.geo.provinces else None
        taken = [square(self._at(u.location), self.r * 1.1) for u in self.state.units if u != unit]
        if shape.centre is not None:
            taken.append(square(shape.centre, self.r * 0.6))
        return place_dislodged(shape, home, came, self.r, taken)

    def _at(self, loc: Location) -> Point:
        return self.geo.unit_point(loc)

    def _unit_point(self, unit: Unit) -> Point:
        return self.dislodged.get(unit) or self._at(unit.location)

    # --- orders -----------------------------------------------------------------------

    def results(self, result: PhaseResult) -> None:
        for line in result.backup_rules:
            self.notes.append(f"Backup rule: {line}")
        pending: list[tuple[Order, Outcome | None, Unit | None]] = []
        for r in result.results:
            pending.append((r.order, outcome_of(r), r.unit))
        self._draw_all(pending)
        if result.before.phase.kind is PhaseKind.ADJUSTMENT:
            from ..report import disbanded_report
            for info in disbanded_report(result):  # civil-disorder removals
                if info.unit not in self.gone:
                    self._cross(self._unit_point(info.unit), f"removed-{_loc_id(info.unit.location)}",
                                "removal civil-disorder", info.reason)
                    self.used.add("remove")
                    self.gone.add(info.unit)

    def orders(self, orders: Sequence[Order]) -> None:
        self._draw_all([(o, None, None) for o in orders])

    def _draw_all(self, items: list[tuple[Order, Outcome | None, Unit | None]]) -> None:
        self.given = tuple(order for order, _, _ in items)
        # moves first, so that supports can aim at their arrows
        ranked = sorted(range(len(items)), key=lambda i: (not isinstance(items[i][0], (Move, Retreat)), i))
        for i in ranked:
            order, outcome, unit = items[i]
            self._order(order, outcome, unit)

    def _unit_of(self, order: Order, unit: Unit | None) -> Unit | None:
        if unit is not None:
            return unit
        if isinstance(order, (Retreat, Disband)):
            return next((d.unit for d in self.state.dislodged if d.unit.province == order.unit.province), None)
        if isinstance(order, (Build, Waive)):
            return None
        return self.state.unit_at(order.unit.province)

    def _classes(self, kind: str, outcome: Outcome | None) -> str:
        if outcome is None:
            return f"order {kind}"
        if outcome.succeeded:
            return f"order {kind} succeeds"
        self.used.add("failed")
        if outcome.mark in ("paradox", "cut", "bounced", "void", "illegal"):
            self.used.add(outcome.mark)
        return f"order {kind} failed {outcome.mark}"

    def _order(self, order: Order, outcome: Outcome | None, unit: Unit | None) -> None:
        unit = self._unit_of(order, unit)
        power = order_power(self.state, order) or (unit.power if unit else None)
        colour = _mix(self.colours.get(power or "", INK), "#000000", 0.8) if power else INK
        failed = outcome is not None and not outcome.succeeded
        tip = f"<title>{escape(_order_text(order))}{escape(' — ' + outcome.text) if outcome else ''}</title>"
        if isinstance(order, Waive):
            who = power or "?"
            oid = self.ids(f"order-waive-{_slug(who)}")
            self.marks.append(f'<g id="{oid}" class="{self._classes("waive", outcome)}">{tip}</g>')
            self.notes.append(f"{who} waives a build" + (f" ({outcome.text})" if failed else ""))
            return
        if isinstance(order, Build):
            self._build(order, outcome, power, tip)
            return
        src = self._unit_point(unit) if unit is not None else self._at(order.unit.location)
        self.touched.add(order.unit.province)
        src_id = _loc_id(unit.location if unit else order.unit.location)
        if isinstance(order, (Move, Retreat)):
            kind = "move" if isinstance(order, Move) else "retreat"
            dst_loc = order.dest
            self.touched.add(dst_loc.province)
            dst = self._at(dst_loc)
            oid = self.ids(f"order-{kind}-{src_id}-{_loc_id(dst_loc)}")
            routes = self._convoy_routes(order, src, dst) if isinstance(order, Move) else []
            points = [src, *(routes[0] if routes else []), dst]
            extra = ""
            for other in routes[1:]:  # another route through other fleets: a thinner line
                chain = [src, *other, dst]
                ends = [_toward(chain[0], chain[1], self.r), *chain[1:-1], _toward(chain[-1], chain[-2], self.r)]
                extra += (f'<path class="route" d="M{"L".join(f"{_f(x)} {_f(y)}" for x, y in ends)}" fill="none" '
                          f'stroke="{colour}" stroke-width="{_f(self.r * 0.14)}" stroke-linejoin="round"/>')
            a = _toward(points[0], points[1], self.r)
            # the arrowhead reaches 0.5 r past the line's end: it ends short of a unit there, so the head shows
            b = _toward(points[-1], points[-2], self.r * (1.6 if self._occupied(dst_loc.province) else 0.4))
            pts = [a, *points[1:-1], b]
            d = "M" + "L".join(f"{_f(x)} {_f(y)}" for x, y in pts)
            self.moves[order.unit.province] = _Drawn(pts[-2], pts[-1], dst_loc.province)
            body = (f'<path d="{d}" fill="none" stroke="{colour}" stroke-width="{_f(self.r * 0.32)}" '
                    f'stroke-linejoin="round" marker-end="url(#arrow-{_slug(power or "none")})"/>')
            mark = ""
            if failed:
                mid = _lerp(pts[-2], pts[-1], 0.55)
                mark = self._fail_mark(mid, outcome)
                if outcome.mark == "bounced":
                    mark += self._bar(pts[-2], pts[-1])
            self.used.add("convoyed" if len(points) > 2 else kind)
            self.marks.append(f'<g id="{oid}" class="{self._classes(kind, outcome)}">{tip}{extra}{body}{mark}</g>')
            return
        if isinstance(order, Hold):
            oid = self.ids(f"order-hold-{src_id}")
            body = (f'<circle cx="{_f(src[0])}" cy="{_f(src[1])}" r="{_f(self.r * 1.45)}" fill="none" '
                    f'stroke="{colour}" stroke-width="{_f(self.r * 0.28)}"/>')
            mark = self._fail_mark(_toward(src, (src[0] + 1, src[1] - 1), self.r * 1.45), outcome) if failed else ""
            self.used.add("hold")
            self.marks.append(f'<g id="{oid}" class="{self._classes("hold", outcome)}">{tip}{body}{mark}</g>')
            return
        if isinstance(order, SupportHold):
            target = self._target_unit(order.target.location)
            end = self._unit_point(target) if target else self._at(order.target.location)
            self.touched.add(order.target.province)
            oid = self.ids(f"order-support-{src_id}-{_loc_id(order.target.location)}")
            a, b = _toward(src, end, self.r), _toward(end, src, self.r * 1.5)
            body = (f'<path d="M{_f(a[0])} {_f(a[1])}L{_f(b[0])} {_f(b[1])}" {self._dashed(colour, 0.22)}/>'
                    f'<circle cx="{_f(end[0])}" cy="{_f(end[1])}" r="{_f(self.r * 1.5)}" {self._dashed(colour, 0.18)}/>')
            self._support(oid, outcome, tip, body, _lerp(a, b, 0.25))
            return
        if isinstance(order, SupportMove):
            self.touched |= {order.target.province, order.dest.province}
            drawn = self.moves.get(order.target.province)
            target = self._target_unit(order.target.location)
            t_src = self._unit_point(target) if target else self._at(order.target.location)
            if drawn is not None and drawn.dest == order.dest.province:
                end = _lerp(drawn.start, drawn.end, 0.5)
            else:
                end = _lerp(_toward(t_src, self._at(order.dest), self.r), self._at(order.dest), 0.5)
            oid = self.ids(f"order-support-{src_id}-{_loc_id(order.target.location)}-{_loc_id(order.dest)}")
            a = _toward(src, end, self.r)
            ctrl = self._bend(a, end)
            body = (f'<path d="M{_f(a[0])} {_f(a[1])}Q{_f(ctrl[0])} {_f(ctrl[1])} {_f(end[0])} {_f(end[1])}" '
                    f'{self._dashed(colour, 0.22)} marker-end="url(#dot-{_slug(power or "none")})"/>')
            self._support(oid, outcome, tip, body, _lerp(a, end, 0.25))
            return
        if isinstance(order, Convoy):
            self.touched |= {order.target.province, order.dest.province}
            oid = self.ids(f"order-convoy-{src_id}-{_loc_id(order.target.location)}-{_loc_id(order.dest)}")
            body = (f'<circle cx="{_f(src[0])}" cy="{_f(src[1])}" r="{_f(self.r * 1.45)}" fill="none" '
                    f'stroke="{colour}" stroke-width="{_f(self.r * 0.26)}" '
                    f'stroke-dasharray="{_f(self.r * 0.7)} {_f(self.r * 0.3)}"/>')
            if order.target.province not in self.moves:  # no convoyed move drawn: show where to
                t = self._at(order.target.location)
                dst = self._at(order.dest)
                a, b = _toward(t, src, self.r), _toward(src, t, self.r * 1.45)
                c, e = _toward(src, dst, self.r * 1.45), _toward(dst, src, self.r)
                body += (f'<path d="M{_f(a[0])} {_f(a[1])}L{_f(b[0])} {_f(b[1])}M{_f(c[0])} {_f(c[1])}'
                         f'L{_f(e[0])} {_f(e[1])}" fill="none" stroke="{colour}" stroke-width="{_f(self.r * 0.18)}" '
                         f'stroke-dasharray="{_f(self.r * 0.7)} {_f(self.r * 0.3)}"/>')
            mark = self._fail_mark(_toward(src, (src[0] + 1, src[1] - 1), self.r * 1.45), outcome) if failed else ""
            self.used.add("convoy")
            self.marks.append(f'<g id="{oid}" class="{self._classes("convoy", outcome)}">{tip}{body}{mark}</g>')
            return
        if isinstance(order, (Disband, Remove)):
            kind = "disband" if isinstance(order, Disband) else "remove"
            oid = self.ids(f"order-{kind}-{src_id}")
            if unit is not None and (outcome is None or outcome.succeeded):
                self.gone.add(unit)
            self._cross(src, oid, self._classes(kind, outcome), tip, drawn=outcome is None or outcome.succeeded)
            self.used.add(kind)
            return

    def _dashed(self, colour: str, width: float) -> str:
        """The stroke of a support line."""
        return (f'fill="none" stroke="{colour}" stroke-width="{_f(self.r * width)}" '
                f'stroke-dasharray="{_f(self.r * 0.5)} {_f(self.r * 0.35)}"')

    def _support(self, oid: str, outcome: Outcome | None, tip: str, body: str, at: Point) -> None:
        mark = self._fail_mark(at, outcome) if outcome is not None and not outcome.succeeded else ""
        self.used.add("support")
        self.marks.append(f'<g id="{oid}" class="{self._classes("support", outcome)}">{tip}{body}{mark}</g>')

    def _build(self, order: Build, outcome: Outcome | None, power: str | None, tip: str) -> None:
        loc = order.location
        self.touched.add(loc.province)
        p = self._at(loc)
        oid = self.ids(f"order-build-{_loc_id(loc)}")
        colour = self.colours.get(power or "", "#ffffff")
        letter = order.kind.value if order.kind else "?"
        body = self._unit_symbol(p, colour, letter, ghost=True)
        mark = self._fail_mark((p[0] + self.r, p[1] - self.r), outcome) if outcome and not outcome.succeeded else ""
        self.used.add("build")
        self.marks.append(f'<g id="{oid}" class="{self._classes("build", outcome)}">{tip}{body}{mark}</g>')

    def _cross(self, p: Point, oid: str, classes: str, tip: str, drawn: bool = True) -> None:
        s = self.r * 1.15
        colour = FAILED if drawn else OPTION
        body = (f'<path d="M{_f(p[0] - s)} {_f(p[1] - s)}L{_f(p[0] + s)} {_f(p[1] + s)}M{_f(p[0] - s)} {_f(p[1] + s)}'
                f'L{_f(p[0] + s)} {_f(p[1] - s)}" stroke="{colour}" stroke-width="{_f(self.r * 0.35)}" '
                f'stroke-linecap="round"/>')
        if not tip.startswith("<title>"):
            tip = f"<title>{escape(tip)}</title>"
        self.marks.append(f'<g id="{oid}" class="{classes}">{tip}{body}</g>')

    def _fail_mark(self, p: Point, outcome: Outcome | None) -> str:
        if outcome is None:
            return ""
        if outcome.mark == "paradox":
            return (f'<g class="mark paradox"><circle cx="{_f(p[0])}" cy="{_f(p[1])}" r="{_f(self.r * 0.75)}" '
                    f'fill="{PARADOX}" stroke="#ffffff" stroke-width="{_f(self.r * 0.12)}"/>'
                    f'<text x="{_f(p[0])}" y="{_f(p[1] + self.r * 0.36)}" font-size="{_f(self.r * 1.05)}" '
                    f'text-anchor="middle" fill="#ffffff" font-weight="bold">!</text></g>')
        s = self.r * 0.55
        colour = OPTION if outcome.mark in ("void", "illegal") else FAILED
        return (f'<path class="mark {outcome.mark}" d="M{_f(p[0] - s)} {_f(p[1] - s)}L{_f(p[0] + s)} {_f(p[1] + s)}'
                f'M{_f(p[0] - s)} {_f(p[1] + s)}L{_f(p[0] + s)} {_f(p[1] - s)}" stroke="{colour}" '
                f'stroke-width="{_f(self.r * 0.3)}" stroke-linecap="round"/>')

    def _bar(self, a: Point, b: Point) -> str:
        """A bar across the arrow's tip: the move bounced."""
        dx, dy = b[0] - a[0], b[1] - a[1]
        n = math.hypot(dx, dy) or 1.0
        nx, ny = -dy / n * self.r * 0.8, dx / n * self.r * 0.8
        c = _toward(b, a, self.r * 0.6)
        return (f'<path class="mark bounce" d="M{_f(c[0] - nx)} {_f(c[1] - ny)}L{_f(c[0] + nx)} {_f(c[1] + ny)}" '
                f'stroke="{FAILED}" stroke-width="{_f(self.r * 0.3)}" stroke-linecap="round"/>')

    def _bend(self, a: Point, b: Point) -> Point:
        """The control point of a gently curved support line."""
        mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
        dx, dy = b[0] - a[0], b[1] - a[1]
        return mx - dy * 0.15, my + dx * 0.15

    def _occupied(self, province: str) -> bool:
        return self.state.unit_at(province) is not None

    def _target_unit(self, loc: Location) -> Unit | None:
        return self.state.unit_at(loc.province)

    def _convoy_routes(self, move: Move, src: Point, dst: Point) -> list[list[Point]]:
        """The chains of convoying fleets an army's convoyed move passes (the shortest first),
        each in order from the army (at `src`) to its destination (`dst`): the fleets' points,
        with a point on the border between two provinces in a row where a straight line would
        cross land (:func:`~dipsat.printers.placement.sea_route`)."""
        if move.path:
            routes = [frozenset(move.path)]
        elif move.via_convoy or not self.map.can_move(UnitKind.ARMY, move.unit.location, move.dest) \
                or any(isinstance(o, Convoy) and o.target.province == move.unit.province for o in self.given):
            seas = [u.province for u in self.state.units if u.kind is UnitKind.FLEET
                    and u.province in self.map.sea_provinces and self._convoys(u.province, move)]
            routes = list(self.map.convoy_routes(move.unit.province, move.dest.province, seas)) if seas else []
        else:
            routes = []
        out = []
        for route in routes:
            chain: list[str] = []
            here, left = move.unit.province, set(route)
            while left:
                nxt = sorted(s for s in left if s in self.map.wing_adjacency.get(here, ()))
                if not nxt:
                    break
                chain.append(nxt[0])
                left.discard(nxt[0])
                here = nxt[0]
            path = [move.unit.province, *chain, move.dest.province]
            fleets = [self._unit_point(u) if (u := self.state.unit_at(sea)) else self._at(Location(sea))
                      for sea in chain]
            out.append(sea_route(self.geo, path, [src, *fleets, dst])[1:-1])
        return out

    def _convoys(self, sea: str, move: Move) -> bool:
        return any(isinstance(o, Convoy) and o.unit.province == sea and o.target.province == move.unit.province
                   and o.dest.province == move.dest.province for o in self.given)

    # --- layers -----------------------------------------------------------------------

    def _unit_symbol(self, p: Point, colour: str, letter: str, ghost: bool = False) -> str:
        r = self.r
        x, y = p
        style = (f'fill="{colour}" fill-opacity="0.45" stroke="{INK}" stroke-dasharray="{_f(r * 0.4)} {_f(r * 0.25)}"'
                 if ghost else f'fill="{colour}" stroke="{INK}"')
        if letter == "F":
            shape = (f'<rect x="{_f(x - r)}" y="{_f(y - r * 0.8)}" width="{_f(2 * r)}" height="{_f(1.6 * r)}" '
                     f'rx="{_f(r * 0.35)}" {style} stroke-width="{_f(r * 0.16)}"/>')
        elif letter == "W":
            shape = (f'<path d="M{_f(x)} {_f(y - r * 1.1)}L{_f(x + r * 1.1)} {_f(y + r * 0.8)}L{_f(x - r * 1.1)} '
                     f'{_f(y + r * 0.8)}Z" {style} stroke-width="{_f(r * 0.16)}" stroke-linejoin="round"/>')
        else:
            shape = f'<circle cx="{_f(x)}" cy="{_f(y)}" r="{_f(r)}" {style} stroke-width="{_f(r * 0.16)}"/>'
        ink = _ink_on(colour) if not ghost else INK
        text = (f'<text x="{_f(x)}" y="{_f(y + r * 0.42)}" font-size="{_f(r * 1.2)}" text-anchor="middle" '
                f'fill="{ink}" font-weight="bold">{letter}</text>')
        return shape + text

    def _provinces(self, labels: bool) -> list[str]:
        geo, owners = self.geo, self.state.owner_of
        out = [f'<rect class="sea-background" x="0" y="0" width="{_f(geo.width)}" height="{_f(geo.height)}" fill="{SEA}"/>']
        if geo.offboard:
            out.append(f'<path class="offboard" d="{geo.offboard_path}" fill="{OFFBOARD}" stroke="{BORDER}" '
                       f'stroke-width="{_f(self.r * 0.06)}" fill-rule="evenodd"/>')
        if geo.water:
            out.append(f'<path class="water" d="{geo.water_path}" fill="{SEA}" fill-rule="evenodd"/>')
        width = _f(self.r * 0.09)
        for pid, shape in geo.provinces.items():
            if not self._overlaps(shape.bounds):
                continue  # outside a corner of the map: left out
            prov = self.map.provinces[pid]
            kind = prov.kind.value
            fill = SEA if prov.is_sea else LAND
            owner = owners.get(pid)
            classes = f"province {kind}" + (" centre" if prov.centre else "")
            if pid in self.map.closed:  # a neutral home country of a player set-up
                fill = IMPASSABLE
                classes += " closed"
                self.used.add("closed")
            elif owner is not None and prov.centre:
                fill = shade(self.colours.get(owner, LAND))
                classes += f" owner-{_slug(owner)}"
                if self._overlaps(shape.bounds):
                    self.used.add("shade")
            out.append(f'<path id="province-{pid}" class="{classes}" d="{shape.path}" fill="{fill}" '
                       f'stroke="{BORDER}" stroke-width="{width}" fill-rule="evenodd"/>')
        for pid, shape in geo.impassable.items():
            if not self._overlaps(shape.bounds):
                continue
            self.used.add("impassable")
            out.append(f'<path id="impassable-{pid}" class="province impassable" d="{shape.path}" fill="{IMPASSABLE}" '
                       f'stroke="{BORDER}" stroke-width="{width}" fill-rule="evenodd"/>')
        for pid in sorted(self.standoffs):
            if pid in geo.provinces:
                if self._in_view(geo.provinces[pid].unit):
                    self.used.add("standoff")
                out.append(f'<path id="standoff-{pid}" class="standoff" d="{geo.provinces[pid].path}" '
                           f'fill="url(#standoff)" stroke="{FAILED}" stroke-width="{_f(self.r * 0.2)}" '
                           f'fill-rule="evenodd"/>')
        for c in geo.crossings:
            (x1, y1), (x2, y2) = _at_least(c.line, self.r * 3)  # a short strait still shows
            a, b = c.between
            if self._in_view((x1, y1)) or self._in_view((x2, y2)):
                self.used.add("crossing")
            out.append(f'<path id="crossing-{a}-{b}" class="crossing {c.kind}" d="M{_f(x1)} {_f(y1)}L{_f(x2)} {_f(y2)}" '
                       f'stroke="{BORDER}" stroke-width="{_f(self.r * 0.3)}" stroke-dasharray="{_f(self.r * 0.3)} '
                       f'{_f(self.r * 0.25)}" fill="none"/>')
        for pid in self.highlight:
            shape = geo.provinces.get(pid) or geo.impassable.get(pid)
            if shape is None:
                raise ValueError(f"highlight: unknown province {pid!r}")
            self.used.add("highlight")
            out.append(f'<path id="highlight-{pid}" class="highlight" d="{shape.path}" fill="none" stroke="{HIGHLIGHT}" '
                       f'stroke-width="{_f(self.r * 0.3)}" stroke-opacity="0.8" stroke-linejoin="round"/>')
        if labels:
            size = _f(self.r * 1.0)
            texts = []
            for pid, (x, y) in self._label_points().items():
                if not self._in_view((x, y)):
                    continue
                texts.append(f'<text x="{_f(x)}" y="{_f(y + self.r * 0.35)}">{pid}</text>')
                own = geo.provinces[pid]
                if not contains(own.outline, (x, y)):  # beside a crowded province: a line to it
                    start, end = _toward((x, y), own.label, self.r * 0.8), own.label
                    texts.append(f'<path id="label-leader-{pid}" class="label-leader" d="M{_f(start[0])} '
                                 f'{_f(start[1])}L{_f(end[0])} {_f(end[1])}" stroke="#4a463c" '
                                 f'stroke-width="{_f(self.r * 0.1)}"/>')
            for pid, shape in geo.impassable.items():
                x, y = shape.label
                texts.append(f'<text x="{_f(x)}" y="{_f(y + self.r * 0.35)}" fill="#555555">{pid}</text>')
            out.append(f'<g class="labels" font-size="{size}" text-anchor="middle" fill="#4a463c">{"".join(texts)}</g>')
        return out

    def _label_points(self) -> dict[str, Point]:
        """Where each province's label goes: where no unit, dislodged unit, build or centre is
        (:func:`~dipsat.printers.placement.place_label`)."""
        r = self.r
        ringed = {o.unit.province for o in self.given if isinstance(o, (Hold, Convoy))}  # a ring of 1.6 r
        taken = [square(self._at(u.location), r * (1.6 if u.province in ringed else 1.1))
                 for u in self.state.units if u not in self.dislodged]
        taken += [square(p, r * 1.4) for p in self.dislodged.values()]
        taken += [square(self._at(o.location), r * 1.1) for o in self.given if isinstance(o, Build)]
        taken += [square(s.centre, r * 0.6) for s in self.geo.provinces.values() if s.centre is not None]
        land = {pid for pid in self.geo.provinces if not self.map.provinces[pid].is_sea}
        return place_labels(self.geo, r, taken, land)

    def _centres(self) -> list[str]:
        from ..adjustments import blockaded_centres
        blockaded = blockaded_centres(self.state) if self.state.variant.wings else {}
        out = []
        r = self.r * 0.55
        for pid, shape in self.geo.provinces.items():
            if shape.centre is None:
                continue
            x, y = shape.centre
            owner = self.state.owner_of.get(pid)
            fill = self.colours.get(owner, "#ffffff") if owner else "#ffffff"
            classes = "centre" + (f" owner-{_slug(owner)}" if owner else " unowned")
            if self._in_view((x, y)):
                self.used.add("centre owned" if owner else "centre unowned")
            extra = ""
            if pid in blockaded:
                classes += " blockaded"
                self.used.add("blockade")
                bc = self.colours.get(blockaded[pid], INK)
                extra = (f'<circle cx="{_f(x)}" cy="{_f(y)}" r="{_f(r * 1.9)}" fill="none" stroke="{bc}" '
                         f'stroke-width="{_f(r * 0.45)}" stroke-dasharray="{_f(r * 0.5)} {_f(r * 0.35)}"/>')
            out.append(f'<g id="centre-{pid}" class="{classes}"><circle cx="{_f(x)}" cy="{_f(y)}" r="{_f(r)}" '
                       f'fill="{fill}" stroke="{INK}" stroke-width="{_f(r * 0.25)}"/>{extra}</g>')
        return out

    def _units(self) -> list[str]:
        out = []
        for unit in self.state.units:
            if unit in self.dislodged:
                continue  # drawn displaced below
            p = self._at(unit.location)
            classes = f"unit {_slug(unit.power)} {unit.kind.name.lower()}"
            if self._in_view(p):
                self.used.add(f"unit {unit.kind.value}")
            out.append(f'<g id="{_unit_id("unit", unit)}" class="{classes}">'
                       f'{self._unit_symbol(p, self.colours.get(unit.power, "#ffffff"), unit.kind.value)}</g>')
        for unit, p in sorted(self.dislodged.items(), key=lambda kv: (kv[0].location, kv[0].power)):
            options = self.retreat_options.get(unit, ())
            lines = []
            for loc in options:
                q = self._at(loc)
                a, b = _toward(p, q, self.r * 1.4), _toward(q, p, self.r * 0.6)  # from the unit as drawn
                lines.append(f'<path id="retreat-option-{_loc_id(unit.location)}-{_loc_id(loc)}" class="retreat-option" '
                             f'd="M{_f(a[0])} {_f(a[1])}L{_f(b[0])} {_f(b[1])}" stroke="{OPTION}" '
                             f'stroke-width="{_f(self.r * 0.14)}" stroke-dasharray="{_f(self.r * 0.2)} {_f(self.r * 0.25)}" '
                             f'marker-end="url(#option)" fill="none"/>')
                self.touched.add(loc.province)
            if options:
                self.used.add("options")
            classes = f"unit dislodged {_slug(unit.power)} {unit.kind.name.lower()}" + ("" if options else " disbanded")
            self.used.add("dislodged")
            ring = (f'<circle cx="{_f(p[0])}" cy="{_f(p[1])}" r="{_f(self.r * 1.3)}" fill="#ffffff" fill-opacity="0.6" '
                    f'stroke="{FAILED}" stroke-width="{_f(self.r * 0.18)}"/>')
            out.append(f'<g id="{_unit_id("dislodged", unit)}" class="{classes}">{"".join(lines)}{ring}'
                       f'{self._unit_symbol(p, self.colours.get(unit.power, "#ffffff"), unit.kind.value)}</g>')
        return out

    # --- the frame --------------------------------------------------------------------

    def view_box(self, area: Iterable[str] | str | None) -> tuple[float, float, float, float]:
        geo = self.geo
        if area is None:
            return 0.0, 0.0, geo.width, geo.height
        if isinstance(area, str):  # "auto", "full", or ids separated by commas ("bur,mun")
            if area == "full":
                return 0.0, 0.0, geo.width, geo.height
            area = self.touched if area == "auto" else [a.strip().lower() for a in area.split(",") if a.strip()]
        chosen = sorted(set(area))
        points = []
        for pid in chosen:
            shape = geo.provinces.get(pid) or geo.impassable.get(pid)
            if shape is None:
                raise ValueError(f"area: unknown province {pid!r}")
            # the province's marks, and a little of the province around them
            for p in (shape.unit, shape.label, *(q for _, q in shape.coasts)):
                points.append(p)
        if not points:
            return 0.0, 0.0, geo.width, geo.height
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        margin = self.r * 5
        x0, x1 = min(xs) - margin, max(xs) + margin
        y0, y1 = min(ys) - margin, max(ys) + margin
        least = self.r * 24  # never closer than a few provinces across
        if x1 - x0 < least:
            c = (x0 + x1) / 2
            x0, x1 = c - least / 2, c + least / 2
        if y1 - y0 < least * 0.7:
            c = (y0 + y1) / 2
            y0, y1 = c - least * 0.35, c + least * 0.35
        x0, y0 = max(0.0, x0), max(0.0, y0)
        x1, y1 = min(geo.width, x1), min(geo.height, y1)
        return round(x0, 1), round(y0, 1), round(x1 - x0, 1), round(y1 - y0, 1)

    def _defs(self) -> str:
        r = self.r
        parts = ['<defs>']
        for power, colour in sorted(self.colours.items()) + [("none", INK)]:
            ink = _mix(colour, "#000000", 0.8) if power != "none" else INK
            parts.append(f'<marker id="arrow-{_slug(power)}" viewBox="0 0 10 10" refX="6" refY="5" markerWidth="4" '
                         f'markerHeight="4" orient="auto-start-reverse"><path d="M0 0L10 5L0 10Z" fill="{ink}"/></marker>')
            parts.append(f'<marker id="dot-{_slug(power)}" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="3.5" '
                         f'markerHeight="3.5"><circle cx="5" cy="5" r="4" fill="{ink}"/></marker>')
        parts.append(f'<marker id="option" viewBox="0 0 10 10" refX="6" refY="5" markerWidth="5" markerHeight="5" '
                     f'orient="auto"><path d="M0 0L10 5L0 10Z" fill="{OPTION}"/></marker>')
        parts.append(f'<pattern id="standoff" patternUnits="userSpaceOnUse" width="{_f(r)}" height="{_f(r)}" '
                     f'patternTransform="rotate(45)"><rect width="{_f(r * 0.3)}" height="{_f(r)}" fill="{FAILED}" '
                     f'fill-opacity="0.45"/></pattern>')
        parts.append('</defs>')
        return "".join(parts)

    def svg(self, box: tuple[float, float, float, float], size: int | None, legend: bool, labels: bool,
            title: str | None) -> str:
        self.box = box
        x0, y0, w, h = box
        width = size or (self._full_width(w) if w > self.geo.width / 2 else 760)
        height = round(width * h / w)
        provinces = self._provinces(labels)
        centres = self._centres()
        units = self._units()
        legend_rows = self._legend_rows() if legend else []
        caption = title if title is not None else str(self.state.phase)
        band = _legend_height(legend_rows, width) + 16 * len(self.notes) if legend else 0
        drawn = [*self.state.units, *self.dislodged]
        inset = plan(box, width, height, self.r, {u.province: self._unit_point(u) for u in drawn},
                     {pid: shape.bounds for pid, shape in self.geo.provinces.items()},
                     [self._unit_point(u) for u in drawn])
        over, frame = inset_svg(inset, self.r * 0.2, INK, _f) if inset is not None else ("", "")
        below = inset.band if inset is not None else 0  # an inset below the map
        band += below
        out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="dipsat-board" width="{width}" '
               f'height="{height + band}" viewBox="0 0 {width} {height + band}" '
               f'data-variant="{escape(self.state.variant.name)}" data-phase="{self.state.phase.short}" '
               f'font-family="DejaVu Sans, Verdana, Arial, sans-serif">',
               f'<svg class="map" x="0" y="0" width="{width}" height="{height}" '
               f'viewBox="{_f(x0)} {_f(y0)} {_f(w)} {_f(h)}" preserveAspectRatio="xMidYMid slice">',
               self._defs(), '<g id="map-layers">', '<g class="provinces">', *provinces, '</g>', '<g class="centres">',
               *centres, '</g>', '<g class="orders">', *self.marks, '</g>', '<g class="units">', *units, '</g>', '</g>',
               *([frame] if frame else []), '</svg>', *([over] if over else [])]
        if below:
            out.insert(-1 if over else len(out), f'<rect class="inset-band" x="0" y="{height}" width="{width}" '
                                                 f'height="{below}" fill="#ffffff"/>')
        if legend:
            out.append(_legend(legend_rows, width, height + below, caption, self.notes))
        out.append('</svg>')
        return "\n".join(out) + "\n"

    def _full_width(self, w: float) -> int:
        """The default width of (most of) the whole map: 1000 pixels, or wider for a map whose
        units would be less than :data:`FULL_RADIUS` pixels across their radius (Modern)."""
        return max(1000, math.ceil(w * FULL_RADIUS / self.r / 10) * 10)

    def _overlaps(self, bounds: tuple[float, float, float, float]) -> bool:
        x0, y0, w, h = self.box
        return bounds[0] <= x0 + w and bounds[2] >= x0 and bounds[1] <= y0 + h and bounds[3] >= y0

    def _in_view(self, p: Point) -> bool:
        x0, y0, w, h = self.box
        return x0 <= p[0] <= x0 + w and y0 <= p[1] <= y0 + h

    def _legend_rows(self) -> list[tuple[str, str]]:
        """The legend's entries: each power with units, or centres in view (its unit colour on its
        shade), then the marks used."""
        owners = {owner for pid, owner in self.state.owner_of.items()  # of the centres in view
                  if pid in self.geo.provinces and self._in_view(self.geo.provinces[pid].centre or (-1.0, -1.0))}
        rows = [(f"power {c}", p) for p, c in self.colours.items()
                if p in owners or any(u.power == p for u in [*self.state.units, *self.dislodged])]
        for key, text in _LEGEND:
            if key in self.used:
                rows.append((key, text))
        return rows


_LEGEND = [
    ("unit A", "army"),
    ("unit F", "fleet"),
    ("unit W", "wing"),
    ("centre owned", "supply centre (its owner's colour)"),
    ("centre unowned", "supply centre owned by nobody"),
    ("shade", "shaded: its centre's owner"),
    ("impassable", "impassable"),
    ("closed", "closed (a neutral power's home country)"),
    ("hold", "hold (ring around the unit)"),
    ("move", "move"),
    ("convoyed", "move by convoy"),
    ("support", "support"),
    ("convoy", "convoy (fleet ringed)"),
    ("retreat", "retreat"),
    ("failed", "order failed"),
    ("bounced", "move bounced"),
    ("cut", "support cut"),
    ("void", "void or illegal order (grey cross)"),
    ("illegal", "void or illegal order (grey cross)"),
    ("paradox", "settled by a backup rule (paradox)"),
    ("standoff", "standoff (left empty)"),
    ("dislodged", "dislodged unit (displaced)"),
    ("options", "where it may retreat"),
    ("disband", "disband"),
    ("remove", "removal"),
    ("build", "build"),
    ("blockade", "centre blockaded by a wing"),
    ("crossing", "crossing (strait, waterway)"),
    ("highlight", "highlighted province"),
]


def _at_least(line: tuple[Point, Point], length: float) -> tuple[Point, Point]:
    """The segment `line`, lengthened about its middle to at least `length`."""
    (x1, y1), (x2, y2) = line
    have = math.hypot(x2 - x1, y2 - y1)
    if have >= length or have == 0:
        return line
    k = length / have / 2
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    return (mx - (x2 - x1) * k, my - (y2 - y1) * k), (mx + (x2 - x1) * k, my + (y2 - y1) * k)


def _legend_height(rows: list[tuple[str, str]], width: int) -> int:
    columns = max(1, width // 250)
    lines = -(-len(rows) // columns)
    return 34 + lines * 20 + 8


def _legend(rows: list[tuple[str, str]], width: int, top: int, caption: str, notes: list[str]) -> str:
    columns = max(1, width // 250)
    col_w = width / columns
    seen: set[str] = set()
    out = [f'<g id="legend" class="legend" transform="translate(0 {top})" font-size="12" fill="{INK}">',
           f'<rect x="0" y="0" width="{width}" height="{_legend_height(rows, width) + 16 * len(notes)}" fill="#ffffff"/>',
           f'<text x="8" y="20" font-size="14" font-weight="bold">{escape(caption)}</text>']
    shown = []
    for key, text in rows:
        if text in seen:
            continue
        seen.add(text)
        shown.append((key, text))
    for i, (key, text) in enumerate(shown):
        col, line = i % columns, i // columns
        x, y = col * col_w + 10, 34 + line * 20
        out.append(f'<g class="legend-entry {key.split()[0]}" transform="translate({_f(x)} {y})">{_legend_symbol(key)}'
                   f'<text x="30" y="12">{escape(text)}</text></g>')
    y = _legend_height(rows, width)
    for note in notes:
        out.append(f'<text class="note" x="10" y="{y}" fill="{PARADOX if note.startswith("Backup") else INK}">'
                   f'{escape(note)}</text>')
        y += 16
    out.append('</g>')
    return "".join(out)


def _legend_symbol(key: str) -> str:
    if key.startswith("power "):  # the power's shade, its unit colour on it
        colour = key.split(" ", 1)[1]
        return (f'<rect class="shade" x="0" y="0" width="24" height="16" fill="{shade(colour)}" stroke="{BORDER}" '
                f'stroke-width="0.5"/><circle cx="12" cy="8" r="5.5" fill="{colour}" stroke="{INK}" stroke-width="1"/>')
    line = f'<path d="M2 8L22 8" stroke="{INK}" stroke-width="2.5" fill="none"/>'
    head = f'<path d="M18 3L25 8L18 13Z" fill="{INK}"/>'
    cross = f'<path d="M7 3L17 13M7 13L17 3" stroke="{FAILED}" stroke-width="2.5"/>'
    return {
        "hold": f'<circle cx="12" cy="8" r="4.5" fill="#bbbbbb" stroke="{INK}" stroke-width="1"/>'
                f'<circle cx="12" cy="8" r="7.5" fill="none" stroke="{INK}" stroke-width="2"/>',
        "unit A": f'<circle cx="12" cy="8" r="7" fill="#dddddd" stroke="{INK}"/>{_legend_letter("A")}',
        "unit F": f'<rect x="4" y="1.5" width="16" height="13" rx="3" fill="#dddddd" stroke="{INK}"/>{_legend_letter("F")}',
        "unit W": f'<path d="M12 0L21 15L3 15Z" fill="#dddddd" stroke="{INK}" stroke-linejoin="round"/>'
                  f'{_legend_letter("W")}',
        "centre owned": f'<circle cx="12" cy="8" r="5" fill="{LEGEND_OWNED}" stroke="{INK}" stroke-width="2"/>',
        "centre unowned": f'<circle cx="12" cy="8" r="5" fill="#ffffff" stroke="{INK}" stroke-width="2"/>',
        "shade": f'<rect x="2" y="1" width="20" height="14" fill="{shade(LEGEND_OWNED)}" stroke="{BORDER}"/>'
                 f'<circle cx="12" cy="8" r="4" fill="{LEGEND_OWNED}" stroke="{INK}" stroke-width="1.5"/>',
        "impassable": f'<rect x="2" y="1" width="20" height="14" fill="{IMPASSABLE}" stroke="{BORDER}"/>',
        "closed": f'<rect x="2" y="1" width="20" height="14" fill="{IMPASSABLE}" stroke="{BORDER}"/>',
        "move": line + head,
        "retreat": line + head,
        "convoyed": f'<path d="M2 12L12 3L22 10" stroke="{INK}" stroke-width="2.5" fill="none"/>{head}',
        "support": f'<path d="M2 8L22 8" stroke="{INK}" stroke-width="2" stroke-dasharray="4 3"/>'
                   f'<circle cx="22" cy="8" r="2.5" fill="{INK}"/>',
        "convoy": f'<circle cx="12" cy="8" r="7" fill="none" stroke="{INK}" stroke-width="2" stroke-dasharray="5 2"/>',
        "failed": cross,
        "bounced": f'{line}<path d="M20 2L20 14" stroke="{FAILED}" stroke-width="3"/>',
        "cut": f'<path d="M2 8L22 8" stroke="{INK}" stroke-width="2" stroke-dasharray="4 3"/>{cross}',
        "void": f'<path d="M7 3L17 13M7 13L17 3" stroke="{OPTION}" stroke-width="2.5"/>',
        "illegal": f'<path d="M7 3L17 13M7 13L17 3" stroke="{OPTION}" stroke-width="2.5"/>',
        "paradox": f'<circle cx="12" cy="8" r="7" fill="{PARADOX}"/><text x="12" y="12" font-size="11" '
                   f'text-anchor="middle" fill="#ffffff" font-weight="bold">!</text>',
        "standoff": f'<rect x="2" y="1" width="20" height="14" fill="url(#legend-hatch)" stroke="{FAILED}"/>'
                    f'<path d="M2 15L16 1M8 15L22 1" stroke="{FAILED}" stroke-opacity="0.6" stroke-width="2.5"/>',
        "dislodged": f'<circle cx="12" cy="8" r="7" fill="#ffffff" stroke="{FAILED}" stroke-width="2"/>',
        "options": f'<path d="M2 8L20 8" stroke="{OPTION}" stroke-width="1.5" stroke-dasharray="2 2"/>'
                   f'<path d="M18 4L24 8L18 12Z" fill="{OPTION}"/>',
        "disband": cross,
        "remove": cross,
        "build": f'<circle cx="12" cy="8" r="7" fill="#cccccc" stroke="{INK}" stroke-dasharray="3 2"/>',
        "blockade": f'<circle cx="12" cy="8" r="4" fill="#ffffff" stroke="{INK}"/><circle cx="12" cy="8" r="7.5" '
                    f'fill="none" stroke="{INK}" stroke-width="2" stroke-dasharray="3 2"/>',
        "crossing": f'<path d="M2 8L22 8" stroke="{BORDER}" stroke-width="3" stroke-dasharray="3 2"/>',
        "highlight": f'<rect x="3" y="1" width="18" height="14" fill="none" stroke="{HIGHLIGHT}" stroke-width="3"/>',
    }.get(key, "")


LEGEND_OWNED = "#8a8a8a"
"""The legend's owned centre: grey, as owners' colours vary."""


def _legend_letter(letter: str) -> str:
    return f'<text x="12" y="12" font-size="10" text-anchor="middle" font-weight="bold" fill="{INK}">{letter}</text>'


def _order_text(order: Order) -> str:
    from ..notation import format_order
    return format_order(order)
