"""The engine protocol (``dipsat-engine/1``, docs/engines.md): how dipsat asks another
adjudicator to judge a phase, and reads its answer.

An engine is a program that reads one request per line on standard input and writes one
reply per line on standard output, in the order of the requests. A request carries the
position and the orders as dipsat JSON (schema ``dipsat/2``, docs/json.md) plus each order
as a structured object; a reply carries the engine's next position (its units, the units it
dislodged with their retreat options, the centre owners) and, where the engine knows them,
whether each order succeeded.

This module only builds requests and reads replies; the programs that carry them
(:mod:`dipsat.engines.command`, :mod:`dipsat.engines.casefile`) are beside it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from ..board import Location, Unit
from ..formats.dipsat_json import JsonFormatError, ORDER_TYPES, state_to_json, state_from_json
from ..notation import format_order
from ..orders import Build, Convoy, Move, Order, Remove, Retreat, SupportHold, SupportMove, Waive, Disband, Hold
from ..state import State

__all__ = ["PROTOCOL", "EngineReply", "ReplyError", "order_to_json", "read_reply", "read_request", "reply_json",
           "request_line"]

PROTOCOL = "dipsat-engine/1"


class ReplyError(ValueError):
    """A reply line that is not a usable answer to its request (the text says why)."""


@dataclass(frozen=True)
class EngineReply:
    """What an engine said of one phase."""

    id: str
    after: State
    """The engine's next position (a retreat phase holds the units it dislodged)."""
    retreat_options: dict[Unit, tuple[Location, ...]] | None = None
    """Each dislodged unit's retreat options, where the engine gives them."""
    succeeded: dict[int, bool] = field(default_factory=dict)
    """Per order (its index in the request), whether it succeeded, where the engine says."""
    unknown: bool = False
    """The engine's result is not known, only that it is none of dipsat's (a case runner
    that failed every result dipsat offered it): `after` is then dipsat's own."""


def order_to_json(index: int, order: Order, state: State) -> dict[str, Any]:
    """One order as a structured object: ``index`` (its place in the request), ``text``
    (dipsat notation), ``type``, ``power`` (the power giving it: as written, else the
    owner of the unit it names; None for an order of nobody's unit) and the locations it
    names."""
    power = order.power
    if power is None and not isinstance(order, (Build, Waive)):
        dislodged = next((d.unit for d in state.dislodged if d.unit.province == order.unit.province), None)
        owner = dislodged if isinstance(order, (Retreat, Disband)) and dislodged else state.unit_at(order.unit.province)
        power = owner.power if owner is not None else None
    doc: dict[str, Any] = {"index": index, "text": format_order(order), "type": ORDER_TYPES[type(order)],
                           "power": power}
    if isinstance(order, (Hold, Move, SupportHold, SupportMove, Convoy, Retreat, Disband, Remove)):
        doc["unit"] = {"kind": order.unit.kind.value if order.unit.kind else None,
                       "location": str(order.unit.location)}
    if isinstance(order, (SupportHold, SupportMove, Convoy)):
        doc["target"] = {"kind": order.target.kind.value if order.target.kind else None,
                         "location": str(order.target.location)}
    if isinstance(order, (Move, SupportMove, Convoy, Retreat)):
        doc["dest"] = str(order.dest)
    if isinstance(order, Move):
        doc["via_convoy"] = order.via_convoy
    if isinstance(order, Build):
        doc["kind"] = order.kind.value if order.kind else None
        doc["location"] = str(order.location)
    return doc


def request_line(request_id: str, state: State, orders: list[Order]) -> str:
    """One request as a line of JSON (no newline inside; keys in a fixed order)."""
    doc = {"protocol": PROTOCOL, "id": request_id, "position": state_to_json(state, orders),
           "orders": [order_to_json(k, o, state) for k, o in enumerate(orders)]}
    return json.dumps(doc, separators=(",", ":"), ensure_ascii=False)


def read_reply(line: str, request_id: str, state: State, count: int) -> EngineReply:
    """The engine's reply to request `request_id` (on `state`, with `count` orders).

    :raises ReplyError: the line is not JSON, answers another request, reports an error,
        or its position cannot be read (the message says which and why).
    """
    try:
        doc = json.loads(line)
    except json.JSONDecodeError as exc:
        raise ReplyError(f"not JSON ({exc.msg} at column {exc.colno}): {_short(line)}") from None
    if not isinstance(doc, dict):
        raise ReplyError(f"expected a JSON object, found {_short(line)}")
    if doc.get("id") != request_id:
        raise ReplyError(f"answers request {doc.get('id')!r}, not {request_id!r}")
    if "error" in doc:
        raise ReplyError(f"the engine reports an error: {_short(str(doc['error']))}")
    position = doc.get("position")
    if not isinstance(position, dict):
        raise ReplyError("no 'position' object (the next position) in the reply")
    position = {"variant": state.variant.name, **position}
    try:
        after = state_from_json(position, "reply")
    except JsonFormatError as exc:
        raise ReplyError(f"its position cannot be read: {'; '.join(exc.problems[:3])}") from None
    if after.variant.name != state.variant.name:
        raise ReplyError(f"its position is of variant {after.variant.name}, not {state.variant.name}")
    return EngineReply(request_id, after, _retreat_options(position, after), _succeeded(doc, count))


def _retreat_options(position: dict[str, Any], after: State) -> dict[Unit, tuple[Location, ...]] | None:
    entries = position.get("dislodged") or []
    if not any(isinstance(e, dict) and "retreat_options" in e for e in entries):
        return None
    by_location = {str(d.unit.location): d.unit for d in after.dislodged}
    out: dict[Unit, tuple[Location, ...]] = {}
    for e in entries:
        unit = by_location.get(str(e.get("location")))
        options = e.get("retreat_options")
        if unit is None or not isinstance(options, list):
            raise ReplyError(f"a dislodged unit's retreat_options cannot be read: {_short(json.dumps(e))}")
        try:
            out[unit] = tuple(sorted((Location.parse(str(o)) for o in options), key=str))
        except ValueError:
            raise ReplyError(f"retreat_options of {unit} name no location: {_short(json.dumps(options))}") from None
    return out


def _succeeded(doc: dict[str, Any], count: int) -> dict[int, bool]:
    entries = doc.get("orders")
    if entries is None:
        return {}
    if not isinstance(entries, list):
        raise ReplyError("'orders' must be a list of {\"index\": N, \"succeeded\": true|false}")
    out = {}
    for e in entries:
        if not (isinstance(e, dict) and isinstance(e.get("index"), int) and 0 <= e["index"] < count
                and isinstance(e.get("succeeded"), bool)):
            raise ReplyError(f"an order result must be {{\"index\": 0..{count - 1}, \"succeeded\": true|false}}, "
                             f"found {_short(json.dumps(e))}")
        out[e["index"]] = e["succeeded"]
    return out


def _short(text: str, limit: int = 80) -> str:
    text = text.strip().replace("\n", " ")
    return text if len(text) <= limit else text[:limit - 3] + "..."


# --- the engine's side, for engines written with dipsat (docs/engines/dipsat_engine.py) ---------


def read_request(line: str) -> tuple[str, State, list[Order]]:
    """A request line as an engine built on dipsat reads it: (id, position, orders).

    :raises ReplyError: the line is not a request (the message says why).
    """
    from ..formats.dipsat_json import JsonFormatError, position_from_json
    from ..errors import NotationError
    from ..notation import parse_order
    try:
        doc = json.loads(line)
    except json.JSONDecodeError as exc:
        raise ReplyError(f"not JSON ({exc.msg} at column {exc.colno})") from None
    if not isinstance(doc, dict) or doc.get("protocol") != PROTOCOL or not isinstance(doc.get("id"), str):
        raise ReplyError(f"not a {PROTOCOL} request (expected protocol, id and position)")
    try:
        state, texts = position_from_json(doc.get("position"), "request")
        orders = [parse_order(text, state.variant) for _, text in texts or []]
    except (JsonFormatError, NotationError) as exc:
        raise ReplyError(f"request {doc['id']}: {exc}") from None
    return doc["id"], state, orders


def reply_json(request_id: str, after: State, retreat_options: dict[Unit, tuple[Location, ...]] | None = None,
               succeeded: dict[int, bool] | None = None) -> dict[str, Any]:
    """A reply as a JSON object: the next position (dislodged units with their retreat
    options where given) and the orders' success where known."""
    position = state_to_json(after)
    del position["format"], position["type"], position["variant"], position["wings"]
    if retreat_options is not None:
        by_location = {str(u.location): options for u, options in retreat_options.items()}
        for entry in position["dislodged"]:
            entry["retreat_options"] = [str(o) for o in by_location.get(entry["location"], ())]
    doc: dict[str, Any] = {"id": request_id, "position": position}
    if succeeded is not None:
        doc["orders"] = [{"index": k, "succeeded": ok} for k, ok in sorted(succeeded.items())]
    return doc
