"""Board pictures as SVG under the name python-chess gives them (``chess.svg``):
``dipsat.svg.board(state, *, result=None, orders=None, area=None, size=None, ...)``.

The drawing lives with the other printers, in :mod:`dipsat.printers.svg`; this module
is the library's front door to it.
"""

from __future__ import annotations

from .printers.svg import MAX_SIZE, MIN_SIZE, POWER_COLOURS, board

__all__ = ["MAX_SIZE", "MIN_SIZE", "POWER_COLOURS", "board"]
