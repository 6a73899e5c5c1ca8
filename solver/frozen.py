"""Frozen value classes made many times a phase, made fast: :func:`direct_init`.

It imports nothing of dipsat, so every module of values (the board's, the facts', the
outcomes') can use it."""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

__all__ = ["direct_init"]

V = TypeVar("V")


class _Factory:
    """The default of a field made by its factory, as a signature shows it."""

    def __repr__(self) -> str:
        return "<factory>"


_FACTORY = _Factory()


def direct_init(cls: type[V]) -> type[V]:
    """A frozen dataclass made many times a phase, given an ``__init__`` that sets its fields
    directly: into the new instance's ``__dict__``, or with a slotted class through its slots'
    own setters. The one ``dataclass`` writes gets past the frozen guard with an
    ``object.__setattr__`` call per field, two to three times slower. The same parameters,
    order and defaults (factories too); the instance is as frozen as before. A class without
    fields keeps its own (it sets nothing)."""
    fields = dataclasses.fields(cls)  # type: ignore[arg-type]  # not a dataclass: fields() raises
    if not fields:
        return cls
    if hasattr(cls, "__post_init__") or any(not f.init or f.kw_only for f in fields):
        raise TypeError(f"{cls.__name__}: direct_init takes plain positional fields only")
    slotted = "__slots__" in cls.__dict__
    namespace: dict[str, Any] = {"_MISSING": _FACTORY}
    params, body = [], [] if slotted else ["d = self.__dict__"]
    for f in fields:
        if f.default_factory is not dataclasses.MISSING:
            namespace[f"_factory_{f.name}"] = f.default_factory
            params.append(f"{f.name}=_MISSING")
            value = f"_factory_{f.name}() if {f.name} is _MISSING else {f.name}"
        else:
            if f.default is not dataclasses.MISSING:
                namespace[f"_default_{f.name}"] = f.default
            params.append(f.name if f.default is dataclasses.MISSING else f"{f.name}=_default_{f.name}")
            value = f.name
        if slotted:
            namespace[f"_set_{f.name}"] = cls.__dict__[f.name].__set__  # the slot's member descriptor
            body.append(f"_set_{f.name}(self, {value})")
        else:
            body.append(f"d[{f.name!r}] = {value}")
    source = f"def __init__(self, {', '.join(params)}):\n" + "".join(f"    {line}\n" for line in body)
    exec(source, namespace)  # as dataclasses itself makes __init__
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    setattr(cls, "__init__", init)
    return cls
