"""Orders as typed values. Text goes through :mod:`dipsat.notation`; every other
module takes these.

An order names the unit it is given to as a :class:`UnitRef`: what the order
*says* (kind, location, nationality may be missing or wrong, DATC 4.B.5, 4.C.1-2,
4.C.5-6). Matching it to a unit on the board is the adjudicator's job.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Union

from .board import Location, Power, Unit, UnitKind, Value
from .frozen import direct_init

if TYPE_CHECKING:
    from .state import State


@dataclass(frozen=True, slots=True)
class UnitRef(Value):
    """A unit as an order names it: ``A par``, ``F stp/sc``, ``Turkish F con``."""

    location: Location
    kind: UnitKind | None = None
    power: Power | None = None

    def __init__(self, location: Location, kind: UnitKind | None = None, power: Power | None = None) -> None:
        object.__setattr__(self, "location", location)
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "power", power)

    @property
    def province(self) -> str:
        return self.location.province


direct_init(UnitRef)  # made for the orders of every phase read (a record's, a case's, a paste's)


@dataclass(frozen=True, slots=True)
class Hold(Value):
    unit: UnitRef
    power: Power | None = None

    def __init__(self, unit: UnitRef, power: Power | None = None) -> None:
        object.__setattr__(self, "unit", unit)
        object.__setattr__(self, "power", power)


direct_init(Hold)


@dataclass(frozen=True, slots=True)
class Move(Value):
    unit: UnitRef
    dest: Location
    via_convoy: bool = False
    power: Power | None = None
    path: tuple[str, ...] = ()
    """Seas of a written-out convoy path, ``A yor - nth - bel`` (DATC 4.A.6)."""

    def __init__(self, unit: UnitRef, dest: Location, via_convoy: bool = False, power: Power | None = None,
                 path: tuple[str, ...] = ()) -> None:
        object.__setattr__(self, "unit", unit)
        object.__setattr__(self, "dest", dest)
        object.__setattr__(self, "via_convoy", via_convoy)
        object.__setattr__(self, "power", power)
        object.__setattr__(self, "path", path)


direct_init(Move)


@dataclass(frozen=True, slots=True)
class SupportHold(Value):
    unit: UnitRef
    target: UnitRef
    power: Power | None = None

    def __init__(self, unit: UnitRef, target: UnitRef, power: Power | None = None) -> None:
        object.__setattr__(self, "unit", unit)
        object.__setattr__(self, "target", target)
        object.__setattr__(self, "power", power)


direct_init(SupportHold)


@dataclass(frozen=True, slots=True)
class SupportMove(Value):
    unit: UnitRef
    target: UnitRef
    dest: Location
    power: Power | None = None

    def __init__(self, unit: UnitRef, target: UnitRef, dest: Location, power: Power | None = None) -> None:
        object.__setattr__(self, "unit", unit)
        object.__setattr__(self, "target", target)
        object.__setattr__(self, "dest", dest)
        object.__setattr__(self, "power", power)


direct_init(SupportMove)


@dataclass(frozen=True, slots=True)
class Convoy(Value):
    unit: UnitRef
    target: UnitRef
    dest: Location
    power: Power | None = None

    def __init__(self, unit: UnitRef, target: UnitRef, dest: Location, power: Power | None = None) -> None:
        object.__setattr__(self, "unit", unit)
        object.__setattr__(self, "target", target)
        object.__setattr__(self, "dest", dest)
        object.__setattr__(self, "power", power)


direct_init(Convoy)


@dataclass(frozen=True, slots=True)
class Retreat(Value):
    unit: UnitRef
    dest: Location
    power: Power | None = None

    def __init__(self, unit: UnitRef, dest: Location, power: Power | None = None) -> None:
        object.__setattr__(self, "unit", unit)
        object.__setattr__(self, "dest", dest)
        object.__setattr__(self, "power", power)


direct_init(Retreat)


@dataclass(frozen=True, slots=True)
class Disband(Value):
    unit: UnitRef
    power: Power | None = None

    def __init__(self, unit: UnitRef, power: Power | None = None) -> None:
        object.__setattr__(self, "unit", unit)
        object.__setattr__(self, "power", power)


direct_init(Disband)


@dataclass(frozen=True, slots=True)
class Build(Value):
    location: Location
    kind: UnitKind | None = None
    power: Power | None = None

    def __init__(self, location: Location, kind: UnitKind | None = None, power: Power | None = None) -> None:
        object.__setattr__(self, "location", location)
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "power", power)


direct_init(Build)


@dataclass(frozen=True, slots=True)
class Remove(Value):
    unit: UnitRef
    power: Power | None = None

    def __init__(self, unit: UnitRef, power: Power | None = None) -> None:
        object.__setattr__(self, "unit", unit)
        object.__setattr__(self, "power", power)


direct_init(Remove)


@dataclass(frozen=True, slots=True)
class Waive(Value):
    power: Power | None = None

    def __init__(self, power: Power | None = None) -> None:
        object.__setattr__(self, "power", power)


Order = Union[Hold, Move, SupportHold, SupportMove, Convoy, Retreat, Disband, Build, Remove, Waive]
MovementOrder = Union[Hold, Move, SupportHold, SupportMove, Convoy]
RetreatOrder = Union[Retreat, Disband]
AdjustmentOrder = Union[Build, Remove, Waive]

MOVEMENT_ORDERS = (Hold, Move, SupportHold, SupportMove, Convoy)
RETREAT_ORDERS = (Retreat, Disband)
ADJUSTMENT_ORDERS = (Build, Remove, Waive)


_KIND_NAMES = {Hold: "hold", Move: "move", SupportHold: "support", SupportMove: "support", Convoy: "convoy",
               Retreat: "retreat", Disband: "disband", Build: "build", Remove: "removal", Waive: "waive"}


def kind_name(order: Order) -> str:
    """What kind of order it is, in the game's words (``retreat``, ``build``, ``support`` ...)."""
    return _KIND_NAMES.get(type(order), "unknown")


def order_locations(order: Order) -> tuple[Location, ...]:
    """Every location an order names: the unit's, the supported or convoyed unit's, the
    destination, a convoy path written out (DATC 4.A.6), a build's."""
    if isinstance(order, Build):
        return (order.location,)
    if isinstance(order, Waive):
        return ()
    out = [order.unit.location]
    if isinstance(order, (SupportHold, SupportMove, Convoy)):
        out.append(order.target.location)
    if isinstance(order, Move):
        out += [Location(p) for p in order.path]
    if isinstance(order, (Move, SupportMove, Convoy, Retreat)):
        out.append(order.dest)
    return tuple(out)


def ordered_province(order: Order) -> str | None:
    """The province of the unit an order is given to (None for builds/waives)."""
    if isinstance(order, (Build,)):
        return order.location.province
    if isinstance(order, Waive):
        return None
    return order.unit.province


def order_unit(state: State, order: Order) -> Unit | None:
    """The unit an order goes to (the dislodged one in a retreat phase), or None."""
    if isinstance(order, (Build, Waive)):
        return None
    if isinstance(order, (Retreat, Disband)):
        return next((d.unit for d in state.dislodged if d.unit.province == order.unit.province), None)
    return state.unit_at(order.unit.province)


def order_power(state: State, order: Order) -> Power | None:
    """Who gives an order: its power prefix, else the owner of the unit (or home centre)."""
    if order.power is not None:
        return order.power
    if isinstance(order, Build):
        return state.variant.home_of.get(order.location.province)
    unit = order_unit(state, order)
    return unit.power if unit is not None else None


direct_init(Waive)


