"""Who plays which power: player-count set-ups, neutral powers, the variant's game rules.

The data lives in the variant's map file (``maps/<variant>.toml``): its ``[[setups]]``
tables (seed 000, "Diplomacy für 2 bis 6 Spieler"; seed 002 for the three-player
split) and the game-level keys of ``[variant]`` that the board does not need
(``draw_after_unchanged_falls``, seed 004's draw rule). Without a ``[[setups]]`` table
for a player count the only set-up is one player per power.

A *neutral* power is played by nobody: its units get no orders (they hold and do not
support each other; others may support them), its dislodged units are disbanded, it
never builds, and its removals follow the civil-disorder rule. A set-up may make the
neutral powers' home countries impassable while they are neutral, and let them join
a player chosen by a seeded coin before a given year (the two-player game: Italy joins
the winner of the coin in spring 1915).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any

from .board import Power
from .errors import DipsatError
from .maps import Map, Variant


class SetupError(DipsatError, ValueError):
    """A set-up that the variant does not offer, or a bad ``[[setups]]`` table."""


@dataclass(frozen=True)
class Setup:
    """One way to play a variant with a number of players."""

    players: int
    controls: tuple[tuple[Power, ...], ...]
    """The powers each player controls (player 1 first), neutral powers not included."""
    neutral: tuple[Power, ...] = ()
    start_year: int | None = None
    """The first year, when not the variant's (the two-player game starts in 1914)."""
    victory_centres: int | None = None
    """Centres to win, when not the variant's."""
    victory_by: str = "power"
    """``power``: one power's centres reach the threshold; ``player``: the sum over the
    powers a player controls (the two-player game's 24)."""
    neutral_impassable: bool = False
    """No unit may enter the neutral powers' home countries while they are neutral."""
    join_year: int | None = None
    """In spring of this year the neutral powers join the player who won a coin flipped
    after the previous year's fall turn, before the centres are counted."""

    def player_name(self, index: int, joined: int | None = None) -> str:
        return "/".join(self.powers_of(index, joined))

    def powers_of(self, index: int, joined: int | None = None) -> tuple[Power, ...]:
        """The powers player `index` (0-based) controls; `joined`: the coin's winner."""
        extra = self.neutral if joined == index else ()
        return self.controls[index] + extra

    def neutral_in(self, year: int) -> tuple[Power, ...]:
        """The powers nobody plays in `year` (the joining powers are neutral before they join)."""
        if self.join_year is not None and year >= self.join_year:
            return ()
        return self.neutral

    def variant_in(self, variant: Variant, year: int) -> Variant:
        """`variant` as played in `year`: the neutral home countries closed while the set-up says so."""
        neutral = self.neutral_in(year)
        if self.neutral_impassable and neutral:
            return closed_variant(variant, neutral)
        return variant

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"players": self.players, "controls": [list(c) for c in self.controls],
                     "neutral": list(self.neutral)}
        for key in ("start_year", "victory_centres", "join_year"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        if self.victory_by != "power":
            out["victory_by"] = self.victory_by
        if self.neutral_impassable:
            out["neutral_impassable"] = True
        return out


def default_setup(variant: Variant) -> Setup:
    """One player per power, nobody neutral."""
    return Setup(len(variant.powers), tuple((p.name,) for p in variant.powers))


def setups(variant: Variant) -> dict[int, Setup]:
    """Every set-up the variant offers, by player count (the full one included)."""
    out = {s.players: s for s in _file_setups(variant)}
    full = default_setup(variant)
    out.setdefault(full.players, full)
    return dict(sorted(out.items()))


def setup_for(variant: Variant, players: int | None) -> Setup:
    offered = setups(variant)
    if players is None:
        return offered[len(variant.powers)]
    if players not in offered:
        known = ", ".join(map(str, offered))
        raise SetupError(f"the {variant.name} variant has no set-up for {players} players (set-ups: {known})")
    return offered[players]


def draw_after_unchanged_falls(variant: Variant) -> int | None:
    """Seed 004: the game is drawn after this many fall turns in a row without any
    centre changing owner (None: no such rule)."""
    value = _variant_table(variant).get("draw_after_unchanged_falls")
    return int(value) if value is not None else None


def coin_flip(seed: int, players: int, year: int) -> int:
    """The seeded coin (a die for more than two players): the winning player's index."""
    return random.Random(f"dipsat-coin:{seed}:{year}").randrange(players)


def closed_variant(variant: Variant, powers: tuple[Power, ...]) -> Variant:
    """`variant` with the home countries of `powers` impassable: their provinces keep
    their units but lose every edge, so no unit can enter, support into or retreat to
    them, and the units in them cannot move."""
    if not powers:
        return variant
    closed = frozenset(pid for p in powers for pid in variant.power(p).country)
    key = ("closed", closed)
    if key not in variant.derived:  # made once per variant: states compare maps by identity
        variant.derived[key] = replace(variant, map=_closed_map(variant.map, closed))
    return variant.derived[key]


def _closed_map(the_map: Map, closed: frozenset[str]) -> Map:
    army = {p: (frozenset() if p in closed else frozenset(s - closed)) for p, s in the_map.army_adjacency.items()}
    wing = {p: (frozenset() if p in closed else frozenset(s - closed)) for p, s in the_map.wing_adjacency.items()}
    fleet = {l: (frozenset() if l.province in closed else frozenset(d for d in s if d.province not in closed))
             for l, s in the_map.fleet_adjacency.items()}
    name = f"{the_map.name} (closed: {', '.join(sorted(closed))})"
    return Map(name, the_map.provinces, army, fleet, the_map.province_names, the_map.coast_names,
               the_map.coast_titles, the_map.impassable, wing, the_map.impassable_titles,
               the_map.aliases, the_map.closed | closed, the_map.drawn_as)


# --- reading the map file ------------------------------------------------------------


def _variant_table(variant: Variant) -> dict[str, Any]:
    table = variant.tables.get("variant", {})
    return table if isinstance(table, dict) else {}


def setup_from_data(data: dict[str, Any]) -> Setup:
    """A set-up from its TOML table or its JSON object (the same keys)."""
    return Setup(
        players=int(data["players"]),
        controls=tuple(tuple(group) for group in data["controls"]),
        neutral=tuple(data.get("neutral", ())),
        start_year=data.get("start_year"),
        victory_centres=data.get("victory_centres"),
        victory_by=data.get("victory_by", "power"),
        neutral_impassable=bool(data.get("neutral_impassable", False)),
        join_year=data.get("join_year"),
    )


def setup_problem(setup: Setup, powers: tuple[Power, ...]) -> str | None:
    """What is wrong with a set-up of a variant with these powers (None: nothing)."""
    named = [p for group in setup.controls for p in group] + list(setup.neutral)
    unknown = sorted(set(named) - set(powers))
    if unknown:
        return f"unknown powers {unknown}"
    if sorted(named) != sorted(powers):
        return "every power must be controlled by exactly one player or be neutral"
    if len(setup.controls) != setup.players:
        return f"{setup.players} players but {len(setup.controls)} groups of powers"
    if setup.victory_by not in ("power", "player"):
        return "victory_by must be 'power' or 'player'"
    return None


def _file_setups(variant: Variant) -> tuple[Setup, ...]:
    powers = tuple(p.name for p in variant.powers)
    entries = variant.tables.get("setups", [])
    out = []
    for n, entry in enumerate(entries if isinstance(entries, list) else []):
        where = f"{variant.name}.toml: [[setups]] #{n + 1}"
        try:
            setup = setup_from_data(entry)
        except (KeyError, TypeError, ValueError) as exc:
            raise SetupError(f"{where}: bad entry ({exc})") from None
        problem = setup_problem(setup, powers)
        if problem is not None:
            raise SetupError(f"{where}: {problem}")
        out.append(setup)
    return tuple(out)
