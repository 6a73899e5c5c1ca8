"""The 2000 rulebook in its own words: the German and Dutch passages (``rulebook_2000.toml``,
quoted from the editions) that a rule lawyer cites where an explanation names one of that
rulebook's rules."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources

__all__ = ["RulebookQuote", "quote", "QUOTES"]

QUOTES = ("convoyed_attack", "alternative_route", "rotation", "civil_disorder_order")
"""The passages the data file holds, by key."""


@dataclass(frozen=True, slots=True)
class RulebookQuote:
    """One rule of the 2000 rulebook: where it is (``rule 21 (figure 30)``), what it says in
    short, and its text in the German and the Dutch edition."""

    key: str
    rule: str
    about: str
    de: str
    nl: str

    def __str__(self) -> str:
        return f"2000 rulebook, {self.rule}: {self.about}"

    def lines(self) -> list[str]:
        """The citation, then each edition's text."""
        return [str(self), f"German edition: \u201e{self.de}\u201c", f"Dutch edition: \u201c{self.nl}\u201d"]


def quote(key: str) -> RulebookQuote:
    """The passage `key` (one of :data:`QUOTES`), read from the package's data file."""
    text = resources.files(__package__).joinpath("rulebook_2000.toml").read_text(encoding="utf-8")
    entry = tomllib.loads(text)[key]
    return RulebookQuote(key, entry["rule"], entry["about"], entry["de"], entry["nl"])
