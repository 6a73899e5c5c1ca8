"""Frozen value classes made many times a phase, made fast: :func:`direct_init`, :func:`maker`,
and what such a value works out once when first asked: :class:`once`.

It imports nothing of dipsat, so every module of values (the board's, the facts', the
outcomes') can use it."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, Generic, TypeVar, overload

__all__ = ["direct_init", "maker", "once"]

V = TypeVar("V")
O = TypeVar("O")


class _Factory:
    """The default of a field made by its factory, as a signature shows it."""

    def __repr__(self) -> str:
        return "<factory>"


_FACTORY = _Factory()


def _default(f: dataclasses.Field[Any], namespace: dict[str, Any]) -> str | None:
    """The source of a field's default in generated code, what it names put in `namespace`:
    its value, or a call of its factory (an empty list or dict written out); None when the
    field has no default."""
    if f.default_factory is list or f.default_factory is dict:
        return "[]" if f.default_factory is list else "{}"
    if f.default_factory is not dataclasses.MISSING:
        namespace[f"_factory_{f.name}"] = f.default_factory
        return f"_factory_{f.name}()"
    if f.default is not dataclasses.MISSING:
        namespace[f"_default_{f.name}"] = f.default
        return f"_default_{f.name}"
    return None


def direct_init(cls: type[V]) -> type[V]:
    """A frozen dataclass made many times a phase, given an ``__init__`` that sets its fields
    directly: into the new instance's ``__dict__``, or with a slotted class through its slots'
    own setters. The one ``dataclass`` writes gets past the frozen guard with an
    ``object.__setattr__`` call per field, two to three times slower. The same parameters,
    order and defaults (factories too); the instance is as frozen as before. A class without
    fields keeps its own (it sets nothing), and so does a class compiled by mypyc (setup.py:
    its type cannot be given methods, and the ``__init__`` it writes out is C; applied by a
    call after the class, not as a decorator, which would keep mypyc from compiling it
    native: :class:`dipsat.board.Value`)."""
    fields = dataclasses.fields(cls)  # type: ignore[arg-type]  # not a dataclass: fields() raises
    if not fields or _compiled(cls):
        return cls
    if hasattr(cls, "__post_init__") or any(not f.init or f.kw_only for f in fields):
        raise TypeError(f"{cls.__name__}: direct_init takes plain positional fields only")
    slotted = "__slots__" in cls.__dict__
    namespace: dict[str, Any] = {"_MISSING": _FACTORY}
    params, body = [], [] if slotted else ["d = self.__dict__"]
    for f in fields:
        default = _default(f, namespace)
        if default is None:
            params.append(f.name)
            value = f.name
        elif f.default_factory is not dataclasses.MISSING:  # made at each call, not once as a parameter's default
            params.append(f"{f.name}=_MISSING")
            value = f"{default} if {f.name} is _MISSING else {f.name}"
        else:
            params.append(f"{f.name}={default}")
            value = f.name
        if slotted:
            namespace[f"_set_{f.name}"] = _slot(cls, f.name).__set__  # the slot's member descriptor
            body.append(f"_set_{f.name}(self, {value})")
        else:
            body.append(f"d[{f.name!r}] = {value}")
    source = f"def __init__(self, {', '.join(params)}):\n" + "".join(f"    {line}\n" for line in body)
    exec(source, namespace)  # as dataclasses itself makes __init__
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    setattr(cls, "__init__", init)
    return cls


def _compiled(cls: type) -> bool:
    """Is `cls` a native class, compiled by mypyc? (The mark mypyc gives one.)"""
    return "__mypyc_attrs__" in vars(cls)


def _slot(cls: type, name: str) -> Any:
    """The member descriptor of slot `name`, from the class in `cls`'s MRO that declares it."""
    for base in cls.__mro__:
        if name in base.__dict__.get("__slots__", ()):
            return base.__dict__[name]
    raise TypeError(f"{cls.__name__}.{name}: not a slot")


def maker(cls: type[V], *given: str) -> Callable[..., V]:
    """A function making a `cls` (a dataclass made many times a turn: the prescan's problem
    values and verdicts) from the fields `given`, passed by position in that order, every
    other field at its default: the value ``cls(...)`` makes, without calling the class.
    A class's ``__init__`` written in Python is entered from C, in an interpreter frame of
    its own: most of the cost of a small object, and the prescan makes one a unit and one
    an order every turn. Made from the class's fields, so a field added with a default
    gets it here too. A frozen class is written past its guard as :func:`direct_init`
    writes it: into its instance dict, or through its slots' own setters.

    A class compiled by mypyc (setup.py) is its own maker: ``object.__new__`` cannot make
    one, and its constructor is C (its ``__init__`` too where the class writes it out; a
    dataclass's generated one stays Python). The fields `given` must then be its first
    fields, in order."""
    fields = dataclasses.fields(cls)  # type: ignore[arg-type]  # a dataclass: fields() raises otherwise
    if _compiled(cls):
        if tuple(f.name for f in fields[:len(given)]) != given:
            raise TypeError(f"{cls.__name__}: compiled, so made from its first fields in order, not {given}")
        return cls
    missing = set(given) - {f.name for f in fields}
    slotted = "__slots__" in vars(cls)
    frozen = cls.__dataclass_params__.frozen  # type: ignore[attr-defined]
    if missing or hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__}: no field {sorted(missing)}, or not a plain dataclass")
    namespace: dict[str, Any] = {"_new": object.__new__, "_cls": cls}
    by_dict = frozen and not slotted  # past the frozen guard: into the instance dict
    by_slot = frozen and slotted  # past the frozen guard: through each slot's own setter
    body = ["    into = made.__dict__\n"] if by_dict else []
    for f in fields:
        value = f.name if f.name in given else _default(f, namespace)
        if value is None:
            raise TypeError(f"{cls.__name__}.{f.name}: no default, and not given")
        if by_slot:
            namespace[f"_set_{f.name}"] = _slot(cls, f.name).__set__
            body.append(f"    _set_{f.name}(made, {value})\n")
        else:
            body.append(f"    into[{f.name!r}] = {value}\n" if by_dict else f"    made.{f.name} = {value}\n")
    exec(f"def make_{cls.__name__}({', '.join(given)}):\n    made = _new(_cls)\n" + "".join(body)
         + "    return made\n", namespace)  # as dataclasses makes __init__
    made: Callable[..., V] = namespace[f"make_{cls.__name__}"]
    return made


class once(Generic[O, V]):  # noqa: N801  (named as the decorator it stands for, like property)
    """A property worked out on first read and kept in the instance's ``__dict__`` (which
    then answers every later read: this is a non-data descriptor), past a frozen class's
    guard: what :func:`functools.cached_property` does, less its lock. In Python 3.11 that
    takes and releases a lock at every first read, a third of a microsecond made three times
    slower; a state is read for the first time in every phase (its units by province, its
    sea areas holding fleets), and a movement turn's reader is made every turn."""

    def __init__(self, func: Callable[[O], V]) -> None:
        self.func = func
        self.name = func.__name__
        self.__doc__ = func.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, instance: None, owner: type | None = None) -> once[O, V]: ...

    @overload
    def __get__(self, instance: O, owner: type | None = None) -> V: ...

    def __get__(self, instance: O | None, owner: type | None = None) -> once[O, V] | V:
        if instance is None:
            return self
        value = instance.__dict__[self.name] = self.func(instance)
        return value
