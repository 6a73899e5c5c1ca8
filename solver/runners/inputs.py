"""The inputs of a validation run, and the judging of one: recorded games (saved games of the
``diplomacy`` package, ``.json`` / ``.jsonl``; Droidippy/godip histories), jDip/DATC case
files, any of them gzipped, and folders and ``.zip`` / ``.tar`` (``.tar.gz``, ``.tgz``)
archives of them (:mod:`dipsat.runners.archives`), cut into :class:`Item` values
(one game, one corrupt line, one case), each judged by the pure function
:func:`validate_item`: a process pool (or Dask) maps it, and ``dipsat validate``
(:mod:`dipsat.cli.validate`) writes the reports in input order.
"""

from __future__ import annotations

import codecs
import hashlib
import io
import json
import tarfile
import zipfile
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..rules import Rules
from .archives import Member, iter_members
from .inference import Inference

if TYPE_CHECKING:
    from ..formats.casefile import Case
    from .validate import GameReport, Retained

__all__ = ["Item", "Judging", "iter_items", "input_files", "validate_item", "report_line",
           "printable", "GAME_SUFFIXES", "CASE_SUFFIXES"]

GAME_SUFFIXES = (".json", ".jsonl")  # each also gzipped (.gz), in folders and archives (runners/archives.py)
CASE_SUFFIXES = (".txt", ".case", ".dat")  # godip histories or case files


@dataclass(frozen=True)
class Item:
    """One unit of work: a game's JSON text, a case, or an input that could not be read."""

    source: str  # "path" or "path:line"
    kind: str  # "game", "case", "unreadable"
    text: str = ""  # game: the JSON text; unreadable: why
    case: Case | None = field(default=None, compare=False)

    @property
    def digest(self) -> str:
        """A fingerprint of what is judged (the record, or the case as written, not where it
        is): ``--resume`` checks that a record of the report is the input judged before."""
        if self.case is not None:
            c = self.case
            content = repr((c.id, c.title, c.variant_name, c.rules, c.players, c.phase_text, c.post_same,
                            sorted((name, [(line.text, line.blank_before) for line in lines])
                                   for name, lines in c.blocks.items()), [e.message for e in c.errors]))
        else:
            content = f"{self.kind}\0{self.text}"
        return hashlib.sha256(content.encode("utf-8", "surrogatepass")).hexdigest()[:16]


# --- inputs ------------------------------------------------------------------------------


def input_files(paths: Iterable[str], warnings: list[str] | None = None) -> Iterator[Member]:
    """Every file of the inputs (:func:`dipsat.runners.archives.iter_members`: files named,
    folders walked, gzipped files and archives opened, each file once)."""
    return iter_members(paths, warnings)


def iter_items(paths: Iterable[str], warnings: list[str] | None = None) -> Iterator[Item]:
    """Every game, case and unreadable piece of the inputs, in order; warnings (a file
    given twice) go to `warnings`."""
    for member in input_files(paths, warnings):
        if member.error:
            yield Item(member.name, "unreadable", member.error)
        elif member.suffix in CASE_SUFFIXES:
            yield from _text_items(member)
        elif member.suffix == ".jsonl":
            yield from _line_items(member)
        elif member.suffix == ".json":
            yield _whole_file_item(member)
        else:  # named explicitly with another suffix: sniff
            yield from _sniff(member)


def _decoded(raw: bytes, first: bool = True) -> tuple[str | None, str]:
    """UTF-8 text (a BOM that starts the file dropped), or None and why not."""
    try:
        return (raw.removeprefix(codecs.BOM_UTF8) if first else raw).decode("utf-8"), ""
    except UnicodeDecodeError as exc:
        return None, f"not UTF-8: byte 0x{raw[exc.start]:02x} at byte {exc.start + 1} ({exc.reason})"


_READ_ERRORS = (OSError, EOFError, zlib.error, zipfile.BadZipFile, tarfile.TarError)


def _line_items(member: Member) -> Iterator[Item]:
    """One item per line: lines are split on \n only (a lone CR stays inside its record)
    and decoded one by one, so a bad byte rejects its own line and no other."""
    number = 0
    try:
        with member.open() as handle:
            for number, raw in enumerate(handle, start=1):
                line, why = _decoded(raw, first=number == 1)
                if line is None:
                    yield Item(f"{member.name}:{number}", "unreadable", f"cannot read line {number}: {why}")
                elif line.strip():
                    yield Item(f"{member.name}:{number}", "game", line)
    except _READ_ERRORS as exc:
        yield Item(f"{member.name}:{number + 1}", "unreadable", f"cannot read the input after line {number}: "
                                                                f"{type(exc).__name__}: {exc}")


def _whole_file_item(member: Member) -> Item:
    try:
        text, why = _decoded(member.read())
    except _READ_ERRORS as exc:
        return Item(member.name, "unreadable", f"cannot read the input: {type(exc).__name__}: {exc}")
    return Item(member.name, "game", text) if text is not None else Item(member.name, "unreadable",
                                                                         f"cannot read the input: {why}")


def _text_items(member: Member, data: bytes | None = None) -> Iterator[Item]:
    """A ``.txt`` (``.case``, ``.dat``) file: a godip game history (its first line is
    ``PHASE ...``) or a case file."""
    from ..formats.godip import is_godip_history

    if data is None:
        try:
            data = member.read()
        except _READ_ERRORS as exc:
            yield Item(member.name, "unreadable", f"cannot read the input: {type(exc).__name__}: {exc}")
            return
    if is_godip_history(data):
        # lines that are not UTF-8 are kept (surrogates) and rejected on their own phase
        yield Item(member.name, "godip", data.decode("utf-8", errors="surrogateescape"))
    elif not data.strip(b" \t\r\n\xef\xbb\xbf"):  # nothing in it: counted, not lost
        yield Item(member.name, "unreadable", "an empty file (expected a godip game history or a case file)")
    else:
        yield from _case_items(member.name, data)


def _case_items(name: str, data: bytes) -> Iterator[Item]:
    """One item per case; the lines outside any case (if any) are one more, rejected."""
    from ..formats.casefile import read_cases
    from ..formats.textfile import decode_text

    cases, errors = read_cases(io.StringIO(decode_text(data, name)[0]), name)
    if errors:
        more = f" (and {len(errors) - 3} more)" if len(errors) > 3 else ""
        yield Item(f"{errors[0].source}:{errors[0].line}", "unreadable",
                   f"case file: {len(errors)} problem{'s' if len(errors) != 1 else ''} outside any case: "
                   + "; ".join(map(str, errors[:3])) + more)
    for case in cases:
        yield Item(f"{case.source}:{case.line}", "case", case.id, case)


def _sniff(member: Member) -> Iterator[Item]:
    try:
        data = member.read()
    except _READ_ERRORS as exc:
        yield Item(member.name, "unreadable", f"cannot read the input: {type(exc).__name__}: {exc}")
        return
    if data.removeprefix(codecs.BOM_UTF8).lstrip()[:1] == b"{":
        yield from _line_items(Member(member.name, ".jsonl", opener=lambda: io.BytesIO(data)))
    else:
        yield from _text_items(member, data)


# --- one item ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Judging:
    """How to judge: the rules asked for, whether they were named (case files otherwise
    follow their own RULES lines), whether to write disagreements as case files and to draw
    them (``--html``)."""

    rules: Rules
    named: bool = False
    cases: bool = False
    pictures: bool = False
    inference: Inference = Inference()  # what to do about rule readings (dipsat.runners.inference)
    retained: Retained | None = field(default=None, compare=False)
    """Records' judges kept between the passes of an archive run in this process (one
    worker; never sent to another process)."""


def validate_item(item: Item, rules: Rules | Judging) -> GameReport:
    """Judge one item; never raises (a pool can map this)."""
    from ..runners.validate import rejected_record, validate_godip, validate_retained, validate_text
    from .case_records import validate_case

    how = rules if isinstance(rules, Judging) else Judging(rules)
    if item.kind == "unreadable":
        return rejected_record(item.source, item.text, how.rules)
    if item.kind == "case":
        assert item.case is not None
        return validate_case(item.case, item.source, how.rules if how.named else None, how.pictures,
                             how.inference, how.rules)
    if how.retained is not None and (again := validate_retained(
            item.source, how.rules, how.retained, how.cases, pictures=how.pictures, inference=how.inference)):
        return again
    if item.kind == "godip":
        return validate_godip(item.text, item.source, how.rules, how.cases, pictures=how.pictures,
                              inference=how.inference, retained=how.retained)
    return validate_text(item.text, item.source, how.rules, how.cases, pictures=how.pictures,
                         inference=how.inference, retained=how.retained)


# --- report ---------------------------------------------------------------------------------


def printable(text: str) -> str:
    """`text` with each lone surrogate (a record's "\\ud800", a godip line that is not UTF-8)
    written as its escape ``\\ud800``: it can be printed and saved, and inside a JSON string
    it reads back as the same character."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def report_line(line: dict[str, Any]) -> str:
    return printable(json.dumps(line, sort_keys=True, ensure_ascii=False)) + "\n"
