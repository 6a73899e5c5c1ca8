"""An inset that magnifies a cluster of small provinces (Belgium, Holland, Denmark, ...) when
the picture is too small to read their units and labels (the whole map at its default width).

The inset is drawn on the map where no unit is (else below the map), as a nested ``<svg>``
with ``id="inset"`` and class ``inset`` that shows the map's layers again (``<use
href="#map-layers">``) at a larger scale; ``id="inset-frame"`` (class ``inset-frame``) outlines
on the map the part it magnifies. Pure functions of boxes and points; same input, same answer.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

Point = tuple[float, float]
Box = tuple[float, float, float, float]
"""(x, y, width, height) in map units."""

SMALL = 8.5
"""A province is small when its outline is less than this many unit radii across."""
READABLE = 10.0
"""The least radius of a unit symbol, in pixels, that a ruling can be read at (its letter and
a label are then about 12 pixels high)."""
WIDEST = 0.42
"""The widest an inset may be, as a part of the picture's width."""


@dataclass(frozen=True, slots=True)
class Inset:
    region: Box
    """The part of the map magnified (map units)."""
    at: tuple[float, float, float, float]
    """Where it is drawn (x, y, width, height in pixels of the picture)."""
    below: bool = False
    """Drawn below the map (no place on the map is free of units): the picture grows by
    :attr:`band` pixels under the map."""

    @property
    def band(self) -> int:
        return round(self.at[3] + 16) if self.below else 0


def small_provinces(bounds: Mapping[str, tuple[float, float, float, float]], r: float) -> set[str]:
    """The provinces (id -> outline bounds x0, y0, x1, y1) less than :data:`SMALL` radii across."""
    return {pid for pid, (x0, y0, x1, y1) in bounds.items() if max(x1 - x0, y1 - y0) < SMALL * r}


def _far(a: Point, b: Point) -> float:
    return float(((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5)


def plan(view: Box, width: int, height: int, r: float, busy: Mapping[str, Point],
         bounds: Mapping[str, tuple[float, float, float, float]], occupied: Iterable[Point]) -> Inset | None:
    """The inset a picture needs: none when its units are :data:`READABLE` (`width` x `height`
    pixels show `view`), or when no small province in view holds a unit (`busy`: province id ->
    where its unit is drawn). Else the most small provinces with units, nearest one another,
    that fit in an inset no wider than :data:`WIDEST` of the picture with their units
    readable, on the map where no `occupied` point (unit) is, else below the map."""
    scale = width / view[2]
    if r * scale >= READABLE:
        return None
    small = small_provinces(bounds, r)
    x0, y0, w, h = view
    points = {pid: p for pid, p in busy.items() if pid in small and x0 <= p[0] <= x0 + w and y0 <= p[1] <= y0 + h}
    if not points:
        return None
    zoom = max(READABLE * 1.2 / r, scale * 1.6)
    best: tuple[int, float, str, Box] | None = None
    for seed in sorted(points):  # the most small provinces around one that fit, in the least room
        near = sorted(points, key=lambda pid: (_far(points[pid], points[seed]), pid))
        for k in range(len(near), 0, -1):
            region = _region(near[:k], bounds, 2.5 * r)
            if region[2] * zoom <= width * WIDEST and region[3] * zoom <= height * 0.6:
                key = (-k, max(region[2], region[3]), seed, region)
                best = key if best is None or key[:3] < best[:3] else best
                break
    if best is None:
        return None
    region = best[3]
    frame = ((region[0] - x0) * scale, (region[1] - y0) * scale, region[2] * scale, region[3] * scale)
    at, below = _corner(width, height, region[2] * zoom, region[3] * zoom,
                        [((p[0] - x0) * scale, (p[1] - y0) * scale) for p in occupied], frame)
    return Inset(region, at, below)


def _region(provinces: Sequence[str], bounds: Mapping[str, tuple[float, float, float, float]], margin: float) -> Box:
    """The box around the provinces' outlines, with a margin."""
    xs = [v for pid in provinces for v in (bounds[pid][0], bounds[pid][2])]
    ys = [v for pid in provinces for v in (bounds[pid][1], bounds[pid][3])]
    return min(xs) - margin, min(ys) - margin, max(xs) - min(xs) + 2 * margin, max(ys) - min(ys) + 2 * margin


def _corner(width: int, height: int, pw: float, ph: float, occupied: Sequence[Point],
            frame: tuple[float, float, float, float]) -> tuple[tuple[float, float, float, float], bool]:
    """Where a box of pw x ph pixels goes (x, y, width, height; below the map?): along the
    map's edges (8 pixels off them; the corners first), the first place with no occupied point
    under it and not over the part it magnifies (`frame`: x, y, width, height in pixels); else
    below the map."""
    pad = 8.0
    right, bottom = width - pw - pad, height - ph - pad
    places = [(pad, pad), (right, pad), (pad, bottom), (right, bottom)]
    steps = 12
    for i in range(1, steps):
        places += [(pad + (right - pad) * i / steps, pad), (pad + (right - pad) * i / steps, bottom),
                   (pad, pad + (bottom - pad) * i / steps), (right, pad + (bottom - pad) * i / steps)]

    def cost(c: Point) -> int:
        fx, fy, fw, fh = frame
        over = c[0] < fx + fw and fx < c[0] + pw and c[1] < fy + fh and fy < c[1] + ph
        return 1000 * over + sum(c[0] - 12 <= p[0] <= c[0] + pw + 12 and c[1] - 12 <= p[1] <= c[1] + ph + 12
                                 for p in occupied)

    best = min(places, key=cost)
    if cost(best) > 0:  # every place hides a unit: below the map
        return (pad, height + pad, round(pw, 1), round(ph, 1)), True
    return (round(best[0], 1), round(best[1], 1), round(pw, 1), round(ph, 1)), False


def inset_svg(inset: Inset, frame_width: float, ink: str, fmt: Callable[[float], str]) -> tuple[str, str]:
    """The inset (to draw over the map, in picture pixels) and its frame on the map (map units);
    `fmt` writes a number."""
    x, y, w, h = inset.at
    rx, ry, rw, rh = inset.region
    over = (f'<g id="inset" class="inset"><rect x="{fmt(x - 1.5)}" y="{fmt(y - 1.5)}" width="{fmt(w + 3)}" '
            f'height="{fmt(h + 3)}" fill="#ffffff" stroke="{ink}" stroke-width="3"/>'
            f'<svg x="{fmt(x)}" y="{fmt(y)}" width="{fmt(w)}" height="{fmt(h)}" '
            f'viewBox="{fmt(rx)} {fmt(ry)} {fmt(rw)} {fmt(rh)}"><use href="#map-layers"/></svg></g>')
    frame = (f'<rect id="inset-frame" class="inset-frame" x="{fmt(rx)}" y="{fmt(ry)}" width="{fmt(rw)}" '
             f'height="{fmt(rh)}" fill="none" stroke="{ink}" stroke-width="{fmt(frame_width)}" '
             f'stroke-dasharray="{fmt(frame_width * 3)} {fmt(frame_width * 2)}"/>')
    return over, frame

