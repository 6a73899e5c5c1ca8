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
from xml.sax.saxutils import escape

from ..board import Location, PhaseKind, Unit
from ..maps.geometry import Geometry, contains, load_geometry
from ..orders import Build, Convoy, Hold, Order
from ..results import PhaseResult
from ..state import State
from .inset import inset_svg, plan
from .palette import IMPASSABLE, LAND, OFFBOARD, SEA, SPARE, shade
from .palette import POWER_COLOURS as POWER_COLOURS  # (dipsat.svg.POWER_COLOURS)
from .palette import mix
from .placement import place_dislodged, place_labels, square
from .svg_draw import (BORDER, FAILED, HIGHLIGHT, INK, OPTION, Drawn, Ids, Point, at_least, circle, el, fmt, loc_id,
                       polyline, slug, toward, unit_id, unit_symbol)
from .svg_legend import LEGEND, legend as draw_legend, legend_height
from .svg_orders import OrderLayer

__all__ = ["board", "MIN_SIZE", "MAX_SIZE", "FULL_RADIUS", "POWER_COLOURS", "SEA", "LAND", "IMPASSABLE", "OFFBOARD"]


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
          highlight: Iterable[str] = (),
          retreat_options: Mapping[Unit, Sequence[Location]] | None = None) -> str:
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
    :param retreat_options: a retreat phase's position drawn without its result: where each
        dislodged unit may retreat, as the phase logic worked it out under the rules of the game
        (:attr:`PhaseResult.retreat_options <dipsat.results.PhaseResult.retreat_options>` of the
        movement before, or :func:`dipsat.phases.retreat_choices` under the game's rules). Left
        out: none are drawn, for the printer adjudicates nothing. A result brings its own.
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
    if result is not None and result.before.phase.kind is PhaseKind.RETREAT:
        retreat_options = result.retreat_choices
    geometry = load_geometry(state.map.drawn_as)
    painter = _Painter(state, geometry, result, colours or {}, retreat_options or {})
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
        out[info.name] = overrides.get(info.name) or POWER_COLOURS.get(info.name) or SPARE[i % len(SPARE)]
    return out


class _Painter(OrderLayer):
    def __init__(self, state: State, geometry: Geometry, result: PhaseResult | None,
                 overrides: Mapping[str, str], retreat_options: Mapping[Unit, Sequence[Location]]) -> None:
        self.state = state
        self.map = state.map
        self.geo = geometry
        self.colours = _power_colours(state, overrides)
        self.r = 42.0 / geometry.km_per_unit  # unit radius: about 42 km
        self.ids = Ids()
        self.touched: set[str] = set()
        self.marks: list[str] = []  # order and result elements, in drawing order
        self.used: set[str] = set()  # legend entries
        self.notes: list[str] = []  # legend lines (paradox rules, waives)
        self.dislodged: dict[Unit, Point] = {}  # dislodged unit -> where it is drawn
        self.retreat_options: dict[Unit, tuple[Location, ...]] = {}
        self.standoffs: frozenset[str] = state.standoffs
        self.gone: set[Unit] = set()  # units removed or disbanded by an order or in the result
        self.moves: dict[str, Drawn] = {}  # province of a moving unit -> its arrow
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
        elif state.phase.kind is PhaseKind.RETREAT:  # from the result, or as board() was given them
            for d in state.dislodged:
                self.retreat_options[d.unit] = tuple(retreat_options.get(d.unit, ()))
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


    # --- layers -----------------------------------------------------------------------

    def _provinces(self, labels: bool) -> list[str]:
        geo, owners = self.geo, self.state.owner_of
        out = [el("rect", [("class", "sea-background"), ("x", "0"), ("y", "0"), ("width", fmt(geo.width)),
                           ("height", fmt(geo.height)), ("fill", SEA)])]
        if geo.offboard:
            out.append(el("path", [("class", "offboard"), ("d", geo.offboard_path), ("fill", OFFBOARD), ("stroke", BORDER),
                                   ("stroke-width", fmt(self.r * 0.06)), ("fill-rule", "evenodd")]))
        if geo.water:
            out.append(el("path", [("class", "water"), ("d", geo.water_path), ("fill", SEA), ("fill-rule", "evenodd")]))
        width = fmt(self.r * 0.09)
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
                classes += f" owner-{slug(owner)}"
                if self._overlaps(shape.bounds):
                    self.used.add("shade")
            out.append(el("path", [("id", f"province-{pid}"), ("class", classes), ("d", shape.path), ("fill", fill),
                                   ("stroke", BORDER), ("stroke-width", width), ("fill-rule", "evenodd")]))
        for pid, shape in geo.impassable.items():
            if not self._overlaps(shape.bounds):
                continue
            self.used.add("impassable")
            out.append(el("path", [("id", f"impassable-{pid}"), ("class", "province impassable"), ("d", shape.path),
                                   ("fill", IMPASSABLE), ("stroke", BORDER), ("stroke-width", width),
                                   ("fill-rule", "evenodd")]))
        for pid in sorted(self.standoffs):
            if pid in geo.provinces:
                if self._in_view(geo.provinces[pid].unit):
                    self.used.add("standoff")
                out.append(el("path", [("id", f"standoff-{pid}"), ("class", "standoff"), ("d", geo.provinces[pid].path),
                                       ("fill", "url(#standoff)"), ("stroke", FAILED), ("stroke-width", fmt(self.r * 0.2)),
                                       ("fill-rule", "evenodd")]))
        for c in geo.crossings:
            (x1, y1), (x2, y2) = at_least(c.line, self.r * 3)  # a short strait still shows
            a, b = c.between
            if self._in_view((x1, y1)) or self._in_view((x2, y2)):
                self.used.add("crossing")
            out.append(el("path", [("id", f"crossing-{a}-{b}"), ("class", f"crossing {c.kind}"),
                                   ("d", polyline((x1, y1), (x2, y2))), ("stroke", BORDER),
                                   ("stroke-width", fmt(self.r * 0.3)),
                                   ("stroke-dasharray", f"{fmt(self.r * 0.3)} {fmt(self.r * 0.25)}"), ("fill", "none")]))
        for pid in self.highlight:
            lit = geo.provinces.get(pid) or geo.impassable.get(pid)
            if lit is None:
                raise ValueError(f"highlight: unknown province {pid!r}")
            self.used.add("highlight")
            out.append(el("path", [("id", f"highlight-{pid}"), ("class", "highlight"), ("d", lit.path), ("fill", "none"),
                                   ("stroke", HIGHLIGHT), ("stroke-width", fmt(self.r * 0.3)), ("stroke-opacity", "0.8"),
                                   ("stroke-linejoin", "round")]))
        if labels:
            size = fmt(self.r * 1.0)
            texts = []
            for pid, (x, y) in self._label_points().items():
                if not self._in_view((x, y)):
                    continue
                texts.append(el("text", [("x", fmt(x)), ("y", fmt(y + self.r * 0.35))], pid))
                own = geo.provinces[pid]
                if not contains(own.outline, (x, y)):  # beside a crowded province: a line to it
                    start, end = toward((x, y), own.label, self.r * 0.8), own.label
                    texts.append(el("path", [("id", f"label-leader-{pid}"), ("class", "label-leader"),
                                             ("d", polyline(start, end)), ("stroke", "#4a463c"),
                                             ("stroke-width", fmt(self.r * 0.1))]))
            for pid, shape in geo.impassable.items():
                x, y = shape.label
                texts.append(el("text", [("x", fmt(x)), ("y", fmt(y + self.r * 0.35)), ("fill", "#555555")], pid))
            out.append(el("g", [("class", "labels"), ("font-size", size), ("text-anchor", "middle"), ("fill", "#4a463c")],
                          "".join(texts)))
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
            classes = "centre" + (f" owner-{slug(owner)}" if owner else " unowned")
            if self._in_view((x, y)):
                self.used.add("centre owned" if owner else "centre unowned")
            extra = ""
            if pid in blockaded:
                classes += " blockaded"
                self.used.add("blockade")
                bc = self.colours.get(blockaded[pid], INK)
                extra = el("circle", [*circle((x, y), r * 1.9), ("fill", "none"), ("stroke", bc),
                                      ("stroke-width", fmt(r * 0.45)),
                                      ("stroke-dasharray", f"{fmt(r * 0.5)} {fmt(r * 0.35)}")])
            dot = el("circle", [*circle((x, y), r), ("fill", fill), ("stroke", INK), ("stroke-width", fmt(r * 0.25))])
            out.append(el("g", [("id", f"centre-{pid}"), ("class", classes)], dot, extra))
        return out

    def _units(self) -> list[str]:
        out = []
        for unit in self.state.units:
            if unit in self.dislodged:
                continue  # drawn displaced below
            p = self._at(unit.location)
            classes = f"unit {slug(unit.power)} {unit.kind.name.lower()}"
            if self._in_view(p):
                self.used.add(f"unit {unit.kind.value}")
            out.append(el("g", [("id", unit_id("unit", unit)), ("class", classes)],
                          unit_symbol(p, self.r, self.colours.get(unit.power, "#ffffff"), unit.kind.value)))
        for unit, p in sorted(self.dislodged.items(), key=lambda kv: (kv[0].location, kv[0].power)):
            options = self.retreat_options.get(unit, ())
            lines = []
            for loc in options:
                q = self._at(loc)
                a, b = toward(p, q, self.r * 1.4), toward(q, p, self.r * 0.6)  # from the unit as drawn
                lines.append(el("path", [("id", f"retreat-option-{loc_id(unit.location)}-{loc_id(loc)}"),
                                         ("class", "retreat-option"), ("d", polyline(a, b)), ("stroke", OPTION),
                                         ("stroke-width", fmt(self.r * 0.14)),
                                         ("stroke-dasharray", f"{fmt(self.r * 0.2)} {fmt(self.r * 0.25)}"),
                                         ("marker-end", "url(#option)"), ("fill", "none")]))
                self.touched.add(loc.province)
            if options:
                self.used.add("options")
            classes = f"unit dislodged {slug(unit.power)} {unit.kind.name.lower()}" + ("" if options else " disbanded")
            self.used.add("dislodged")
            ring = el("circle", [*circle(p, self.r * 1.3), ("fill", "#ffffff"), ("fill-opacity", "0.6"),
                                 ("stroke", FAILED), ("stroke-width", fmt(self.r * 0.18))])
            out.append(el("g", [("id", unit_id("dislodged", unit)), ("class", classes)], *lines, ring,
                          unit_symbol(p, self.r, self.colours.get(unit.power, "#ffffff"), unit.kind.value)))
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
        """The arrowheads and dots of each power's ink, the retreat options' arrowhead, the
        standoff hatching."""
        r = self.r
        head = "M0 0L10 5L0 10Z"
        parts = []
        for power, colour in sorted(self.colours.items()) + [("none", INK)]:
            ink = mix(colour, "#000000", 0.8) if power != "none" else INK
            parts.append(el("marker", [("id", f"arrow-{slug(power)}"), ("viewBox", "0 0 10 10"), ("refX", "6"),
                                       ("refY", "5"), ("markerWidth", "4"), ("markerHeight", "4"),
                                       ("orient", "auto-start-reverse")], el("path", [("d", head), ("fill", ink)])))
            parts.append(el("marker", [("id", f"dot-{slug(power)}"), ("viewBox", "0 0 10 10"), ("refX", "5"),
                                       ("refY", "5"), ("markerWidth", "3.5"), ("markerHeight", "3.5")],
                            el("circle", [*circle((5, 5), 4), ("fill", ink)])))
        parts.append(el("marker", [("id", "option"), ("viewBox", "0 0 10 10"), ("refX", "6"), ("refY", "5"),
                                   ("markerWidth", "5"), ("markerHeight", "5"), ("orient", "auto")],
                        el("path", [("d", head), ("fill", OPTION)])))
        parts.append(el("pattern", [("id", "standoff"), ("patternUnits", "userSpaceOnUse"), ("width", fmt(r)),
                                    ("height", fmt(r)), ("patternTransform", "rotate(45)")],
                        el("rect", [("width", fmt(r * 0.3)), ("height", fmt(r)), ("fill", FAILED),
                                    ("fill-opacity", "0.45")])))
        return el("defs", [], *parts)

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
        band = legend_height(legend_rows, width) + 16 * len(self.notes) if legend else 0
        drawn = [*self.state.units, *self.dislodged]
        inset = plan(box, width, height, self.r, {u.province: self._unit_point(u) for u in drawn},
                     {pid: shape.bounds for pid, shape in self.geo.provinces.items()},
                     [self._unit_point(u) for u in drawn])
        over, frame = inset_svg(inset, self.r * 0.2, INK, fmt) if inset is not None else ("", "")
        below = inset.band if inset is not None else 0  # an inset below the map
        band += below
        out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="dipsat-board" width="{width}" '
               f'height="{height + band}" viewBox="0 0 {width} {height + band}" '
               f'data-variant="{escape(self.state.variant.name)}" data-phase="{self.state.phase.short}" '
               f'font-family="DejaVu Sans, Verdana, Arial, sans-serif">',
               f'<svg class="map" x="0" y="0" width="{width}" height="{height}" '
               f'viewBox="{fmt(x0)} {fmt(y0)} {fmt(w)} {fmt(h)}" preserveAspectRatio="xMidYMid slice">',
               self._defs(), '<g id="map-layers">', '<g class="provinces">', *provinces, '</g>', '<g class="centres">',
               *centres, '</g>', '<g class="orders">', *self.marks, '</g>', '<g class="units">', *units, '</g>', '</g>',
               *([frame] if frame else []), '</svg>', *([over] if over else [])]
        if below:
            out.insert(-1 if over else len(out), f'<rect class="inset-band" x="0" y="{height}" width="{width}" '
                                                 f'height="{below}" fill="#ffffff"/>')
        if legend:
            out.append(draw_legend(legend_rows, width, height + below, caption, self.notes))
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
        for key, text in LEGEND:
            if key in self.used:
                rows.append((key, text))
        return rows


