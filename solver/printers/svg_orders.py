"""The orders of a board picture (:mod:`dipsat.printers.svg`): one drawer per order kind,
each drawing the order with its outcome (:mod:`dipsat.outcomes`) as the picture's marks."""

from __future__ import annotations

import enum
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import assert_never
from xml.sax.saxutils import escape

from ..board import Location, PhaseKind, Unit, UnitKind
from ..maps import Map
from ..maps.geometry import Geometry
from ..notation import format_order
from ..orders import (Build, Convoy, Disband, Hold, Move, Order, Remove, Retreat, SupportHold, SupportMove,
                      Waive, order_power)
from ..outcomes import (Bounced, BuildRefused, Built, ConvoyDislodged, Convoys, Cut, Disbands, Given, HoldDislodged,
                        Holds, Illegal, Moves, NoBuildsLeft, NoPath, NoRemovalsLeft, Outcome, Paradox, Removed,
                        RetreatBounced, RetreatRefused, Retreats, Succeeds, SupportDislodged, Void, Waived)
from ..results import PhaseResult
from ..state import State
from .palette import mix
from .placement import sea_route
from .svg_draw import FAILED, INK, OPTION, PARADOX, Drawn, circle, cross, el, polyline, Ids, Point, fmt, lerp, loc_id, slug, toward, unit_symbol

__all__ = ["Mark", "OrderLayer", "Pen", "Said", "mark_of"]


class Mark(enum.Enum):
    """How a picture marks an order's outcome: the CSS class of its group (``order move failed
    bounced``) and of the cross on it."""

    SUCCEEDS = "succeeds"
    BOUNCED = "bounced"
    CUT = "cut"
    DISLODGED = "dislodged"
    NO_CONVOY = "no-convoy"
    PARADOX = "paradox"
    ILLEGAL = "illegal"
    VOID = "void"
    BLOCKED = "blocked"


def mark_of(outcome: Outcome) -> Mark:
    """How a picture marks an outcome: it succeeded, or what failed it."""
    match outcome:
        case (Succeeds() | Moves() | Given() | Convoys() | Holds() | Retreats() | Disbands() | Built() | Removed()
              | Waived()):
            return Mark.SUCCEEDS
        case Bounced() | RetreatBounced():
            return Mark.BOUNCED
        case Cut():
            return Mark.CUT
        case SupportDislodged() | ConvoyDislodged() | HoldDislodged():
            return Mark.DISLODGED
        case NoPath():
            return Mark.NO_CONVOY
        case Paradox():
            return Mark.PARADOX
        case Illegal() | RetreatRefused() | BuildRefused():
            return Mark.ILLEGAL
        case Void():
            return Mark.VOID
        case NoBuildsLeft() | NoRemovalsLeft():
            return Mark.BLOCKED
        case _:
            assert_never(outcome)


@dataclass(frozen=True, slots=True)
class Said:
    """An order's outcome as a picture shows it: the value, and its first fact in words for the
    tooltip (:func:`dipsat.printers.explain.explain_order`)."""

    outcome: Outcome
    text: str

    @property
    def mark(self) -> Mark:
        return mark_of(self.outcome)


@dataclass(frozen=True, slots=True)
class Pen:
    """What every order drawer needs: the outcome (None: drawn before adjudication), the
    ordered unit, its power and ink, and the tooltip."""

    said: Said | None
    unit: Unit | None
    power: str | None
    colour: str
    tip: str

    @property
    def failed(self) -> bool:
        return self.said is not None and not self.said.outcome.succeeds


class OrderLayer:
    """The orders and their outcomes, drawn into :attr:`marks` (the picture's painter is one)."""

    state: State
    map: Map
    geo: Geometry
    colours: dict[str, str]
    r: float
    ids: Ids
    touched: set[str]
    marks: list[str]
    used: set[str]
    notes: list[str]
    dislodged: dict[Unit, Point]
    gone: set[Unit]
    moves: dict[str, Drawn]
    given: tuple[Order, ...]

    def _at(self, loc: Location) -> Point:
        return self.geo.unit_point(loc)

    def _unit_point(self, unit: Unit) -> Point:
        return self.dislodged.get(unit) or self._at(unit.location)

    # --- orders -----------------------------------------------------------------------

    def results(self, result: PhaseResult) -> None:
        from .explain import explain_order  # the tooltip says the outcome's first fact
        for line in result.backup_rules:
            self.notes.append(f"Backup rule: {line}")
        self._draw_all([(r.order, Said(r.outcome, explain_order(r)[0]), r.unit) for r in result.results])
        if result.before.phase.kind is PhaseKind.ADJUSTMENT:
            from ..report import disbanded_report
            for info in disbanded_report(result):  # civil-disorder removals
                if info.unit not in self.gone:
                    self._cross(self._unit_point(info.unit), f"removed-{loc_id(info.unit.location)}",
                                "removal civil-disorder", info.reason)
                    self.used.add("remove")
                    self.gone.add(info.unit)

    def orders(self, orders: Sequence[Order]) -> None:
        self._draw_all([(o, None, None) for o in orders])

    def _draw_all(self, items: list[tuple[Order, Said | None, Unit | None]]) -> None:
        self.given = tuple(order for order, _, _ in items)
        # moves first, so that supports can aim at their arrows
        ranked = sorted(range(len(items)), key=lambda i: (not isinstance(items[i][0], (Move, Retreat)), i))
        for i in ranked:
            order, said, unit = items[i]
            self._order(order, said, unit)

    def _unit_of(self, order: Order, unit: Unit | None) -> Unit | None:
        if unit is not None:
            return unit
        match order:
            case Retreat() | Disband():
                return next((d.unit for d in self.state.dislodged if d.unit.province == order.unit.province), None)
            case Build() | Waive():
                return None
            case Hold() | Move() | SupportHold() | SupportMove() | Convoy() | Remove():
                return self.state.unit_at(order.unit.province)
            case _:
                assert_never(order)

    def _classes(self, kind: str, said: Said | None) -> str:
        if said is None:
            return f"order {kind}"
        if said.outcome.succeeds:
            return f"order {kind} succeeds"
        self.used.add("failed")
        if said.mark in (Mark.PARADOX, Mark.CUT, Mark.BOUNCED, Mark.VOID, Mark.ILLEGAL):
            self.used.add(said.mark.value)  # its own legend entry
        return f"order {kind} failed {said.mark.value}"

    def _group(self, oid: str, kind: str, pen: Pen, *parts: str) -> None:
        """An order's element: its id, its classes (kind and outcome), the tooltip and its marks."""
        self.marks.append(el("g", [("id", oid), ("class", self._classes(kind, pen.said))], pen.tip, *parts))

    def _order(self, order: Order, said: Said | None, unit: Unit | None) -> None:
        """Draw one order: what every drawer needs, then the drawer of its kind."""
        unit = self._unit_of(order, unit)
        power = order_power(self.state, order) or (unit.power if unit else None)
        colour = mix(self.colours.get(power or "", INK), "#000000", 0.8) if power else INK
        tip = f"<title>{escape(format_order(order))}{escape(' — ' + said.text) if said else ''}</title>"
        pen = Pen(said, unit, power, colour, tip)
        match order:
            case Waive():
                self._waive(pen)
            case Build():
                self._build(order, pen)
            case Move() | Retreat():
                self._move(order, pen)
            case Hold():
                self._hold(order, pen)
            case SupportHold():
                self._support_hold(order, pen)
            case SupportMove():
                self._support_move(order, pen)
            case Convoy():
                self._convoy(order, pen)
            case Disband() | Remove():
                self._removal(order, pen)
            case _:
                assert_never(order)

    def _source(self, order: Hold | Move | SupportHold | SupportMove | Convoy | Retreat | Disband | Remove,
                pen: Pen) -> tuple[Point, str]:
        """Where the ordered unit is drawn, and its id; the province is in the picture's corner."""
        self.touched.add(order.unit.province)
        unit = pen.unit
        src = self._unit_point(unit) if unit is not None else self._at(order.unit.location)
        return src, loc_id(unit.location if unit else order.unit.location)

    def _waive(self, pen: Pen) -> None:
        who = pen.power or "?"
        oid = self.ids(f"order-waive-{slug(who)}")
        self._group(oid, "waive", pen)
        self.notes.append(f"{who} waives a build" + (f" ({pen.said.text})" if pen.said and pen.failed else ""))

    def _move(self, order: Move | Retreat, pen: Pen) -> None:
        src, src_id = self._source(order, pen)
        kind = "move" if isinstance(order, Move) else "retreat"
        colour = pen.colour
        dst_loc = order.dest
        self.touched.add(dst_loc.province)
        dst = self._at(dst_loc)
        oid = self.ids(f"order-{kind}-{src_id}-{loc_id(dst_loc)}")
        routes = self._convoy_routes(order, src, dst) if isinstance(order, Move) else []
        points = [src, *(routes[0] if routes else []), dst]
        extra = ""
        for other in routes[1:]:  # another route through other fleets: a thinner line
            chain = [src, *other, dst]
            ends = [toward(chain[0], chain[1], self.r), *chain[1:-1], toward(chain[-1], chain[-2], self.r)]
            extra += el("path", [("class", "route"), ("d", polyline(*ends)), ("fill", "none"), ("stroke", colour),
                                 ("stroke-width", fmt(self.r * 0.14)), ("stroke-linejoin", "round")])
        a = toward(points[0], points[1], self.r)
        # the arrowhead reaches 0.5 r past the line's end: it ends short of a unit there, so the head shows
        b = toward(points[-1], points[-2], self.r * (1.6 if self._occupied(dst_loc.province) else 0.4))
        pts = [a, *points[1:-1], b]
        self.moves[order.unit.province] = Drawn(pts[-2], pts[-1], dst_loc.province)
        body = el("path", [("d", polyline(*pts)), ("fill", "none"), ("stroke", colour),
                           ("stroke-width", fmt(self.r * 0.32)), ("stroke-linejoin", "round"),
                           ("marker-end", f"url(#arrow-{slug(pen.power or 'none')})")])
        mark = ""
        if pen.said is not None and pen.failed:
            mid = lerp(pts[-2], pts[-1], 0.55)
            mark = self._fail_mark(mid, pen.said)
            if pen.said.mark is Mark.BOUNCED:
                mark += self._bar(pts[-2], pts[-1])
        self.used.add("convoyed" if len(points) > 2 else kind)
        self._group(oid, kind, pen, extra, body, mark)

    def _hold(self, order: Hold, pen: Pen) -> None:
        src, src_id = self._source(order, pen)
        oid = self.ids(f"order-hold-{src_id}")
        body = el("circle", [*circle(src, self.r * 1.45), ("fill", "none"), ("stroke", pen.colour),
                             ("stroke-width", fmt(self.r * 0.28))])
        mark = self._fail_mark(toward(src, (src[0] + 1, src[1] - 1), self.r * 1.45), pen.said) if pen.failed else ""
        self.used.add("hold")
        self._group(oid, "hold", pen, body, mark)

    def _support_hold(self, order: SupportHold, pen: Pen) -> None:
        src, src_id = self._source(order, pen)
        target = self._target_unit(order.target.location)
        end = self._unit_point(target) if target else self._at(order.target.location)
        self.touched.add(order.target.province)
        oid = self.ids(f"order-support-{src_id}-{loc_id(order.target.location)}")
        a, b = toward(src, end, self.r), toward(end, src, self.r * 1.5)
        body = (el("path", [("d", polyline(a, b)), *self._dashed(pen.colour, 0.22)])
                + el("circle", [*circle(end, self.r * 1.5), *self._dashed(pen.colour, 0.18)]))
        self._support(oid, pen, body, lerp(a, b, 0.25))

    def _support_move(self, order: SupportMove, pen: Pen) -> None:
        src, src_id = self._source(order, pen)
        self.touched |= {order.target.province, order.dest.province}
        drawn = self.moves.get(order.target.province)
        target = self._target_unit(order.target.location)
        t_src = self._unit_point(target) if target else self._at(order.target.location)
        if drawn is not None and drawn.dest == order.dest.province:
            end = lerp(drawn.start, drawn.end, 0.5)
        else:
            end = lerp(toward(t_src, self._at(order.dest), self.r), self._at(order.dest), 0.5)
        oid = self.ids(f"order-support-{src_id}-{loc_id(order.target.location)}-{loc_id(order.dest)}")
        a = toward(src, end, self.r)
        ctrl = self._bend(a, end)
        curve = f"M{fmt(a[0])} {fmt(a[1])}Q{fmt(ctrl[0])} {fmt(ctrl[1])} {fmt(end[0])} {fmt(end[1])}"
        body = el("path", [("d", curve), *self._dashed(pen.colour, 0.22),
                           ("marker-end", f"url(#dot-{slug(pen.power or 'none')})")])
        self._support(oid, pen, body, lerp(a, end, 0.25))

    def _convoy(self, order: Convoy, pen: Pen) -> None:
        src, src_id = self._source(order, pen)
        colour = pen.colour
        self.touched |= {order.target.province, order.dest.province}
        oid = self.ids(f"order-convoy-{src_id}-{loc_id(order.target.location)}-{loc_id(order.dest)}")
        dashes = ("stroke-dasharray", f"{fmt(self.r * 0.7)} {fmt(self.r * 0.3)}")
        body = el("circle", [*circle(src, self.r * 1.45), ("fill", "none"), ("stroke", colour),
                             ("stroke-width", fmt(self.r * 0.26)), dashes])
        if order.target.province not in self.moves:  # no convoyed move drawn: show where to
            t = self._at(order.target.location)
            dst = self._at(order.dest)
            a, b = toward(t, src, self.r), toward(src, t, self.r * 1.45)
            c, e = toward(src, dst, self.r * 1.45), toward(dst, src, self.r)
            body += el("path", [("d", polyline(a, b) + polyline(c, e)), ("fill", "none"), ("stroke", colour),
                                ("stroke-width", fmt(self.r * 0.18)), dashes])
        mark = self._fail_mark(toward(src, (src[0] + 1, src[1] - 1), self.r * 1.45), pen.said) if pen.failed else ""
        self.used.add("convoy")
        self._group(oid, "convoy", pen, body, mark)

    def _removal(self, order: Disband | Remove, pen: Pen) -> None:
        src, src_id = self._source(order, pen)
        kind = "disband" if isinstance(order, Disband) else "remove"
        oid = self.ids(f"order-{kind}-{src_id}")
        carried_out = pen.said is None or pen.said.outcome.succeeds
        if pen.unit is not None and carried_out:
            self.gone.add(pen.unit)
        self._cross(src, oid, self._classes(kind, pen.said), pen.tip, drawn=carried_out)
        self.used.add(kind)

    def _dashed(self, colour: str, width: float) -> list[tuple[str, str]]:
        """The stroke of a support line."""
        return [("fill", "none"), ("stroke", colour), ("stroke-width", fmt(self.r * width)),
                ("stroke-dasharray", f"{fmt(self.r * 0.5)} {fmt(self.r * 0.35)}")]

    def _support(self, oid: str, pen: Pen, body: str, at: Point) -> None:
        mark = self._fail_mark(at, pen.said) if pen.failed else ""
        self.used.add("support")
        self._group(oid, "support", pen, body, mark)

    def _build(self, order: Build, pen: Pen) -> None:
        loc = order.location
        self.touched.add(loc.province)
        p = self._at(loc)
        oid = self.ids(f"order-build-{loc_id(loc)}")
        colour = self.colours.get(pen.power or "", "#ffffff")
        letter = order.kind.value if order.kind else "?"
        body = unit_symbol(p, self.r, colour, letter, ghost=True)
        mark = self._fail_mark((p[0] + self.r, p[1] - self.r), pen.said) if pen.failed else ""
        self.used.add("build")
        self._group(oid, "build", pen, body, mark)

    def _cross(self, p: Point, oid: str, classes: str, tip: str, drawn: bool = True) -> None:
        s = self.r * 1.15
        colour = FAILED if drawn else OPTION
        body = el("path", [("d", cross(p, s)), ("stroke", colour), ("stroke-width", fmt(self.r * 0.35)),
                           ("stroke-linecap", "round")])
        if not tip.startswith("<title>"):
            tip = f"<title>{escape(tip)}</title>"
        self.marks.append(el("g", [("id", oid), ("class", classes)], tip, body))

    def _fail_mark(self, p: Point, said: Said | None) -> str:
        if said is None:
            return ""
        if said.mark is Mark.PARADOX:
            return el("g", [("class", "mark paradox")],
                      el("circle", [*circle(p, self.r * 0.75), ("fill", PARADOX), ("stroke", "#ffffff"),
                                    ("stroke-width", fmt(self.r * 0.12))]),
                      el("text", [("x", fmt(p[0])), ("y", fmt(p[1] + self.r * 0.36)), ("font-size", fmt(self.r * 1.05)),
                                  ("text-anchor", "middle"), ("fill", "#ffffff"), ("font-weight", "bold")], "!"))
        s = self.r * 0.55
        colour = OPTION if said.mark in (Mark.VOID, Mark.ILLEGAL) else FAILED
        return el("path", [("class", f"mark {said.mark.value}"), ("d", cross(p, s)), ("stroke", colour),
                           ("stroke-width", fmt(self.r * 0.3)), ("stroke-linecap", "round")])

    def _bar(self, a: Point, b: Point) -> str:
        """A bar across the arrow's tip: the move bounced."""
        dx, dy = b[0] - a[0], b[1] - a[1]
        n = math.hypot(dx, dy) or 1.0
        nx, ny = -dy / n * self.r * 0.8, dx / n * self.r * 0.8
        c = toward(b, a, self.r * 0.6)
        return el("path", [("class", "mark bounce"), ("d", polyline((c[0] - nx, c[1] - ny), (c[0] + nx, c[1] + ny))),
                           ("stroke", FAILED), ("stroke-width", fmt(self.r * 0.3)), ("stroke-linecap", "round")])

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

