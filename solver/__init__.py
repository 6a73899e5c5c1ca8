"""dipsat: a Diplomacy adjudicator built on the CP-SAT constraint solver.

>>> import dipsat
>>> variant = dipsat.load_variant("standard")
>>> state = variant.initial_state()
>>> orders, errors = dipsat.notation.parse_orders("England: F lon - nth", variant)
>>> result = dipsat.adjudicate(state, orders)
>>> result.results[0].succeeded
True
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from . import notation
    from .adjudicator import adjudicate
    from .board import Location, Phase, PhaseKind, Power, Season, Unit, UnitKind
    from .errors import CaseFileError, DipsatError, MapError, NotationError, SolverError
    from .maps import Map, Variant, load_map, load_variant
    from .orders import (Build, Convoy, Disband, Hold, Move, Order, Remove, Retreat, SupportHold,
                         SupportMove, UnitRef, Waive)
    from .results import OrderResult, PhaseResult, Reason
    from .rules import Rules
    from .state import Dislodged, State

_HOMES = {
    "adjudicator": ("adjudicate",),
    "board": ("Location", "Phase", "PhaseKind", "Power", "Season", "Unit", "UnitKind"),
    "errors": ("CaseFileError", "DipsatError", "MapError", "NotationError", "SolverError"),
    "maps": ("Map", "Variant", "load_map", "load_variant"),
    "orders": ("Build", "Convoy", "Disband", "Hold", "Move", "Order", "Remove", "Retreat", "SupportHold",
               "SupportMove", "UnitRef", "Waive"),
    "results": ("OrderResult", "PhaseResult", "Reason"),
    "rules": ("Rules",),
    "state": ("Dislodged", "State"),
}
_HOME_OF = {name: module for module, names in _HOMES.items() for name in names}


def __getattr__(name: str) -> object:
    """The public names are imported on first use (PEP 562), so that ``import dipsat`` and
    the command line start fast; ``from dipsat import adjudicate`` works as always.
    Submodules (``dipsat.notation``, ``dipsat.runners.cases`` ...) are imported the same way."""
    home = _HOME_OF.get(name)
    if home is not None:
        value = getattr(importlib.import_module(f".{home}", __name__), name)
    elif name.startswith("_"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    else:
        try:
            value = importlib.import_module(f".{name}", __name__)
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{name}":
                raise
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


__version__ = "0.1.0"

__all__ = [
    "Build", "CaseFileError", "Convoy", "DipsatError", "Disband", "Dislodged", "Hold", "Location",
    "Map", "MapError", "Move", "NotationError", "Order", "OrderResult", "Phase", "PhaseKind",
    "PhaseResult", "Power", "Reason", "Remove", "Retreat", "Rules", "Season", "SolverError", "State",
    "SupportHold", "SupportMove", "Unit", "UnitKind", "UnitRef", "Variant", "Waive", "adjudicate",
    "load_map", "load_variant", "notation",
]
