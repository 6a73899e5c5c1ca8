"""The facts that decided an order, in the terms of DATC chapter 5, as values: strengths with
the supports that counted and those that did not (and why), the moves that cut a support or
dislodged a unit, the convoy routes tried, what a move met in its destination.
:mod:`dipsat.movement.resolution` reads them off the solved model; the outcomes of
:mod:`dipsat.outcomes` carry them."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from .board import Unit
from .frozen import direct_init

__all__ = ["StrengthKind", "SupportFailure", "Stance", "NoCut", "ZeroReason", "MoveRef", "SupportPart", "Strength",
           "Cutter", "Dislodgement", "Route", "Resistance", "PreventFact", "Opposition", "AttackNote", "MoveFacts"]


class StrengthKind(enum.Enum):
    """The four strengths of DATC 5.B.5-5.B.8."""

    ATTACK = "attack"
    HOLD = "hold"
    DEFEND = "defend"
    PREVENT = "prevent"

    def __str__(self) -> str:
        return self.value


class SupportFailure(enum.Enum):
    """Why a support did not count in a strength."""

    CUT = "cut"  # DATC 5.B.2
    DISLODGED = "dislodged"  # DATC 5.B.2
    AGAINST_OWN_UNIT = "against own unit"  # DATC 5.B.8: not counted against a unit of its own power


class Stance(enum.Enum):
    """What a unit that faces an attack is doing."""

    HOLDS = "holds"
    SUPPORTS = "stays to support"
    CONVOYS = "stays to convoy"
    MOVES_AWAY = "moves away"
    FAILS_TO_MOVE = "fails to move away"

    def __str__(self) -> str:
        return self.value


class NoCut(enum.Enum):
    """Why an attack on a supporting unit did not cut the support (DATC 5.B.2, 4.A.2)."""

    SAME_POWER = "same power"  # DATC 5.B.2: a unit does not cut a support of its own power
    PROTECTED = "protected"  # the rulebook's convoy rule: it comes by convoy through the fleet the support attacks
    FROM_TARGET = "from target"  # DATC 5.B.2: it comes from the area the support is aimed at
    NO_PATH = "no path"  # DATC 5.B.2: it comes by convoy and has no convoy route
    UNPROTECTED_ROUTE = "unprotected route"  # DATC 6.F.19: a route without the attacked fleet: it does cut

    def __str__(self) -> str:
        return self.value


class ZeroReason(enum.Enum):
    """Why a prevent (or attack) strength is 0."""

    NO_PATH = "no convoy route"  # DATC 5.B.6, 5.B.8
    LOST_HEAD_TO_HEAD = "lost head to head"  # DATC 5.B.6
    DISLODGED_FROM_THERE = "dislodged from there"  # DATC 4.A.7 a


@direct_init
@dataclass(frozen=True, slots=True)
class MoveRef:
    """A move as the outcomes name it: the unit and where it goes (``A bur - mun``)."""

    unit: Unit
    dest: str
    by_convoy: bool = False

    def __str__(self) -> str:
        return f"{self.unit.kind} {self.unit.location} - {self.dest}"

    @property
    def order(self) -> str:
        """The move as an order with its power (``Germany: A mun - bur``)."""
        return f"{self.unit.power}: {self}"


@direct_init
@dataclass(frozen=True, slots=True)
class SupportPart:
    """One support order's part in a strength: counted, or not and why (and by whom)."""

    supporter: Unit
    counted: bool
    failure: SupportFailure | None = None
    by: tuple[Cutter, ...] = ()  # cut: the attacks that cut it; dislodged: the dislodging attack
    power: str | None = None  # against own unit: the power whose unit it would have attacked


@direct_init
@dataclass(frozen=True, slots=True)
class Strength:
    """A strength of DATC 5.B.5-5.B.8 in the solution: its value and the supports it counted."""

    kind: StrengthKind
    value: int | None  # None: not needed by the model (settled by a backup rule)
    unit: Unit  # whose strength (the moving or holding unit)
    supports: tuple[SupportPart, ...] = ()
    move: MoveRef | None = None  # attack, defend and prevent strengths belong to a move

@direct_init
@dataclass(frozen=True, slots=True)
class Cutter:
    """A move that cut a support (DATC 5.B.2) or dislodged its unit."""

    move: MoveRef
    dislodged: bool = False  # the cutting unit is itself dislodged (it still cuts, DATC 5.B.2)


@direct_init
@dataclass(frozen=True, slots=True)
class Dislodgement:
    """Who dislodged a unit: the successful move into its area, its attack strength and
    the supports that counted (DATC 5.A, 5.B.8)."""

    unit: Unit
    by: MoveRef
    attack: int | None
    supports: tuple[Unit, ...] = ()

@direct_init
@dataclass(frozen=True, slots=True)
class Route:
    """One convoy route (a chain of convoying fleets) of a convoyed move, and its fate."""

    fleets: tuple[Unit, ...]
    carries: bool
    failed: tuple[tuple[Unit, Unit | None], ...] = ()  # fleets that did not convoy, and who dislodged them


@direct_init
@dataclass(frozen=True, slots=True)
class Resistance:
    """What a move meets in its destination (DATC 5.B.1): an empty area, a head-to-head
    battle (the opposite move's defend strength), or the occupant's hold strength."""

    occupant: Unit | None = None
    stance: Stance | None = None
    strength: Strength | None = None  # hold strength, or the opposite move's defend strength
    head_to_head: MoveRef | None = None
    opposite_by_convoy: bool = False  # the occupant moves the opposite way, but one of the two by convoy


@direct_init
@dataclass(frozen=True, slots=True)
class PreventFact:
    """Another move into the same area, with its prevent strength (DATC 5.B.6)."""

    move: MoveRef
    strength: Strength | None
    zero: ZeroReason | None = None
    head_to_head: bool = False  # its zero came from a head-to-head battle (else 4.A.7 a)
    beaten_by: MoveRef | None = None  # the opposite move that dislodged it
    dislodged_elsewhere: bool = False  # dislodged, but not from this area: it still prevents


@direct_init
@dataclass(frozen=True, slots=True)
class Opposition:
    """An opposing strength at least a move's attack (the culprit of a bounce)."""

    strength: Strength | None  # None: the own-unit rule (attack strength 0)
    against: Unit | None = None  # the unit defending or holding, or preventing
    move: MoveRef | None = None  # the opposing move (head to head, or prevent)
    stance: Stance | None = None
    head_to_head: bool = False
    own_unit: bool = False  # DATC 5.B.8: a unit of its own power stays there

    def standoff(self, attack: int) -> bool:
        return self.strength is not None and self.strength.value == attack

@direct_init
@dataclass(frozen=True, slots=True)
class AttackNote:
    """An attack on a supporting unit that did not cut the support, and why (DATC 5.B.2, 4.A.2)."""

    move: MoveRef
    why: NoCut
    fleets: tuple[Unit, ...] = ()  # protected: the fleets the support attacks; unprotected route: a free route
    rule: str | None = None  # protected: the rulebook's convoy rule
    target: str = ""  # unprotected route: the area the support is for


@direct_init
@dataclass(frozen=True, slots=True)
class MoveFacts:
    """Everything the solved model says about one move."""

    move: MoveRef
    attack: Strength | None
    resistance: Resistance
    prevents: tuple[PreventFact, ...] = ()
    routes: tuple[Route, ...] | None = None  # None: not convoyed
    backup: str | None = None  # the backup rule that settled it
    dislodged_by: Dislodgement | None = None
    keeps_out: Strength | None = None
    """The move's own prevent strength when it attacks a unit of its own power (its attack
    strength is 0, DATC 5.B.8): with it the move still keeps others out (rulebook figure 26)."""
