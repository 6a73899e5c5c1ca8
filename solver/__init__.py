"""dipsat: a Diplomacy adjudicator built on the CP-SAT constraint solver.

>>> import dipsat
>>> variant = dipsat.load_variant("standard")
>>> state = variant.initial_state()
>>> orders, errors = dipsat.notation.parse_orders("England: F lon - nth", variant)
>>> result = dipsat.adjudicate(state, orders)
>>> result.results[0].succeeded
True
"""

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

__version__ = "0.1.0"

__all__ = [
    "Build", "CaseFileError", "Convoy", "DipsatError", "Disband", "Dislodged", "Hold", "Location",
    "Map", "MapError", "Move", "NotationError", "Order", "OrderResult", "Phase", "PhaseKind",
    "PhaseResult", "Power", "Reason", "Remove", "Retreat", "Rules", "Season", "SolverError", "State",
    "SupportHold", "SupportMove", "Unit", "UnitKind", "UnitRef", "Variant", "Waive", "adjudicate",
    "load_map", "load_variant", "notation",
]
