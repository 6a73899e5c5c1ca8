"""The indexed movement problem the encodings read (built by the prescan)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .decisions import CONVOY, DISLODGED, MOVE, PATH, SUPPORT, Decision, DecisionKind

Key = Decision
"""A decision (:data:`~.decisions.Decision`): ``(MOVE, m)``, ``(SUPPORT, s)``, ``(DISLODGED, u)``,
``(PATH, m)``, ``(CONVOY, c)``."""


# MoveOrder, SupportOrder and ConvoyOrder write their __init__ out, the one the dataclass would
# make (tests/test_frozen.py checks it): compiled by mypyc (setup.py), a written __init__ is C,
# where the dataclass's is Python, entered in a frame of its own for each of the turn's orders.


@dataclass(slots=True, init=False)
class MoveOrder:
    index: int
    unit: int
    origin: str
    dest: str
    power: str
    convoyed: bool  # tries the convoy route (DATC 4.A.3 decided in the prescan)
    fallback: bool = False  # takes the land route when no convoy route is alive (4.A.3 options)
    supports: Sequence[int] = ()  # matched supports of this move (most have none)
    routes: Sequence[tuple[int, ...]] = ()  # convoy orders per minimal route
    opposite: int | None = None  # the move from our destination to our origin, by any route

    def __init__(self, index: int, unit: int, origin: str, dest: str, power: str, convoyed: bool,
                 fallback: bool = False, supports: Sequence[int] = (), routes: Sequence[tuple[int, ...]] = (),
                 opposite: int | None = None) -> None:
        self.index = index
        self.unit = unit
        self.origin = origin
        self.dest = dest
        self.power = power
        self.convoyed = convoyed
        self.fallback = fallback
        self.supports = supports
        self.routes = routes
        self.opposite = opposite

    @property
    def land_only(self) -> bool:
        return not self.convoyed

    @property
    def convoy_only(self) -> bool:
        return self.convoyed and not self.fallback


@dataclass(slots=True, init=False)
class SupportOrder:
    index: int
    unit: int
    province: str
    power: str
    target: str  # province supported into (move) or held (hold)
    move: int | None = None  # the supported move (None: support to hold)

    def __init__(self, index: int, unit: int, province: str, power: str, target: str, move: int | None = None) -> None:
        self.index = index
        self.unit = unit
        self.province = province
        self.power = power
        self.target = target
        self.move = move


@dataclass(slots=True, init=False)
class ConvoyOrder:
    index: int
    unit: int
    province: str
    move: int

    def __init__(self, index: int, unit: int, province: str, move: int) -> None:
        self.index = index
        self.unit = unit
        self.province = province
        self.move = move


@dataclass(slots=True)
class Problem:
    """The turn's moves, supports and convoys, each at its index in its list, and its units:
    the facts of unit ``u`` at index ``u`` of each of the units' lists (no object a unit: a
    turn makes none for the two dozen units it reads these of)."""

    provinces: list[str]  # by unit index: the province the unit stands in
    powers: list[str]  # by unit index: its power
    fleets: list[bool]  # by unit index: is it a fleet?
    unit_moves: list[int | None]  # by unit index: its valid move order, if any
    hold_supports: list[Sequence[int]]  # by unit index: matched supports to hold it (most have none)
    moves: list[MoveOrder]
    supports: list[SupportOrder]
    convoys: list[ConvoyOrder]
    unit_at: dict[str, int]  # province -> unit index
    moves_into: dict[str, Sequence[int]]  # province -> moves whose destination it is

    def decisions(self) -> list[Key]:
        return [(kind, i) for kind, indices in self.decision_indices() for i in indices]

    def decision_indices(self) -> tuple[tuple[DecisionKind, Sequence[int]], ...]:
        """The decisions of :meth:`decisions`, kind by kind: each kind and its indices, in order."""
        unit_at, moves = self.unit_at, self.moves  # the units some move enters, by index
        entered = sorted([u for p, into in self.moves_into.items() if into and (u := unit_at.get(p)) is not None])
        return ((MOVE, range(len(moves))), (SUPPORT, range(len(self.supports))), (DISLODGED, entered),
                (PATH, [move.index for move in moves if move.convoyed]), (CONVOY, range(len(self.convoys))))
