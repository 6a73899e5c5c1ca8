"""Disagreements grouped by signature across games: the same bug in 200 games is one group.

The signature of a disagreement (a ``disagreed`` line of the validate report) is the kind
of phase, the kinds of difference (for result codes, the record's class against ours), the
shapes of the orders involved (``A - VIA``: unit kind and order, no provinces) and the rule
family its note names (the DATC issues whose options would reproduce it, if any). Each
group lists its count, its games and, first, its smallest case (fewest orders involved and
differences).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

__all__ = ["Group", "group_disagreements", "rule_family", "signature"]

_PROVINCE = re.compile(r"\b(?!via\b)[A-Za-z]{3}(/[A-Za-z]{2})?\b", re.IGNORECASE)  # a province, any case
_ISSUE = re.compile(r"\b4\.[A-E]\.\d+(?==)")


def signature(line: dict[str, Any]) -> str:
    """The signature of one disagreement line (see the module docstring)."""
    kinds = sorted({d.get("what", "") + (f" {d.get('recorded')}->{d.get('ours')}" if d.get("what") == "order" else "")
                    for d in line.get("differences", [])})
    shapes = sorted({_shape(label) for label in line.get("orders", [])})
    family = rule_family(str(line.get("note", "")))
    return "; ".join([str(line.get("kind", "")), ", ".join(kinds) or "-", "orders " + (", ".join(shapes) or "-"),
                      "rules " + (", ".join(family) or "-")])


def rule_family(note: str) -> list[str]:
    """The DATC issues whose options a disagreement's note says would reproduce it."""
    return sorted(set(_ISSUE.findall(note)))


def _shape(label: str) -> str:
    text = label.split(": ", 1)[-1]
    return re.sub(r"\s+", " ", _PROVINCE.sub("", text)).strip()


@dataclass(frozen=True)
class Group:
    """Disagreements of one signature: how many, in which games, the smallest first."""

    signature: str
    count: int
    games: tuple[str, ...]
    smallest: str
    """The smallest case of the group: ``GAME PHASE``."""

    def to_json(self) -> dict[str, Any]:
        return {"type": "group", "source": "", "game": "", "signature": self.signature, "count": self.count,
                "games": list(self.games), "smallest": self.smallest}

    def __str__(self) -> str:
        games = ", ".join(self.games[:5]) + (f", ... ({len(self.games)} games)" if len(self.games) > 5 else "")
        return f"{self.count} x {self.signature}: smallest {self.smallest}; games {games}"


def group_disagreements(lines: Iterable[dict[str, Any]]) -> list[Group]:
    """The groups of the ``disagreed`` lines, the largest first (then by signature)."""
    members: dict[str, list[dict[str, Any]]] = {}
    for line in lines:
        if line.get("type") == "disagreed":
            members.setdefault(signature(line), []).append(line)
    out = []
    for sig, group in members.items():
        small = min(group, key=lambda x: (len(x.get("orders", [])) + len(x.get("differences", [])),
                                          str(x.get("game")), str(x.get("phase"))))
        games = tuple(sorted({str(x.get("game")) for x in group}))
        out.append(Group(sig, len(group), games, f"{small.get('game')} {small.get('phase')}"))
    return sorted(out, key=lambda g: (-g.count, g.signature))
