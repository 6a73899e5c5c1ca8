"""dipsat.frozen: values made without calling their class are the values the class makes."""

from __future__ import annotations

import dataclasses
import pickle
from typing import Any
from dataclasses import dataclass, field

import pytest

from dipsat.board import Location, Phase, PhaseKind, Season, Unit, UnitKind, Value
from dipsat.encodings import ConvoyOrder, MoveOrder, Problem, SupportOrder
from dipsat.frozen import direct_init, maker, once
from dipsat.orders import Build, Convoy, Disband, Hold, Move, Remove, Retreat, SupportHold, SupportMove, UnitRef, Waive
from dipsat.facts import AttackNote, Cutter, Dislodgement, MoveFacts, MoveRef, NoCut, Resistance, Strength, StrengthKind
from dipsat.outcomes import (Bounced, BuildRefused, BuildRefusedCode, Built, ConvoyDislodged, Cut, Given, HoldDislodged,
                             Holds, Illegal, IllegalCode, Later, Moves, NoPath, Paradox, RetreatBounced, RetreatCode,
                             RetreatRefused, Retreats, SupportDislodged, Void, VoidCode)
from dipsat.results import OrderResult, new_result


@dataclass
class _Plain:
    a: int
    b: list[int] = field(default_factory=list)
    c: dict[str, int] = field(default_factory=dict)
    d: str = "d"
    e: frozenset[int] = field(default_factory=frozenset)


@direct_init
@dataclass(frozen=True)
class _Frozen:
    a: int
    b: tuple[int, ...] = ()


def _same(made: object, called: object) -> None:
    assert type(made) is type(called)
    assert made == called
    assert {f.name: getattr(made, f.name) for f in dataclasses.fields(made)} == \
        {f.name: getattr(called, f.name) for f in dataclasses.fields(called)}


def test_a_plain_dataclass_made_with_its_defaults_and_fresh_containers():
    make = maker(_Plain, "a")
    one, two = make(1), make(1)
    _same(one, _Plain(1))
    assert one.b is not two.b and one.c is not two.c  # each its own list and dict, as the factory gives


def test_a_frozen_dataclass_stays_frozen_equal_and_hashable():
    made = maker(_Frozen, "b", "a")((2, 3), 1)  # given in any order, passed in that order
    _same(made, _Frozen(1, (2, 3)))
    assert hash(made) == hash(_Frozen(1, (2, 3)))
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.a = 5  # type: ignore[misc]
    _same(pickle.loads(pickle.dumps(made)), made)


def test_the_prescans_values_are_what_their_classes_make():
    army = Unit("France", UnitKind.ARMY, Location("par"))
    _same(maker(MoveOrder, "index", "unit", "origin", "dest", "power", "convoyed")(0, 3, "par", "bur", "France", False),
          MoveOrder(0, 3, "par", "bur", "France", False, False, (), ()))
    support = maker(SupportOrder, "index", "unit", "province", "power", "target")(1, 2, "pic", "France", "bur")
    assert support.move is None
    fields = ("provinces", "powers", "fleets", "unit_moves", "hold_supports", "moves", "supports", "convoys",
              "unit_at", "moves_into")
    _same(maker(Problem, *fields)(["par"], ["France"], [False], [None], [()], [], [], [], {"par": 0}, {}),
          Problem(**dict(zip(fields, (["par"], ["France"], [False], [None], [()], [], [], [], {"par": 0}, {})))))
    void = maker(Void, "why", "text")(VoidCode.SUPPORTED_UNIT_MOVES, "why")
    _same(void, Void(VoidCode.SUPPORTED_UNIT_MOVES, "why"))


_PAR, _BUR = Location("par"), Location("bur")
_REF, _OTHER = UnitRef(_PAR, UnitKind.ARMY, "France"), UnitRef(Location("mar"))
_WRITTEN_INITS = [  # each class and a value for each of its fields, none its default
    (MoveOrder, (0, 3, "par", "bur", "France", True, True, (1,), ((2,),), 4)),
    (SupportOrder, (1, 2, "pic", "France", "bur", 0)),
    (ConvoyOrder, (2, 5, "eng", 0)),
    (Location, ("spa", "nc")),
    (Unit, ("France", UnitKind.FLEET, Location("spa", "sc"))),
    (Phase, (1901, Season.FALL, PhaseKind.RETREAT)),
    (UnitRef, (_PAR, UnitKind.ARMY, "France")),
    (Hold, (_REF, "France")),
    (Move, (_REF, _BUR, True, "France", ("eng",))),
    (SupportHold, (_REF, _OTHER, "France")),
    (SupportMove, (_REF, _OTHER, _BUR, "France")),
    (Convoy, (_REF, _OTHER, _BUR, "France")),
    (Retreat, (_REF, _BUR, "France")),
    (Disband, (_REF, "France")),
    (Build, (_PAR, UnitKind.ARMY, "France")),
    (Remove, (_REF, "France")),
    (Waive, ("France",)),
]
_ARMY = Unit("France", UnitKind.ARMY, _PAR)
_MOVE = MoveRef(_ARMY, "bur")
_DISLODGEMENT = Dislodgement(_ARMY, _MOVE, 2)
_HOLD = Strength(StrengthKind.HOLD, 1, _ARMY)
_READER = object()  # an outcome's reader of the turn; then fields read already:
_FACTS, _HELD = Later.ready(MoveFacts(_MOVE, None, Resistance())), Later.ready(_HOLD)
_NOTES = Later.ready((AttackNote(_MOVE, NoCut.SAME_POWER),))
_WRITTEN_INITS += [  # the outcomes, with fields
    (Illegal, (IllegalCode.ADJUSTMENT, "why")),
    (Void, (VoidCode.BY_LAND, "why")),
    (Moves, (_FACTS, _READER, 3)),
    (Bounced, (_FACTS, (_MOVE,), _READER, 4)),
    (NoPath, (_FACTS, _READER, 5)),
    (Paradox, ("szykman", "why", _FACTS, (_MOVE,), _HOLD, _DISLODGEMENT)),
    (Given, (_MOVE, "par", _ARMY, (_MOVE,), _DISLODGEMENT, _NOTES, _READER, 6)),
    (Cut, ((Cutter(_MOVE),), _NOTES, _READER, 7)),
    (SupportDislodged, (_DISLODGEMENT, True, _NOTES, _READER, 8)),
    (ConvoyDislodged, (_DISLODGEMENT,)),
    (Holds, (_HELD, _READER, 9)),
    (HoldDislodged, (_DISLODGEMENT,)),
    (RetreatRefused, (IllegalCode.ADJUSTMENT, "why", RetreatCode.OCCUPIED)),
    (Retreats, (_BUR,)),
    (RetreatBounced, ("bur", (_ARMY,))),
    (BuildRefused, (IllegalCode.ADJUSTMENT, "why", BuildRefusedCode.OCCUPIED)),
    (Built, (_ARMY,)),
]


@pytest.mark.parametrize("cls, given", _WRITTEN_INITS)
def test_a_written_init_takes_the_fields_in_order_with_their_defaults(cls: type, given: tuple[Any, ...]) -> None:
    """The classes made many times a turn write their ``__init__`` out (compiled, it is C; the
    dataclass's own would be Python): the prescan's values, the board's and the orders'. It
    must be the one the dataclass would make. (From the sources, the board's and orders' one
    is :func:`direct_init`'s, made from the fields: the same test holds it to them.)
    `given`: a value for each field, none its default (a compiled class checks their types)."""
    fields = dataclasses.fields(cls)
    assert len(given) == len(fields)
    made = cls(*given)
    assert [getattr(made, f.name) for f in fields] == list(given)
    assert cls(**{f.name: g for f, g in zip(fields, given)}) == made
    least = cls(*[g for f, g in zip(fields, given) if f.default is dataclasses.MISSING])
    for f, g in zip(fields, given):
        assert f.default != g
        assert getattr(least, f.name) == (g if f.default is dataclasses.MISSING else f.default)
    with pytest.raises(TypeError):
        cls(*given, None)  # no field more


def test_an_order_result_made_in_c_is_the_value_its_class_makes():
    army = Unit("France", UnitKind.ARMY, Location("par"))
    void = Void(VoidCode.SUPPORTED_UNIT_MOVES, "why")
    order = Hold(UnitRef(army.location, army.kind, army.power))
    result = new_result((order, army, void))
    called = OrderResult(order, army, void)
    assert type(result) is OrderResult and result == called and hash(result) == hash(called)
    assert (result.order, result.unit, result.outcome) == (order, army, void)
    assert repr(result) == f"OrderResult(order={order!r}, unit={army!r}, outcome={void!r})"  # as a dataclass's
    assert result != OrderResult(order, None, void)
    back = pickle.loads(pickle.dumps(result))
    assert type(back) is OrderResult and back == result
    with pytest.raises(AttributeError):
        result.unit = None  # type: ignore[misc]  # frozen
    assert not result.succeeded and result.reason is void.code and result.status == f"fails ({void.code})"


@dataclass
class _AfterInit:
    a: int

    def __post_init__(self) -> None:
        self.a += 1


@dataclass(frozen=True, slots=True)
class _FrozenSlots:
    a: int
    b: tuple[int, ...] = ()


@direct_init
@dataclass(frozen=True, slots=True)
class _FrozenSlotsMore(_FrozenSlots):
    c: str = "c"


def test_a_frozen_slotted_dataclass_is_made_through_its_slots():
    """Its slots, its base's too, are written through their own setters: no instance dict."""
    made = maker(_FrozenSlotsMore, "c", "a")("x", 1)
    _same(made, _FrozenSlotsMore(1, (), "x"))
    _same(_FrozenSlotsMore(1, (2,)), _FrozenSlotsMore(a=1, b=(2,), c="c"))  # direct_init's, through the base's slot
    assert not hasattr(made, "__dict__")
    assert hash(made) == hash(_FrozenSlotsMore(1, (), "x"))
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.a = 5  # type: ignore[misc]
    _same(pickle.loads(pickle.dumps(made)), made)


def test_what_it_cannot_make_as_the_class_would_is_refused():
    with pytest.raises(TypeError):
        maker(_AfterInit, "a")  # __post_init__ would not run
    with pytest.raises(TypeError):
        maker(_Plain, "z")  # no such field
    with pytest.raises(TypeError):
        maker(_Plain, "b")  # `a` has no default and is not given


@dataclass
class _Compiled:
    """Stands for a class mypyc compiled (setup.py): it carries the mark mypyc gives one."""
    a: int
    b: list[int] = field(default_factory=list)
    __mypyc_attrs__ = ("a", "b")


def test_a_compiled_class_is_its_own_maker_from_its_first_fields():
    """``object.__new__`` cannot make a native class: the class itself is called, so the
    fields given must be its first ones, in order."""
    assert maker(_Compiled, "a") is _Compiled
    assert maker(_Compiled, "a", "b") is _Compiled
    with pytest.raises(TypeError):
        maker(_Compiled, "b")  # not its first field
    with pytest.raises(TypeError):
        maker(_Compiled, "b", "a")  # not in order


@dataclass(frozen=True)
class _Worked:
    a: int
    reads: list[int] = field(default_factory=list, compare=False)

    @once
    def double(self) -> int:
        """Twice a."""
        self.reads.append(self.a)
        return 2 * self.a


def test_once_works_a_property_out_on_first_read_and_keeps_it_in_a_frozen_value():
    value = _Worked(3)
    assert value.reads == [] and "double" not in value.__dict__
    assert value.double == 6 and value.double == 6
    assert value.reads == [3] and value.__dict__["double"] == 6  # worked out once, kept by the instance
    assert _Worked(4).double == 8 and value.double == 6  # each instance its own
    assert isinstance(_Worked.double, once) and _Worked.double.__doc__ == "Twice a."
    back = pickle.loads(pickle.dumps(value))
    assert back == value and back.double == 6 and back.reads == [3]  # kept, not worked out again


def test_the_values_of_the_board_orders_and_outcomes_are_frozen_and_pickle_and_copy_as_made():
    """Compiled (setup.py), these classes are native: they pickle by :class:`Value`'s
    ``__reduce__``, made again from their fields, not by Python's default for a slotted class.
    (An outcome with fields read when asked for pickles as what it says, read: its own test.)"""
    import copy

    for cls, given in _WRITTEN_INITS:
        if not issubclass(cls, Value) or cls.__reduce__ is not Value.__reduce__:
            continue
        made = cls(*given)
        for back in (pickle.loads(pickle.dumps(made)), copy.copy(made), copy.deepcopy(made)):
            _same(back, made)
            assert hash(back) == hash(made)
        assert not hasattr(made, "__dict__")
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(made, dataclasses.fields(made)[0].name, given[0])
        assert dataclasses.replace(made) == made
