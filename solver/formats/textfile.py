"""Text files as people save them: UTF-8 with or without a byte-order mark, Windows line
ends (``str.splitlines`` reads ``\\r\\n`` and ``\\r``), UTF-16 with a byte-order mark (the
"Unicode" of Windows Notepad), and files that are not UTF-8 at all -- a German order file
saved on Windows is Windows-1252 -- read as Windows-1252 (Latin-1 where Windows-1252
leaves a byte undefined) with a warning, never a codec error.
"""

from __future__ import annotations

import codecs
from pathlib import Path
from typing import BinaryIO, TextIO

__all__ = ["decode_text", "read_text", "read_stream"]


def decode_text(data: bytes, source: str) -> tuple[str, str | None]:
    """The text of `data`, and a one-line warning (naming `source` and the line of the
    first byte that is not UTF-8) when it had to be read as Windows-1252 or Latin-1."""
    for bom, codec in ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"),
                       (codecs.BOM_UTF16_BE, "utf-16-be")):
        if data.startswith(bom):
            data = data[len(bom):]
            if codec != "utf-8":
                try:
                    return data.decode(codec), None
                except UnicodeDecodeError as exc:
                    bad = exc.start
                line = _line_of(data[:bad].decode(codec, errors="replace"))
                return data.decode(codec, errors="replace"), (f"{source}:{line}: broken {codec.upper()}: unreadable "
                                                              "bytes read as U+FFFD (warning)")
            break
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError as exc:
        bad = exc.start
    try:
        text, used = data.decode("cp1252"), "Windows-1252"
    except UnicodeDecodeError:
        text, used = data.decode("latin-1"), "Latin-1"
    line = _line_of(text[:bad])  # one character a byte
    return text, f"{source}:{line}: not UTF-8 (byte {data[bad]:#04x}): read as {used} (warning)"


def _line_of(before: str) -> int:
    """The line (1-based, any line ends) on which text that follows `before` starts."""
    return len((before + "x").splitlines())


def read_text(path: str | Path, source: str | None = None) -> tuple[str, str | None]:
    """:func:`decode_text` of a file. :raises OSError: the file cannot be read."""
    return decode_text(Path(path).read_bytes(), source or str(path))


def read_stream(stream: TextIO | BinaryIO, source: str = "<stdin>") -> tuple[str, str | None]:
    """:func:`decode_text` of a stream's bytes (standard input: its ``buffer``), or its
    text when it has no bytes underneath."""
    raw = getattr(stream, "buffer", stream)
    data = raw.read()
    if isinstance(data, str):
        return data, None
    return decode_text(data, source)
