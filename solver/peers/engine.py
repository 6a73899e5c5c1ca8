"""The `diplomacy` package as an engine speaking the engine protocol (docs/engines.md).

``python -m dipsat.peers.engine`` reads requests on standard input and answers each with
the package's adjudication of the phase (``dipsat fuzz --against diplomacy`` starts it with
``PYTHONHASHSEED=0``, as the package iterates sets of strings). Like
:mod:`dipsat.peers.diplomacy` it is imported only when asked for: the package is AGPL-3.0.

The position is set on a fresh ``Game`` (units, dislodged units, centre owners, the phase);
a dislodged unit's retreat options are the package's, less the province its attacker came
from and the areas left empty by a standoff, as the package itself would have left them
after the movement phase the request does not carry. Orders are written in the package's
notation (``A PAR - BUR VIA``, ``F NTH C A LON - BEL``, ``A PAR B``, ``WAIVE``). The reply's
``orders`` say whether each move succeeded (the package's result codes are empty).
"""

from __future__ import annotations

import json
import sys
from typing import Any

from diplomacy import Game

_SEASON = {"Spring": "S", "Fall": "F"}
_KIND = {"Movement": "M", "Retreat": "R", "Adjustment": "A"}


def _loc(text: str) -> str:
    return text.upper()


def _unit(ref: dict[str, Any]) -> str:
    return f"{ref.get('kind') or 'A'} {_loc(ref['location'])}"


def package_order(order: dict[str, Any], phase_kind: str) -> str | None:
    """An order of the request in the package's notation (None: the package has no such order).
    The package writes a retreat phase's disband and an adjustment phase's removal alike
    (``A PAR D``): each is written only in its own phase, so that an order of another phase
    (a disband in an adjustment phase) is not read as the order of this one."""
    kind = order["type"]
    if kind == "waive":
        return "WAIVE"
    if kind == "build":
        return f"{order.get('kind') or 'A'} {_loc(order['location'])} B"
    unit = _unit(order["unit"])
    if kind == "hold":
        return f"{unit} H"
    if kind == "move":
        return f"{unit} - {_loc(order['dest'])}" + (" VIA" if order.get("via_convoy") else "")
    if kind == "support_hold":
        return f"{unit} S {_unit(order['target'])}"
    if kind == "support_move":
        return f"{unit} S {_unit(order['target'])} - {_loc(order['dest'])}"
    if kind == "convoy":
        return f"{unit} C {_unit(order['target'])} - {_loc(order['dest'])}"
    if kind == "retreat":
        return f"{unit} R {_loc(order['dest'])}"
    if (kind, phase_kind) in (("disband", "Retreat"), ("remove", "Adjustment")):
        return f"{unit} D"
    return None


def judge(request: dict[str, Any]) -> dict[str, Any]:
    position = request["position"]
    if position.get("variant") != "standard":
        raise ValueError(f"the diplomacy package plays the standard map only, not {position.get('variant')!r}")
    phase = position["phase"]
    season = "W" if phase["kind"] == "Adjustment" else _SEASON[phase["season"]]  # the package's winter
    name = f"{season}{phase['year']}{_KIND[phase['kind']]}"
    game = Game()
    game.clear_units()
    game.clear_centers()
    game.set_current_phase(name)
    units: dict[str, list[str]] = {}
    for u in position["units"]:
        units.setdefault(u["power"].upper(), []).append(f"{u['kind']} {_loc(u['location'])}")
    for d in position.get("dislodged", []):
        units.setdefault(d["power"].upper(), []).append(f"*{d['kind']} {_loc(d['location'])}")
    for power, listed in units.items():
        game.set_units(power, listed)
    owned: dict[str, list[str]] = {}
    for centre, power in position.get("owners", {}).items():
        owned.setdefault(power.upper(), []).append(centre.upper())
    for power, centres in owned.items():
        game.set_centers(power, centres)
    closed = {_loc(p) for p in position.get("standoffs", [])}
    for d in position.get("dislodged", []):  # what the movement phase before would have left
        power = game.get_power(d["power"].upper())
        key = f"{d['kind']} {_loc(d['location'])}"
        origin = _loc(d["attacker_origin"]) if d.get("attacker_origin") else None
        if key in power.retreats:
            power.retreats[key] = [o for o in power.retreats[key] if o[:3] != origin and o[:3] not in closed]
    by_power: dict[str, list[str]] = {}
    for order in request["orders"]:
        text = package_order(order, phase["kind"])
        power = (order.get("power") or "").upper()
        if text is not None and power:
            by_power.setdefault(power, []).append(text)
    for power, orders in by_power.items():
        try:
            game.set_orders(power, orders)
        except (IndexError, KeyError, ValueError):  # an order the package cannot read: the others, one by one
            game.clear_orders(power)
            for text in orders:
                try:
                    game.set_orders(power, [text], replace=False)
                except (IndexError, KeyError, ValueError):
                    pass
    game.process()
    state = game.get_state()
    results = game.get_phase_history()[-1].results
    after_units, dislodged = [], []
    for power, listed in sorted(state["units"].items()):
        for unit in listed:
            kind, loc = unit.lstrip("*").split()
            entry = {"power": power.title(), "kind": kind, "location": loc.lower()}
            if unit.startswith("*"):
                options = state["retreats"].get(power, {}).get(unit[1:], [])
                dislodged.append({**entry, "retreat_options": sorted(o.lower() for o in options)})
            else:
                after_units.append(entry)
    owners = {c.lower(): p.title() for p, centres in sorted(state["centers"].items()) for c in centres}
    next_name = state["name"]
    reply_phase = {"year": int(next_name[1:5]) if next_name[1:5].isdigit() else phase["year"],
                   "season": "Spring" if next_name[0] == "S" else "Fall",  # dipsat's adjustments are in the fall
                   "kind": {"M": "Movement", "R": "Retreat", "A": "Adjustment"}.get(next_name[-1], "Movement")}
    succeeded = []
    for order in request["orders"]:
        if order["type"] == "move":
            codes = results.get(_unit(order["unit"]))
            if codes is not None:
                succeeded.append({"index": order["index"], "succeeded": not codes})
    return {"id": request["id"],
            "position": {"phase": reply_phase, "units": after_units, "owners": owners, "dislodged": dislodged},
            "orders": succeeded}


def main() -> int:
    for line in sys.stdin:
        if not line.strip():
            continue
        request: dict[str, Any] = {}
        try:
            request = json.loads(line)
            reply = judge(request)
        except Exception as exc:  # an engine answers every request: an error is a reply too
            reply = {"id": request.get("id") if isinstance(request, dict) else None,
                     "error": f"{type(exc).__name__}: {exc}"}
        sys.stdout.write(json.dumps(reply, separators=(",", ":")) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
