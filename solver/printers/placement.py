"""Where marks go on a board picture so that a ruling can be read from it: a province's label
where no unit, centre or other label is; a dislodged unit inside its own province, away from
its attacker; a convoy route that stays in the sea areas it passes.

Pure functions of the map's geometry (:mod:`dipsat.maps.geometry`) and of boxes already taken;
same input, same answer (candidates are tried in a fixed order).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence

from ..maps.geometry import Geometry, Shape, contains

Point = tuple[float, float]
Box = tuple[float, float, float, float]
"""(x0, y0, x1, y1) in map units."""

_DIRECTIONS = 16


def label_box(text: str, at: Point, size: float) -> Box:
    """The box a label's text covers: `size` is the font size, the text centred on `at`
    (a sans-serif glyph is about 0.62 of the size wide; the letters of an abbreviation are
    lower case, about half the size above and below the middle)."""
    half_w = 0.62 * size * len(text) / 2 + size * 0.1
    half_h = size * 0.55
    return at[0] - half_w, at[1] - half_h, at[0] + half_w, at[1] + half_h


def square(at: Point, half: float) -> Box:
    """The box of a round mark of radius `half` at `at`."""
    return at[0] - half, at[1] - half, at[0] + half, at[1] + half


def overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _box_inside(shape: Shape, box: Box) -> bool:
    x0, y0, x1, y1 = box
    sx0, sy0, sx1, sy1 = shape.bounds
    if x0 < sx0 or y0 < sy0 or x1 > sx1 or y1 > sy1:
        return False
    xm, ym = (x0 + x1) / 2, (y0 + y1) / 2
    return all(contains(shape.outline, p) for p in
               ((xm, ym), (x0, y0), (x1, y0), (x0, y1), (x1, y1), (xm, y0), (xm, y1), (x0, ym), (x1, ym)))


@functools.lru_cache(maxsize=64)
def _ring(step: float, steps: int) -> tuple[Point, ...]:
    """Offsets by distance (nearest first), then by direction (from straight up, clockwise)."""
    out = []
    for i in range(1, steps + 1):
        for k in range(_DIRECTIONS):
            angle = 2 * math.pi * k / _DIRECTIONS
            out.append((math.sin(angle) * step * i, -math.cos(angle) * step * i))
    return tuple(out)


def place_label(shape: Shape, text: str, size: float, taken: Sequence[Box], labels: Sequence[Box] = (),
                land: Sequence[Shape] = ()) -> Point:
    """Where the label `text` of `shape` goes: its own point if that is clear of every box
    `taken` (units, centres), else the nearest point whose text box is inside the province and
    clear of `taken` and of the other `labels`; else the nearest such point with its middle
    inside; else one clear of `taken` only; else (a province too small for its units and its
    label) the nearest clear point outside every other province of `land`, else the nearest
    clear point; else its own point. A label outside its province needs a leader line to it."""
    home = shape.label
    if not any(overlaps(label_box(text, home, size), t) for t in taken):
        return home
    reach = 24 * size * 0.5 + size * len(text)  # the farthest a candidate's box goes
    around = (home[0] - reach, home[1] - reach, home[0] + reach, home[1] + reach)
    taken = [t for t in taken if overlaps(t, around)]
    boxes = [*taken, *(b for b in labels if overlaps(b, around))]

    def clear(p: Point) -> bool:
        box = label_box(text, p, size)
        return not any(overlaps(box, t) for t in boxes)
    def marks_clear(p: Point) -> bool:
        box = label_box(text, p, size)
        return not any(overlaps(box, t) for t in taken)

    candidates = [(home[0] + dx, home[1] + dy) for dx, dy in _ring(size * 0.5, 24)]
    for test in (lambda p: clear(p) and _box_inside(shape, label_box(text, p, size)),
                 lambda p: clear(p) and contains(shape.outline, p),
                 lambda p: marks_clear(p) and contains(shape.outline, p),
                 lambda p: clear(p) and not any(o is not shape and contains(o.outline, p) for o in land),
                 marks_clear):  # a province too small for its label and its units: just beside them
        for p in candidates:
            if test(p):
                return p
    return home


def place_labels(geo: Geometry, size: float, taken: Sequence[Box], land: set[str]) -> dict[str, Point]:
    """Where each province's label (its id, font `size`) goes: its own point where that is
    clear of the boxes `taken` (units, centres), else :func:`place_label` (`land`: the ids of
    land provinces, where another's label never goes)."""
    points = {pid: shape.label for pid, shape in geo.provinces.items()}
    shapes = [shape for pid, shape in geo.provinces.items() if pid in land]
    for pid, shape in geo.provinces.items():
        if not any(overlaps(label_box(pid, shape.label, size), t) for t in taken):
            continue  # where it is
        others = [label_box(o, p, size) for o, p in points.items() if o != pid]
        points[pid] = place_label(shape, pid, size, taken, others, shapes)
    return points


def place_dislodged(shape: Shape, home: Point, attacker: Point | None, r: float,
                    taken: Sequence[Box] = ()) -> Point:
    """Where a dislodged unit is drawn: inside its own province (`shape`), clear of the unit that
    stands on its place (`home`) and of `taken`, as far as can be in the direction away from the
    attacker (up and right when there is none). Its mark is a ring of radius 1.3 `r`."""
    if attacker is not None and attacker != home:
        away = math.atan2(home[1] - attacker[1], home[0] - attacker[0])
    else:
        away = math.atan2(-1.0, 1.0)
    ring = 1.3 * r
    offsets = [0, *(s * k for k in range(1, 10) for s in (1, -1))]  # 20 degree steps, both ways
    distances = [r * (2.4 + 0.4 * i) for i in range(8)]
    candidates = [(home[0] + math.cos(away + math.radians(20 * o)) * d,
                   home[1] + math.sin(away + math.radians(20 * o)) * d)
                  for o in offsets for d in distances]

    def free(p: Point) -> bool:
        return not any(overlaps(square(p, ring), t) for t in taken)

    def whole(p: Point) -> bool:
        return all(contains(shape.outline, (p[0] + math.cos(a) * ring, p[1] + math.sin(a) * ring))
                   for a in (math.pi * k / 4 for k in range(8)))

    for test in (lambda p: whole(p) and free(p), whole,
                 lambda p: contains(shape.outline, p) and free(p), lambda p: contains(shape.outline, p)):
        for p in candidates:
            if contains(shape.outline, p) and test(p):
                return p
    return candidates[0]


# --- convoy routes --------------------------------------------------------------------


def _stays_in(shapes: Sequence[Shape], a: Point, b: Point, spare: Sequence[Point] = ()) -> bool:
    """Does the segment a-b stay inside the shapes (tried every unit of length; points within
    1.5 units of `spare`, the border points it passes, count as inside)?"""
    n = max(2, int(math.hypot(b[0] - a[0], b[1] - a[1])) + 1)
    for i in range(1, n):
        p = (a[0] + (b[0] - a[0]) * i / n, a[1] + (b[1] - a[1]) * i / n)
        if any(math.hypot(p[0] - q[0], p[1] - q[1]) <= 1.5 for q in spare):
            continue
        if not any(contains(s.outline, p) for s in shapes):
            return False
    return True


@functools.lru_cache(maxsize=4096)
def crossing_points(geo: Geometry, one: str, other: str, a: Point, b: Point) -> tuple[Point, ...]:
    """The points a line from `a` (in province `one`) to `b` (in `other`) passes to stay in the
    two provinces: none when the straight line does; else a vertex their outlines share when
    two straight lines through it do (the shortest such); else the corners of a way found on a
    grid inside the two; else the shared vertex of the shortest way (the best the outlines offer)."""
    first, second = geo.provinces.get(one), geo.provinces.get(other)
    if first is None or second is None or _stays_in((first, second), a, b):
        return ()
    mine = {p for ring in first.outline for p in ring}
    shared = sorted(p for ring in second.outline for p in ring if p in mine)
    if not shared:
        return tuple(_walk((first, second), a, b) or ())

    def length(v: Point) -> float:
        return math.hypot(v[0] - a[0], v[1] - a[1]) + math.hypot(b[0] - v[0], b[1] - v[1])

    for v in sorted(shared, key=length):
        if _stays_in((first,), a, v, (v,)) and _stays_in((second,), v, b, (v,)):
            return (v,)
    return tuple(_walk((first, second), a, b) or (min(shared, key=length),))


def _walk(shapes: Sequence[Shape], a: Point, b: Point) -> list[Point] | None:
    """The corners of a short way from `a` to `b` inside the shapes, keeping off their edges
    where the way is wide enough; None when there is none."""
    return _grid_walk(shapes, a, b, 4.0, 2.0) or _grid_walk(shapes, a, b, 2.0, 0.0)


def _grid_walk(shapes: Sequence[Shape], a: Point, b: Point, step: float, margin: float) -> list[Point] | None:
    """The corners of a short way from `a` to `b` inside the shapes, `margin` off their edges,
    found on a grid of `step` (A* search, 8 neighbours) and pulled straight; None when there is none."""
    import heapq

    def within(p: Point) -> bool:
        return any(s.bounds[0] <= p[0] <= s.bounds[2] and s.bounds[1] <= p[1] <= s.bounds[3]
                   and contains(s.outline, p) for s in shapes)

    def inside(p: Point) -> bool:  # with a margin: the way keeps off the coast
        h = margin
        return all(within(q) for q in (p, (p[0] - h, p[1] - h), (p[0] + h, p[1] - h), (p[0] - h, p[1] + h),
                                        (p[0] + h, p[1] + h)))

    def at(cell: tuple[int, int]) -> Point:
        return a[0] + cell[0] * step, a[1] + cell[1] * step

    goal = (round((b[0] - a[0]) / step), round((b[1] - a[1]) / step))
    came: dict[tuple[int, int], tuple[int, int] | None] = {(0, 0): None}
    cost = {(0, 0): 0.0}
    todo = [(0.0, (0, 0))]
    seen_inside: dict[tuple[int, int], bool] = {}
    while todo:
        _, cell = heapq.heappop(todo)
        if cell == goal:
            break
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)):
            nxt = (cell[0] + dx, cell[1] + dy)
            if nxt not in seen_inside:
                seen_inside[nxt] = nxt == goal or inside(at(nxt))
            new = cost[cell] + math.hypot(dx, dy)
            if seen_inside[nxt] and new < cost.get(nxt, math.inf):
                cost[nxt], came[nxt] = new, cell
                heapq.heappush(todo, (new + math.hypot(goal[0] - nxt[0], goal[1] - nxt[1]), nxt))
        if len(cost) > 40000:
            return None
    if goal not in came:
        return None
    cells = [goal]
    while (back := came[cells[-1]]) is not None:
        cells.append(back)
    path = [a, *(at(c) for c in reversed(cells[1:-1])), b]
    corners, i = [], 0
    while i < len(path) - 1:  # the farthest point seen straight from here
        j = next(k for k in range(len(path) - 1, i, -1) if k == i + 1 or _stays_in(shapes, path[i], path[k]))
        if j < len(path) - 1:
            corners.append(path[j])
        i = j
    return corners


def sea_route(geo: Geometry, provinces: Sequence[str], points: Sequence[Point]) -> list[Point]:
    """The points of a convoy route through `provinces` (the army's, each convoying sea's, the
    destination's), drawn at `points` (one each): between two provinces in a row, the points a
    line takes to stay in the two where a straight line would cross a third (land)."""
    out = [points[0]]
    for i in range(1, len(points)):
        out += crossing_points(geo, provinces[i - 1], provinces[i], points[i - 1], points[i])
        out.append(points[i])
    return out
