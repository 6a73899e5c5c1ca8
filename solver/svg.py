"""Board pictures as SVG under the name python-chess gives them (``chess.svg``):
``dipsat.svg.board(state, *, result=None, orders=None, area=None, size=None, ...)``.

The drawing lives with the other printers, in :mod:`dipsat.printers.svg`; this module
is the library's front door to it. The printer adjudicates nothing: :func:`position`
works out a retreat phase's options under the rules (the phase logic's, not the printer's)
and draws them.
"""

from __future__ import annotations

from .phases import retreat_choices
from .printers.svg import MAX_SIZE, MIN_SIZE, POWER_COLOURS, board
from .rules import Rules
from .state import State

__all__ = ["MAX_SIZE", "MIN_SIZE", "POWER_COLOURS", "board", "position"]


def position(state: State, rules: Rules | None = None) -> str:
    """The position alone, as notebooks show it; in a retreat phase, where each dislodged
    unit may go under `rules` (default: the default profile)."""
    return board(state, retreat_options=retreat_choices(state, rules if rules is not None else Rules.profile()))
