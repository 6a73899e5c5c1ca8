"""CP-SAT encodings of the movement rules, one module per rule family.

The encodings see only the indexed :class:`Problem` (what the prescan left of the
orders: legal, matched, which move uses a convoy) — never text or files. Each
decision of DATC 5.A is one boolean (its typed key: :mod:`.decisions`), defined by an
equivalence with the rule it encodes; :class:`Encoding` builds them on demand and records which decision's
definition reads which other decision: the dependency graph the solve driver
uses for the acyclic fast path and for applying backup rules per cycle.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .decisions import BackupRule, Decision, DecisionKind, TermKey, TermKind
from .problem import ConvoyOrder, Key, MoveOrder, Problem, SupportOrder

if TYPE_CHECKING:
    from .model import Encoding

__all__ = ["BackupRule", "ConvoyOrder", "Decision", "DecisionKind", "Encoding", "Key", "MoveOrder", "Problem",
           "SupportOrder", "TermKey", "TermKind"]


def __getattr__(name: str) -> object:
    """``Encoding`` is imported on first use: it needs OR-Tools, which takes half a second
    to import, and the rule options (``dipsat.encodings.options``) are read without it."""
    if name == "Encoding":
        from .model import Encoding
        return Encoding
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
