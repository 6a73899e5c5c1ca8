"""Inputs as people keep archives: files, folders, gzipped files, ``.zip`` and ``.tar``
(``.tar.gz``, ``.tgz``) archives of folders, each cut into the files it holds.

:func:`iter_members` turns the paths of a run into :class:`Member` values, one per file:
a file on disk, or a member of an archive, read (and decompressed) only when asked for;
nothing is extracted to disk. What a member is comes from its name, as in a folder
(``.json``, ``.jsonl``, ``.txt``, ``.case``, ``.dat``, each optionally ``.gz``); a file
named on the command line whose name says nothing is sniffed by its reader. Any file that
starts with the gzip magic is read decompressed, whatever its name. A file reached twice
(a path given twice, a folder and a file inside it) is read once, with a warning.
"""

from __future__ import annotations

import gzip
import io
import tarfile
import zipfile
import zlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, cast

__all__ = ["Member", "iter_members", "read_named", "RECORD_SUFFIXES", "ARCHIVE_SUFFIXES", "record_suffix"]

RECORD_SUFFIXES = (".jsonl", ".json", ".txt", ".case", ".dat")
"""The files a folder or an archive contributes (each also gzipped, ``.gz``)."""
ARCHIVE_SUFFIXES = (".zip", ".tar", ".tar.gz", ".tgz")
GZIP_MAGIC = b"\x1f\x8b"
_MAX_DEPTH = 4  # archives inside archives, at most this deep


def record_suffix(name: str) -> str:
    """What a file is by its name: one of :data:`RECORD_SUFFIXES` (``.gz`` dropped), one
    of :data:`ARCHIVE_SUFFIXES`, or ``""``."""
    lower = name.lower()
    for suffix in ARCHIVE_SUFFIXES:
        if lower.endswith(suffix):
            return suffix
    lower = lower.removesuffix(".gz")
    return next((s for s in RECORD_SUFFIXES if lower.endswith(s)), "")


@dataclass(frozen=True)
class Member:
    """One file of the inputs: `name` as reports show it (``games.zip:2024/game_1.txt`` for
    a member of an archive), what it is by name (`suffix`, see :func:`record_suffix`),
    whether it was named itself (`named`: sniffed when its name says nothing), and how
    to read it; `error` when it cannot be read at all."""

    name: str
    suffix: str
    named: bool = False
    opener: Callable[[], IO[bytes]] | None = None
    error: str = ""

    def open(self) -> IO[bytes]:
        """Its bytes, decompressed when they are gzipped. :raises OSError: cannot be read."""
        assert self.opener is not None
        raw = io.BufferedReader(cast(io.RawIOBase, self.opener()))
        if raw.peek(2)[:2] == GZIP_MAGIC:
            return cast(IO[bytes], gzip.GzipFile(fileobj=raw, mode="rb"))
        return raw

    def read(self) -> bytes:
        with self.open() as handle:
            return handle.read()


def iter_members(paths: Iterable[str], warnings: list[str] | None = None) -> Iterator[Member]:
    """Every file of the inputs, in order: files as named, folders walked (sorted,
    recursive, the files :func:`record_suffix` knows), archives opened. A file reached a
    second time is skipped and a warning naming it goes to `warnings`."""
    seen: dict[Path, str] = {}
    for raw in paths:
        path = Path(raw)
        files = ([(p, False) for p in sorted(path.rglob("*")) if p.is_file() and record_suffix(p.name)]
                 if path.is_dir() else [(path, True)])
        for file, named in files:
            key = file.resolve()
            if key in seen:
                if warnings is not None:
                    warnings.append(f"{file}: already read (as {seen[key]}): counted once (warning)")
                continue
            seen[key] = str(file)
            yield from _expand(Member(str(file), record_suffix(file.name), named, _file_opener(file)), 0)


def read_named(name: str) -> bytes:
    """The bytes (decompressed) of a file, or of an archive's member named as reports name
    it (``games.zip:2024/game_1.txt``, archives in archives too).

    :raises OSError: no such file or member, or it cannot be read."""
    path = Path(name)
    if not path.exists():
        for k in (i for i, c in enumerate(name) if c == ":"):
            if Path(name[:k]).is_file() and record_suffix(name[:k]) in ARCHIVE_SUFFIXES:
                found = next((m for m in iter_members([name[:k]]) if m.name == name), None)
                if found is None:
                    raise FileNotFoundError(f"no member {name[k + 1:]!r} in {name[:k]}")
                if found.error:
                    raise OSError(found.error)
                return found.read()
    try:
        return Member(name, record_suffix(name), True, _file_opener(path)).read()
    except (EOFError, zlib.error) as exc:
        raise OSError(f"{type(exc).__name__}: {exc}") from None


def _file_opener(path: Path) -> Callable[[], IO[bytes]]:
    return lambda: path.open("rb")


def _expand(member: Member, depth: int) -> Iterator[Member]:
    """A member, or the members of the archive it is."""
    kind = member.suffix
    if kind not in ARCHIVE_SUFFIXES and member.named and not kind:
        kind = _sniff_archive(member)
    if kind not in ARCHIVE_SUFFIXES:
        yield member
        return
    if depth >= _MAX_DEPTH:
        yield Member(member.name, kind, error=f"an archive inside {_MAX_DEPTH} archives: not opened")
        return
    try:
        data = member.read()
        inner = list(_zip_members(member.name, data) if data[:2] == b"PK" else _tar_members(member.name, data))
    except (OSError, EOFError, zipfile.BadZipFile, tarfile.TarError, ValueError) as exc:
        yield Member(member.name, kind, error=f"cannot read the archive: {type(exc).__name__}: {exc}")
        return
    for item in inner:
        yield from _expand(item, depth + 1)


def _sniff_archive(member: Member) -> str:
    """An archive named without its suffix: ``.zip`` or ``.tar`` by its first bytes, else ``""``."""
    try:
        with member.open() as handle:
            head = handle.read(512)
    except (OSError, EOFError):
        return ""
    if head[:4] == b"PK\x03\x04":
        return ".zip"
    return ".tar" if head[257:262] == b"ustar" else ""


def _zip_members(name: str, data: bytes) -> Iterator[Member]:
    archive = zipfile.ZipFile(io.BytesIO(data))
    for info in sorted(archive.infolist(), key=lambda i: i.filename):
        if not info.is_dir() and record_suffix(info.filename):
            yield Member(f"{name}:{info.filename}", record_suffix(info.filename),
                         opener=_zip_opener(archive, info))


def _tar_members(name: str, data: bytes) -> Iterator[Member]:
    archive = tarfile.open(fileobj=io.BytesIO(data), mode="r:*")
    for info in sorted(archive.getmembers(), key=lambda i: i.name):
        if info.isfile() and record_suffix(info.name):
            yield Member(f"{name}:{info.name}", record_suffix(info.name),
                         opener=_tar_opener(archive, info))


def _zip_opener(archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> Callable[[], IO[bytes]]:
    return lambda: archive.open(info)


def _tar_opener(archive: tarfile.TarFile, info: tarfile.TarInfo) -> Callable[[], IO[bytes]]:
    def opened() -> IO[bytes]:
        handle = archive.extractfile(info)  # a stream in memory: nothing is written to disk
        if handle is None:
            raise OSError(f"{info.name}: not a regular file")
        return handle
    return opened
