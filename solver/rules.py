"""Rule options: the readings an adjudication uses, one per DATC chapter-4 issue.

Each issue is declared once, by its enum (:mod:`dipsat.options`, and
:mod:`dipsat.encodings.options` for the four the CP-SAT model reads) and the
:class:`Rules` field whose type it is; :data:`ISSUES`, :class:`ModelOptions` and the
prescan's option set are derived from those.

A :class:`Rules` value holds one reading (an enum member) per issue: a profile
(``2000``: the 2000 rulebook (German and Dutch editions), the default; ``2023``, ``1982``,
``1971``: those rulebooks as DATC v3.0 describes them; ``datc``: every DATC v3.0
preference; ``dptg``: the DPTG; each with DATC v3.0's preference where its source
is silent) plus overrides by issue, e.g. ``Rules.profile("datc", {"4.A.2": "c"})``. Options are named by the
DATC's own letters (``a`` = the first option the DATC lists for the issue); the
common ones also have names (``4.A.2=szykman``). Code reads the typed fields::

    if rules.convoy_paradox is ConvoyParadox.SZYKMAN:  # DATC 4.A.2

:data:`ISSUES` is the catalogue (number, title, the options with their DATC text)
that ``dipsat rules`` prints and ``dipsat validate`` walks to try other readings.
"""

from __future__ import annotations

import dataclasses
import functools
import operator
import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from .encodings.options import (ConvoyParadox, DislodgedUnitEffect, Issued, ModelOptions, MultiRouteDisruption,
                                Option, SelfAttackViaConvoy, Stage)
from .errors import DipsatError
from .frozen import once
from .options import (AdjacentConvoy, BuildCoast, CivilDisorderHoldSupport, CivilDisorderRemoval,
                      ConvoyPathSpecification, DesignationReading, FleetBuildInland, IllegalOrders, ImplicitOrders,
                      ImpossibleCoast, MissingBuildDesignation, MissingNationality, MissingUnitDesignation,
                      MultipleBuilds, MultipleOrders, OmittedCoastOne, OmittedCoastTwo, RetreatAfterConvoy,
                      SupportCoast, TooManyBuilds, TooManyDisbands, UnknownCoast, WaivingBuilds, WrongNationality,
                      WrongUnitCoast, WrongUnitDesignation)

__all__ = ["AdjacentConvoy", "compared_rules", "BuildCoast", "CivilDisorderHoldSupport", "CivilDisorderRemoval", "ConvoyParadox",
           "ConvoyPathSpecification", "DEFAULT_PROFILE", "DesignationReading", "DislodgedUnitEffect",
           "FleetBuildInland", "ISSUES",
           "IllegalOrders", "ImplicitOrders", "ImpossibleCoast", "Issue", "MissingBuildDesignation",
           "MissingNationality", "MissingUnitDesignation", "MultipleBuilds", "MultipleOrders",
           "MultiRouteDisruption", "NOT_APPLICABLE", "OmittedCoastOne", "OmittedCoastTwo", "Option", "PROFILES", "Pick",
           "Profile",
           "RetreatAfterConvoy", "Rules", "RulesError", "SelfAttackViaConvoy", "Stage", "SupportCoast", "TooManyBuilds",
           "TooManyDisbands", "UnknownCoast", "WaivingBuilds", "WrongNationality", "WrongUnitCoast",
           "WrongUnitDesignation"]


class RulesError(DipsatError, ValueError):
    """An unknown profile, issue or option."""


def _v2_prefix(text: str) -> tuple[bool, str]:
    """``v2:4.A.2`` -> (True, "4.A.2"): a DATC v2.x letter follows (or precedes)."""
    text = text.strip()
    if text[:3].lower() == "v2:":
        return True, text[3:].strip()
    return False, text


DEFAULT_PROFILE = "2000"



# --- the catalogue ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Issue:
    """A DATC chapter-4 issue: its number, title, the :class:`Rules` field holding it,
    its enum, the DATC v3.0 preference and the stages that read it. Made from the enum's
    declaration and the :class:`Rules` field whose type the enum is (:data:`ISSUES`)."""

    number: str
    title: str
    field: str
    kind: type[Option]
    preferred: Option
    read_by: tuple[Stage, ...]

    @property
    def options(self) -> dict[str, str]:
        """Option key -> the option in the DATC's words."""
        return {o.key: o.text for o in self.kind}

    @property
    def names(self) -> dict[str, str]:
        """Other accepted name -> option key."""
        return {alias: o.key for o in self.kind for alias in o.aliases}

    @property
    def lettered(self) -> bool:
        """Does DATC v3.0 letter this issue's options?"""
        return any(o.v3 for o in self.kind)

    def resolve(self, value: str, v2: bool = False) -> Option:
        """The option a key or name selects; with `v2`, a DATC v2.x letter. Where DATC
        v3.0 letters none of the issue's options, v2.x letters are taken as they are."""
        text = value.strip().lower()
        for o in self.kind:
            if not v2 and (text == o.key or text in o.aliases):
                return o
        for o in self.kind:
            if (v2 or not self.lettered) and text == o.v2:
                return o
        if v2:
            known = ", ".join(f"{o.v2} ({o.key})" for o in self.kind if o.v2)
            raise RulesError(f"DATC v2.x {self.number}: option {value.strip()!r} is not selectable (selectable: "
                             f"{known or 'none'})")
        known = ", ".join(f"{o.key} ({o.text.split(':')[0].rstrip('.')})" for o in self.kind)
        raise RulesError(f"DATC {self.number}: option {value.strip()!r} is not selectable (selectable: {known})")


@dataclass(frozen=True)
class Rules:
    """The rule options an adjudication uses: one reading per DATC chapter-4 issue."""

    profile_name: str
    multi_route_disruption: MultiRouteDisruption  # DATC 4.A.1
    convoy_paradox: ConvoyParadox  # DATC 4.A.2
    adjacent_convoy: AdjacentConvoy  # DATC 4.A.3
    self_attack_via_convoy: SelfAttackViaConvoy  # DATC 4.A.4
    retreat_after_convoy: RetreatAfterConvoy  # DATC 4.A.5
    convoy_path: ConvoyPathSpecification  # DATC 4.A.6
    dislodged_unit_effect: DislodgedUnitEffect  # DATC 4.A.7
    two_coasts_omitted: OmittedCoastTwo  # DATC 4.B.1
    one_coast_omitted: OmittedCoastOne  # DATC 4.B.2
    impossible_coast: ImpossibleCoast  # DATC 4.B.3
    support_coast: SupportCoast  # DATC 4.B.4
    ordered_unit_coast: WrongUnitCoast  # DATC 4.B.5
    unknown_coast: UnknownCoast  # DATC 4.B.6
    build_coast: BuildCoast  # DATC 4.B.7
    missing_unit_designation: MissingUnitDesignation  # DATC 4.C.1
    wrong_unit_designation: WrongUnitDesignation  # DATC 4.C.2
    build_designation: MissingBuildDesignation  # DATC 4.C.3
    fleet_build_inland: FleetBuildInland  # DATC 4.C.4
    missing_nationality: MissingNationality  # DATC 4.C.5
    wrong_nationality: WrongNationality  # DATC 4.C.6
    multiple_orders: MultipleOrders  # DATC 4.D.3
    too_many_builds: TooManyBuilds  # DATC 4.D.4
    builds_in_one_province: MultipleBuilds  # DATC 4.D.5
    too_many_disbands: TooManyDisbands  # DATC 4.D.6
    waiving_builds: WaivingBuilds  # DATC 4.D.7
    civil_disorder: CivilDisorderRemoval  # DATC 4.D.8
    civil_disorder_hold_support: CivilDisorderHoldSupport  # DATC 4.D.9
    illegal_orders: IllegalOrders  # DATC 4.E.1
    implicit_orders: ImplicitOrders  # DATC 4.E.3

    def __post_init__(self) -> None:
        for issue in ISSUES.values():
            if not isinstance(getattr(self, issue.field), issue.kind):
                raise RulesError(f"DATC {issue.number}: {getattr(self, issue.field)!r} is not a {issue.kind.__name__}")

    @classmethod
    def profile(cls, name: str = DEFAULT_PROFILE, overrides: Mapping[str, str | Option] | None = None) -> Rules:
        """A profile's readings, with `overrides` (issue number -> option key, name or member)."""
        if name not in PROFILES:
            raise RulesError(f"unknown rules profile {name!r} (known: {', '.join(sorted(PROFILES))})")
        if not overrides and cls is Rules:
            return _profile(name)
        chosen: dict[str, Option] = {i.field: PROFILES[name].pick(n).option for n, i in ISSUES.items()}
        for number, value in (overrides or {}).items():
            v2, number = _v2_prefix(number)
            issue = ISSUES.get(number.upper())
            if issue is None:
                raise RulesError(f"unknown or not yet selectable DATC issue {number!r} "
                                 f"(selectable: {', '.join(ISSUES)})")
            if isinstance(value, Option):
                if not isinstance(value, issue.kind):
                    raise RulesError(f"DATC {issue.number}: {value!r} is not a reading of this issue")
                chosen[issue.field] = value
            else:
                v2_value, text = _v2_prefix(value)
                chosen[issue.field] = issue.resolve(text, v2=v2 or v2_value)
        return cls(name, **cast(dict[str, Any], chosen))  # each field's type checked by __post_init__

    @classmethod
    def parse(cls, words: list[str]) -> Rules:
        """From ``["2023", "4.A.2=c", "v2:4.A.3=d"]`` (a RULES line or CLI options): a
        profile and overrides, by DATC v3.0 key (or name) or, prefixed ``v2:``, by DATC
        v2.x letter."""
        name = DEFAULT_PROFILE
        overrides: dict[str, str] = {}
        for word in words:
            if "=" in word:
                number, _, value = word.partition("=")
                v2, number = _v2_prefix(number)
                overrides[("v2:" if v2 else "") + number.upper()] = value.strip()
            else:
                name = word
        return cls.profile(name, overrides)

    def option(self, number: str) -> Option:
        """The reading of DATC issue `number` (for code that walks the catalogue)."""
        return cast(Option, getattr(self, ISSUES[number].field))

    def choice(self, number: str) -> str:
        """The key of the reading of issue `number` (``"f"``): for catalogue code and reports."""
        return self.option(number).key

    @once
    def model(self) -> ModelOptions:
        """The options the movement model reads (the issues read by :attr:`Stage.MODEL`):
        made once per rules value (every movement turn asks)."""
        return ModelOptions(*_MODEL_READINGS(self))

    @property
    def overrides(self) -> dict[str, str]:
        """Issue number -> option key, where these rules depart from their profile."""
        return dict(self._departures)

    @once
    def _departures(self) -> tuple[tuple[str, str], ...]:
        base = _profile(self.profile_name)
        return tuple((n, self.choice(n)) for n in ISSUES if self.option(n) is not base.option(n))

    def with_options(self, *picks: Option) -> Rules:
        """These rules with some readings replaced (the profile name stays)."""
        return dataclasses.replace(self, **cast(dict[str, Any], {_ISSUE_OF[type(p)].field: p for p in picks}))

    def __str__(self) -> str:
        extra = " ".join(f"{n}={c}" for n, c in sorted(self.overrides.items()))
        return f"{self.profile_name} {extra}".strip()


@functools.cache
def _profile(name: str) -> Rules:
    """A profile's rules as they stand (no override): an immutable value, made once per
    name (:meth:`Rules.profile` and :attr:`Rules.overrides` ask for it on every record)."""
    chosen: dict[str, Option] = {i.field: PROFILES[name].pick(n).option for n, i in ISSUES.items()}
    return Rules(name, **cast(dict[str, Any], chosen))


def _catalogue(rules: Any = Rules) -> dict[str, Issue]:
    """The issues in the order of the :class:`Rules` fields, each from the declaration of the
    field's enum (its class keywords: :class:`~dipsat.encodings.options.Issued`)."""
    hints = typing.get_type_hints(rules)
    out: dict[str, Issue] = {}
    for f in dataclasses.fields(rules)[1:]:  # after profile_name
        kind = hints[f.name]
        if not (isinstance(kind, type) and issubclass(kind, Option) and "issue" in vars(kind)):
            raise TypeError(f"{rules.__name__}.{f.name}: {kind!r} is not an issue's enum (an Option with number=...)")
        declared: Issued = kind.issue
        preferred = next((o for o in kind if o.key == declared.preferred), None)
        if preferred is None or declared.number in out:
            raise TypeError(f"{kind.__name__}: preferred={declared.preferred!r} names no member, or "
                            f"DATC {declared.number} has two fields")
        out[declared.number] = Issue(declared.number, declared.title, f.name, kind, preferred, declared.read_by)
    return out


ISSUES: dict[str, Issue] = _catalogue()
"""The DATC chapter-4 issues dipsat can select, by number, in DATC order."""

_ISSUE_OF: dict[type[Option], Issue] = {i.kind: i for i in ISSUES.values()}

_MODEL_ISSUES = tuple(i for i in ISSUES.values() if Stage.MODEL in i.read_by)
_MODEL_READINGS = operator.attrgetter(*(i.field for i in _MODEL_ISSUES))  # Rules -> ModelOptions' fields, in order
_MODEL_HINTS = typing.get_type_hints(ModelOptions)
if [(f.name, _MODEL_HINTS[f.name]) for f in dataclasses.fields(ModelOptions)] != \
        [(i.field, i.kind) for i in _MODEL_ISSUES]:
    raise TypeError("ModelOptions must have a field, named as in Rules, for each issue read_by=Stage.MODEL, "
                    "in DATC order, and no other")

NOT_APPLICABLE: dict[str, str] = {
    "4.A.2 e": "ideas about what a convoyed army 'causes': the DATC gives no precise rule to select",
    "4.D.1": "multiple order sets with a defined order (v3.0 and v2.x a-d): dipsat reads one order list per "
             "phase",
    "4.D.2": "multiple order sets with an undefined order (v3.0 and v2.x a, b): dipsat reads one order list per "
             "phase",
    "4.D.8 names": "the language of the area names that break a tie alphabetically: dipsat uses the English "
                   "names (the DATC's preference; a face-to-face game on a board in another language is the "
                   "only exception it names)",
    "4.D.8 v2 f": "the least recently built unit not on a supply centre goes first (a house rule): a position "
                  "does not record when units were built",
    "4.E.1 v2 a-c": "an order that cannot be valid still counts as a move that refuses hold support (a: any "
                    "order in the right format, the DPTG; b: one naming places on the map; c: one valid in "
                    "some position; parlance has them): dipsat ignores every order that cannot be valid in "
                    "the position (v2.x d, DATC v3.0, the 2023 rulebook)",
    "4.E.2": "poorly written orders (v3.0 a, b; v2.x a-d): dipsat judges each order on its own (v3.0 a); the "
             "parser is lenient about spelling, and no order is read in the light of another",
    "4.E.4": "perpetual orders: a house rule outside adjudication",
    "4.E.5": "proxy orders: a house rule outside adjudication",
    "4.E.6": "flying dutchman: correcting an illegal position is outside adjudication",
}
"""DATC chapter-4 issues (or options) with nothing to select in an adjudication, and why."""

@dataclass(frozen=True)
class Pick:
    """A profile's reading of one issue and where it comes from."""

    option: Option
    source: str  # "rulebook: ...", "ambiguous: ...", "DPTG: ..." -- what the reading rests on


@dataclass(frozen=True)
class Profile:
    """A named set of readings: a rulebook (as DATC v3.0 describes it) or a guide.
    Where its source is silent the DATC v3.0 preference is taken (``silent``)."""

    name: str
    title: str
    picks: Mapping[str, Pick]  # issue number -> the source's reading
    silent: str = "the rulebook is silent: DATC v3.0's preference"

    def pick(self, number: str) -> Pick:
        issue = ISSUES[number]
        return self.picks.get(number) or Pick(issue.preferred, self.silent)


def _picks(*picks: tuple[Option, str]) -> dict[str, Pick]:
    return {type(option).issue.number: Pick(option, source) for option, source in picks}


_LITERAL_RETREAT = ("ambiguous: \"the unit cannot retreat to the province from which the attacker came\", "
                    "read literally (DATC 4.A.5)")
_LITERAL_DISLODGED = "ambiguous (whether a dislodged unit still bounces a third): the words read literally (DATC 4.A.7)"
_INTENDED_DISLODGED = ("ambiguous (whether a dislodged unit still bounces a third): the words read literally give a; "
                       "DATC v3.0 reads the intent as b, consistent with 4.A.5 b")
_NO_PATHS = "no rulebook lets an order write out a convoy path (DATC 4.A.6)"
_TWO_COASTS = "every rulebook: the move fails (DATC 4.B.1)"
_BUILD_COAST = "the rulebook: the build fails (DATC 4.B.7)"
_HOME_CENTRES = ("the rulebook: distance to the home supply centres by \"the shortest available route, including "
                 "convoys\", counted as DATC v2.x prefers (4.D.8 d, the common way before 2023)")
_FROM = ("ambiguous: where an attack by convoy comes 'from': DATC v3.0's preference (Calhamer: from the army's "
         "own province)")
_WAIVE_AMBIGUOUS = "ambiguous about waiving builds (DATC 4.D.7): DATC v3.0's preference"

_EVERY_RULEBOOK = (  # what every rulebook says, or leaves equally open
    (SelfAttackViaConvoy.NOT_CUT, _FROM),
    (ConvoyPathSpecification.IGNORED, _NO_PATHS),
    (OmittedCoastTwo.FAILS, _TWO_COASTS),
    (BuildCoast.FAILS, _BUILD_COAST),
)
_RULEBOOKS_2000_2023 = (  # where the 2000 and 2023 rulebooks agree
    (MultiRouteDisruption.EVERY_ROUTE, "the rulebook: disrupted when every route is (DATC 4.A.1)"),
    (AdjacentConvoy.R2000, "the rulebook: an own fleet or 'via convoy' (DATC 4.A.3; 2000 and 2023 agree); whether "
                           "the land route is a fallback is ambiguous: DATC v3.0 says no"),
    (DislodgedUnitEffect.HEAD_TO_HEAD_ONLY, _INTENDED_DISLODGED),
    (WaivingBuilds.ALLOWED, "the rulebook allows waiving builds (DATC 4.D.7)"),
    (IllegalOrders.IGNORED, "the rulebook: a unit given an illegal order holds (DATC 4.E.1)"),
)
_RULEBOOKS_1971_1982 = (  # where the 1971 and 1982 rulebooks agree
    (RetreatAfterConvoy.FORBIDDEN, _LITERAL_RETREAT),
    (DislodgedUnitEffect.NEVER, _LITERAL_DISLODGED),
    (WaivingBuilds.ALLOWED, _WAIVE_AMBIGUOUS),
    (CivilDisorderRemoval.ARMIES_AT_SEA, _HOME_CENTRES),
    (IllegalOrders.IGNORED, "the rulebook: an illegal order is not followed and the unit holds; the 1979 "
                            "clarification that an impossible move is still a move (DATC v2.x 4.E.1 b) cannot be "
                            "selected"),
)

PROFILES: dict[str, Profile] = {p.name: p for p in (
    Profile("2000", "the 2000 Avalon Hill rulebook (German and Dutch editions)", _picks(
        *_EVERY_RULEBOOK, *_RULEBOOKS_2000_2023,
        (ConvoyParadox.R2000, "the rulebook's convoy rule (page 16, \"the 22 rules\"); Szykman where it gives "
                              "no answer (silent)"),
        (RetreatAfterConvoy.ALLOWED, "ambiguous (DATC 4.A.5): DATC v3.0's preference, as the 2023 rulebook says"),
        (CivilDisorderRemoval.R2000, "the rulebook: farthest from the home country (\"Heimatland\") first; how to "
                                     "count is not said: moves over land and sea"),
    )),
    Profile("2023", "the 2023 Renegade rulebook, as DATC v3.0 describes it", _picks(
        *_EVERY_RULEBOOK, *_RULEBOOKS_2000_2023,
        (ConvoyParadox.R2000, "the rulebook's convoy rule (page 18, as in 2000); Szykman where it gives no answer "
                              "(silent)"),
        (RetreatAfterConvoy.ALLOWED, "the rulebook allows the retreat (DATC 4.A.5)"),
        (CivilDisorderRemoval.R2023, "the rulebook: farthest from the nearest owned supply centre, both unit kinds "
                                     "over land and sea (DATC 4.D.8)"),
        (SupportCoast.OPTIONAL, "the rulebook allows a coast in a support order (DATC 4.B.4); whether one may "
                                "be left out it does not say: DATC v3.0's preference, allowed"),
    )),
    Profile("1982", "the 1982 Avalon Hill rulebook (and 1992), as DATC v3.0 describes it", _picks(
        *_EVERY_RULEBOOK, *_RULEBOOKS_1971_1982,
        (MultiRouteDisruption.EVERY_ROUTE, "the rulebook: disrupted when every route is (DATC 4.A.1)"),
        (ConvoyParadox.R1982, "the rulebook's convoy rule (XII.5); Szykman where it gives no answer (DATC: none)"),
        (AdjacentConvoy.R1982, "the rulebook: the route the player's own orders show is intended"),
    )),
    Profile("1971", "the 1971 Games Research rulebook (and 1976), as DATC v3.0 describes it", _picks(
        *_EVERY_RULEBOOK, *_RULEBOOKS_1971_1982,
        (MultiRouteDisruption.ANY_ROUTE, "the rulebook: disrupted when one route is (DATC 4.A.1)"),
        (ConvoyParadox.R1971, "the rulebook's convoy rule (XII.5); Szykman where it gives no answer (silent)"),
        (AdjacentConvoy.R1971, "the rulebook says only that convoys may swap units: DATC v3.0's reading (4.A.3 a)"),
    )),
    Profile("datc", "every DATC v3.0 preference", {n: Pick(i.preferred, "DATC v3.0's preference")
                                                     for n, i in ISSUES.items()}),
    Profile("dptg", "the Diplomacy Player's Technical Guide (1998), where DATC v2.x names its readings", _picks(
        (MultiRouteDisruption.DPTG, "DPTG: foreign fleets skipped when the army's own make a route (DATC v2.x 4.A.1)"),
        (ConvoyParadox.DPTG, "DPTG paradox rule (DATC v2.x 4.A.2 f)"),
        (AdjacentConvoy.DPTG, "DPTG: explicit adjacent convoying, 'by convoy' (DATC v2.x 4.A.3 e)"),
        (SelfAttackViaConvoy.CUT, "DPTG: the support is cut (DATC v2.x 4.A.4 b)"),
        (RetreatAfterConvoy.ALLOWED, "DPTG: the retreat is allowed (DATC v2.x 4.A.5 b)"),
        (ConvoyPathSpecification.IGNORED, "DPTG: no path specification (DATC v2.x 4.A.6)"),
        (DislodgedUnitEffect.HEAD_TO_HEAD_ONLY, "DPTG (DATC v2.x 4.A.7 b)"),
        (OmittedCoastTwo.FAILS, "DPTG: the move fails (DATC v2.x 4.B.1 a)"),
        (OmittedCoastOne.ONLY_COAST, "DPTG: the only possible coast (DATC v2.x 4.B.2 a)"),
        (SupportCoast.IGNORED, "DPTG: coasts in support orders are ignored (DATC v2.x 4.B.4 e)"),
        (CivilDisorderRemoval.ARMIES_AT_SEA, "DPTG: fleets as fleets, armies also at sea (DATC v2.x 4.D.8 d)"),
        (IllegalOrders.IGNORED, "the DPTG treats every well-formed order as legal (DATC v2.x 4.E.1 a), which "
                                "dipsat cannot select: illegal orders are ignored"),
    ), silent="the DPTG is silent, as DATC v2.x reads it: DATC v3.0's preference"),
)}
"""The profiles: each issue's reading and where it comes from."""

def compared_rules(profiles: str, position_words: Sequence[str] = (), overrides: Sequence[str] = ()) -> dict[str, Rules]:
    """``--compare``: comma-separated rules, each a profile and/or options joined by
    ``+`` or spaces (``2000,2000+4.A.2=d,v2:4.A.3=d``); ``all`` is every profile. An entry
    naming a profile is that profile (with the --rule options); an entry of options only
    adds them to the position's rules (`position_words`: --rules or its RULES line)."""
    if profiles.strip().lower() == "all":
        profiles = ",".join(sorted(PROFILES))
    names = [p.strip() for p in profiles.split(",") if p.strip()]
    if not names:
        raise RulesError("--compare needs rules, e.g. 1971,1982,2000,2023,datc,dptg or 2000,2000+4.A.2=d")
    out: dict[str, Rules] = {}
    for name in names:
        words = name.replace("+", " ").split()
        base: Sequence[str] = [] if any("=" not in w for w in words) else position_words
        out[name] = Rules.parse([*base, *overrides, *words])
    return out
