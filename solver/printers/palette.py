"""The colours of board pictures, and how far apart two colours look.

Each power has a colour for its units and, mixed half with the land's colour (:data:`SHADE`), a
shade for the provinces whose supply centre it owns. The colours are chosen so that any two
powers of a map, the land, the sea, impassable areas and the land off the board are told apart:
``tests/test_pictures_ruling.py`` checks the CIE76 distance (:func:`distance`, in CIELAB) of
every pair against :data:`SHADE_DISTANCE` and :data:`UNIT_DISTANCE`.
"""

from __future__ import annotations

POWER_COLOURS: dict[str, str] = {
    # standard
    "Austria": "#d42a2a", "England": "#1c1f80", "France": "#1f8ef0", "Germany": "#333333",
    "Italy": "#23a33a", "Russia": "#b03fd0", "Turkey": "#f2c40a",
    # Modern (France, Germany, Italy, Russia, Turkey as above)
    "Britain": "#1c1f80", "Egypt": "#00aea2", "Poland": "#ff6aa6", "Spain": "#f07020", "Ukraine": "#6b7a1e",
}
"""Default colour of each power (``colours=`` overrides)."""
SPARE = ("#b5651d", "#4b8f8c", "#9c2f6e", "#6f7d1e", "#3f5a8a")
"""Colours of powers of other variants, in turn."""

LAND = "#efe6cc"
SEA = "#cfe6f5"
IMPASSABLE = "#c0c0c0"
OFFBOARD = "#dcdbd2"

SHADE = 0.5
"""How much of its owner's colour a supply centre's province is shaded with (the rest: land)."""
SHADE_DISTANCE = 20.0
"""The least distance between two shades, and between a shade and the land, sea, impassable
and off-board colours (CIE76: about 2.3 is the least difference people see)."""
UNIT_DISTANCE = 30.0
"""The least distance between two powers' unit colours, and between one and the impassable grey."""


def mix(colour: str, other: str, t: float) -> str:
    """`t` of `colour` and the rest of `other` (``#rrggbb``)."""
    a = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    b = [int(other[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(x * t + y * (1 - t)):02x}" for x, y in zip(a, b))


def shade(colour: str) -> str:
    """The fill of a province whose centre a power of `colour` owns."""
    return mix(colour, LAND, SHADE)


def lab(colour: str) -> tuple[float, float, float]:
    """CIELAB (D65) of an sRGB colour ``#rrggbb``."""
    rgb = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = (((v + 0.055) / 1.055) ** 2.4 if v > 0.04045 else v / 12.92 for v in rgb)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(v: float) -> float:
        return float(v ** (1 / 3)) if v > 0.008856 else 7.787 * v + 16 / 116

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def distance(one: str, other: str) -> float:
    """How far apart two colours look: the CIE76 difference (Euclidean distance in CIELAB)."""
    return float(sum((p - q) ** 2 for p, q in zip(lab(one), lab(other))) ** 0.5)
