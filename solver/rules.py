"""Rule options, named by DATC chapter-4 issue.

A :class:`Rules` value is a profile (``2000``: the 2000 rulebook of our seeds with
the DATC preferences where it is silent — the default; ``2023``: every DATC v3.0
preference) plus overrides by issue, e.g. ``Rules.profile("2023", {"4.A.2": "c"})``.
Choices are the DATC's own letters (``a`` = the first option the DATC lists for
the issue); the common ones also have names (``4.A.2=szykman``).
"""

from __future__ import annotations

from collections.abc import Mapping
import functools
from dataclasses import dataclass

from .errors import DipsatError


@dataclass(frozen=True)
class Issue:
    number: str
    title: str
    options: dict[str, str]  # letter -> description
    names: dict[str, str]  # alias -> letter
    preferred: str  # the DATC v3.0 preference


def _issue(number: str, title: str, preferred: str, *options: tuple[str, str, tuple[str, ...]]) -> Issue:
    return Issue(number, title, {l: d for l, d, _ in options},
                 {alias: l for l, _, aliases in options for alias in aliases}, preferred)


ISSUES: dict[str, Issue] = {i.number: i for i in (
    _issue("4.A.1", "multi-route convoy disruption", "b",
           ("a", "disrupted when any route is disrupted (1971)", ("1971",)),
           ("b", "disrupted only when every route is disrupted", ("1982", "2000", "2023"))),
    _issue("4.A.2", "convoy disruption paradoxes", "f",
           ("a", "1971 rule: a convoyed army does not cut the support of a fleet supporting a fleet attacking a convoying fleet; Szykman as backup", ("1971",)),
           ("b", "1982 rule: a convoyed army does not cut the support of a fleet supporting an action in a body of water with a convoying fleet; Szykman as backup", ("1982",)),
           ("c", "2000/2023 rule: a convoyed army does not cut support for an attack on a fleet its convoy needs; Szykman as backup", ("2000",)),
           ("d", "2000/2023 rule with the All Hold backup: the moves in a remaining paradox fail", ("all_hold", "allhold")),
           ("f", "Szykman: the convoying fleets in the paradox hold", ("szykman", "2023"))),
    _issue("4.A.3", "convoying to an adjacent province", "c",
           ("a", "1971: the convoy route only when the unit at the destination moves the opposite way; land route if the convoy is disrupted", ("1971",)),
           ("b", "1982: the convoy route only when a fleet of the army's own power convoys it", ("1982",)),
           ("c", "2000/2023: convoy used if a fleet of the army's power convoys it or it is ordered 'via convoy'; no land fallback", ("2000", "2023")),
           ("fallback", "as c, but the land route when no convoy route is alive", ("land_fallback",)),
           ("v2", "DATC v2 / DPjudge reading: the convoy route only when ordered 'via convoy' and some fleet is ordered to convoy it; else the land route", ("dpjudge",)),
           ("dptg", "DPTG: the convoy route only when ordered 'via convoy' ('by convoy')", ())),
    _issue("4.A.4", "support cut on attack on itself via convoy", "a",
           ("a", "the support is not cut (the attack comes from the army's province)", ("not_cut",)),
           ("b", "the support is cut (the attack comes from the body of water)", ("cut",))),
    _issue("4.A.5", "retreat when dislodged by convoy", "b",
           ("a", "no retreat to the attacker's origin", ("forbidden",)),
           ("b", "may retreat to the origin of an army that came by convoy (2023)", ("allowed", "2023"))),
    _issue("4.A.6", "convoy path specification", "a",
           ("a", "a written-out path is ignored", ("ignored",)),
           ("b", "a written-out path is allowed: the army goes only along it", ("allowed",)),
           ("c", "the path is required: a convoyed move without one fails", ("required",))),
    _issue("4.A.7", "avoiding a head-to-head battle to bounce a unit", "b",
           ("a", "a dislodged unit never has effect on the area its attacker came from", ("never",)),
           ("b", "a dislodged unit has no effect on the attacker's origin only after a head-to-head battle", ("head_to_head",))),
    _issue("4.B.1", "omitted coast when two coasts are possible", "a",
           ("a", "the move fails (there is no default coast)", ("fails",))),
    _issue("4.B.2", "omitted coast when one coast is possible", "a",
           ("a", "the move goes to the only possible coast", ("only_coast",)),
           ("b", "the move fails", ("fails",))),
    _issue("4.B.3", "move to an impossible coast", "b",
           ("a", "the coast is ignored", ("ignored",)),
           ("b", "the order is illegal", ("illegal",))),
    _issue("4.B.4", "coast in a support order", "a",
           ("a", "a support may leave out the coast of the supported move", ("optional",)),
           ("b", "only for a unit of the supporting power (Calhamer); otherwise the support is void", ("own_only",)),
           ("c", "the coast must be given (orders checked on submission); otherwise the support is void", ("required",))),
    _issue("4.B.5", "wrong coast of the ordered unit", "b",
           ("a", "the order fails", ("fails",)),
           ("b", "the coast is ignored", ("ignored",))),
    _issue("4.B.6", "unknown or irrelevant coasts", "b",
           ("a", "the move fails", ("fails",)),
           ("b", "the coast is ignored", ("ignored",))),
    _issue("4.B.7", "coast in a build order", "a",
           ("a", "a fleet built in St Petersburg needs its coast, else the build fails", ("fails",))),
    _issue("4.C.1", "missing unit designation", "b",
           ("a", "the order is invalid: the unit holds", ("invalid",)),
           ("b", "the order is still valid", ("valid",)),
           ("c", "valid unless the unit has another order with the right designation", ("unless_other",))),
    _issue("4.C.2", "wrong unit designation", "b",
           ("a", "the order is invalid: the unit holds", ("invalid",)),
           ("b", "the order is still valid (the designation is ignored)", ("valid",)),
           ("c", "valid unless the unit has another order with the right designation", ("unless_other",))),
    _issue("4.C.3", "missing unit designation in a build order", "c",
           ("a", "the build fails", ("fails",)),
           ("b", "an army is built in a land area; elsewhere the build fails", ("land_army",)),
           ("c", "an army inland, a fleet where a coast is named, else the build fails", ("best_effort",))),
    _issue("4.C.4", "building a fleet in a land area", "a",
           ("a", "the build fails", ("fails",)),
           ("b", "an army is built", ("army",))),
    _issue("4.C.5", "missing nationality in a support or convoy order", "b",
           ("a", "the order is invalid (void)", ("invalid",)),
           ("b", "the order is still valid", ("valid",)),
           ("c", "valid unless the unit has another order with the right nationality", ("unless_other",))),
    _issue("4.C.6", "wrong nationality in a support or convoy order", "b",
           ("a", "the order is invalid (void)", ("invalid",)),
           ("b", "the order is still valid (the nationality is ignored)", ("valid",)),
           ("c", "valid unless the unit has another order with the right nationality", ("unless_other",))),
    _issue("4.D.3", "multiple orders to the same unit", "c",
           ("a", "the first order is used", ("first",)),
           ("b", "the last order is used", ("last",)),
           ("c", "the unit holds (illegal orders ignored first)", ("hold",))),
    _issue("4.D.4", "too many build orders", "b",
           ("a", "all build orders are invalid", ("all_invalid",)),
           ("b", "the first legal builds are used", ("first",)),
           ("c", "the last legal builds are used", ("last",))),
    _issue("4.D.5", "multiple build orders for one province", "b",
           ("a", "both build orders fail", ("both_fail",)),
           ("b", "the first build order is used", ("first",)),
           ("c", "the last build order is used", ("last",))),
    _issue("4.D.6", "too many disband orders", "b",
           ("a", "all disband orders are replaced by the civil-disorder rule", ("civil_disorder",)),
           ("b", "the first legal disband orders are used", ("first",)),
           ("c", "the last legal disband orders are used", ("last",))),
    _issue("4.D.7", "waiving builds", "a",
           ("a", "waiving is allowed", ("allowed",)),
           ("b", "waiving is not allowed: a waive order is illegal", ("forbidden",))),
    _issue("4.D.8", "removing a unit in civil disorder", "2023",
           ("2000", "2000 rulebook: farthest from its home country first (moves over land and sea), fleets before armies, then alphabetical", ("a",)),
           ("2023", "2023 rulebook: farthest from the nearest owned centre first (moves over land and sea), fleets before armies, then alphabetical", ("b",)),
           ("v2", "DATC v2 / DPjudge reading: farthest from the nearest home centre first (armies over land and sea, fleets as fleets), fleets before armies, then by abbreviation", ("dpjudge",)),
           ("godip", "godip (Droidippy) reading: farthest from the nearest home centre first (armies and fleets both over land and sea), fleets before armies, then by abbreviation", ("droidippy",))),
    _issue("4.D.9", "receiving hold support in civil disorder", "b",
           ("a", "the support fails (void) for a unit of a power that gave no orders", ("fails",)),
           ("b", "the support succeeds", ("succeeds",))),
    _issue("4.E.1", "illegal orders", "b",
           ("b", "illegal orders are ignored: the unit holds", ("ignored",))),
    _issue("4.E.3", "implicit orders", "b",
           ("a", "allowed: an unordered unit supported or convoyed by its own power moves as supported", ("allowed",)),
           ("b", "not allowed: an unordered unit holds", ("forbidden",))),
)}

NOT_APPLICABLE: dict[str, str] = {
    "4.A.2 e": "ideas about what a convoyed army 'causes': the DATC gives no precise rule to select",
    "4.D.1": "multiple order sets with a defined order: dipsat reads one order list per phase",
    "4.D.2": "multiple order sets with an undefined order: dipsat reads one order list per phase",
    "4.E.2": "poorly written orders: dipsat judges each order on its own (choice a); the parser is lenient",
    "4.E.4": "perpetual orders: a house rule outside adjudication",
    "4.E.5": "proxy orders: a house rule outside adjudication",
    "4.E.6": "flying dutchman: correcting an illegal position is outside adjudication",
}
"""DATC chapter-4 issues (or options) with nothing to select in an adjudication, and why."""

PROFILES: dict[str, dict[str, str]] = {
    # every DATC v3.0 preference
    "2023": {},
    # the 2000 rulebook of our seeds: its convoy rule (Szykman as backup) and its
    # civil-disorder removals; DATC preferences where it is silent
    "2000": {"4.A.2": "c", "4.D.8": "2000"},
    # the 1982 rulebook: its paradox rule, intent by the player's own fleets, the literal
    # readings of the retreat and dislodgement rules (DATC 4.A.5 a, 4.A.7 a)
    "1982": {"4.A.2": "b", "4.A.3": "b", "4.A.5": "a", "4.A.7": "a", "4.D.8": "2000"},
    # the 1971 rulebook: any disrupted route disrupts, its paradox rule, convoy swaps only
    # with a unit moving the opposite way
    "1971": {"4.A.1": "a", "4.A.2": "a", "4.A.3": "a", "4.A.5": "a", "4.A.7": "a", "4.D.8": "2000"},
    # the Diplomacy Player's Technical Guide: an adjacent convoy only when ordered 'by convoy'
    "dptg": {"4.A.3": "dptg"},
}
DEFAULT_PROFILE = "2000"


class RulesError(DipsatError, ValueError):
    """An unknown profile, issue or option."""


@dataclass(frozen=True)
class Rules:
    """The rule options an adjudication uses: one choice per DATC issue."""

    profile_name: str
    choices: tuple[tuple[str, str], ...]

    @classmethod
    def profile(cls, name: str = DEFAULT_PROFILE, overrides: Mapping[str, str] | None = None) -> Rules:
        if name not in PROFILES:
            raise RulesError(f"unknown rules profile {name!r} (known: {', '.join(sorted(PROFILES))})")
        chosen = {n: i.preferred for n, i in ISSUES.items()}
        chosen.update(PROFILES[name])
        for number, value in (overrides or {}).items():
            chosen[number] = resolve_choice(number, value)
        return cls(name, tuple(sorted(chosen.items())))

    @classmethod
    def parse(cls, words: list[str]) -> Rules:
        """From ``["2023", "4.A.2=c"]`` (a RULES line or CLI options)."""
        name = DEFAULT_PROFILE
        overrides: dict[str, str] = {}
        for word in words:
            if "=" in word:
                number, _, value = word.partition("=")
                overrides[number.strip().upper()] = value.strip()
            else:
                name = word
        return cls.profile(name, overrides)

    def choice(self, number: str) -> str:
        return self._table[number]

    @functools.cached_property
    def _table(self) -> dict[str, str]:
        return dict(self.choices)

    @property
    def overrides(self) -> dict[str, str]:
        base = dict(Rules.profile(self.profile_name).choices)
        return {n: c for n, c in self.choices if base[n] != c}

    def __str__(self) -> str:
        extra = " ".join(f"{n}={c}" for n, c in sorted(self.overrides.items()))
        return f"{self.profile_name} {extra}".strip()


def resolve_choice(number: str, value: str) -> str:
    issue = ISSUES.get(number.upper())
    if issue is None:
        raise RulesError(f"unknown or not yet selectable DATC issue {number!r} (selectable: {', '.join(ISSUES)})")
    value = value.strip().lower()
    if value in issue.options:
        return value
    if value in issue.names:
        return issue.names[value]
    known = ", ".join(f"{l} ({d.split(':')[0]})" for l, d in issue.options.items())
    raise RulesError(f"DATC {number}: option {value!r} is not selectable (selectable: {known})")
