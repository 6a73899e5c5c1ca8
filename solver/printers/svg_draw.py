"""The drawing primitives the SVG printer (:mod:`dipsat.printers.svg`) shares between its
layers: the inks, numbers written as text, element ids, geometry of points, and the element
builder :func:`el`. Same input, same bytes."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from ..board import Location, Unit

__all__ = ["Point", "BORDER", "INK", "FAILED", "PARADOX", "OPTION", "HIGHLIGHT", "el", "polyline", "cross", "circle", "loc_id", "unit_id", "slug",
           "fmt", "ink_on", "toward", "lerp", "at_least", "Ids", "Drawn", "unit_symbol"]

Point = tuple[float, float]

BORDER = "#6e6a60"
INK = "#222222"
FAILED = "#d0141b"
PARADOX = "#8e2bd0"
OPTION = "#7a7a7a"
HIGHLIGHT = "#ff00b4"


def el(tag: str, attrs: Iterable[tuple[str, str]], *children: str) -> str:
    """An SVG element: ``<tag a="v" ...>children</tag>``, or ``<tag a="v" .../>`` with none.
    Attribute values are written as given (the callers write numbers with :func:`fmt`)."""
    head = tag + "".join(f' {name}="{value}"' for name, value in attrs)
    return f"<{head}>{''.join(children)}</{tag}>" if children else f"<{head}/>"


def polyline(*points: Point) -> str:
    """Path data through the points: ``M x yL x y...``."""
    return "M" + "L".join(f"{fmt(x)} {fmt(y)}" for x, y in points)


def cross(p: Point, s: float) -> str:
    """Path data of an X of half-width `s` centred on `p`."""
    return polyline((p[0] - s, p[1] - s), (p[0] + s, p[1] + s)) + polyline((p[0] - s, p[1] + s), (p[0] + s, p[1] - s))


def circle(p: Point, r: float) -> list[tuple[str, str]]:
    """The attributes placing a circle of radius `r` at `p`."""
    return [("cx", fmt(p[0])), ("cy", fmt(p[1])), ("r", fmt(r))]


def loc_id(loc: Location) -> str:
    return f"{loc.province}-{loc.coast}" if loc.coast else loc.province


def unit_id(prefix: str, unit: Unit) -> str:
    return f"{prefix}-{slug(unit.power)}-{unit.kind.value}-{loc_id(unit.location)}"


def slug(text: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in text.lower())


def fmt(v: float) -> str:
    """A coordinate: one decimal, no trailing zero (deterministic text)."""
    text = f"{v:.1f}"
    return text[:-2] if text.endswith(".0") else text


def ink_on(colour: str) -> str:
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#ffffff"


def toward(a: Point, b: Point, d: float) -> Point:
    """The point `d` from a toward b."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = math.hypot(dx, dy) or 1.0
    return a[0] + dx / n * d, a[1] + dy / n * d


def lerp(a: Point, b: Point, t: float) -> Point:
    return a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t



class Ids:
    """Element ids, unique within a picture (a second order to the same unit gets -2)."""

    def __init__(self) -> None:
        self.seen: dict[str, int] = {}

    def __call__(self, base: str) -> str:
        n = self.seen.get(base, 0) + 1
        self.seen[base] = n
        return base if n == 1 else f"{base}-{n}"


@dataclass
class Drawn:
    """A move's arrow, for the supports that aim at it."""

    start: Point
    end: Point
    dest: str


def at_least(line: tuple[Point, Point], length: float) -> tuple[Point, Point]:
    """The segment `line`, lengthened about its middle to at least `length`."""
    (x1, y1), (x2, y2) = line
    have = math.hypot(x2 - x1, y2 - y1)
    if have >= length or have == 0:
        return line
    k = length / have / 2
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    return (mx - (x2 - x1) * k, my - (y2 - y1) * k), (mx + (x2 - x1) * k, my + (y2 - y1) * k)



def unit_symbol(p: Point, r: float, colour: str, letter: str, ghost: bool = False) -> str:
    """A unit of radius `r` at `p`: a circle (army), a rounded square (fleet) or a triangle
    (wing) in its power's colour, its letter on it; a ghost (a build) is dashed and pale."""
    x, y = p
    style = ([("fill", colour), ("fill-opacity", "0.45"), ("stroke", INK),
              ("stroke-dasharray", f"{fmt(r * 0.4)} {fmt(r * 0.25)}")] if ghost else [("fill", colour), ("stroke", INK)])
    width = ("stroke-width", fmt(r * 0.16))
    if letter == "F":
        shape = el("rect", [("x", fmt(x - r)), ("y", fmt(y - r * 0.8)), ("width", fmt(2 * r)), ("height", fmt(1.6 * r)),
                            ("rx", fmt(r * 0.35)), *style, width])
    elif letter == "W":
        triangle = polyline((x, y - r * 1.1), (x + r * 1.1, y + r * 0.8), (x - r * 1.1, y + r * 0.8)) + "Z"
        shape = el("path", [("d", triangle), *style, width, ("stroke-linejoin", "round")])
    else:
        shape = el("circle", [*circle(p, r), *style, width])
    ink = ink_on(colour) if not ghost else INK
    text = el("text", [("x", fmt(x)), ("y", fmt(y + r * 0.42)), ("font-size", fmt(r * 1.2)), ("text-anchor", "middle"),
                       ("fill", ink), ("font-weight", "bold")], letter)
    return shape + text
