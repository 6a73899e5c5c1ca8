"""A movement turn: the prescan (:mod:`.prescan`, with :mod:`.legality`), the CP-SAT model
solved by the driver (:mod:`.driver`, over :mod:`dipsat.encodings`), the outcomes read once
from the solution (:mod:`.resolution`), and the turn put together (:mod:`.turn`).

The names are imported on first use (PEP 562): the legality check (:mod:`.legality`),
which the map and order references use, must not load OR-Tools with the solver."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from .prescan import prescan  # loads no OR-Tools; bound here so that the name is the function, not the module

if TYPE_CHECKING:
    from .turn import MovementTrace, adjudicate_movement, adjudicate_movements

_HOME_OF = {"MovementTrace": "turn", "adjudicate_movement": "turn",
            "adjudicate_movements": "turn"}


def __getattr__(name: str) -> object:
    home = _HOME_OF.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{home}", __name__), name)
    globals()[name] = value
    return value


__all__ = ["MovementTrace", "adjudicate_movement", "adjudicate_movements", "prescan"]
