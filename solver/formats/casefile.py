"""The jDip/DATC case-file format: read leniently, write strictly.

The format and dipsat's additions (``RULES``, ``PLAYERS``, ...) are described in
``cases/README.md``. The reader collects one :class:`CaseFileError` per bad line and goes
on; a case with an error is still returned, marked broken. Data lines pasted flush-left
are read as lines of the open block.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from collections.abc import Callable, Mapping, Sequence
from typing import TextIO, overload

from ..board import Location, Phase, PhaseKind, Unit, UnitKind
from ..errors import CaseFileError, DipsatError, NotationError
from ..maps import Variant, resolve_variant  # the variant registry: re-exported for the readers of case files
from ..notation import CanonicalOrders, VariantTables, parse_location
from ..orders import Order
from .case_comments import (EXPECT_MARK, Expectation, format_result_comment, format_retreats_comment,
                            is_expectation, parse_expectation)

BLOCKS = ("PRESTATE", "PRESTATE_SUPPLYCENTER_OWNERS", "PRESTATE_DISLODGED", "PRESTATE_RESULTS",
          "ORDERS", "POSTSTATE", "POSTSTATE_DISLODGED", "POSTSTATE_SUPPLYCENTER_OWNERS")
KEYWORDS = ("VARIANT_ALL", "CASE", "RULES", "PLAYERS", "PRESTATE_SETPHASE", *BLOCKS, "POSTSTATE_SAME", "END")
"""Every keyword of the format (dipsat's RULES and PLAYERS included)."""
_KEYWORD_SET = frozenset(KEYWORDS)
_BLOCK_SET = frozenset(BLOCKS)
_KEYWORD_INITIALS = frozenset(k[0] for k in KEYWORDS)


def _indented_keyword(stripped: str) -> bool:
    """Does an indented line start with a keyword (a whole file pasted indented)? The first
    letter is tested first: most indented lines are data lines."""
    return stripped[0] in _KEYWORD_INITIALS and stripped.split(None, 1)[0] in _KEYWORD_SET


class UnknownKeywordError(CaseFileError):
    """A line at column 0 that looks like a keyword but is none (``POSTSTATE_SAMEE``):
    the lines of its block would be lost, so no command uses the case."""


def _is_keyword(word: str) -> bool:
    """Whether a word at column 0 is (or is meant as) a keyword: a known one, or a word in
    capitals with an underscore or close to a keyword. Anything else at column 0 inside a
    block is a data line pasted flush-left (``England: F lon``, ``GERMANY:``, ``F lon - nth``)."""
    upper = word.upper()
    if upper in KEYWORDS:
        return True
    if not re.fullmatch(r"[A-Z][A-Z0-9_]*", word):
        return False
    return "_" in word or bool(difflib.get_close_matches(upper, KEYWORDS, n=1, cutoff=0.75))


@dataclass(slots=True)
class CaseLine:
    number: int
    text: str
    blank_before: bool = False  # a blank line came before it (it ends a power's block of orders)
    comment: str = ""
    """The comment after the line's text (without ``#``): dipsat reads ``retreats: ...`` there
    on a ``POSTSTATE_DISLODGED`` line (:func:`parse_retreats_comment`); other readers skip it."""


class Lines(Sequence[CaseLine]):
    """The lines of one block as read: their numbers and texts side by side (a :class:`CaseLine`
    is made when one is asked for; the runner reads :attr:`texts` at once)."""

    __slots__ = ("numbers", "texts", "blanks", "comments")

    def __init__(self) -> None:
        self.numbers: list[int] = []
        self.texts: list[str] = []
        self.blanks: set[int] = set()
        """The lines (by index) a blank line came before."""
        self.comments: dict[int, str] = {}
        """The lines' comments (by index), where a line has one."""

    def add(self, number: int, text: str, blank_before: bool = False, comment: str = "") -> None:
        if blank_before:
            self.blanks.add(len(self.texts))
        if comment:
            self.comments[len(self.texts)] = comment
        self.numbers.append(number)
        self.texts.append(text)

    def add_texts(self, number: int, texts: list[str], blank_before: bool) -> None:
        """Lines without comments from line `number` on (their texts stripped)."""
        if blank_before:
            self.blanks.add(len(self.texts))
        self.numbers += range(number, number + len(texts))
        self.texts += texts

    def __len__(self) -> int:
        return len(self.texts)

    @overload
    def __getitem__(self, k: int) -> CaseLine: ...

    @overload
    def __getitem__(self, k: slice) -> list[CaseLine]: ...

    def __getitem__(self, k: int | slice) -> CaseLine | list[CaseLine]:
        if isinstance(k, slice):
            return [self[i] for i in range(len(self.texts))[k]]
        k = range(len(self.texts))[k]  # a negative index counts from the end; raises IndexError
        return CaseLine(self.numbers[k], self.texts[k], k in self.blanks, self.comments.get(k, ""))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence) and not isinstance(other, str):
            return list(self) == list(other)
        return NotImplemented

    def __repr__(self) -> str:
        return f"Lines({list(self)!r})"


class LineReader:
    """The lines of case files as read, each distinct text once per variant: unit lines
    (:func:`parse_unit_line`, by `placement` too), orders as dipsat writes them
    (:attr:`orders`), phases, and which texts are plain data lines (:meth:`plain`). The cases
    of one file share one, those of a ``dipsat cases`` run too: a game's cases repeat most of
    their units, owners and orders (the corpus's 221,167 unit lines are 630 texts, its 53,436
    order lines 9,078). A cache: sent to another process, it arrives empty."""

    __slots__ = ("_units", "_owners", "_owned", "orders", "_given", "_phases", "_plain")

    def __init__(self) -> None:
        self._units: VariantTables[str, Unit] = VariantTables()  # unit lines (placement)
        self._owners: VariantTables[str, Unit] = VariantTables()  # owner lines (placement=False)
        self._owned: VariantTables[str, tuple[str, str]] = VariantTables()  # owner lines: (centre, power)
        self.orders = CanonicalOrders()
        self._given: VariantTables[PhaseKind, dict[str, Order]] = VariantTables()  # orders with their power
        self._phases: dict[str, Phase] = {}
        self._plain: set[str] = set()  # texts known to be plain data lines

    def __reduce__(self) -> tuple[Callable[[], object], tuple[()]]:
        return type(self), ()

    def plain(self, indented: list[str]) -> list[str] | None:
        """The texts of tab-indented lines (the tab taken off) when all are plain data lines of
        the open block (a text, no comment, no keyword first: a whole file pasted indented),
        else None."""
        known = self._plain  # stripped texts: a line equal to one needs no strip
        if known.issuperset(indented):
            return indented
        texts, new = indented, set(indented).difference(known)
        if any(text.strip() != text for text in new):
            texts = [text.strip() for text in indented]
            new = set(texts).difference(known)
        for text in new:
            if not text or "#" in text or _indented_keyword(text):
                return None
        known.update(new)
        return texts

    def unit(self, text: str, variant: Variant, placement: bool = True) -> Unit:
        """:func:`parse_unit_line` of the line (a line that cannot be read is read again, to raise)."""
        return self.units(variant, placement)(text)

    def known_units(self, texts: list[str], variant: Variant, placement: bool = True) -> list[Unit] | None:
        """The units of lines (:meth:`unit`, each distinct text read once), or None when one
        cannot be read (the caller reads them one by one, to say which)."""
        table = (self._units if placement else self._owners).of(variant)
        try:
            return list(map(table.__getitem__, texts))
        except KeyError:
            pass
        for text in set(texts).difference(table):
            try:
                table[text] = parse_unit_line(text, variant, placement)
            except (ValueError, DipsatError):
                return None
        return list(map(table.__getitem__, texts))

    def known_owners(self, texts: list[str], variant: Variant) -> list[tuple[str, str]] | None:
        """The (centre, power) of owner lines (:meth:`known_units`, `placement` False), or None."""
        table = self._owned.of(variant)
        try:
            return list(map(table.__getitem__, texts))
        except KeyError:
            pass
        missing = list(set(texts).difference(table))
        units = self.known_units(missing, variant, placement=False)
        if units is None:
            return None
        table.update((text, (unit.province, unit.power)) for text, unit in zip(missing, units))
        return list(map(table.__getitem__, texts))

    def given_orders(self, texts: list[str], variant: Variant, kind: PhaseKind) -> list[Order] | None:
        """The orders of lines each one order as dipsat writes it, its power first (what
        :func:`dipsat.notation.parse_order_lines` reads them as, :attr:`orders`), else None."""
        table = self._given.of(variant).setdefault(kind, {})
        read = self.orders.read
        for text in set(texts).difference(table):  # most lists give some order first given here
            order = read(text, variant, kind)
            if order is None or order.power is None:
                return None
            table[text] = order
        return list(map(table.__getitem__, texts))

    def phase(self, text: str) -> Phase:
        """:func:`parse_phase` of a text (raises ValueError)."""
        known = self._phases.get(text)
        if known is None:
            known = self._phases[text] = parse_phase(text)
        return known

    def units(self, variant: Variant, placement: bool = True) -> Callable[[str], Unit]:
        """:meth:`unit` for the lines of a block: the variant's table found once."""
        read = (self._units if placement else self._owners).of(variant)

        def unit(text: str) -> Unit:
            known = read.get(text)
            if known is None:
                known = read[text] = parse_unit_line(text, variant, placement)
            return known
        return unit


@dataclass
class Case:
    """One case as written in the file (positions still as text lines)."""

    id: str
    title: str
    source: str
    line: int
    variant_name: str = "Standard"
    rules: list[str] | None = None
    players: int | None = None
    """dipsat's PLAYERS line: the player-count set-up (seed 000: neutral powers' orders are ignored)."""
    players_line: int = 0
    phase_text: str = ""
    phase_line: int = 0
    blocks: dict[str, Lines] = field(default_factory=dict)
    post_same: bool = False
    expected: list[Expectation] = field(default_factory=list)
    """dipsat's ``#=`` lines: the expected outcome kinds of single orders (:func:`parse_expectation`)."""
    errors: list[CaseFileError] = field(default_factory=list)
    reader: LineReader = field(default_factory=LineReader, repr=False, compare=False)
    """The reader of its lines, shared with the other cases of its file (or run)."""

    def block(self, name: str) -> Lines:
        return self.blocks.get(name) or Lines()

    def has(self, name: str) -> bool:
        return name in self.blocks


def read_cases(handle: TextIO, source: str = "<input>",
               reader: LineReader | None = None) -> tuple[list[Case], list[CaseFileError]]:
    """All cases of a file, plus errors found outside any case (:func:`read_case_text` of
    the text `handle` gives)."""
    return read_case_text(handle.read(), source, reader)


def read_case_text(text: str, source: str = "<input>",
                   reader: LineReader | None = None) -> tuple[list[Case], list[CaseFileError]]:
    """All cases of a file's text, plus errors found outside any case. Its cases read their
    lines with `reader` (the reader of the other files of a run), or a reader of their own.

    The lines indented by a tab after a line are taken with it (most lines are a block's data
    lines as write_case writes them): read together when each is a plain data line of the open
    block (:meth:`LineReader.plain`), else one by one, as every other line is."""
    reader = LineReader() if reader is None else reader  # shared by the file's cases
    file = _FileReader(source, reader)
    joined = _JOINED not in text  # else the mark is in the text itself: every line alone
    pieces = (text.replace("\n\t", _JOINED) if joined else text).split("\n")  # a line, the tab-indented lines after it
    if not pieces[-1]:
        pieces.pop()  # the line end of the last line ("" : no line at all)
    number = 0
    for piece in pieces:
        number += 1
        if not joined or _JOINED not in piece:  # no tab-indented line after it
            if piece[:1] != "#" or piece[1:2] == "=":  # a comment line: not blank, no '#=' line
                file.line(number, piece)
            continue
        indented = piece.split(_JOINED)
        first = indented[0]
        if first[:1] != "#" or first[1:2] == "=":
            file.line(number, first)
        del indented[0]
        lines = file.lines
        texts = None if lines is None else reader.plain(indented)
        if lines is not None and texts is not None:
            lines.add_texts(number + 1, texts, file.blank)
            file.blank = False
        else:
            for k, rest in enumerate(indented, start=number + 1):
                file.line(k, "\t" + rest)
        number += len(indented)
    return file.finish()


_JOINED = "\x00"
"""What joins a line and the tab-indented lines after it while reading (the line end and tab
it stands for)."""


class _FileReader:
    """The state of one file's reading between lines: the cases read, the open case and block."""

    __slots__ = ("source", "reader", "cases", "errors", "variant", "case", "blank", "lines")

    def __init__(self, source: str, reader: LineReader) -> None:
        self.source = source
        self.reader = reader
        self.cases: list[Case] = []
        self.errors: list[CaseFileError] = []
        self.variant = "Standard"
        self.case: Case | None = None
        self.blank = False  # a blank line came before this line (it ends a power's block of orders)
        self.lines: Lines | None = None  # the open block's lines (None: no block open, or no case)

    def finish(self) -> tuple[list[Case], list[CaseFileError]]:
        if self.case is not None:
            self.case.errors.append(CaseFileError(self.source, self.case.line, f"case {self.case.id} has no END"))
            self.cases.append(self.case)
        return self.cases, self.errors

    def line(self, number: int, raw: str) -> None:
        """One line (without its line end) read alone."""
        case = self.case
        if raw in _BLOCK_SET and case is not None:  # most keyword lines: as read below
            self.blank, self.lines = False, case.blocks.setdefault(raw, Lines())
            return
        if not raw:
            self.blank = True
            return
        source, errors, lines = self.source, self.errors, self.lines
        if number == 1:
            raw = raw.removeprefix("\ufeff")  # a byte-order mark (files saved by some Windows editors)
        text, hashed, comment = raw.partition("#")
        text = text.rstrip()
        stripped = text.lstrip()
        if hashed and not stripped and is_expectation(raw):  # a '#=' line: a whole-line comment
            if case is None:
                errors.append(CaseFileError(source, number, f"{EXPECT_MARK} line outside a case (expected it "
                                            "between CASE and END)"))
            else:
                try:
                    case.expected.append(parse_expectation(raw, number))
                except ValueError as exc:
                    case.errors.append(CaseFileError(source, number, str(exc)))
        if not stripped:
            self.blank = self.blank or not raw.strip()  # a comment line is not blank
            return
        blank_before, self.blank = self.blank, False
        indented = text[0] in " \t"
        if indented and _indented_keyword(stripped):
            text, indented = stripped, False  # a whole file pasted indented: keywords too
        if indented:  # a line of the open block
            if lines is None:
                errors.append(CaseFileError(source, number, f"unexpected indented line {stripped!r} (no open block)"))
            else:
                lines.add(number, stripped, blank_before, comment.strip())
            return
        words = text.split()
        keyword = words[0].upper()
        if lines is not None and not _is_keyword(words[0]):
            # a data line pasted flush-left (as from a forum): a line of the open block
            lines.add(number, text.strip(), blank_before)
            return
        self.lines = None
        if keyword == "VARIANT_ALL":
            self.variant = " ".join(words[1:]) or "Standard"
        elif keyword == "CASE":
            if case is not None:
                case.errors.append(CaseFileError(source, case.line, f"case {case.id} has no END"))
                self.cases.append(case)
            if len(words) < 2:
                errors.append(CaseFileError(source, number, "CASE needs an id"))
                case = Case(f"{source}:{number}", "", source, number, self.variant, reader=self.reader)
                case.errors.append(CaseFileError(source, number, "CASE needs an id"))
            else:
                case = Case(words[1], " ".join(words[2:]), source, number, self.variant, reader=self.reader)
            self.case = case
        elif case is None:
            errors.append(CaseFileError(source, number, f"{keyword} outside a case (expected CASE or VARIANT_ALL)"))
        elif keyword == "END":
            self.cases.append(case)
            self.case = None
        elif keyword == "RULES":
            case.rules = words[1:]
        elif keyword == "PLAYERS":
            if len(words) != 2 or not re.fullmatch(r"[0-9]{1,3}", words[1]):
                case.errors.append(CaseFileError(source, number, f"PLAYERS needs one number, e.g. 'PLAYERS 6', "
                                                 f"found {' '.join(words[1:])[:20]!r}"))
            else:
                case.players, case.players_line = int(words[1]), number
        elif keyword == "PRESTATE_SETPHASE":
            case.phase_text, case.phase_line = " ".join(words[1:]), number
        elif keyword == "POSTSTATE_SAME":
            case.post_same = True
        elif keyword in BLOCKS:
            self.lines = case.blocks.setdefault(keyword, Lines())
        else:
            close = difflib.get_close_matches(keyword, KEYWORDS, n=1, cutoff=0.75)
            hint = f"did you mean {close[0]}?" if close else f"expected one of {', '.join(KEYWORDS)}"
            case.errors.append(UnknownKeywordError(source, number, f"unknown keyword {words[0]!r} ({hint})"))


def parse_phase(text: str) -> Phase:
    """``Spring 1901, Movement`` (also Fall/Autumn/Winter, Retreat(s), Adjustment(s)), or the
    short form ``--phase`` takes (``S1901M``, ``F1901R``, ``W1901A``). Raises ValueError."""
    try:
        return Phase.parse(text)
    except ValueError:
        raise ValueError(f"phase {text!r}: expected e.g. 'Spring 1901, Movement' or S1901M, F1901R, W1901A") from None


_UNIT_LETTERS = {kind.value: kind for kind in UnitKind}
_CANONICAL_UNIT = re.compile(r"([A-Z][a-z]+): ([AFW]) ([a-z]{3}(?:/[a-z]{2})?)")
"""A unit line as dipsat writes it (``England: F stp/sc``, :func:`format_unit_line`)."""


def parse_unit_line(text: str, variant: Variant, placement: bool = True) -> Unit:
    """``England: F nth`` -> Unit. Raises ValueError/NotationError.

    With ``placement=False`` (ownership lines) the unit letter means nothing and may be left
    out (``France: par``); the unit returned is then an army, which only says where."""
    canonical = _CANONICAL_UNIT.fullmatch(text)  # most lines: read as below, without the lenient steps
    power = variant.power_names.get(canonical[1].lower()) if canonical is not None else None
    if canonical is not None and power is not None:
        kind = _UNIT_LETTERS[canonical[2]]
        where = canonical[3]
    else:
        power_text, sep, rest = text.partition(":")
        if not sep:  # lenient: "Italy F gol" without the colon
            power_text, _, rest = text.strip().partition(" ")
        power = variant.power_named(power_text.strip())
        if power is None:
            raise ValueError(f"{text!r}: expected 'Power: A|F|W location', unknown power {power_text.strip()!r}")
        parts = rest.split(None, 1)
        letter = _UNIT_LETTERS.get(parts[0].upper()) if len(parts) == 2 else None
        if letter is None and not placement:  # an owner needs no unit letter: 'France: par'
            try:
                return Unit(power, UnitKind.ARMY, Location(parse_location(rest, variant).province))
            except NotationError as exc:
                raise ValueError(f"{text!r}: expected 'Power: centre' (or 'Power: A|F|W centre'): {exc.expected}, "
                                 f"found {exc.found!r}" + (f"; {exc.hint}" if exc.hint else "")) from None
        if letter is None:
            raise ValueError(f"{text!r}: expected a unit 'A|F|W location' after the power")
        kind, where = letter, parts[1]
    location = parse_location(where, variant)
    if kind is not UnitKind.FLEET or not placement:
        if location.coast is not None:
            location = Location(location.province)
        if not placement:
            return Unit(power, kind, location)  # a coast means nothing for an army (DATC 4.B.6)
    elif location.coast is None and variant.map.provinces[location.province].coasts:
        raise ValueError(f"{text!r}: a fleet in {location.province} needs its coast (e.g. {location.province}/"
                         f"{variant.map.provinces[location.province].coasts[0]})")
    if not variant.map.can_occupy(kind, location):
        raise ValueError(f"{text!r}: {kind} cannot stand in {location}")
    return Unit(power, kind, location)


def format_unit_line(unit: Unit) -> str:
    return str(unit)  # `Power: K loc`, the unit's own notation


def case_variant(variant: Variant) -> str:
    """The ``VARIANT_ALL`` name of a variant: ``Standard`` (``DATC_Standard`` with wings),
    ``Modern``."""
    if variant.name == "standard":
        return "DATC_Standard" if variant.wings else "Standard"
    return variant.name.capitalize()


def write_case(handle: TextIO, case_id: str, phase: Phase, units: list[Unit], orders: list[str],
               after: list[Unit] | None, dislodged: Sequence[Unit] = (), owners: list[tuple[str, str]] | None = None,
               rules: str | None = None, title: str = "", prestate_dislodged: Sequence[Unit] = (),
               prestate_results: Sequence[str] = (), players: int | None = None,
               retreats: Mapping[Unit, Sequence[Location]] | None = None,
               post_owners: Sequence[tuple[str, str]] | None = None,
               results: Mapping[int, Sequence[str]] | None = None) -> None:
    """Write one case (strict: canonical abbreviations, tabs, every block named). With
    `retreats`, each ``POSTSTATE_DISLODGED`` line it names carries the unit's retreat options
    as a comment (:data:`~.case_comments.RETREATS_COMMENT`); with `post_owners` (centre, power), a
    ``POSTSTATE_SUPPLYCENTER_OWNERS`` block is written; with `results` (order index ->
    the outcomes allowed), those orders carry them as a comment (:data:`~.case_comments.RESULT_COMMENT`)."""
    out = [f"CASE {case_id}" + (f" {title}" if title else "")]
    if rules:
        out.append(f"RULES {rules}")
    if players is not None:
        out.append(f"PLAYERS {players}")
    out.append(f"PRESTATE_SETPHASE {phase}")
    if owners is not None:
        out.append("PRESTATE_SUPPLYCENTER_OWNERS")
        out += [f"\t{power}: A {centre}" for centre, power in sorted(owners)]
    out.append("PRESTATE")
    out += [f"\t{format_unit_line(u)}" for u in units]
    if prestate_dislodged:
        out.append("PRESTATE_DISLODGED")
        out += [f"\t{format_unit_line(u)}" for u in prestate_dislodged]
    if prestate_results:
        out.append("PRESTATE_RESULTS")
        out += [f"\t{line}" for line in prestate_results]
    out.append("ORDERS")
    out += [f"\t{o}" + (f"    {format_result_comment(results[k])}" if results and k in results else "")
            for k, o in enumerate(orders)]
    if after is not None:
        out.append("POSTSTATE")
        out += [f"\t{format_unit_line(u)}" for u in after]
        if dislodged:
            out.append("POSTSTATE_DISLODGED")
            out += [f"\t{format_unit_line(u)}" + (f"    {format_retreats_comment(retreats[u])}"
                                                   if retreats is not None and u in retreats else "")
                    for u in dislodged]
        if post_owners is not None:
            out.append("POSTSTATE_SUPPLYCENTER_OWNERS")
            out += [f"\t{power}: A {centre}" for centre, power in sorted(post_owners)]
    out.append("END")
    handle.write("\n".join(out) + "\n")


__all__ = ["KEYWORDS", "Case", "CaseLine", "LineReader", "Lines", "UnknownKeywordError", "case_variant", "format_unit_line",
           "parse_phase", "parse_unit_line", "read_case_text", "read_cases", "resolve_variant", "write_case"]
