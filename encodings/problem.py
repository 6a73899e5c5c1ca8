"""The indexed movement problem the encodings read (built by the prescan)."""

from __future__ import annotations

from dataclasses import dataclass, field

Key = tuple[str, int]
"""A decision: ("move", m), ("support", s), ("dislodged", u), ("path", m), ("convoy", c)."""


@dataclass(slots=True)
class UnitSlot:
    """A unit on the board at the start of the turn."""

    index: int
    province: str
    power: str
    move: int | None = None  # its valid move order, if any
    hold_supports: list[int] = field(default_factory=list)  # matched supports to hold it


@dataclass(slots=True)
class MoveOrder:
    index: int
    unit: int
    origin: str
    dest: str
    power: str
    convoyed: bool  # goes by convoy (DATC 4.A.3 decided in the prescan)
    supports: list[int] = field(default_factory=list)  # matched supports of this move
    routes: list[tuple[int, ...]] = field(default_factory=list)  # convoy orders per minimal route
    opposing: int | None = None  # the move it meets head to head (both by land)


@dataclass(slots=True)
class SupportOrder:
    index: int
    unit: int
    province: str
    power: str
    target: str  # province supported into (move) or held (hold)
    move: int | None = None  # the supported move (None: support to hold)


@dataclass(slots=True)
class ConvoyOrder:
    index: int
    unit: int
    province: str
    move: int


@dataclass(slots=True)
class Problem:
    units: list[UnitSlot]
    moves: list[MoveOrder]
    supports: list[SupportOrder]
    convoys: list[ConvoyOrder]
    unit_at: dict[str, int]  # province -> unit index
    moves_into: dict[str, list[int]]  # province -> moves whose destination it is

    def decisions(self) -> list[Key]:
        keys: list[Key] = [("move", m.index) for m in self.moves]
        keys += [("support", s.index) for s in self.supports]
        keys += [("dislodged", u.index) for u in self.units if self.moves_into.get(u.province)]
        keys += [("path", m.index) for m in self.moves if m.convoyed]
        keys += [("convoy", c.index) for c in self.convoys]
        return keys
