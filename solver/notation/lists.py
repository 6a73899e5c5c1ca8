"""Order lists as people paste them: a power's name alone on a line gives that power to the
orders under it, a line may hold several orders (:mod:`dipsat.notation` says more)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace

from ..board import PhaseKind, Power
from ..errors import NotationError, UnknownNameError
from ..maps import Variant, fold
from ..orders import Order
from .order import WORD_RUN, CanonicalOrders, Parser, _canonical_order, parse_order, power_hint, strip_comment

__all__ = ["parse_orders", "parse_order_lines", "split_order_line", "RejectedOrder", "power_header"]


def parse_orders(text: str, variant: Variant, phase: PhaseKind | None = None) -> tuple[list[Order], list[NotationError]]:
    """Parse one order per line; returns the orders and one error per bad line (its
    ``line`` set). A power's name alone on a line (``Germany:``) gives that power to the
    orders under it that name none, up to the next such line or a blank line: the DATC
    writes its test cases so. A heading that names no power (``Germnay:``) is an error, and
    the orders under it that name no power are not read (each an error naming the heading):
    they belong to no known power. A line may hold several orders separated by commas or
    semicolons, a power's name and colon starting each power's (the e-mail rules, 001:
    ``England: F Den - Kie, F Nth - Den, Russia: A Ber - Kie``)."""
    return parse_order_lines(enumerate(text.splitlines(), start=1), variant, phase)


def parse_order_lines(lines: Iterable[tuple[int, str]], variant: Variant, phase: PhaseKind | None = None, *,
                      lenient_powers: bool = False,
                      canonical: CanonicalOrders | None = None) -> tuple[list[Order], list[NotationError]]:
    """:func:`parse_orders` for numbered lines (a blank text is a blank line); `lenient_powers`
    as in :func:`parse_order`; `canonical` remembers the orders written as dipsat writes them
    (for many lists that repeat them)."""
    orders: list[Order] = []
    errors: list[NotationError] = []
    header: Power | None = None
    unread: tuple[int, NotationError] | None = None  # the heading that names no power, and its line
    broken: tuple[str, NotationError] | None = None  # the line before, words only and not read ('DEUTSCHES')
    for number, line in lines:
        body = strip_comment(line)
        before, broken = broken, None
        text = body.strip()
        if not text:
            if not line.strip():
                header, unread = None, None  # a blank line ends a power's block; a comment line does not
            continue
        written = _canonical_order(text, variant, phase) if canonical is None else canonical.read(text, variant, phase)
        if written is not None and written.power is not None:
            # One order as format_order writes it, its power first (most lines of a file dipsat
            # wrote): what the steps below make of it, without them.
            orders.append(written)
            continue
        try:
            power = power_header(body, variant, lenient_powers=lenient_powers)
        except NotationError as exc:  # a misspelt power's name: the lines under it name no power
            power = _split_heading(before, body, variant, lenient_powers)
            if power is None:
                exc.line = number
                errors.append(exc)
                header, unread = None, (number, exc)
                continue
            if before is not None:
                errors.remove(before[1])  # 'DEUTSCHES' / 'REICH:' is one heading
        if power is not None:
            header, unread = power, None
            continue
        line_power: Power | None = None  # 'England: F Den - Kie, F Nth - Den': the line's own power
        line_unread: NotationError | None = None  # a piece's power could not be read: the pieces after it name none
        pieces = split_order_line(body, variant)
        if len(pieces) > 1 and ":" not in pieces[0] and not _reads(pieces[0], variant, phase, lenient_powers):
            pieces = [body]  # a sentence with commas ('... from Marseilles, Gulf of Lyon, ...'): one error
        for piece in pieces:
            try:
                order = parse_order(piece, variant, phase, lenient_powers=lenient_powers)
            except NotationError as exc:
                exc.line = number
                errors.append(exc)
                if len(pieces) == 1 and WORD_RUN.fullmatch(body.strip().rstrip("-")):
                    broken = (body, exc)
                if ":" in piece:
                    line_power, line_unread = None, exc
                continue
            if order.power is not None:
                line_power, line_unread = order.power, None
            elif line_power is not None:
                order = replace(order, power=line_power)
            elif line_unread is not None:
                errors.append(_orphan(piece, number, line_unread, f"before it on line {number}"))
                continue
            elif header is not None:
                order = replace(order, power=header)
            elif unread is not None:
                errors.append(_orphan(piece, number, unread[1], f"in the heading on line {unread[0]}"))
                continue
            orders.append(order)
    return orders, errors


def _split_heading(before: tuple[str, NotationError] | None, body: str, variant: Variant,
                   lenient_powers: bool) -> Power | None:
    """A heading printed on two lines (``DEUTSCHES`` then ``REICH:``, ``ÖSTERREICH-`` then
    ``UNGARN:``, as the German rulebook's figures are laid out, 000): the power the two lines
    name together, else None."""
    if before is None:
        return None
    first = before[0].strip()
    joined = first + ("" if first.endswith("-") else " ") + body.strip()
    try:
        return power_header(joined, variant, lenient_powers=lenient_powers)
    except NotationError:
        return None


def _reads(text: str, variant: Variant, phase: PhaseKind | None, lenient_powers: bool) -> bool:
    try:
        parse_order(text, variant, phase, lenient_powers=lenient_powers)
    except NotationError:
        return False
    return True


def _orphan(piece: str, number: int, heading: NotationError, where: str) -> NotationError:
    """An order under a heading (or after a power's name on its line) that names no power:
    it is not given to the unit's owner (issue 17), but reported with the heading's error."""
    error = UnknownNameError(piece, 0, f"a power's name {where}", heading.found, heading.hint)
    error.line = number
    return error


_SEPARATORS = re.compile(r"[,;]")


def split_order_line(text: str, variant: Variant) -> list[str]:
    """The orders of one line: split at commas and semicolons (outside brackets), and before a
    power's name and colon that does not start the line (``A Ser H Russia: A Rum - Ser``,
    as the e-mail rules, 001, print their examples). Empty pieces (a trailing comma) are
    dropped; a line without separators is itself."""
    pieces: list[str] = []
    start = 0
    if "," in text or ";" in text:  # most lines hold one order: no character to look at
        depth = 0
        for i, char in enumerate(text):
            depth += (char == "(") - (char == ")")
            if depth <= 0 and _SEPARATORS.fullmatch(char):
                pieces.append(text[start:i])
                start = i + 1
    pieces.append(text[start:])
    out: list[str] = []
    for piece in pieces:
        out += _split_at_powers(piece, variant)
    return [p.strip() for p in out if p.strip()] or [text]


def _split_at_powers(text: str, variant: Variant) -> list[str]:
    """`text` cut before each ``Power:`` that is not at its start."""
    cuts = []
    colon = text.find(":")
    while colon >= 0:
        if fold(text[:colon].lstrip()) not in variant.power_names:  # else the power's name starts the text
            starts = [m.start() for m in re.finditer(r"(?<!\S)\S", text[:colon])]
            for begin in starts:  # the longest power's name ending at the colon
                if fold(text[begin:colon]) in variant.power_names:
                    if text[:begin].strip():
                        cuts.append(begin)
                    break
        colon = text.find(":", colon + 1)
    bounds = [0, *cuts, len(text)]
    return [text[a:b] for a, b in zip(bounds, bounds[1:])]


@dataclass(frozen=True, slots=True)
class RejectedOrder:
    """An order line that could not be read: it is left out of the adjudication, and the
    result lists it (``rejected`` in JSON, a comment in case files, a line in the text)."""

    source: str  # the file, "<stdin>", or what else the line came from
    line: int | None
    text: str
    reason: str  # one line: what was expected where, and "did you mean" when there is a guess

    @classmethod
    def of(cls, source: str, error: NotationError, line: int | None = None) -> RejectedOrder:
        return cls(source, line if line is not None else error.line, error.text.strip(), str(error))

    def __str__(self) -> str:
        return f"{self.source}:{self.line}: {self.reason}" if self.line is not None else f"{self.source}: {self.reason}"

    def to_json(self) -> dict[str, object]:
        return {"source": self.source, "line": self.line, "text": self.text, "error": self.reason}


def power_header(line: str, variant: Variant, *, lenient_powers: bool = False) -> Power | None:
    """The power a line names and nothing else (``Germany:``, ``GERMANY``), else None.

    :raises UnknownNameError: a heading that names no power: a line ending in a colon
        (``Germnay:``, ``Nowhere:``, ``England (Tom):``), or a near-miss of a power's name
        alone (``Germnay``); a near-miss is not guessed but suggested (with `lenient_powers`:
        that power)."""
    text = strip_comment(line).strip()
    if not text:
        return None
    if text[-1] != ":":
        power = variant.power_names.get(fold(text))
        if power is None and WORD_RUN.fullmatch(text) and variant.power_named(text) is not None:
            if lenient_powers:
                return variant.power_named(text)
            raise UnknownNameError(line, line.index(text), "a power's name", text, power_hint(text, variant))
        return power
    parser = Parser(text, variant, lenient_powers)
    power = parser.power_prefix()
    if power is None:  # a heading naming no power: 'Germnay:', 'Nowhere:', 'England (Tom):', 'Spring 1901:'
        head = text[:-1].strip()
        raise UnknownNameError(line, line.index(text), "a power's name", head, power_hint(head, variant))
    return power if power is not None and parser.cur.at_end() else None
