"""The `diplomacy` package as a peer adjudicator (optional extra ``dipsat[peers]``).

The package is AGPL-3.0: dipsat never imports it except here, and this module is
imported only when asked for (``dipsat validate --against diplomacy``,
``dipsat bench`` when the package is installed, ``scripts/make_corpus.py``). It
runs in its own process with ``PYTHONHASHSEED=0``, because the package iterates
sets of strings and the games must be reproducible.

It plays seeded random games with the package, orders biased so that the rules
that matter actually occur:

- convoys: a fleet at sea that can convoy is ordered to, the army is ordered
  to go (``VIA``, as the package writes it), and the other fleets of a longer
  route usually join in;
- paradox-prone patterns: after a convoy is set up, the unit at the convoy's
  destination is (when it can) ordered to support an attack on a convoying
  fleet, and the attacker is ordered to attack it (DATC 6.F paradoxes);
- supports: a unit is often ordered to support, and the supported unit is
  usually ordered to do what is supported (so supports match, are cut, ...);
- ``VIA`` moves to adjacent provinces without a convoying fleet (DATC 4.A.3);
- civil disorder: now and then a power gives no orders at all (movement: its
  units hold; retreats: its units are disbanded; adjustments: the package's
  civil-disorder removals), or too few or too many removals.

and it times the package's ``Game.process()`` on recorded games (``dipsat bench``).
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import io
import json
import os
import random
import re
import sys
from typing import Any

from diplomacy import Game
from diplomacy.utils.export import to_saved_game_format

KEEP_STATE = ("name", "units", "retreats", "centers")

_SUPPORT_MOVE = re.compile(r"^([AF]) (\S+) S ([AF]) (\S+) - (\S+)$")
_SUPPORT_HOLD = re.compile(r"^([AF]) (\S+) S ([AF]) (\S+)$")
_CONVOY = re.compile(r"^F (\S+) C A (\S+) - (\S+)$")
_MOVE = re.compile(r"^([AF]) (\S+) - (\S+?)( VIA)?$")


def province(loc: str) -> str:
    return loc[:3]


class Chooser:
    """Picks one movement order per orderable location, with the biases above."""

    def __init__(self, game: Game, rng: random.Random) -> None:
        self.game = game
        self.rng = rng
        self.possible = game.get_all_possible_orders()
        self.owner = {}
        for power, locs in game.get_orderable_locations().items():
            for loc in locs:
                self.owner[province(loc)] = power
        self.loc_of = {province(loc): loc for locs in game.get_orderable_locations().values() for loc in locs}
        self.chosen: dict[str, str] = {}  # province -> order

    def options(self, prov: str) -> list[str]:
        return sorted(self.possible.get(self.loc_of.get(prov, ""), []))

    def assign(self, prov: str, order: str) -> bool:
        if prov in self.chosen or prov not in self.owner or order not in self.options(prov):
            return False
        self.chosen[prov] = order
        return True

    def movement(self, silent: set[str]) -> dict[str, list[str]]:
        rng = self.rng
        provs = sorted(self.owner)
        rng.shuffle(provs)
        # 1. convoys, and paradox-prone supports against the convoying fleets
        for prov in provs:
            convoys = [o for o in self.options(prov) if _CONVOY.match(o)]
            if prov in self.chosen or not convoys or rng.random() > 0.55:
                continue
            self.convoy(rng.choice(convoys))
        # 2. supports, usually with the supported unit doing what is supported
        for prov in provs:
            supports = [o for o in self.options(prov) if " S " in o]
            if prov in self.chosen or not supports or rng.random() > 0.4:
                continue
            order = rng.choice(supports)
            self.assign(prov, order)
            if rng.random() < 0.7:
                self.follow(order)
        # 3. the rest: moves mostly, some holds, supports, VIA moves
        for prov in provs:
            if prov in self.chosen:
                continue
            opts = self.options(prov)
            if not opts:
                continue
            groups = {
                "move": [o for o in opts if _MOVE.match(o) and not o.endswith(" VIA")],
                "via": [o for o in opts if o.endswith(" VIA")],
                "hold": [o for o in opts if o.endswith(" H")],
                "support": [o for o in opts if " S " in o],
                "convoy": [o for o in opts if " C " in o],
            }
            weights = {"move": 0.55, "via": 0.08, "hold": 0.1, "support": 0.2, "convoy": 0.07}
            kinds = [k for k in weights if groups[k]]
            kind = rng.choices(kinds, [weights[k] for k in kinds])[0]
            self.chosen[prov] = rng.choice(groups[kind])
        out: dict[str, list[str]] = {}
        for prov, order in sorted(self.chosen.items()):
            power = self.owner[prov]
            if power not in silent:
                out.setdefault(power, []).append(order)
        return out

    def convoy(self, order: str) -> None:
        match = _CONVOY.match(order)
        assert match is not None, order  # only convoy orders are given here
        fleet, army, dest = match.groups()
        self.assign(province(fleet), order)
        # the army goes, usually written VIA (as the package writes convoyed moves)
        moves = [o for o in self.options(army) if (mm := _MOVE.match(o)) and mm.group(3) == dest]
        if moves:
            via = [o for o in moves if o.endswith(" VIA")]
            self.assign(army, self.rng.choice(via) if via and self.rng.random() < 0.85 else self.rng.choice(moves))
        # other fleets that can convoy the same army join in
        wanted = f"C A {army} - {dest}"
        for prov in sorted(self.owner):
            for o in self.options(prov):
                if o.endswith(wanted) and self.rng.random() < 0.75:
                    self.assign(prov, o)
        # paradox attempt: the unit at the destination supports an attack on a convoying fleet
        if self.rng.random() < 0.4:
            fleets = [p for p, o in self.chosen.items() if o.endswith(wanted)]
            for o in self.options(dest):
                m = _SUPPORT_MOVE.match(o)
                if m and province(m.group(5)) in fleets:
                    attacker = province(m.group(4))
                    attack = f"{m.group(3)} {m.group(4)} - {m.group(5)}"
                    if attack in self.options(attacker) and self.assign(dest, o):
                        self.assign(attacker, attack)
                        break

    def follow(self, support: str) -> None:
        m = _SUPPORT_MOVE.match(support)
        if m:
            loc, dest = m.group(4), m.group(5)
            candidates = [o for o in self.options(province(loc))
                          if (mm := _MOVE.match(o)) and province(mm.group(3)) == province(dest)]
            if candidates:
                self.assign(province(loc), self.rng.choice(candidates))
            return
        m = _SUPPORT_HOLD.match(support)
        if m:
            loc = m.group(4)
            holds = [o for o in self.options(province(loc)) if o.endswith(" H") or " S " in o or " C " in o]
            if holds:
                self.assign(province(loc), self.rng.choice(holds))


def retreat_orders(game: Game, rng: random.Random, silent: set[str]) -> dict[str, list[str]]:
    possible = game.get_all_possible_orders()
    out = {}
    for power, locs in sorted(game.get_orderable_locations().items()):
        if power in silent or not locs:
            continue
        out[power] = [rng.choice(sorted(possible[loc])) for loc in sorted(locs) if possible.get(loc)]
    return out


def adjustment_orders(game: Game, rng: random.Random, silent: set[str]) -> dict[str, list[str]]:
    possible = game.get_all_possible_orders()
    out = {}
    for power_name, locs in sorted(game.get_orderable_locations().items()):
        if power_name in silent or not locs:
            continue
        power = game.get_power(power_name)
        delta = len(power.centers) - len(power.units)
        if delta > 0:  # builds: one choice per site (a build or WAIVE); the package voids extras
            out[power_name] = [rng.choice(sorted(possible[loc])) for loc in sorted(locs) if possible.get(loc)]
        elif delta < 0:  # removals: usually exact, sometimes too few (civil disorder) or too many
            count = -delta + rng.choice([0, 0, 0, 0, 0, -1, 1])
            units = sorted(power.units)
            rng.shuffle(units)
            out[power_name] = [f"{u} D" for u in units[:max(0, count)]]
    return out


def play(game_id: str, rng: random.Random, years: int) -> dict[str, Any]:
    game = Game(game_id=game_id)
    last_year = 1901 + years - 1
    while not game.is_game_done:
        phase = game.get_current_phase()
        if phase[-1] == "M" and int(phase[1:5]) > last_year:
            break
        powers = sorted(game.powers)
        silent = {p for p in powers if rng.random() < 0.02}
        if phase[-1] == "M":
            orders = Chooser(game, rng).movement(silent)
        elif phase[-1] == "R":
            orders = retreat_orders(game, rng, silent)
        else:
            orders = adjustment_orders(game, rng, silent)
        for power in powers:
            game.set_orders(power, orders.get(power, []))
        game.process()
    return trim(to_saved_game_format(game))


def trim(saved: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": saved["id"],
        "map": saved["map"],
        "rules": saved["rules"],
        "phases": [
            {
                "name": ph["name"],
                "state": {k: ph["state"][k] for k in KEEP_STATE if k in ph["state"]},
                "orders": ph.get("orders", {}),
                "results": ph.get("results", {}),
            }
            for ph in saved["phases"]
        ],
    }


def generate(games: int, seed: int, min_years: int, max_years: int) -> tuple[bytes, int]:
    """`games` seeded random games as gzip-compressed JSONL (byte-identical per seed)."""
    buffer = io.BytesIO()
    phases = 0
    with gzip.GzipFile(fileobj=buffer, mode="wb", compresslevel=9, mtime=0) as out:
        for n in range(games):
            rng = random.Random(f"{seed}-{n}")
            years = rng.randint(min_years, max_years)
            # the package draws on the global `random` too (e.g. for game ids); seed it per game
            random.seed(f"{seed}-{n}-package")
            record = play(f"random-{seed}-{n:03d}", rng, years)
            phases += len(record["phases"])
            out.write((json.dumps(record, separators=(",", ":"), sort_keys=True) + "\n").encode())
    return buffer.getvalue(), phases


def _phase_order(name: str) -> tuple[int, int, int]:
    """``S1901M`` < ``S1901R`` < ``F1901M`` < ``F1901R`` < ``W1901A`` < ``S1902M``."""
    if len(name) < 6 or not name[1:-1].isdigit():
        return (10 ** 6, 0, 0)  # COMPLETED, FORMING: after everything
    return (int(name[1:-1]), "SFW".find(name[0]), "MRA".find(name[-1]))


def replay_timings(records: list[dict[str, Any]]) -> list[tuple[str, float, str, str]]:
    """(phase kind letter, seconds, game id, phase name) of the package's Game.process()
    on each recorded phase it can replay (the game's id and the phase name say which)."""
    import time
    out = []
    for record in records:
        game = Game(map_name=record.get("map", "standard"), rules=record.get("rules", []))
        for phase in record["phases"]:
            if game.is_game_done:
                break
            if game.get_current_phase() != phase["name"]:
                if _phase_order(phase["name"]) < _phase_order(game.get_current_phase()):
                    continue  # a phase the package skips (godip records every adjustment phase)
                break
            for power, orders in phase.get("orders", {}).items():
                if orders:
                    game.set_orders(power, orders)
            start = time.perf_counter()
            game.process()
            out.append((phase["name"][-1], time.perf_counter() - start, str(record.get("id")), phase["name"]))
    return out


def main(argv: list[str] | None = None) -> int:
    if os.environ.get("PYTHONHASHSEED") != "0":
        # the package iterates sets of strings: fix the hash seed so the output is reproducible
        os.execve(sys.executable, [sys.executable, "-m", "dipsat.peers.diplomacy", *sys.argv[1:]],
                  {**os.environ, "PYTHONHASHSEED": "0"})
    parser = argparse.ArgumentParser(description="Play seeded random games with the diplomacy package.")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--min-years", type=int, default=4)
    parser.add_argument("--max-years", type=int, default=7)
    parser.add_argument("--out", default="cases/corpus/random_games.jsonl.gz")
    parser.add_argument("--replay", help="instead: time Game.process() on the games of this .jsonl(.gz) file")
    args = parser.parse_args(argv)
    if args.replay:
        opener = gzip.open if args.replay.endswith(".gz") else open
        with opener(args.replay, "rt", encoding="utf-8") as handle:
            records = [json.loads(line) for line in handle if line.strip()]
        with contextlib.redirect_stdout(io.StringIO()):  # the package prints about orders it rejects
            timings = replay_timings(records)
        json.dump(timings, sys.stdout)
        return 0
    data, phases = generate(args.games, args.seed, args.min_years, args.max_years)
    with open(args.out, "wb") as handle:
        handle.write(data)
    print(f"{args.games} games, {phases} phases, {len(data)} bytes -> {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
