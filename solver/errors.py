"""The exceptions dipsat raises. Adjudication itself never raises on bad orders:
illegal and void orders are results (see :mod:`dipsat.results`)."""

from __future__ import annotations


class DipsatError(Exception):
    """Base class of every error dipsat raises on purpose."""


class MapError(DipsatError, ValueError):
    """A map or variant file is malformed; the message names the file and key."""


class NotationError(DipsatError, ValueError):
    """Text that is not an order (or a unit, a phase ...).

    ``text`` is the whole input, ``position`` the 0-based offset where reading
    failed and ``expected`` what would have been understood there; ``hint`` a
    suggestion (``did you mean North Sea (nth)?``). Readers of many lines set
    ``line`` (1-based) to the line the text came from.
    """

    line: int | None = None

    def __init__(self, text: str, position: int, expected: str, found: str | None = None, hint: str = "") -> None:
        self.text = text
        self.position = position
        self.expected = expected
        self.hint = hint
        self.found = found if found is not None else _fragment(text, position)
        where = f"at column {position + 1}"
        got = f"found {self.found!r}" if self.found else "found end of text"
        super().__init__(f"{text.rstrip()!r}: {where}: expected {expected}, {got}" + (f"; {hint}" if hint else ""))

    def __reduce__(self) -> tuple[object, ...]:
        """Pickled as made (a worker process sends it back whole)."""
        return type(self), (self.text, self.position, self.expected, self.found, self.hint), {"line": self.line}


class UnknownNameError(NotationError):
    """A province, coast or power name the map does not know."""


class AmbiguousNameError(NotationError):
    """A name that means more than one thing on this map."""


class CaseFileError(DipsatError, ValueError):
    """A malformed case file; the message names the file and line."""

    def __init__(self, source: str, line: int, message: str) -> None:
        self.source = source
        self.line = line
        self.message = message
        super().__init__(f"{source}:{line}: {message}")

    def __reduce__(self) -> tuple[object, ...]:
        """Pickled as made (a worker process sends it back whole)."""
        return type(self), (self.source, self.line, self.message)


class GameError(DipsatError, ValueError):
    """A game that cannot be read, created or played on (the message says why)."""


class SolverError(DipsatError, RuntimeError):
    """CP-SAT answered with a status the adjudicator cannot use."""


def _fragment(text: str, position: int) -> str:
    rest = text[position:].strip()
    return rest.split()[0] if rest else ""
