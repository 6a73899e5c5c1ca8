"""The decision vocabulary of DATC 5.A: typed keys for the decisions, the terms and the backup rules.

A movement turn is a set of boolean *decisions* (:data:`Decision`: a :class:`DecisionKind`
and the problem's index of what it decides), defined by equivalences with the rules of
DATC 5.B, and of *terms* built from them (:data:`TermKey`: strengths, which are integers,
and the head-to-head condition). The kinds are string enums whose values are the words the
traces and the ``--all`` listing use, so a key sorts (decisions are visited in sorted
order), prints and hashes as the pair of that word and the index. Importing this module needs no OR-Tools.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from enum import StrEnum
from types import MappingProxyType
from typing import TypeAlias, TypeVar

__all__ = ["ATTACK", "BackupRule", "CONVOY", "DISLODGED", "Decision", "DecisionKind", "HEAD_TO_HEAD", "MOVE", "PATH",
           "PREVENT", "RESISTING", "SUPPORT", "TermKey", "TermKind", "decision_keys", "term_keys"]


class DecisionKind(StrEnum):
    """The boolean decisions of DATC 5.A, by the index they take."""

    MOVE = "move"  # move m succeeds (5.B.1); index: the move
    DISLODGED = "dislodged"  # unit u is dislodged (5.A); index: the unit
    SUPPORT = "support"  # support s is given (5.B.2: not cut, not dislodged); index: the support
    PATH = "path"  # move m has a convoy route of convoying fleets (5.B.4); index: the move
    CONVOY = "convoy"  # convoy c carries (5.B.3: the fleet is not dislodged); index: the convoy


Decision: TypeAlias = tuple[DecisionKind, int]
"""One decision: its kind and the index of what it decides (a move, unit, support or convoy of
the problem). A plain tuple, built as ``(MOVE, m)``: a key is made for every read of a decision,
and a tuple costs a tenth of a named tuple's constructor."""

MOVE, DISLODGED, SUPPORT, PATH, CONVOY = (DecisionKind.MOVE, DecisionKind.DISLODGED, DecisionKind.SUPPORT,
                                          DecisionKind.PATH, DecisionKind.CONVOY)
"""The kinds as module constants (reading an enum member off its class is slower than a global)."""


class TermKind(StrEnum):
    """The terms built once per move from the decisions (DATC 5.B.1, 5.B.5-5.B.8)."""

    ATTACK = "attack"  # attack strength (5.B.8), an integer
    PREVENT = "prevent"  # prevent strength (5.B.6), an integer
    RESISTING = "resisting"  # what the move must beat at its destination: defend (5.B.7) or hold (5.B.5)
    HEAD_TO_HEAD = "h2h"  # the move and the opposite one meet head to head (5.B.1, 4.A.7), a condition

    @property
    def strength(self) -> bool:
        """Is the term a strength (an integer the solution gives a value to)?"""
        return self is not TermKind.HEAD_TO_HEAD


TermKey: TypeAlias = tuple[TermKind, int]
"""One term: its kind and the move it belongs to."""

ATTACK, PREVENT, RESISTING, HEAD_TO_HEAD = (TermKind.ATTACK, TermKind.PREVENT, TermKind.RESISTING,
                                            TermKind.HEAD_TO_HEAD)

_K = TypeVar("_K", DecisionKind, TermKind)

PREMADE = 256
"""Keys made once, at import, for every index below this (more than a board of any map has
units). A turn's result keeps the keys of its decisions and strengths (in its solution's
values and strengths): premade, they are objects shared by every turn, not new memory in
each (issue 22: batch mode holds 64 turns' results at once, and pays for their memory)."""


def _keys(kinds: Iterable[_K], count: int) -> dict[_K, tuple[tuple[_K, int], ...]]:
    """Each kind's keys ``(kind, 0)`` ... ``(kind, count - 1)``, by index."""
    return {kind: tuple((kind, i) for i in range(count)) for kind in kinds}


_DECISION_KEYS: Mapping[DecisionKind, tuple[Decision, ...]] = MappingProxyType(_keys(DecisionKind, PREMADE))
_TERM_KEYS: Mapping[TermKind, tuple[TermKey, ...]] = MappingProxyType(_keys(TermKind, PREMADE))


def decision_keys(units: int) -> Mapping[DecisionKind, tuple[Decision, ...]]:
    """Each kind's decision keys by index, ``keys[MOVE][m] == (MOVE, m)``, for a problem of
    `units` units (no index of a move, support or convoy reaches it: each is a unit's order):
    the premade ones where they are enough."""
    return _DECISION_KEYS if units <= PREMADE else _keys(DecisionKind, units)


def term_keys(units: int) -> Mapping[TermKind, tuple[TermKey, ...]]:
    """Each kind's term keys by move index, as :func:`decision_keys` gives decisions'."""
    return _TERM_KEYS if units <= PREMADE else _keys(TermKind, units)


class BackupRule(StrEnum):
    """The backup rules of DATC 5.B.9 and 4.A.2 the driver applies to a cycle without
    exactly one resolution (the value is the name traces and JSON documents give it)."""

    SZYKMAN = "szykman"
    CIRCULAR_MOVEMENT = "circular movement"
    ALL_HOLD = "all hold"
    DPTG = "dptg"

    @property
    def text(self) -> str:
        """The rule in words, with where the DATC states it."""
        return _RULE_TEXT[self]

    @property
    def decides_moves(self) -> bool:
        """Does the rule settle moves directly (its moves' outcome is a paradox), rather
        than succeed them (circular movement) or cancel convoys (Szykman)?"""
        return self in (BackupRule.ALL_HOLD, BackupRule.DPTG)


_RULE_TEXT = {
    BackupRule.SZYKMAN: "Szykman rule (DATC 4.A.2, 5.B.9): the convoying fleets in the paradox do not convoy",
    BackupRule.CIRCULAR_MOVEMENT: "circular movement (DATC 5.B.9): every move in the cycle succeeds",
    BackupRule.ALL_HOLD: "All Hold rule (DATC 4.A.2 d): every move in the paradox fails",
    BackupRule.DPTG: "DPTG rule (DATC v2.x 4.A.2 f): of the resolutions, the one in which every convoy of the "
                     "paradox is disrupted",
}
