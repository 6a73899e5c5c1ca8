"""What happened to each order, as values: the outcome names what decided it.

An :class:`~dipsat.results.OrderResult` carries one outcome, a member of the closed set
:data:`Outcome`. Every outcome reduces to succeeds/fails (:attr:`OutcomeBase.succeeds`) and
a result code (:attr:`OutcomeBase.code`, a :class:`Reason`), and carries the facts that
decided it (:mod:`dipsat.facts`) in the terms of DATC chapter 5: strengths with the supports that counted and those that
did not (and why), the orders that stopped a move, cut a support or dislodged a
unit, the convoy routes tried, the backup rule that settled a paradox. The movement
outcomes are read once from the solved model by :mod:`dipsat.movement.resolution`; retreat
and adjustment outcomes come from :mod:`dipsat.retreats` and
:mod:`dipsat.adjustments`, illegal and void orders from the prescan
(:mod:`dipsat.movement.legality`, :mod:`dipsat.movement.turn`). Everything else -- the text
report, ``--explain``, JSON, case files, validation reports, board pictures --
only formats these values. A fact read off the model only when asked for sits in a
:class:`Later` cell, or, for the outcomes every move and holding unit gets, in the outcome's
own field, read by the turn's :class:`TurnReader` the first time (:data:`UNREAD`): what an
outcome says never changes after it is made.

``str(outcome)`` is the short note the text report prints beside a result
(``attack 2 vs hold 1``); :mod:`dipsat.printers.explain` says it in full.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from collections.abc import Callable
from typing import Any, Generic, Protocol, TypeAlias, TypeVar, Union

from .board import Location, Unit, Value
from .facts import (AttackNote, Cutter, Dislodgement, MoveFacts, MoveRef, NoCut, Opposition, PreventFact, Resistance,
                    Route, Stance, Strength, StrengthKind, SupportFailure, SupportPart, ZeroReason)
from .frozen import direct_init
from .options import CivilDisorderRemoval

__all__ = [
    "Reason", "IllegalCode", "VoidCode", "StrengthKind", "SupportFailure", "Stance", "ZeroReason", "NoCut", "TieBreak",
    "MoveRef", "SupportPart", "Strength", "Cutter", "Dislodgement", "Route", "Resistance", "PreventFact", "Opposition",
    "AttackNote", "MoveFacts", "Later", "Outcome", "OutcomeBase", "OUTCOME_TYPES", "Illegal", "Void", "Moves",
    "Bounced", "NoPath", "Paradox", "Given",
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


# --- outcomes ----------------------------------------------------------------------------

T = TypeVar("T")


_NO_ARG: object = object()
"""A :class:`Later` cell's argument not given (its reader takes fewer)."""


class Later(Generic[T]):
    """A part of an outcome read off the solved model only when it is first asked for (a
    validator that compares result codes never builds the strengths behind them): a typed
    cell that reads its value once and keeps it. The outcome holding it never changes.

    ``Later(read)``, ``Later(read, arg)`` or ``Later(read, arg, arg2)`` (a function and its
    arguments, e.g. a method, its object and an index: cheaper to keep than a closure or a
    bound method): the value is ``read()``, ``read(arg)`` or ``read(arg, arg2)``. One is
    made for every move of every phase, so a cell is one slotted object: no argument tuple,
    no instance dict. It keeps its reader once read too, as an unread cell does: the
    turn's reader lives as long as its outcomes; a pickled cell carries only its value."""

    __slots__ = ("_read", "_arg", "_arg2", "_value")  # _value: set by the first read

    _read: Callable[..., T]
    _arg: object
    _arg2: object
    _value: T

    def __init__(self, read: Callable[..., T], arg: object = _NO_ARG, arg2: object = _NO_ARG, /) -> None:
        # one signature, not an overload by arity: mypyc (setup.py) makes a compiled class's
        # constructor from the first overload's, which drops the arguments of the others
        self._read, self._arg, self._arg2 = read, arg, arg2

    @classmethod
    def ready(cls, value: T) -> Later[T]:
        """A cell already read (what a pickled outcome carries: no reader crosses processes)."""
        cell: Later[T] = cls(lambda: value)
        cell._value = value
        return cell

    def get(self) -> T:
        try:
            return self._value
        except AttributeError:  # not read yet
            arg = self._arg
            if arg is _NO_ARG:
                value = self._read()
            elif self._arg2 is _NO_ARG:
                value = self._read(arg)
            else:
                value = self._read(arg, self._arg2)
            self._value = value
            return value

    def __reduce__(self) -> tuple[object, tuple[T]]:
        return Later.ready, (self.get(),)

    def __eq__(self, other: object) -> bool:  # outcomes compare by what they say
        return bool(self.get() == (other.get() if isinstance(other, Later) else other))

    def __hash__(self) -> int:
        return hash(self.get())

    def __repr__(self) -> str:
        try:
            return f"Later.ready({self._value!r})"
        except AttributeError:
            return "Later(<not read yet>)"


def _read(value: T | Later[T]) -> T:
    return value.get() if isinstance(value, Later) else value


def _read_optional(value: T | Later[T] | None) -> T | None:
    return value.get() if isinstance(value, Later) else value


class TurnReader(Protocol):
    """What reads a movement turn's facts off its solved model when an outcome is asked for
    them (:class:`~dipsat.movement.resolution.Resolution`): by the problem's move or unit index."""

    def move_facts(self, m: int) -> MoveFacts: ...

    def culprits(self, m: int) -> tuple[Opposition, ...]: ...

    def hold_strength(self, u: int) -> Strength: ...

    def supported_move(self, s: int) -> MoveRef: ...

    def attack_notes(self, s: int) -> tuple[AttackNote, ...]: ...


UNREAD: Any = Later(lambda: None)
"""A lazy field not read yet: the outcome's reader (a :class:`TurnReader`) reads it, by the
outcome's index, when it is first asked for, and the outcome keeps it. The outcomes a turn
makes for every move, support and holding unit (:class:`Moves`, :class:`Bounced`,
:class:`NoPath`, :class:`Holds`, :class:`Given`, :class:`Cut`, :class:`SupportDislodged`)
read this way rather than through a :class:`Later` cell each: no second object an order, in
a result that keeps them all. Equality, hashing and pickling read the
field first, as a cell's do."""


def _lazy(outcome: Any, name: str, read: str) -> Any:
    """The value of the lazy field `name`: read the first time (:data:`UNREAD`) by the
    outcome's reader, its :class:`TurnReader` method `read` at the outcome's index, then kept
    in the field (past the frozen guard: what the outcome says does not change)."""
    value = getattr(outcome, name)
    if value is UNREAD:
        value = getattr(outcome._reader, read)(outcome._index)
        object.__setattr__(outcome, name, value)
    return value


@dataclass(frozen=True, slots=True)
class OutcomeBase(Value):
    """What every outcome says: whether the order succeeded, its result code and its short
    note. The outcomes themselves are the closed set :data:`Outcome`. Every outcome is
    slotted: a turn makes one an order, and a result keeps them all (an instance dict
    would be a second object each, and twice the memory).

    Compiled with the board's values (setup.py; :class:`~dipsat.board.Value` says what that
    asks), and so the code is a property each class gives, not a class variable: a
    dataclass compiled takes a class variable a subclass sets for a field of its own."""

    @property
    def code(self) -> Reason | None:
        """The result code of a failed order (:class:`Reason`); None for one that succeeded."""
        return None

    @property
    def succeeds(self) -> bool:
        """Did the order succeed? Exactly when it has no result code."""
        return self.code is None

    @property
    def detail(self) -> str:
        return ""

    def __str__(self) -> str:
        return self.detail


class _ReadWhenAsked(OutcomeBase):
    """An outcome with fields read when asked for (:data:`UNREAD`): it equals, hashes and
    pickles as what its fields say, read (:meth:`said`), not as how far they are read."""

    __slots__ = ()

    def said(self) -> tuple[object, ...]:
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self.said() == other.said()  # (the same class)

    def __hash__(self) -> int:
        return hash(self.said())

    def __reduce__(self) -> tuple[type, tuple[object, ...]]:
        return self.__class__, self.said()  # what it says, read: no reader crosses processes


direct_init(OutcomeBase)


@dataclass(frozen=True, slots=True)
class Succeeds(OutcomeBase):
    """An order that simply succeeds (a hold that stands, a retreat or build made ...)."""


direct_init(Succeeds)


@dataclass(frozen=True, slots=True)
class Illegal(OutcomeBase):
    """DATC 4.E.1: an order that cannot be carried out; it is ignored and the unit holds."""

    why: IllegalCode = IllegalCode.NO_UNIT
    text: str = ""

    def __init__(self, why: IllegalCode = IllegalCode.NO_UNIT, text: str = "") -> None:
        object.__setattr__(self, "why", why)
        object.__setattr__(self, "text", text)

    @property
    def code(self) -> Reason:
        return Reason.ILLEGAL

    @property
    def detail(self) -> str:
        return self.text


direct_init(Illegal)


@dataclass(frozen=True, slots=True)
class Void(OutcomeBase):
    """A support or convoy that matches no order: it has no effect (the unit holds)."""

    why: VoidCode = VoidCode.OTHER_DESTINATION
    text: str = ""

    def __init__(self, why: VoidCode = VoidCode.OTHER_DESTINATION, text: str = "") -> None:
        object.__setattr__(self, "why", why)
        object.__setattr__(self, "text", text)

    @property
    def code(self) -> Reason:
        return Reason.VOID

    @property
    def detail(self) -> str:
        return self.text


direct_init(Void)


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


Facts: TypeAlias = "MoveFacts | Later[MoveFacts] | None"


Notes: TypeAlias = "tuple[AttackNote, ...] | Later[tuple[AttackNote, ...]]"
"""A support's attack notes (:meth:`dipsat.movement.resolution.Resolution.attack_notes`), or the cell
that reads them when asked for."""


def _facts_of(value: Facts) -> MoveFacts | None:
    return value.get() if isinstance(value, Later) else value


@dataclass(frozen=True, slots=True, eq=False)
class Moves(_ReadWhenAsked):
    """DATC 5.B.1: the attack beats the resistance and every prevent strength (or a
    circular movement's backup rule moves it, DATC 5.B.9)."""

    _facts: Facts = None
    _reader: TurnReader | None = field(default=None, repr=False, compare=False)
    _index: int = field(default=0, repr=False, compare=False)

    def __init__(self, _facts: Facts = None, _reader: TurnReader | None = None, _index: int = 0) -> None:
        object.__setattr__(self, "_facts", _facts)
        object.__setattr__(self, "_reader", _reader)
        object.__setattr__(self, "_index", _index)

    @property
    def facts(self) -> MoveFacts | None:
        """What the solved model says about the move, read when asked for."""
        return _facts_of(_lazy(self, "_facts", "move_facts"))

    def said(self) -> tuple[object, ...]:
        return (self.facts,)

    @property
    def detail(self) -> str:
        return _note(self.facts) if self.facts else ""


direct_init(Moves)


@dataclass(frozen=True, slots=True, eq=False)
class Bounced(_ReadWhenAsked):
    """DATC 5.B.1: some opposing strength is at least the attack: `by` names them."""

    _facts: Facts = None
    _by: tuple[Opposition, ...] | Later[tuple[Opposition, ...]] = ()
    _reader: TurnReader | None = field(default=None, repr=False, compare=False)
    _index: int = field(default=0, repr=False, compare=False)

    def __init__(self, _facts: Facts = None, _by: tuple[Opposition, ...] | Later[tuple[Opposition, ...]] = (),
                 _reader: TurnReader | None = None, _index: int = 0) -> None:
        object.__setattr__(self, "_facts", _facts)
        object.__setattr__(self, "_by", _by)
        object.__setattr__(self, "_reader", _reader)
        object.__setattr__(self, "_index", _index)

    @property
    def code(self) -> Reason:
        return Reason.BOUNCED

    @property
    def by(self) -> tuple[Opposition, ...]:
        """The opposing strengths at least the attack (the culprits), read when asked for."""
        return _read(_lazy(self, "_by", "culprits"))

    @property
    def facts(self) -> MoveFacts | None:
        """What the solved model says about the move, read when asked for."""
        return _facts_of(_lazy(self, "_facts", "move_facts"))

    def said(self) -> tuple[object, ...]:
        return self.facts, self.by

    @property
    def detail(self) -> str:
        return _note(self.facts) if self.facts else ""


direct_init(Bounced)


@dataclass(frozen=True, slots=True, eq=False)
class NoPath(_ReadWhenAsked):
    """DATC 5.B.4: no convoy route of convoying fleets carries the army (attack 0)."""

    _facts: Facts = None
    _reader: TurnReader | None = field(default=None, repr=False, compare=False)
    _index: int = field(default=0, repr=False, compare=False)

    def __init__(self, _facts: Facts = None, _reader: TurnReader | None = None, _index: int = 0) -> None:
        object.__setattr__(self, "_facts", _facts)
        object.__setattr__(self, "_reader", _reader)
        object.__setattr__(self, "_index", _index)

    @property
    def code(self) -> Reason:
        return Reason.NO_PATH

    @property
    def facts(self) -> MoveFacts | None:
        """What the solved model says about the move, read when asked for."""
        return _facts_of(_lazy(self, "_facts", "move_facts"))

    def said(self) -> tuple[object, ...]:
        return (self.facts,)

    @property
    def detail(self) -> str:
        return "no convoy route of undislodged convoying fleets"


direct_init(NoPath)


@dataclass(frozen=True, slots=True)
class Paradox(OutcomeBase):
    """Settled by a backup rule (DATC 4.A.2, 5.B.9): a move or convoy in a paradox.

    For a convoy, the rule says only that the fleet does not convoy; what happened to the
    fleet itself: the moves into its area (`attacked_by`), its hold strength with the
    supports that counted (`hold`), and who dislodged it, with what attack strength
    (`dislodged_by`; its retreats are the result's)."""

    rule: str = ""  # "szykman", "all hold", "dptg"
    text: str = ""
    _facts: Facts = None  # for a move
    attacked_by: tuple[MoveRef, ...] = ()  # for a convoy: the moves into the fleet's area
    hold: Strength | None = None  # for a convoy: the fleet's hold strength (DATC 5.B.5)
    dislodged_by: Dislodgement | None = None  # for a convoy: the fleet was dislodged (DATC 5.A)

    def __init__(self, rule: str = "", text: str = "", _facts: Facts = None, attacked_by: tuple[MoveRef, ...] = (),
                 hold: Strength | None = None, dislodged_by: Dislodgement | None = None) -> None:
        object.__setattr__(self, "rule", rule)
        object.__setattr__(self, "text", text)
        object.__setattr__(self, "_facts", _facts)
        object.__setattr__(self, "attacked_by", attacked_by)
        object.__setattr__(self, "hold", hold)
        object.__setattr__(self, "dislodged_by", dislodged_by)

    @property
    def code(self) -> Reason:
        return Reason.PARADOX

    @property
    def facts(self) -> MoveFacts | None:
        """What the solved model says about the move, read when asked for."""
        return _facts_of(self._facts)

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


direct_init(Paradox)


@dataclass(frozen=True, slots=True, eq=False)
class Given(_ReadWhenAsked):
    """DATC 5.B.2: the support is neither cut nor dislodged."""

    _supported: MoveRef | Later[MoveRef] | None = None  # a support to move: the move
    held: str | None = None  # a support to hold: the area held
    not_counted_against: Unit | None = None  # DATC 5.B.8: given, but not counted against its own power's unit
    rivals: tuple[MoveRef, ...] = ()  # then: the moves it still helps to prevent
    kept_though_dislodged: Dislodgement | None = None  # the rulebook's convoy rule (DATC 4.A.2, 6.F.17)
    _attacks: Notes = ()
    _reader: TurnReader | None = field(default=None, repr=False, compare=False)
    _index: int = field(default=0, repr=False, compare=False)  # the support's

    def __init__(self, _supported: MoveRef | Later[MoveRef] | None = None, held: str | None = None,
                 not_counted_against: Unit | None = None, rivals: tuple[MoveRef, ...] = (),
                 kept_though_dislodged: Dislodgement | None = None, _attacks: Notes = (),
                 _reader: TurnReader | None = None, _index: int = 0) -> None:
        object.__setattr__(self, "_supported", _supported)
        object.__setattr__(self, "held", held)
        object.__setattr__(self, "not_counted_against", not_counted_against)
        object.__setattr__(self, "rivals", rivals)
        object.__setattr__(self, "kept_though_dislodged", kept_though_dislodged)
        object.__setattr__(self, "_attacks", _attacks)
        object.__setattr__(self, "_reader", _reader)
        object.__setattr__(self, "_index", _index)

    @property
    def supported(self) -> MoveRef | None:
        """A support to move: the move it supports (named when asked for)."""
        return _read_optional(_lazy(self, "_supported", "supported_move"))

    @property
    def attacks(self) -> tuple[AttackNote, ...]:
        """The attacks on the supporting unit that did not cut the support, and why (read when asked for)."""
        return _read(_lazy(self, "_attacks", "attack_notes"))

    def said(self) -> tuple[object, ...]:
        return self.supported, self.held, self.not_counted_against, self.rivals, self.kept_though_dislodged, self.attacks


direct_init(Given)


@dataclass(frozen=True, slots=True, eq=False)
class Cut(_ReadWhenAsked):
    """DATC 5.B.2: an attack on the supporting unit cut the support."""

    by: tuple[Cutter, ...] = ()
    _attacks: Notes = ()
    _reader: TurnReader | None = field(default=None, repr=False, compare=False)
    _index: int = field(default=0, repr=False, compare=False)  # the support's

    def __init__(self, by: tuple[Cutter, ...] = (), _attacks: Notes = (), _reader: TurnReader | None = None,
                 _index: int = 0) -> None:
        object.__setattr__(self, "by", by)
        object.__setattr__(self, "_attacks", _attacks)
        object.__setattr__(self, "_reader", _reader)
        object.__setattr__(self, "_index", _index)

    @property
    def code(self) -> Reason:
        return Reason.CUT

    @property
    def attacks(self) -> tuple[AttackNote, ...]:
        """The attacks on the supporting unit that did not cut the support, and why (read when asked for)."""
        return _read(_lazy(self, "_attacks", "attack_notes"))

    def said(self) -> tuple[object, ...]:
        return self.by, self.attacks

    @property
    def detail(self) -> str:
        return ("cut by " + ", ".join(f"{c.move.unit.kind} {c.move.unit.location}" for c in self.by)) if self.by else "cut"


direct_init(Cut)


@dataclass(frozen=True, slots=True, eq=False)
class SupportDislodged(_ReadWhenAsked):
    """DATC 5.B.2: the supporting unit was dislodged (the support fails)."""

    by: Dislodgement | None = None
    from_target: bool = False  # the attack came from the area the support is aimed at
    _attacks: Notes = ()
    _reader: TurnReader | None = field(default=None, repr=False, compare=False)
    _index: int = field(default=0, repr=False, compare=False)  # the support's

    def __init__(self, by: Dislodgement | None = None, from_target: bool = False, _attacks: Notes = (),
                 _reader: TurnReader | None = None, _index: int = 0) -> None:
        object.__setattr__(self, "by", by)
        object.__setattr__(self, "from_target", from_target)
        object.__setattr__(self, "_attacks", _attacks)
        object.__setattr__(self, "_reader", _reader)
        object.__setattr__(self, "_index", _index)

    @property
    def code(self) -> Reason:
        return Reason.DISLODGED

    @property
    def attacks(self) -> tuple[AttackNote, ...]:
        """The attacks on the supporting unit that did not cut the support, and why (read when asked for)."""
        return _read(_lazy(self, "_attacks", "attack_notes"))

    def said(self) -> tuple[object, ...]:
        return self.by, self.from_target, self.attacks

    @property
    def detail(self) -> str:
        return "the supporting unit was dislodged"


direct_init(SupportDislodged)


@dataclass(frozen=True, slots=True)
class Convoys(OutcomeBase):
    """DATC 5.B.3: the convoying fleet is not dislodged."""


direct_init(Convoys)


@dataclass(frozen=True, slots=True)
class ConvoyDislodged(OutcomeBase):
    """DATC 5.B.3: the convoying fleet was dislodged."""

    by: Dislodgement | None = None

    def __init__(self, by: Dislodgement | None = None) -> None:
        object.__setattr__(self, "by", by)

    @property
    def code(self) -> Reason:
        return Reason.DISLODGED

    @property
    def detail(self) -> str:
        return "the convoying fleet was dislodged"


direct_init(ConvoyDislodged)


@dataclass(frozen=True, slots=True, eq=False)
class Holds(_ReadWhenAsked):
    """A unit that holds (or whose move, support or convoy order left it in place) stands."""

    _hold: Strength | Later[Strength] | None = None
    _reader: TurnReader | None = field(default=None, repr=False, compare=False)
    _index: int = field(default=0, repr=False, compare=False)  # the unit's

    def __init__(self, _hold: Strength | Later[Strength] | None = None, _reader: TurnReader | None = None,
                 _index: int = 0) -> None:
        object.__setattr__(self, "_hold", _hold)
        object.__setattr__(self, "_reader", _reader)
        object.__setattr__(self, "_index", _index)

    @property
    def hold(self) -> Strength | None:
        """The unit's hold strength with the supports that counted (DATC 5.B.5), read when asked for."""
        return _read_optional(_lazy(self, "_hold", "hold_strength"))

    def said(self) -> tuple[object, ...]:
        return (self.hold,)


direct_init(Holds)


@dataclass(frozen=True, slots=True)
class HoldDislodged(OutcomeBase):
    """The unit was dislodged where it held (DATC 5.A)."""

    by: Dislodgement | None = None

    def __init__(self, by: Dislodgement | None = None) -> None:
        object.__setattr__(self, "by", by)

    @property
    def code(self) -> Reason:
        return Reason.DISLODGED


direct_init(HoldDislodged)


# --- retreats and adjustments ----------------------------------------------------------------


class RetreatCode(enum.Enum):
    """Why a retreat is refused (DATC 6.H, 4.A.5)."""

    ATTACKER_ORIGIN = "attacker's origin"  # the area the dislodging unit came from
    STANDOFF = "standoff"  # an area left empty by a standoff this turn
    OCCUPIED = "occupied"
    OTHER_COAST = "other coast"  # a coast the fleet cannot reach
    NOT_ADJACENT = "not adjacent"
    CONTESTED = "contested"  # several units retreat to one area: all are disbanded


@dataclass(frozen=True, slots=True)
class RetreatRefused(Illegal):
    """A retreat to an area the unit may not go to: an illegal order, the unit is disbanded."""

    refused: RetreatCode = RetreatCode.NOT_ADJACENT

    def __init__(self, why: IllegalCode = IllegalCode.NO_UNIT, text: str = "",
                 refused: RetreatCode = RetreatCode.NOT_ADJACENT) -> None:
        object.__setattr__(self, "why", why)
        object.__setattr__(self, "text", text)
        object.__setattr__(self, "refused", refused)


direct_init(RetreatRefused)


@dataclass(frozen=True, slots=True)
class Retreats(OutcomeBase):
    """The unit retreats to `to`."""

    to: Location | None = None

    def __init__(self, to: Location | None = None) -> None:
        object.__setattr__(self, "to", to)


direct_init(Retreats)


@dataclass(frozen=True, slots=True)
class Disbands(OutcomeBase):
    """The dislodged unit is disbanded as ordered."""


direct_init(Disbands)


@dataclass(frozen=True, slots=True)
class RetreatBounced(OutcomeBase):
    """Several units retreat to one area: all are disbanded (DATC 6.H)."""

    area: str = ""
    others: tuple[Unit, ...] = ()

    def __init__(self, area: str = "", others: tuple[Unit, ...] = ()) -> None:
        object.__setattr__(self, "area", area)
        object.__setattr__(self, "others", others)

    @property
    def code(self) -> Reason:
        return Reason.BOUNCED

    @property
    def detail(self) -> str:
        return f"several units retreat to {self.area}: all are disbanded"


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


direct_init(RetreatBounced)


@dataclass(frozen=True, slots=True)
class BuildRefused(Illegal):
    """A build that cannot be made (an illegal order: nothing is built)."""

    refused: BuildRefusedCode = BuildRefusedCode.NOT_HOME

    def __init__(self, why: IllegalCode = IllegalCode.NO_UNIT, text: str = "",
                 refused: BuildRefusedCode = BuildRefusedCode.NOT_HOME) -> None:
        object.__setattr__(self, "why", why)
        object.__setattr__(self, "text", text)
        object.__setattr__(self, "refused", refused)


direct_init(BuildRefused)


@dataclass(frozen=True, slots=True)
class Built(OutcomeBase):
    """A unit is built (or a build waived)."""

    unit: Unit | None = None

    def __init__(self, unit: Unit | None = None) -> None:
        object.__setattr__(self, "unit", unit)


direct_init(Built)


@dataclass(frozen=True, slots=True)
class NoBuildsLeft(OutcomeBase):
    """A legal build beyond the power's builds (DATC 4.D.4)."""

    @property
    def code(self) -> Reason:
        return Reason.BLOCKED

    @property
    def detail(self) -> str:
        return "no builds left (DATC 4.D.4)"


direct_init(NoBuildsLeft)


@dataclass(frozen=True, slots=True)
class Removed(OutcomeBase):
    """The unit is removed as ordered."""


direct_init(Removed)


@dataclass(frozen=True, slots=True)
class NoRemovalsLeft(OutcomeBase):
    """A removal beyond the removals the power must make (DATC 4.D.6)."""

    @property
    def code(self) -> Reason:
        return Reason.BLOCKED

    @property
    def detail(self) -> str:
        return "no more removals needed (DATC 4.D.6)"


direct_init(NoRemovalsLeft)


@dataclass(frozen=True, slots=True)
class Waived(OutcomeBase):
    """A build waived (DATC 4.D.7 a)."""


direct_init(Waived)


Outcome: TypeAlias = Union[Succeeds, Illegal, RetreatRefused, BuildRefused, Void, Moves, Bounced, NoPath, Paradox,
                           Given, Cut, SupportDislodged, Convoys, ConvoyDislodged, Holds, HoldDislodged, Retreats,
                           Disbands, RetreatBounced, Built, NoBuildsLeft, Removed, NoRemovalsLeft, Waived]
"""What happened to one order: a closed set. Printers dispatch on it with ``match`` and end
with ``assert_never``, so that a new outcome fails type checking until each says it."""

OUTCOME_TYPES: tuple[type[OutcomeBase], ...] = Outcome.__args__  # type: ignore[attr-defined]
"""The classes of :data:`Outcome`, for ``isinstance``."""


class TieBreak(enum.Enum):
    """What chose a unit removed in civil disorder over the first unit kept (DATC 4.D.8)."""

    NONE = ""  # every unit goes
    FARTHER = "farther"
    FLEET = "fleet before army"
    ALPHABETICAL = "alphabetical"  # by English name, as the DATC says
    ABBREVIATION = "by abbreviation"  # by abbreviation, as the `diplomacy` package and godip read it

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True, slots=True)
class DisorderRemoval:
    """A unit removed by the civil-disorder rule (DATC 4.D.8): its distance as the reading
    counts it, and what chose it over the first unit kept."""

    unit: Unit
    distance: int
    reading: CivilDisorderRemoval  # the 4.D.8 option
    tie_break: TieBreak = TieBreak.NONE
    others: tuple[tuple[Unit, int], ...] = ()  # the power's units kept, with their distances
    names: tuple[str, ...] = ()  # a tie by name: the names compared, the removed unit's area's and the first kept's
