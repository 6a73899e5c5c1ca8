"""What happened to each order, as values: the outcome names what decided it.

An :class:`~dipsat.results.OrderResult` carries one outcome. Every outcome reduces
to succeeds/fails (:attr:`Outcome.succeeds`) and a result code
(:attr:`Outcome.code`, a :class:`Reason`), and carries the facts that decided it in
the terms of DATC chapter 5: strengths with the supports that counted and those that
did not (and why), the orders that stopped a move, cut a support or dislodged a
unit, the convoy routes tried, the backup rule that settled a paradox. The movement
outcomes are read once from the solved model by :mod:`dipsat.movement.resolution`; retreat
and adjustment outcomes come from :mod:`dipsat.retreats` and
:mod:`dipsat.adjustments`, illegal and void orders from the prescan
(:mod:`dipsat.movement.legality`, :mod:`dipsat.movement.turn`). Everything else -- the text
report, ``--explain``, JSON, case files, validation reports, board pictures --
only formats these values.

``str(outcome)`` is the short note the text report prints beside a result
(``attack 2 vs hold 1``); :mod:`dipsat.printers.explain` says it in full.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from collections.abc import Callable
from typing import Any, ClassVar

from .board import Location, Unit

__all__ = [
    "Reason", "IllegalCode", "VoidCode", "StrengthKind", "SupportFailure", "Stance", "ZeroReason",
    "MoveRef", "SupportPart", "Strength", "Cutter", "Dislodgement", "Route", "Resistance", "PreventFact", "Opposition",
    "AttackNote", "MoveFacts", "Later", "Outcome", "Illegal", "Void", "Moves", "Bounced", "NoPath", "Paradox", "Given",
    "Cut", "SupportDislodged", "Convoys", "ConvoyDislodged", "Holds", "HoldDislodged", "Succeeds",
    "RetreatCode", "RetreatRefused", "Retreats", "Disbands", "RetreatBounced", "Built", "BuildRefusedCode", "NoBuildsLeft",
    "Removed", "NoRemovalsLeft", "Waived", "DisorderRemoval", "BuildRefused",
]


class Reason(enum.Enum):
    """The result code of a failed order (or, for ILLEGAL/VOID, why it had no effect)."""

    ILLEGAL = "illegal"  # DATC 4.E.1: not a possible order; ignored, the unit holds
    VOID = "void"  # a support or convoy that matches no order
    BOUNCED = "bounced"  # the move was not strong enough (standoff or beaten)
    NO_PATH = "no convoy"  # no undisrupted convoy route
    CUT = "cut"  # support cut
    DISLODGED = "dislodged"  # the unit was dislodged (support/convoy fails)
    PARADOX = "paradox"  # decided by a backup rule (DATC 5.B.9)
    BLOCKED = "blocked"  # retreat/build not possible (occupied, two retreats, no centre ...)

    def __str__(self) -> str:
        return self.value


class IllegalCode(enum.Enum):
    """Why an order is illegal (DATC 4.E.1: ignored, the unit holds)."""

    NO_UNIT = "no unit"  # nothing to order there
    FOREIGN_UNIT = "foreign unit"  # the unit belongs to another power (DATC 6.A.6)
    WRONG_PHASE = "wrong phase"  # an order of another phase kind
    SELF = "own area"  # to or for its own area (DATC 6.A.4, 6.A.8, 6.D.34)
    UNREACHABLE = "unreachable"  # not adjacent, no convoy possible (DATC 6.A.1, 6.A.2, 6.A.3)
    IMPASSABLE = "impassable"  # names an impassable area (Switzerland; Modern: Iceland, the islands)
    COAST = "coast"  # a coast missing, impossible or named for an army (DATC 4.B)
    CONVOY = "convoy"  # a convoy order nobody could carry out (DATC 6.A.5, 6.A.7, 6.F.1)
    SUPPORT = "support"  # a support the supporter or the supported unit could not give or use
    DESIGNATION = "designation"  # unit kind or nationality written wrongly (DATC 4.C)
    SEVERAL_ORDERS = "several orders"  # the unit has more than one order (DATC 4.D.3)
    SILENCED = "silenced"  # a neutral power's or a power in civil disorder's order
    NOT_RETREATABLE = "no retreat"  # a retreat to an area not among the unit's options
    ADJUSTMENT = "adjustment"  # a build/removal/waive the power cannot give


class VoidCode(enum.Enum):
    """Why a support or convoy matches no order (it has no effect; the unit holds)."""

    SUPPORTED_UNIT_MOVES = "supported unit moves"  # support to hold for a unit that moves (DATC 6.D.7)
    SUPPORTED_UNIT_STAYS = "supported unit stays"  # support to move for a unit that does not move (6.D.9)
    OTHER_DESTINATION = "other destination"  # the supported or convoyed unit goes elsewhere
    COAST = "coast"  # the support names another coast, or none where it must (DATC 6.B.9, 4.B.4)
    CIVIL_DISORDER = "civil disorder"  # hold support for a power that gave no orders (DATC 4.D.9 a)
    BY_LAND = "by land"  # a convoy for an army that goes by land (DATC 4.A.3)
    NO_ROUTE = "no route"  # the fleet is on no complete convoy route


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


class ZeroReason(enum.Enum):
    """Why a prevent (or attack) strength is 0."""

    NO_PATH = "no convoy route"  # DATC 5.B.6, 5.B.8
    LOST_HEAD_TO_HEAD = "lost head to head"  # DATC 5.B.6
    DISLODGED_FROM_THERE = "dislodged from there"  # DATC 4.A.7 a


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


@dataclass(frozen=True, slots=True)
class SupportPart:
    """One support order's part in a strength: counted, or not and why (and by whom)."""

    supporter: Unit
    counted: bool
    failure: SupportFailure | None = None
    by: tuple[Cutter, ...] = ()  # cut: the attacks that cut it; dislodged: the dislodging attack
    power: str | None = None  # against own unit: the power whose unit it would have attacked


@dataclass(frozen=True, slots=True)
class Strength:
    """A strength of DATC 5.B.5-5.B.8 in the solution: its value and the supports it counted."""

    kind: StrengthKind
    value: int | None  # None: not needed by the model (settled by a backup rule)
    unit: Unit  # whose strength (the moving or holding unit)
    supports: tuple[SupportPart, ...] = ()
    move: MoveRef | None = None  # attack, defend and prevent strengths belong to a move

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind.value, "value": self.value, "of": self.move.order if self.move else _unit(self.unit),
                "supports": [_unit(p.supporter) for p in self.supports if p.counted],
                "not_counted": [{"unit": _unit(p.supporter), "why": p.failure.value if p.failure else None,
                                 "by": [c.move.order for c in p.by]} for p in self.supports if not p.counted]}


@dataclass(frozen=True, slots=True)
class Cutter:
    """A move that cut a support (DATC 5.B.2) or dislodged its unit."""

    move: MoveRef
    dislodged: bool = False  # the cutting unit is itself dislodged (it still cuts, DATC 5.B.2)


@dataclass(frozen=True, slots=True)
class Dislodgement:
    """Who dislodged a unit: the successful move into its area, its attack strength and
    the supports that counted (DATC 5.A, 5.B.8)."""

    unit: Unit
    by: MoveRef
    attack: int | None
    supports: tuple[Unit, ...] = ()

    def to_json(self) -> dict[str, object]:
        return {"unit": _unit(self.unit), "by": self.by.order, "by_convoy": self.by.by_convoy, "attack": self.attack,
                "supports": [_unit(u) for u in self.supports]}


@dataclass(frozen=True, slots=True)
class Route:
    """One convoy route (a chain of convoying fleets) of a convoyed move, and its fate."""

    fleets: tuple[Unit, ...]
    carries: bool
    failed: tuple[tuple[Unit, Unit | None], ...] = ()  # fleets that did not convoy, and who dislodged them


@dataclass(frozen=True, slots=True)
class Resistance:
    """What a move meets in its destination (DATC 5.B.1): an empty area, a head-to-head
    battle (the opposite move's defend strength), or the occupant's hold strength."""

    occupant: Unit | None = None
    stance: Stance | None = None
    strength: Strength | None = None  # hold strength, or the opposite move's defend strength
    head_to_head: MoveRef | None = None
    opposite_by_convoy: bool = False  # the occupant moves the opposite way, but one of the two by convoy


@dataclass(frozen=True, slots=True)
class PreventFact:
    """Another move into the same area, with its prevent strength (DATC 5.B.6)."""

    move: MoveRef
    strength: Strength | None
    zero: ZeroReason | None = None
    head_to_head: bool = False  # its zero came from a head-to-head battle (else 4.A.7 a)
    beaten_by: MoveRef | None = None  # the opposite move that dislodged it
    dislodged_elsewhere: bool = False  # dislodged, but not from this area: it still prevents


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

    def to_json(self) -> dict[str, object]:
        return {"strength": self.strength.to_json() if self.strength else None,
                "unit": _unit(self.against) if self.against else None, "order": self.move.order if self.move else None,
                "head_to_head": self.head_to_head, "own_unit": self.own_unit}


@dataclass(frozen=True, slots=True)
class AttackNote:
    """An attack on a supporting unit that did not cut the support, and why (DATC 5.B.2, 4.A.2)."""

    move: MoveRef
    why: str  # "same power", "protected", "from target", "no path", "unprotected route"
    fleets: tuple[Unit, ...] = ()  # protected: the fleets the support attacks; unprotected route: a free route
    rule: str | None = None  # protected: the rulebook's convoy rule
    target: str = ""  # unprotected route: the area the support is for


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


# --- outcomes ----------------------------------------------------------------------------


class Later:
    """A part of an outcome read off the solved model only when it is first asked for
    (a validator that compares result codes never builds the strengths behind them)."""

    __slots__ = ("read",)

    def __init__(self, read: Callable[[], object]) -> None:
        self.read = read

    def __eq__(self, other: object) -> bool:  # outcomes compare by what they say
        return self.read() == (other.read() if isinstance(other, Later) else other)

    def __hash__(self) -> int:
        return hash(self.read())


def _now(outcome: object, name: str) -> Any:
    value = object.__getattribute__(outcome, name)
    if isinstance(value, Later):
        value = value.read()
        object.__setattr__(outcome, name, value)
    return value


@dataclass(frozen=True)
class Outcome:
    """What happened to one order; subclasses name what decided it."""

    succeeds: ClassVar[bool] = True
    code: ClassVar[Reason | None] = None

    @property
    def detail(self) -> str:
        return ""

    def __getstate__(self) -> dict[str, Any]:
        """Pickled (a process pool) with every part read: no reader crosses processes."""
        return {name: _now(self, name) for name in self.__dict__}

    def __str__(self) -> str:
        return self.detail

    def to_json(self) -> dict[str, object]:
        return {"kind": _kind_name(type(self))}


@dataclass(frozen=True)
class Succeeds(Outcome):
    """An order that simply succeeds (a hold that stands, a retreat or build made ...)."""


@dataclass(frozen=True)
class Illegal(Outcome):
    """DATC 4.E.1: an order that cannot be carried out; it is ignored and the unit holds."""

    succeeds: ClassVar[bool] = False
    code: ClassVar[Reason | None] = Reason.ILLEGAL
    why: IllegalCode = IllegalCode.NO_UNIT
    text: str = ""

    @property
    def detail(self) -> str:
        return self.text

    def to_json(self) -> dict[str, object]:
        return {"kind": "illegal", "code": self.why.value}


@dataclass(frozen=True)
class Void(Outcome):
    """A support or convoy that matches no order: it has no effect (the unit holds)."""

    succeeds: ClassVar[bool] = False
    code: ClassVar[Reason | None] = Reason.VOID
    why: VoidCode = VoidCode.OTHER_DESTINATION
    text: str = ""

    @property
    def detail(self) -> str:
        return self.text

    def to_json(self) -> dict[str, object]:
        return {"kind": "void", "code": self.why.value}


def _strongest(facts: MoveFacts) -> tuple[int, str, str]:
    """The strongest opposition of a move: (value, what, whose) for the short note."""
    resisting = facts.resistance.strength.value if facts.resistance.strength else 0
    what = "defend" if facts.resistance.head_to_head is not None else "hold"
    opposition = [(resisting or 0, what, "")]
    for p in facts.prevents:
        opposition.append((p.strength.value if p.strength and p.strength.value is not None else 0, "prevent",
                           f" of {p.move.unit.kind.value} {p.move.unit.province}"))
    return max(opposition, key=lambda o: o[0])


def _note(facts: MoveFacts) -> str:
    """'attack 2 vs hold 1', with the strongest opposition."""
    if facts.attack is None or facts.attack.value is None:
        return ""
    value, what, who = _strongest(facts)
    return f"attack {facts.attack.value} vs {what} {value}{who}"


@dataclass(frozen=True)
class Moves(Outcome):
    """DATC 5.B.1: the attack beats the resistance and every prevent strength (or a
    circular movement's backup rule moves it, DATC 5.B.9)."""

    _facts: MoveFacts | Later | None = None

    @property
    def facts(self) -> MoveFacts | None:
        """What the solved model says about the move, read when asked for."""
        return _now(self, "_facts")  # type: ignore[no-any-return]

    @property
    def detail(self) -> str:
        return _note(self.facts) if self.facts else ""

    def to_json(self) -> dict[str, object]:
        return _move_json("moves", self.facts)


@dataclass(frozen=True)
class Bounced(Outcome):
    """DATC 5.B.1: some opposing strength is at least the attack: `by` names them."""

    succeeds: ClassVar[bool] = False
    code: ClassVar[Reason | None] = Reason.BOUNCED
    _facts: MoveFacts | Later | None = None
    _by: tuple[Opposition, ...] | Later = ()

    @property
    def by(self) -> tuple[Opposition, ...]:
        """The opposing strengths at least the attack (the culprits), read when asked for."""
        return _now(self, "_by")  # type: ignore[no-any-return]

    @property
    def facts(self) -> MoveFacts | None:
        """What the solved model says about the move, read when asked for."""
        return _now(self, "_facts")  # type: ignore[no-any-return]

    @property
    def detail(self) -> str:
        return _note(self.facts) if self.facts else ""

    def to_json(self) -> dict[str, object]:
        return {**_move_json("bounced", self.facts), "by": [o.to_json() for o in self.by]}


@dataclass(frozen=True)
class NoPath(Outcome):
    """DATC 5.B.4: no convoy route of convoying fleets carries the army (attack 0)."""

    succeeds: ClassVar[bool] = False
    code: ClassVar[Reason | None] = Reason.NO_PATH
    _facts: MoveFacts | Later | None = None

    @property
    def facts(self) -> MoveFacts | None:
        """What the solved model says about the move, read when asked for."""
        return _now(self, "_facts")  # type: ignore[no-any-return]

    @property
    def detail(self) -> str:
        return "no convoy route of undislodged convoying fleets"

    def to_json(self) -> dict[str, object]:
        return _move_json("no_path", self.facts)


@dataclass(frozen=True)
class Paradox(Outcome):
    """Settled by a backup rule (DATC 4.A.2, 5.B.9): a move or convoy in a paradox.

    For a convoy, the rule says only that the fleet does not convoy; what happened to the
    fleet itself: the moves into its area (`attacked_by`), its hold strength with the
    supports that counted (`hold`), and who dislodged it, with what attack strength
    (`dislodged_by`; its retreats are the result's)."""

    succeeds: ClassVar[bool] = False
    code: ClassVar[Reason | None] = Reason.PARADOX
    rule: str = ""  # "szykman", "all hold", "dptg"
    text: str = ""
    _facts: MoveFacts | Later | None = None  # for a move
    attacked_by: tuple[MoveRef, ...] = ()  # for a convoy: the moves into the fleet's area
    hold: Strength | None = None  # for a convoy: the fleet's hold strength (DATC 5.B.5)
    dislodged_by: Dislodgement | None = None  # for a convoy: the fleet was dislodged (DATC 5.A)

    @property
    def facts(self) -> MoveFacts | None:
        """What the solved model says about the move, read when asked for."""
        return _now(self, "_facts")  # type: ignore[no-any-return]

    @property
    def detail(self) -> str:
        hold = f"hold {self.hold.value}" if self.hold is not None else ""
        d = self.dislodged_by
        if d is not None:
            strengths = " vs ".join(x for x in (f"attack {d.attack}" if d.attack is not None else "", hold) if x)
            return f"{self.text}; the fleet is dislodged by {d.by}" + (f" ({strengths})" if strengths else "")
        if self.attacked_by:
            return f"{self.text}; the fleet holds against {', '.join(map(str, self.attacked_by))}" + \
                (f" ({hold})" if hold else "")
        return self.text

    def to_json(self) -> dict[str, object]:
        out = {**_move_json("paradox", self.facts), "rule": self.rule, "text": self.text}
        if self.hold is not None:  # a convoy: what happened to the fleet
            out["attacked_by"] = [m.order for m in self.attacked_by]
            out["hold"] = self.hold.to_json()
            out["dislodged_by"] = self.dislodged_by.to_json() if self.dislodged_by else None
        return out


@dataclass(frozen=True)
class Given(Outcome):
    """DATC 5.B.2: the support is neither cut nor dislodged."""

    supported: MoveRef | None = None  # a support to move: the move
    held: str | None = None  # a support to hold: the area held
    not_counted_against: Unit | None = None  # DATC 5.B.8: given, but not counted against its own power's unit
    rivals: tuple[MoveRef, ...] = ()  # then: the moves it still helps to prevent
    kept_though_dislodged: Dislodgement | None = None  # the rulebook's convoy rule (DATC 4.A.2, 6.F.17)
    attacks: tuple[AttackNote, ...] = ()

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"kind": "given", "supported": self.supported.order if self.supported else None,
                                  "held": self.held, "attacks": [_attack_json(a) for a in self.attacks]}
        if self.not_counted_against is not None:  # DATC 5.B.8
            out["not_counted_against"] = _unit(self.not_counted_against)
            out["still_prevents"] = [r.order for r in self.rivals]
        if self.kept_though_dislodged is not None:  # DATC 4.A.2, 6.F.17
            out["kept_though_dislodged"] = self.kept_though_dislodged.to_json()
        return out


@dataclass(frozen=True)
class Cut(Outcome):
    """DATC 5.B.2: an attack on the supporting unit cut the support."""

    succeeds: ClassVar[bool] = False
    code: ClassVar[Reason | None] = Reason.CUT
    by: tuple[Cutter, ...] = ()
    attacks: tuple[AttackNote, ...] = ()

    @property
    def detail(self) -> str:
        return ("cut by " + ", ".join(f"{c.move.unit.kind} {c.move.unit.location}" for c in self.by)) if self.by else "cut"

    def to_json(self) -> dict[str, object]:
        return {"kind": "cut", "by": [c.move.order for c in self.by], "attacks": [_attack_json(a) for a in self.attacks]}


@dataclass(frozen=True)
class SupportDislodged(Outcome):
    """DATC 5.B.2: the supporting unit was dislodged (the support fails)."""

    succeeds: ClassVar[bool] = False
    code: ClassVar[Reason | None] = Reason.DISLODGED
    by: Dislodgement | None = None
    from_target: bool = False  # the attack came from the area the support is aimed at
    attacks: tuple[AttackNote, ...] = ()

    @property
    def detail(self) -> str:
        return "the supporting unit was dislodged"

    def to_json(self) -> dict[str, object]:
        return {"kind": "dislodged", "by": self.by.to_json() if self.by else None}


@dataclass(frozen=True)
class Convoys(Outcome):
    """DATC 5.B.3: the convoying fleet is not dislodged."""


@dataclass(frozen=True)
class ConvoyDislodged(Outcome):
    """DATC 5.B.3: the convoying fleet was dislodged."""

    succeeds: ClassVar[bool] = False
    code: ClassVar[Reason | None] = Reason.DISLODGED
    by: Dislodgement | None = None

    @property
    def detail(self) -> str:
        return "the convoying fleet was dislodged"

    def to_json(self) -> dict[str, object]:
        return {"kind": "dislodged", "by": self.by.to_json() if self.by else None}


@dataclass(frozen=True)
class Holds(Outcome):
    """A unit that holds (or whose move, support or convoy order left it in place) stands."""

    hold: Strength | None = None

    def to_json(self) -> dict[str, object]:
        return {"kind": "holds", "hold": self.hold.to_json() if self.hold is not None else None}


@dataclass(frozen=True)
class HoldDislodged(Outcome):
    """The unit was dislodged where it held (DATC 5.A)."""

    succeeds: ClassVar[bool] = False
    code: ClassVar[Reason | None] = Reason.DISLODGED
    by: Dislodgement | None = None

    def to_json(self) -> dict[str, object]:
        return {"kind": "dislodged", "by": self.by.to_json() if self.by else None}


# --- retreats and adjustments ----------------------------------------------------------------


class RetreatCode(enum.Enum):
    """Why a retreat is refused (DATC 6.H, 4.A.5)."""

    ATTACKER_ORIGIN = "attacker's origin"  # the area the dislodging unit came from
    STANDOFF = "standoff"  # an area left empty by a standoff this turn
    OCCUPIED = "occupied"
    OTHER_COAST = "other coast"  # a coast the fleet cannot reach
    NOT_ADJACENT = "not adjacent"
    CONTESTED = "contested"  # several units retreat to one area: all are disbanded


@dataclass(frozen=True)
class RetreatRefused(Illegal):
    """A retreat to an area the unit may not go to: an illegal order, the unit is disbanded."""

    refused: RetreatCode = RetreatCode.NOT_ADJACENT

    def to_json(self) -> dict[str, object]:
        return {"kind": "illegal", "code": self.why.value, "retreat": self.refused.value}


@dataclass(frozen=True)
class Retreats(Outcome):
    """The unit retreats to `to`."""

    to: Location | None = None

    def to_json(self) -> dict[str, object]:
        return {"kind": "retreats", "to": str(self.to) if self.to is not None else None}


@dataclass(frozen=True)
class Disbands(Outcome):
    """The dislodged unit is disbanded as ordered."""


@dataclass(frozen=True)
class RetreatBounced(Outcome):
    """Several units retreat to one area: all are disbanded (DATC 6.H)."""

    succeeds: ClassVar[bool] = False
    code: ClassVar[Reason | None] = Reason.BOUNCED
    area: str = ""
    others: tuple[Unit, ...] = ()

    @property
    def detail(self) -> str:
        return f"several units retreat to {self.area}: all are disbanded"

    def to_json(self) -> dict[str, object]:
        return {"kind": "retreat_bounced", "code": RetreatCode.CONTESTED.value, "area": self.area,
                "others": [_unit(u) for u in self.others]}


class BuildRefusedCode(enum.Enum):
    """Why a build is refused (DATC 6.I, 4.D)."""

    NOT_HOME = "not a home centre"
    NOT_OWNED = "not owned"
    OCCUPIED = "occupied"  # DATC 6.I.3
    BLOCKADED = "blockaded"  # Modern rules 4.7
    KIND = "unit kind"  # army or fleet missing or impossible (DATC 4.C.3, 4.C.4)
    COAST = "coast"  # DATC 4.B.7
    WINGS = "no wings"
    SEVERAL = "several builds"  # DATC 4.D.5
    TOO_MANY = "too many builds"  # DATC 4.D.4 a
    WAIVE = "waive forbidden"  # DATC 4.D.7 b


@dataclass(frozen=True)
class BuildRefused(Illegal):
    """A build that cannot be made (an illegal order: nothing is built)."""

    refused: BuildRefusedCode = BuildRefusedCode.NOT_HOME

    def to_json(self) -> dict[str, object]:
        return {"kind": "illegal", "code": self.why.value, "build": self.refused.value}


@dataclass(frozen=True)
class Built(Outcome):
    """A unit is built (or a build waived)."""

    unit: Unit | None = None

    def to_json(self) -> dict[str, object]:
        return {"kind": "built", "unit": _unit(self.unit) if self.unit is not None else None}


@dataclass(frozen=True)
class NoBuildsLeft(Outcome):
    """A legal build beyond the power's builds (DATC 4.D.4)."""

    succeeds: ClassVar[bool] = False
    code: ClassVar[Reason | None] = Reason.BLOCKED

    @property
    def detail(self) -> str:
        return "no builds left (DATC 4.D.4)"


@dataclass(frozen=True)
class Removed(Outcome):
    """The unit is removed as ordered."""


@dataclass(frozen=True)
class NoRemovalsLeft(Outcome):
    """A removal beyond the removals the power must make (DATC 4.D.6)."""

    succeeds: ClassVar[bool] = False
    code: ClassVar[Reason | None] = Reason.BLOCKED

    @property
    def detail(self) -> str:
        return "no more removals needed (DATC 4.D.6)"


@dataclass(frozen=True)
class Waived(Outcome):
    """A build waived (DATC 4.D.7 a)."""


@dataclass(frozen=True, slots=True)
class DisorderRemoval:
    """A unit removed by the civil-disorder rule (DATC 4.D.8): its distance as the reading
    counts it, and what chose it over the first unit kept."""

    unit: Unit
    distance: int
    reading: str  # the 4.D.8 option
    tie_break: str = ""  # "farther", "fleet before army", "alphabetical" ("" when every unit goes)
    others: tuple[tuple[Unit, int], ...] = ()  # the power's units kept, with their distances
    names: tuple[str, ...] = ()  # a tie by name: the names compared, the removed unit's area's and the first kept's

    def to_json(self) -> dict[str, object]:
        out = {"unit": _unit(self.unit), "distance": self.distance, "reading": self.reading,
               "tie_break": self.tie_break, "kept": [{"unit": _unit(u), "distance": d} for u, d in self.others]}
        if self.names:
            out["names"] = list(self.names)
        return out


# --- JSON helpers -------------------------------------------------------------------------------


def _unit(unit: Unit) -> str:
    return f"{unit.power}: {unit.kind} {unit.location}"


def _kind_name(cls: type) -> str:
    out = []
    for ch in cls.__name__:
        if ch.isupper() and out:
            out.append("_")
        out.append(ch.lower())
    return "".join(out)


def _move_json(kind: str, facts: MoveFacts | None) -> dict[str, object]:
    out: dict[str, object] = {"kind": kind}
    if facts is None:
        return out
    out["attack"] = facts.attack.to_json() if facts.attack else None
    resistance = facts.resistance
    if resistance.strength is None:  # an empty area
        out["resistance"] = {"kind": "hold", "value": 0, "of": None, "unit": None, "head_to_head": None}
    else:
        out["resistance"] = {**resistance.strength.to_json(),
                             "unit": _unit(resistance.occupant) if resistance.occupant else None,
                             "head_to_head": resistance.head_to_head.order if resistance.head_to_head else None}
    out["prevent"] = [{"order": p.move.order, "value": p.strength.value if p.strength else None,
                       "zero": p.zero.value if p.zero else None} for p in facts.prevents]
    if facts.routes is not None:
        out["routes"] = [{"fleets": [_unit(f) for f in r.fleets], "carries": r.carries} for r in facts.routes]
    if facts.backup:
        out["backup_rule"] = facts.backup
    if facts.dislodged_by:
        out["dislodged_by"] = facts.dislodged_by.to_json()
    if facts.keeps_out is not None:
        out["keeps_out"] = facts.keeps_out.to_json()
    return out


def _attack_json(note: AttackNote) -> dict[str, object]:
    return {"order": note.move.order, "no_cut": note.why}
