"""A movement turn: the prescan (:mod:`.prescan`, with :mod:`.legality`), the CP-SAT model
solved by the driver (:mod:`.driver`, over :mod:`dipsat.encodings`), the outcomes read once
from the solution (:mod:`.resolution`), and the turn put together (:mod:`.turn`)."""

from .prescan import prescan
from .turn import MovementTrace, adjudicate_movement, adjudicate_movements

__all__ = ["MovementTrace", "adjudicate_movement", "adjudicate_movements", "prescan"]
