"""The legend of a board picture (:mod:`dipsat.printers.svg`): the powers in view and a
symbol and a line of words for each mark the picture uses, then its notes (backup rules,
waives)."""

from __future__ import annotations

from xml.sax.saxutils import escape

from .palette import IMPASSABLE, shade
from .svg_draw import BORDER, FAILED, HIGHLIGHT, INK, OPTION, PARADOX, el, fmt

__all__ = ["LEGEND", "LEGEND_OWNED", "legend", "legend_height"]

LEGEND = [
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



def legend_height(rows: list[tuple[str, str]], width: int) -> int:
    columns = max(1, width // 250)
    lines = -(-len(rows) // columns)
    return 34 + lines * 20 + 8


def legend(rows: list[tuple[str, str]], width: int, top: int, caption: str, notes: list[str]) -> str:
    columns = max(1, width // 250)
    col_w = width / columns
    seen: set[str] = set()
    out = [el("rect", [("x", "0"), ("y", "0"), ("width", str(width)),
                       ("height", str(legend_height(rows, width) + 16 * len(notes))), ("fill", "#ffffff")]),
           el("text", [("x", "8"), ("y", "20"), ("font-size", "14"), ("font-weight", "bold")], escape(caption))]
    shown = []
    for key, text in rows:
        if text in seen:
            continue
        seen.add(text)
        shown.append((key, text))
    for i, (key, text) in enumerate(shown):
        col, line = i % columns, i // columns
        x, y = col * col_w + 10, 34 + line * 20
        out.append(el("g", [("class", f"legend-entry {key.split()[0]}"), ("transform", f"translate({fmt(x)} {y})")],
                      _legend_symbol(key), el("text", [("x", "30"), ("y", "12")], escape(text))))
    y = legend_height(rows, width)
    for note in notes:
        out.append(el("text", [("class", "note"), ("x", "10"), ("y", str(y)),
                               ("fill", PARADOX if note.startswith("Backup") else INK)], escape(note)))
        y += 16
    return el("g", [("id", "legend"), ("class", "legend"), ("transform", f"translate(0 {top})"), ("font-size", "12"),
                    ("fill", INK)], *out)


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

