"""Order notation: parse and print every order kind, in one module.

Reads what players and other programs write: full names and abbreviations in
any case (English, the 2000 rulebook's, German and Dutch aliases from the map),
``-``/``->``/``–``/``→``/``to``, ``H``/``hold``/``XXX``/``houdt stand``/``A Pru-XXX``,
``S``/``supports``, ``C``/``convoys``, ``via convoy``, coasts as ``spa/nc``, ``spa nc``,
``spa(nc)``, ``Spa-nc``, ``Spain (north coast)``, ``Spanien-Nordküste``, power prefixes
``England:``/``ENG:``, nationality in supports (``S Turkish F con - bul``), and order
lists as people paste them: a power's name alone on a line (``Germany:``, the DATC's
layout; ``GROSS-BRITANNIEN:``, the rulebooks') gives that power to the orders under it,
and a line may hold several orders (``A Par - Bur, F Bre - Mao``). Syntax needs no
position; errors are :class:`~dipsat.errors.NotationError`
naming the text, the column and what was expected, with "did you mean" for a
misspelt province or power. Which orders are *legal* is not decided here (DATC
4.E.1): an order naming an impassable province (Switzerland) is read, and the
adjudicator finds it illegal.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import TypeVar

from .board import Location, PhaseKind, Power, UnitKind
from .errors import NotationError, UnknownNameError
from .maps import Variant, fold
from .orders import (Build, Convoy, Disband, Hold, Move, Order, Remove, Retreat, SupportHold,
                     SupportMove, UnitRef, Waive)

__all__ = ["parse_order", "parse_orders", "parse_order_lines", "power_header", "split_order_line", "RejectedOrder",
           "format_order", "parse_location", "format_unit_ref"]

_T = TypeVar("_T")

_KINDS = {
    "a": UnitKind.ARMY, "army": UnitKind.ARMY, "armee": UnitKind.ARMY, "leger": UnitKind.ARMY,
    "f": UnitKind.FLEET, "fleet": UnitKind.FLEET, "flotte": UnitKind.FLEET, "vloot": UnitKind.FLEET,
    "w": UnitKind.WING, "wing": UnitKind.WING,
}
_HOLD = {"h", "hold", "holds", "xxx", "stand", "stands", "halt", "halten", "hält", "halt", "houdt", "blijft",
         "standhouden"}
_STAND = {"stand"}  # the second word of a two-word hold: Dutch 'houdt stand' (002), German 'hält stand'

_SUPPORT = {"s", "support", "supports", "sup", "u", "unterstutzt", "unterstuetzt", "unterstutzen", "st", "steunt", "ondersteunt"}
_CONVOY = {"c", "convoy", "convoys", "k", "konvoi", "konvoiert", "konvoiiert", "transportiert", "convoieert"}
_MOVE_WORDS = {"to", "m", "moves", "move", "nach", "naar"}
_RETREAT = {"r", "retreat", "retreats"}
_DISBAND = {"d", "disband", "disbands", "auflosen", "opheffen"}
_BUILD = {"b", "build", "builds", "baue", "bauen", "bouw", "bouwt"}
_REMOVE = {"remove", "removes"}
_WAIVE = {"waive", "waives", "verzicht", "verzichtet"}
_VIA = {"via", "by"}
_CONVOY_WORD = {"convoy", "konvoi"}
_ARROWS = ("->", "=>", "-", "–", "—", ">", "→")

# Characters that end a word: 'vie=>bud' and 'spa(nc)' are read as several tokens.
_BREAKS = r"\s\-–—>→=:/(),"
_TOKEN = re.compile(rf"\s*(?:(->|=>|[{_BREAKS}])|([^{_BREAKS}]+))")
_WORD_END = re.compile(rf"(?=[{_BREAKS}]|$)")


@dataclass
class _Cursor:
    """Reading position in one line of text."""

    text: str
    pos: int = 0

    def skip_space(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def at_end(self) -> bool:
        self.skip_space()
        return self.pos >= len(self.text)

    def peek(self) -> str:
        """The next token (punctuation or word), folded; '' at the end."""
        m = _TOKEN.match(self.text, self.pos)
        if not m or m.end() == self.pos:
            return ""
        return fold(m.group(1) or m.group(2))

    def take(self) -> str:
        m = _TOKEN.match(self.text, self.pos)
        if not m or m.end() == self.pos:
            return ""
        self.pos = m.end()
        return fold(m.group(1) or m.group(2))

    def accept(self, words: Iterable[str]) -> str | None:
        word = self.peek()
        if word and word in words:
            self.take()
            return word
        return None

    def error(self, expected: str, cls: type[NotationError] = NotationError, hint: str = "") -> NotationError:
        self.skip_space()
        return cls(self.text, self.pos, expected, hint=hint)


class _Parser:
    def __init__(self, text: str, variant: Variant, lenient_powers: bool = False) -> None:
        self.cur = _Cursor(text)
        self.variant = variant
        self.lenient_powers = lenient_powers  # a near-miss of a power's name is that power (case files)
        self.map = variant.map
        self._found: dict[tuple[int, int, int], tuple[object, int] | None] = {}  # lookups asked again

    # --- names ---------------------------------------------------------------
    def _longest(self, table: Mapping[str, _T], max_words: int = 6) -> tuple[_T, int] | None:
        """Longest alias from `table` at the cursor; returns (value, end)."""
        cur = self.cur
        cur.skip_space()
        key = (id(table), cur.pos, max_words)
        if key in self._found:
            return self._found[key]  # type: ignore[return-value]  # cached per table: the table's value type
        start, text = cur.pos, cur.text
        ends = {m.start() for m in _WORD_END.finditer(text, start, start + 60)}
        best = None
        for end in sorted(ends, reverse=True):
            if end == start:
                continue
            candidate = fold(text[start:end])
            if candidate.count(" ") >= max_words:
                continue
            if candidate in table:
                best = (table[candidate], end)
                break
        self._found[key] = best
        return best

    def power_prefix(self) -> Power | None:
        save = self.cur.pos
        found = self._longest(self.variant.power_names)
        if found is not None:
            power, end = found
            self.cur.pos = end
            if self.cur.accept({":"}):
                return power
        self.cur.pos = save
        head, colon, _ = self.cur.text[save:].partition(":")
        if colon and head.strip().isalpha():  # a misspelt power ("Germnay:"): never guessed, a suggestion
            near = self.variant.power_named(head.strip())
            if near is not None and self.lenient_powers:  # case files in the wild: "Germnay:" is Germany
                self.cur.pos = save + len(head) + 1
                return near
            if near is not None:
                raise self.cur.error("a power name", UnknownNameError, f"did you mean {near}?")
        return None

    def nationality(self) -> Power | None:
        save = self.cur.pos
        found = self._longest(self.variant.power_names)
        place = self._longest(self.map.province_names)
        if found is not None:
            power, end = found
            self.cur.pos = end
            self.cur.accept({":"})
            nxt = self.cur.peek()
            # A province name that merely starts with a nationality is the province:
            # 'English Channel' is eng, not English + 'Channel' (also an alias of eng).
            # 'ENG F lon' is a nationality: a unit kind follows.
            whole_name = place is not None and place[1] > end
            if nxt in _KINDS or (not whole_name and self._longest(self.map.province_names) is not None):
                return power
        self.cur.pos = save
        return None

    def location(self, impassable: bool = True) -> Location:
        """A province (with its coast). An impassable area (Switzerland) is read as a
        location of its own when `impassable`: the order naming it is illegal (DATC 4.E.1)."""
        found = self._longest(self.map.province_names)
        if found is None:
            closed = self._longest(self.map.impassable)
            if closed is not None and impassable:
                self.cur.pos = closed[1]
                return Location(closed[0])
            if closed is not None:
                raise self.cur.error(f"a province ({self.map.province_title(closed[0])} is impassable)",
                                     UnknownNameError)
            raise self.cur.error("a province name or abbreviation", UnknownNameError, self._province_hint())
        pid, end = found
        self.cur.pos = end
        return Location(pid, self.coast(pid))

    def _province_hint(self) -> str:
        """'did you mean North Sea (nth)?' for a misspelt province name at the cursor."""
        cur = self.cur
        cur.skip_space()
        words = re.match(r"[^\-–—>→=:/(),]*", cur.text[cur.pos:]).group().split()[:4]  # type: ignore[union-attr]
        names = {**self.map.province_names, **self.map.impassable}
        for n in range(len(words), 0, -1):
            close = difflib.get_close_matches(fold(" ".join(words[:n])), list(names), n=3, cutoff=0.75)
            if close:
                ids = list(dict.fromkeys(names[c] for c in close))
                return "did you mean " + " or ".join(f"{self.map.province_title(p)} ({p})" for p in ids) + "?"
        return ""

    def coast(self, pid: str) -> str | None:
        cur = self.cur
        save = cur.pos
        opened = cur.accept({"(", "/"})
        if opened:
            found = self._longest(self.map.coast_names, 3)
            if found is None:
                raise cur.error("a coast (nc, sc, ec, north coast ...)", UnknownNameError)
            coast, end = found
            cur.pos = end
            if opened == "(" and not cur.accept({")"}):
                raise cur.error("')'")
        else:
            if not self.map.provinces[pid].coasts:
                return None  # a coast written as a word only follows a province that has coasts
            if cur.peek() in ("-", "–"):  # 'Spanien-Nordküste' (the German e-mail rules, 001), 'Spa-nc'
                return self._dashed_coast(pid)
            found = self._longest(self.map.coast_names, 3)
            if found is None or len(fold(cur.text[cur.pos:found[1]])) < 2:
                cur.pos = save
                return None
            coast, end = found
            cur.pos = end
        # DATC 4.B.6 (choice b): an unknown or irrelevant coast is ignored.
        return coast if coast in self.map.provinces[pid].coasts else None

    def _dashed_coast(self, pid: str) -> str | None:
        """A coast joined to its province by a dash (``Spa-nc``): read as the coast only when
        a coast's name follows and no province's name as long (``spa - North Sea`` is a move)."""
        cur = self.cur
        save = cur.pos
        cur.take()
        coast = self._longest(self.map.coast_names, 3)
        place = self._longest(self.map.province_names)
        if coast is None or len(fold(cur.text[cur.pos:coast[1]])) < 2 or (place is not None and place[1] >= coast[1]):
            cur.pos = save
            return None
        cur.pos = coast[1]
        # DATC 4.B.6 (choice b): an unknown or irrelevant coast is ignored.
        return coast[0] if coast[0] in self.map.provinces[pid].coasts else None

    def unit_ref(self, allow_power: bool = False) -> UnitRef:
        power = self.nationality() if allow_power else None
        kind = _KINDS.get(self.cur.peek())
        if kind is not None:
            save = self.cur.pos
            self.cur.take()
            if self._longest(self.map.province_names) is None:
                after, self.cur.pos = self.cur.pos, save
                if self._longest(self.map.province_names) is None:
                    self.cur.pos = after  # neither reading works: the error names what follows the kind
                else:
                    kind = None  # the letter was a province after all
        return UnitRef(self.location(), kind, power)

    # --- orders --------------------------------------------------------------
    def order(self, phase: PhaseKind | None) -> Order:
        power = self.power_prefix()
        try:
            return self._order(power, phase)
        except NotationError as exc:
            head, colon, _ = self.cur.text.partition(":")
            if power is None and colon and exc.position <= len(head) and _WORDS.fullmatch(head.strip()):
                # 'Itly: A ven H': a power's name before the colon, misspelt
                start = len(head) - len(head.lstrip())
                raise UnknownNameError(self.cur.text, start, "a power's name before ':'", head.strip(),
                                       _power_hint(head, self.variant)) from None
            raise

    def _order(self, power: Power | None, phase: PhaseKind | None) -> Order:
        cur = self.cur
        if cur.at_end():
            raise cur.error("an order")
        head = cur.peek()
        if head in _WAIVE:
            cur.take()
            return self.end(Waive(power))
        if head in _BUILD:
            cur.take()
            ref = self.unit_ref()
            return self.end(Build(ref.location, ref.kind, power))
        if head in _REMOVE or (head in _DISBAND and head != "d"):
            cur.take()
            ref = self.unit_ref()
            return self.end(self.removal(head, ref, power, phase))
        unit = self.unit_ref()
        return self.end(self.action(unit, power, phase))

    def action(self, unit: UnitRef, power: Power | None, phase: PhaseKind | None) -> Order:
        cur = self.cur
        if cur.at_end():
            return Hold(unit, power)  # a bare unit holds
        word = cur.peek()
        if word in _HOLD:
            cur.take()
            cur.accept(_STAND)
            return Hold(unit, power)
        if word in _SUPPORT:
            cur.take()
            target = self.unit_ref(allow_power=True)
            if self.arrow():
                return SupportMove(unit, target, self.location(), power)
            cur.accept(_HOLD)
            return SupportHold(unit, target, power)
        if word in _CONVOY:
            cur.take()
            target = self.unit_ref(allow_power=True)
            if not self.arrow():
                raise cur.error("'-' and the convoy's destination")
            return Convoy(unit, target, self.location(), power)
        if word in _DISBAND or word in _REMOVE:
            cur.take()
            return self.removal(word, unit, power, phase)
        if word in _BUILD:
            cur.take()
            return Build(unit.location, unit.kind, power)
        if word in _RETREAT:
            cur.take()
            self.arrow()
            return Retreat(unit, self.location(), power)
        if self.arrow():
            if cur.peek() in _HOLD and self._longest(self.map.province_names) is None:
                cur.take()  # 'A Pru-XXX': the German rulebook's hold (000, figures 7 and 9)
                cur.accept(_STAND)
                return Hold(unit, power)
            dest = self.location()
            via = False
            path: list[str] = []
            while self.arrow():  # DATC 4.A.6: a convoy path written out; the last is the destination
                path.append(dest.province)
                dest, via = self.location(), True
            if cur.accept(_VIA):
                if not cur.accept(_CONVOY_WORD):  # 'via' alone is not an order: 'via convoy'
                    raise cur.error("'convoy' after 'via'")
                via = True
            if phase is PhaseKind.RETREAT:
                return Retreat(unit, dest, power)
            return Move(unit, dest, via, power, tuple(path))
        raise cur.error("an order (H, -, S, C, R, D, Build, Remove)")

    @staticmethod
    def removal(word: str, unit: UnitRef, power: Power | None, phase: PhaseKind | None) -> Order:
        """'Disband'/'Remove': a retreat-phase disband or an adjustment-phase removal.
        The phase decides (a unit disbanded in winter is removed); without one, the word."""
        if phase is PhaseKind.RETREAT:
            return Disband(unit, power)
        if phase is PhaseKind.ADJUSTMENT or word in _REMOVE:
            return Remove(unit, power)
        return Disband(unit, power)

    def arrow(self) -> bool:
        cur = self.cur
        word = cur.peek()
        if word in _ARROWS:
            cur.take()
            return True
        if word in _MOVE_WORDS:
            cur.take()
            cur.accept({"to"})
            return True
        return False

    def end(self, order: Order) -> Order:
        if not self.cur.at_end():
            raise self.cur.error("end of order")
        return order


_WORDS = re.compile(r"[^\W\d_]+(?:[ .'’-]+[^\W\d_]+)*")


def _power_hint(text: str, variant: Variant) -> str:
    names = ({fold(p.name): p.name for p in variant.powers} | {fold(p.adjective): p.name for p in variant.powers}
             | dict(variant.power_names))  # 'GROSS-BRITANIEN' is near an alias ('Groß-Britannien') only
    close = difflib.get_close_matches(fold(text), list(names), n=2, cutoff=0.6)
    return ("did you mean " + " or ".join(dict.fromkeys(names[c] for c in close)) + "?") if close else ""


def parse_order(text: str, variant: Variant, phase: PhaseKind | None = None, *,
                lenient_powers: bool = False) -> Order:
    """Parse one order. `phase` decides what ``A par - bur`` and ``D`` mean. A misspelt
    power's name (``Germnay:``) is an error suggesting the power, or with `lenient_powers`
    (case files, read leniently) that power.

    :raises NotationError: the text is not an order of this map.
    """
    text = _strip_comment(text)
    return _canonical_order(text.strip(), variant, phase) or _Parser(text, variant, lenient_powers).order(phase)


_LOC = r"[a-z]{3}(?:/[a-z]{2})?"
_CANONICAL = re.compile(
    rf"^(?:([A-Z][a-z]+): )?([AFW]) ({_LOC})(?: (H|D)| - ({_LOC})( via convoy)?| R ({_LOC})"
    rf"| ([SC]) ([AFW]) ({_LOC})(?: - ({_LOC}))?)$")


def _canonical_order(text: str, variant: Variant, phase: PhaseKind | None) -> Order | None:
    """The orders :func:`format_order` writes (``England: F lon - nth``, ``A par S A bur - mun``),
    read without the lenient parser; None for anything else (it then reads the text)."""
    m = _CANONICAL.match(text)
    if m is None:
        return None
    power_name, kind, where, hold, dest, via, retreat, action, tkind, target, tdest = m.groups()
    power = None
    if power_name is not None:
        power = power_name if power_name in variant.power_names.values() else None
        if power is None:
            return None
    locs = [_canonical_location(x, variant) for x in (where, dest, retreat, target, tdest)]
    if any(x is not None and loc is None for x, loc in zip((where, dest, retreat, target, tdest), locs)):
        return None
    unit = UnitRef(locs[0], _KINDS[kind.lower()])  # type: ignore[arg-type]
    if hold == "H":
        return Hold(unit, power)
    if hold == "D":
        return Remove(unit, power) if phase is PhaseKind.ADJUSTMENT else Disband(unit, power)
    if dest is not None:
        if phase is PhaseKind.RETREAT:
            return Retreat(unit, locs[1], power)  # type: ignore[arg-type]
        return Move(unit, locs[1], via is not None, power)  # type: ignore[arg-type]
    if retreat is not None:
        return Retreat(unit, locs[2], power)  # type: ignore[arg-type]
    other = UnitRef(locs[3], _KINDS[tkind.lower()])  # type: ignore[arg-type]
    if action == "C":
        return Convoy(unit, other, locs[4], power) if locs[4] is not None else None
    return SupportMove(unit, other, locs[4], power) if locs[4] is not None else SupportHold(unit, other, power)


def _canonical_location(text: str | None, variant: Variant) -> Location | None:
    """A location written as its id (``par``, ``stp/sc``) on this map, else None."""
    if text is None:
        return None
    province, _, coast = text.partition("/")
    prov = variant.map.provinces.get(province)
    if prov is None or (coast and coast not in prov.coasts):
        return None
    return Location(province, coast or None)


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
                      lenient_powers: bool = False) -> tuple[list[Order], list[NotationError]]:
    """:func:`parse_orders` for numbered lines (a blank text is a blank line); `lenient_powers`
    as in :func:`parse_order`."""
    orders: list[Order] = []
    errors: list[NotationError] = []
    header: Power | None = None
    unread: tuple[int, NotationError] | None = None  # the heading that names no power, and its line
    broken: tuple[str, NotationError] | None = None  # the line before, words only and not read ('DEUTSCHES')
    for number, line in lines:
        body = _strip_comment(line)
        before, broken = broken, None
        if not body.strip():
            if not line.strip():
                header, unread = None, None  # a blank line ends a power's block; a comment line does not
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
                if len(pieces) == 1 and _WORDS.fullmatch(body.strip().rstrip("-")):
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
    depth, start = 0, 0
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
    for colon in (m.start() for m in re.finditer(":", text)):
        starts = [m.start() for m in re.finditer(r"(?<!\S)\S", text[:colon])]
        for begin in starts:  # the longest power's name ending at the colon
            if fold(text[begin:colon]) in variant.power_names:
                if text[:begin].strip():
                    cuts.append(begin)
                break
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
    text = _strip_comment(line).strip()
    if not text:
        return None
    if text[-1] != ":":
        power = variant.power_names.get(fold(text))
        if power is None and _WORDS.fullmatch(text) and variant.power_named(text) is not None:
            if lenient_powers:
                return variant.power_named(text)
            raise UnknownNameError(line, line.index(text), "a power's name", text, _power_hint(text, variant))
        return power
    parser = _Parser(text, variant, lenient_powers)
    power = parser.power_prefix()
    if power is None:  # a heading naming no power: 'Germnay:', 'Nowhere:', 'England (Tom):', 'Spring 1901:'
        head = text[:-1].strip()
        raise UnknownNameError(line, line.index(text), "a power's name", head, _power_hint(head, variant))
    return power if power is not None and parser.cur.at_end() else None


def parse_location(text: str, variant: Variant) -> Location:
    """A location of a position (a unit's place): an impassable area is an error here."""
    known = _canonical_location(text.strip(), variant)
    if known is not None:
        return known
    parser = _Parser(text, variant)
    loc = parser.location(impassable=False)
    parser.end(None)  # type: ignore[arg-type]
    return loc


def _strip_comment(text: str) -> str:
    return text.split("#", 1)[0]


# --- printing -------------------------------------------------------------------


def format_unit_ref(ref: UnitRef) -> str:
    parts = [ref.power] if ref.power else []
    if ref.kind is not None:
        parts.append(str(ref.kind))
    parts.append(str(ref.location))
    return " ".join(parts)


def format_order(order: Order, with_power: bool = True) -> str:
    """Canonical text of an order; :func:`parse_order` reads it back unchanged."""
    body = _body(order)  # TypeError for anything but an order
    prefix = f"{order.power}: " if with_power and order.power else ""
    return prefix + body


def _body(order: Order) -> str:
    match order:
        case Hold(unit=u):
            return f"{format_unit_ref(u)} H"
        case Move(unit=u, dest=d, via_convoy=via, path=path) if path:
            return f"{format_unit_ref(u)} - " + " - ".join([*path, str(d)])
        case Move(unit=u, dest=d, via_convoy=via):
            return f"{format_unit_ref(u)} - {d}" + (" via convoy" if via else "")
        case SupportHold(unit=u, target=t):
            return f"{format_unit_ref(u)} S {format_unit_ref(t)}"
        case SupportMove(unit=u, target=t, dest=d):
            return f"{format_unit_ref(u)} S {format_unit_ref(t)} - {d}"
        case Convoy(unit=u, target=t, dest=d):
            return f"{format_unit_ref(u)} C {format_unit_ref(t)} - {d}"
        case Retreat(unit=u, dest=d):
            return f"{format_unit_ref(u)} R {d}"
        case Disband(unit=u):
            return f"{format_unit_ref(u)} D"
        case Build(location=loc, kind=k):
            return f"Build {k} {loc}" if k else f"Build {loc}"
        case Remove(unit=u):
            return f"Remove {format_unit_ref(u)}"
        case Waive():
            return "Waive"
    raise TypeError(f"not an order: {order!r}")
