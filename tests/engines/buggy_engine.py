#!/usr/bin/env python3
"""A test engine: dipsat itself with one injected bug (``--bug``), or misbehaving as an
engine (``--crash-every N``, ``--hang-on N``, ``--garbage-on N``: the Nth request). Used by
tests/test_fuzz.py to prove that ``dipsat fuzz`` finds bugs where they are and survives
engines that fail."""

from __future__ import annotations

import argparse
import json
import sys
import time

import dipsat
from dipsat.board import PhaseKind
from dipsat.engines.protocol import ReplyError, read_request, reply_json
from dipsat.orders import Build
from dipsat.rules import Rules
from dipsat.state import placement_problem


def answer(line: str, rules: Rules, bug: str | None) -> dict:
    try:
        request_id, state, orders = read_request(line)
    except ReplyError as exc:
        return {"id": None, "error": str(exc)}
    result = dipsat.adjudicate(state, orders, rules)
    after, options = result.after, dict(result.retreat_options)
    if bug == "retreat-to-origin" and after.phase.kind is PhaseKind.RETREAT:
        # the attacker's province offered as a retreat when it is empty now (DATC 6.H.x says no)
        occupied = {u.province for u in after.units}
        for d in after.dislodged:
            if d.attacker_origin and d.attacker_origin not in occupied and d.unit in options:
                extra = [loc for loc in state.map.fleet_locations(d.attacker_origin)] if d.unit.kind.value == "F" \
                    else [dipsat.Location(d.attacker_origin)]
                reachable = [loc for loc in extra if state.map.can_move(d.unit.kind, d.unit.location, loc)]
                options[d.unit] = tuple(sorted(set(options[d.unit]) | set(reachable), key=str))
    if bug == "overbuild" and state.phase.kind is PhaseKind.ADJUSTMENT:
        # every build on an empty, owned home centre is made, whatever the allowance (DATC 6.I.1)
        units = list(after.units)
        taken = {u.province for u in units}
        owners = dict(state.owners)
        for order in orders:
            if isinstance(order, Build) and order.kind is not None and order.power is not None:
                p = order.location.province
                if (p not in taken and owners.get(p) == order.power and state.variant.home_of.get(p) == order.power
                        and placement_problem(state.variant, order.kind, order.location) is None):
                    units.append(dipsat.Unit(order.power, order.kind, order.location))
                    taken.add(p)
        after = after.with_(units=tuple(units))
    return reply_json(request_id, after, options if after.phase.kind is PhaseKind.RETREAT else None)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rules", default="2000")
    parser.add_argument("--bug", choices=["retreat-to-origin", "overbuild"], default=None)
    parser.add_argument("--crash-on", type=int, default=0, help="exit on the Nth request (each time it starts)")
    parser.add_argument("--hang-on", type=int, default=0)
    parser.add_argument("--garbage-on", type=int, default=0)
    args = parser.parse_args()
    rules = Rules.profile(args.rules)
    for n, line in enumerate(sys.stdin, start=1):
        if n == args.crash_on:
            return 3
        if n == args.hang_on:
            time.sleep(60)
        if n == args.garbage_on:
            print("this is not JSON", flush=True)
            continue
        print(json.dumps(answer(line, rules, args.bug), separators=(",", ":")), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
