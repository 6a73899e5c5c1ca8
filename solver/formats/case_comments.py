"""dipsat's additions to the case-file format that other readers take for comments
(``cases/README.md``): a dislodged unit's retreat options (``# retreats: bel, pic``), an
order's expected result (``# result: fails (cut)``), and ``#=`` lines giving one order's
expected outcome kinds. Read and written here; :mod:`.casefile` reads the format itself."""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..board import Location
from ..maps import Variant
from ..notation import parse_location
from .outcome_json import KINDS

__all__ = ["EXPECT_KINDS", "EXPECT_MARK", "RESULT_COMMENT", "RETREATS_COMMENT", "Expectation", "format_result_comment",
           "format_retreats_comment", "is_expectation", "parse_expectation", "parse_result_comment",
           "parse_retreats_comment"]


RETREATS_COMMENT = "retreats:"
"""How a ``POSTSTATE_DISLODGED`` line's comment starts when it gives the unit's retreat options
(``Germany: A bur  # retreats: bel, pic``; ``# retreats: none``): dipsat's addition, a
comment to every other reader (see ``cases/README.md``)."""


def parse_retreats_comment(comment: str, variant: Variant) -> tuple[Location, ...] | None:
    """The retreat options a ``POSTSTATE_DISLODGED`` line's comment gives, or None when the
    comment gives none (any other comment).

    :raises ValueError: a word after ``retreats:`` that is no location of the map."""
    if not comment.casefold().startswith(RETREATS_COMMENT):
        return None
    words = comment[len(RETREATS_COMMENT):].replace(",", " ").split()
    if words == ["none"]:
        return ()
    if not words:
        raise ValueError("expected the retreat options after 'retreats:' (e.g. 'retreats: bel, pic' or 'retreats: none')")
    return tuple(sorted({parse_location(word, variant) for word in words}))


def format_retreats_comment(options: Sequence[Location]) -> str:
    """``# retreats: bel, pic`` (sorted; ``none`` for no option)."""
    return f"# {RETREATS_COMMENT} " + (", ".join(sorted(map(str, options))) or "none")


RESULT_COMMENT = "result:"
"""How an ``ORDERS`` line's comment starts when it gives the order's expected outcome, as
dipsat states it (``Germany: A mun S A ber - sil  # result: fails (cut) or fails
(dislodged)``): dipsat's addition, a comment to every other reader (``cases/README.md``)."""

_STATUS = re.compile(r"^(succeeds|fails(?: \(([a-z ]+)\))?)$")


def parse_result_comment(comment: str) -> tuple[str, ...] | None:
    """The outcomes an ``ORDERS`` line's comment allows (``("fails (cut)", "fails
    (dislodged)")``), or None when the comment gives none (any other comment).

    :raises ValueError: an alternative that is not ``succeeds``, ``fails`` or ``fails (reason)``."""
    if not comment.casefold().startswith(RESULT_COMMENT):
        return None
    alternatives = tuple(" ".join(a.split()) for a in comment[len(RESULT_COMMENT):].split(" or "))
    for alternative in alternatives:
        if not _STATUS.match(alternative):
            raise ValueError(f"expected 'succeeds', 'fails' or 'fails (reason)' after 'result:' (alternatives "
                             f"joined by ' or '), found {alternative!r}")
    return alternatives


def format_result_comment(statuses: Sequence[str]) -> str:
    """``# result: fails (cut) or fails (dislodged)``."""
    return f"# {RESULT_COMMENT} " + " or ".join(statuses)


EXPECT_MARK = "#="
"""How a line giving one order's expected outcome starts (``#= England: F nth - pic: illegal``):
dipsat's addition, a whole-line comment to every other reader (``cases/README.md``). A
line starting ``#==`` is a plain comment (a banner)."""

EXPECT_KINDS = frozenset(KINDS.values())
"""The outcome kinds a ``#=`` line may name: those of dipsat's JSON (docs/json.md)."""


def is_expectation(raw: str) -> bool:
    """Whether a line of a case file is a ``#=`` line (leading blanks allowed; ``#==`` is not)."""
    line = raw.lstrip()
    return line.startswith(EXPECT_MARK) and not line.startswith(EXPECT_MARK + "=")


def parse_expectation(raw: str, line: int = 0) -> Expectation:
    """``#= England: F North Sea - Picardy: illegal`` -> the order as written and its kinds
    (alternatives joined by ``or``: ``#= ...: cut or dislodged``). The kinds follow the
    line's last colon (no kind has one).

    :raises ValueError: no colon, no order, or a word after the last colon that is no kind."""
    body = raw.strip()[len(EXPECT_MARK):]
    order, sep, kinds_text = body.rpartition(":")
    words = kinds_text.casefold().split()
    kinds = tuple(words[0::2])
    if not sep or not order.strip() or len(words) % 2 == 0 or any(w != "or" for w in words[1::2]):
        raise ValueError(f"{EXPECT_MARK} line: expected '{EXPECT_MARK} <order as in ORDERS>: <kind>' (alternatives "
                         f"joined by ' or '), found {raw.strip()!r}")
    for kind in kinds:
        if kind not in EXPECT_KINDS:
            close = difflib.get_close_matches(kind, sorted(EXPECT_KINDS), n=1)
            hint = f"did you mean {close[0]}? " if close else ""
            raise ValueError(f"{EXPECT_MARK} line: expected an outcome kind after the last ':', found {kind!r} "
                             f"({hint}kinds: {', '.join(sorted(EXPECT_KINDS))})")
    return Expectation(line, " ".join(order.split()), kinds)


@dataclass(frozen=True, slots=True)
class Expectation:
    """A ``#= <order>: <kind>`` line: the outcome kinds (the JSON ``kind`` of
    :data:`dipsat.formats.outcome_json.KINDS`) one order of the case's ORDERS may get."""

    line: int
    order: str
    """The order as written (read with the case's ORDERS when the case is run)."""
    kinds: tuple[str, ...]

    def __str__(self) -> str:
        return f"{EXPECT_MARK} {self.order}: {' or '.join(self.kinds)}"
