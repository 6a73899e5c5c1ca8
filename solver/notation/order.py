"""One order: read it (:func:`parse_order`, :func:`parse_location`) and print it
(:func:`format_order`). The words, the spellings and the errors are those
:mod:`dipsat.notation` describes."""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Generic, TypeVar

from ..board import Location, PhaseKind, Power, UnitKind
from ..errors import NotationError, UnknownNameError
from ..maps import Variant, fold
from ..orders import (Build, Convoy, Disband, Hold, Move, Order, Remove, Retreat, SupportHold,
                      SupportMove, UnitRef, Waive)

__all__ = ["parse_order", "parse_location", "format_order", "format_unit_ref", "power_hint", "strip_comment",
           "CanonicalOrders", "VariantTables",
           "WORD_RUN", "Parser"]

_T = TypeVar("_T")
_K = TypeVar("_K")

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


class Parser:
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
            if power is None and colon and exc.position <= len(head) and WORD_RUN.fullmatch(head.strip()):
                # 'Itly: A ven H': a power's name before the colon, misspelt
                start = len(head) - len(head.lstrip())
                raise UnknownNameError(self.cur.text, start, "a power's name before ':'", head.strip(),
                                       power_hint(head, self.variant)) from None
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


WORD_RUN = re.compile(r"[^\W\d_]+(?:[ .'’-]+[^\W\d_]+)*")


def power_hint(text: str, variant: Variant) -> str:
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
    text = strip_comment(text)
    return _canonical_order(text.strip(), variant, phase) or Parser(text, variant, lenient_powers).order(phase)


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
    power, kind, where, hold, dest, via, retreat, action, tkind, target, tdest = m.groups()
    if power is not None and variant.power_names.get(power.lower()) != power \
            and power not in variant.power_names.values():  # the first test: a power's own name, most lines
        return None
    locate = variant.map.location  # each group of the branch matched is a location id of the map, else None
    loc = locate(where)
    if loc is None:
        return None
    unit = UnitRef(loc, _LETTERS[kind])
    if hold == "H":
        return Hold(unit, power)
    if hold == "D":
        return Remove(unit, power) if phase is PhaseKind.ADJUSTMENT else Disband(unit, power)
    if dest is not None or retreat is not None:
        to = locate(dest if dest is not None else retreat)
        if to is None:
            return None
        if dest is None or phase is PhaseKind.RETREAT:
            return Retreat(unit, to, power)
        return Move(unit, to, via is not None, power)
    at = locate(target)
    to = None if tdest is None else locate(tdest)
    if at is None or (tdest is not None and to is None):
        return None
    other = UnitRef(at, _LETTERS[tkind])
    if action == "C":
        return Convoy(unit, other, to, power) if to is not None else None
    return SupportMove(unit, other, to, power) if to is not None else SupportHold(unit, other, power)


_LETTERS = {"A": UnitKind.ARMY, "F": UnitKind.FLEET, "W": UnitKind.WING}
"""The unit letters :func:`format_order` writes."""


class VariantTables(Generic[_K, _T]):
    """One table a variant, for what a reader makes of a variant and a key (a cache kept by
    whoever reads many lines, such as a run of case files; never module-level). A Variant is
    unhashable: its table is found by identity, else by equality (an equal variant reads
    alike; ``DATC_Standard`` is made anew for each case), the newest object kept."""

    __slots__ = ("_tables",)

    def __init__(self) -> None:
        self._tables: list[tuple[Variant, dict[_K, _T]]] = []

    def __reduce__(self) -> tuple[Callable[[], object], tuple[()]]:
        return type(self), ()  # a cache: sent to another process, it arrives empty

    def of(self, variant: Variant) -> dict[_K, _T]:
        for known, table in self._tables:
            if known is variant:
                return table
        for k, (known, table) in enumerate(self._tables):
            if known == variant:
                self._tables[k] = (variant, table)  # found by identity next time
                return table
        self._tables.append((variant, {}))
        return self._tables[-1][1]


class CanonicalOrders:
    """:func:`_canonical_order` of each text once per variant and phase kind: for order lists
    that repeat their orders (the corpus's cases: 53,436 order lines, 9,078 texts)."""

    __slots__ = ("_tables",)

    def __init__(self) -> None:
        self._tables: VariantTables[tuple[str, PhaseKind | None], Order | None] = VariantTables()

    def read(self, text: str, variant: Variant, phase: PhaseKind | None) -> Order | None:
        table = self._tables.of(variant)
        key = (text, phase)
        if key in table:
            return table[key]
        order = table[key] = _canonical_order(text, variant, phase)
        return order


def _canonical_location(text: str | None, variant: Variant) -> Location | None:
    """A location written as its id (``par``, ``stp/sc``) on this map, else None."""
    return None if text is None else variant.map.location(text)


def parse_location(text: str, variant: Variant) -> Location:
    """A location of a position (a unit's place): an impassable area is an error here."""
    known = _canonical_location(text.strip(), variant)
    if known is not None:
        return known
    parser = Parser(text, variant)
    loc = parser.location(impassable=False)
    parser.end(None)  # type: ignore[arg-type]
    return loc


def strip_comment(text: str) -> str:
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
