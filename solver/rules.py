"""Rule options, one enum per DATC chapter-4 issue.

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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .encodings.options import (ConvoyParadox, DislodgedUnitEffect, ModelOptions, MultiRouteDisruption, Option,
                                SelfAttackViaConvoy, option)
from .errors import DipsatError

__all__ = ["AdjacentConvoy", "compared_rules", "BuildCoast", "CivilDisorderHoldSupport", "CivilDisorderRemoval", "ConvoyParadox",
           "ConvoyPathSpecification", "DEFAULT_PROFILE", "DislodgedUnitEffect", "FleetBuildInland", "ISSUES",
           "IllegalOrders", "ImplicitOrders", "ImpossibleCoast", "Issue", "MissingBuildDesignation",
           "MissingNationality", "MissingUnitDesignation", "MultipleBuilds", "MultipleOrders",
           "MultiRouteDisruption", "NOT_APPLICABLE", "OmittedCoastOne", "OmittedCoastTwo", "Option", "PROFILES", "Pick",
           "Profile",
           "RetreatAfterConvoy", "Rules", "RulesError", "SelfAttackViaConvoy", "SupportCoast", "TooManyBuilds",
           "TooManyDisbands", "UnknownCoast", "WaivingBuilds", "WrongNationality", "WrongUnitCoast",
           "WrongUnitDesignation"]


# --- 4.A convoy issues (4.A.1, 4.A.2, 4.A.4, 4.A.7 are in dipsat.encodings.options) ----------------


class AdjacentConvoy(Option):
    """DATC 4.A.3 Convoying to adjacent province: when an army could go over land or by
    convoy, which route does it take? (A route is *ordered* when fleets are ordered to
    convoy the army along a complete chain.)"""

    CONVOY_FIRST = option("Always the convoy route when one is ordered, above the land route: kidnapping is "
                          "possible, and a disrupted convoy makes the move fail.", v2="a", name="convoy_first")
    OPPOSITE = option("The land route, except when the unit at the destination moves in the opposite direction "
                      "and a convoy route is ordered: then the convoy route, even if it is disrupted "
                      "(Rod Walker's 1979 clarification of the 1971 rules).", v2="b", name="opposite")
    R1971 = option("The 1971 rulebook as the DATC reads it: the convoy route only if the unit at the destination "
                   "moves in the opposite direction and the convoy is not disrupted; else the land route.",
                   v3="a", v2="c", aliases=("1971",))
    R1982 = option("The 1982 rulebook: the route the intent shown by the player's own orders gives: the convoy "
                   "route when a fleet of the army's power is ordered to convoy it.", v3="b", aliases=("1982",))
    R2000 = option("The 2000/2023 rulebook: the convoy route if a fleet of the army's power convoys it or the "
                   "order says 'via convoy'; no land route as fallback.", v3="c", aliases=("2000", "2023"))
    FALLBACK = option("As the 2000/2023 rulebook, but the land route is the fallback when no convoy route "
                      "carries the army (none ordered, or disrupted): the DATC v3.0 asks whether 'could arrive' "
                      "means this.", name="fallback", aliases=("land_fallback",))
    INTENT = option("The 1982/2000 ruling as DATC v2.x reads it: the convoy route when a fleet of the army's "
                    "power is ordered to convoy it, or the order says 'via convoy' and a convoy route is "
                    "ordered; 'via convoy' with no convoy route ordered takes the land route (DATC v2.x 6.G.8).",
                    v2="d", name="intent")
    VIA = option("webDiplomacy's reading (not a DATC option): the convoy route only when the order says 'via "
                 "convoy' and a convoy route is ordered, else the land route; an own fleet shows no intent.",
                 name="via", aliases=("webdiplomacy", "webdip"))
    DPTG = option("Explicit adjacent convoying (the DPTG): only the land route unless the order says 'by convoy' "
                  "('via convoy'); then only the convoy route, even when there is no convoy.", v2="e",
                  name="dptg")

    @property
    def via_binds(self) -> bool:
        """Does 'via convoy' alone send the army by convoy, with no land route to fall back
        on, whatever the other orders (4.A.3 c and the DPTG)? Then an army's move written
        'via convoy' that no chain of fleets at sea could carry can never be valid, so it is
        illegal (DATC 4.E.1, 6.D.32); under the other readings it is the land move it names
        (4.E.2), or, where the destination is not adjacent, illegal as any such move is. (An
        army 'via convoy' to or from an inland province is illegal under every reading: no
        board could carry it.)"""
        return self in (AdjacentConvoy.R2000, AdjacentConvoy.DPTG)


class RetreatAfterConvoy(Option):
    """DATC 4.A.5 Retreat when dislodged by convoy: may the unit retreat to the area the
    convoyed army came from?"""

    FORBIDDEN = option("The unit may not retreat to the starting province of the attacker.", v3="a", v2="a",
                       aliases=("forbidden",))
    ALLOWED = option("The unit may retreat to the starting province of the attacker when the attack was with "
                     "convoy (the 2023 rulebook).", v3="b", v2="b", aliases=("allowed", "2023"))


class ConvoyPathSpecification(Option):
    """DATC 4.A.6 Convoy path specification: a convoyed move that writes out its path."""

    IGNORED = option("Path specifications are not allowed and if they are ordered then they are ignored.",
                     v3="a", v2="a", aliases=("ignored",))
    ALLOWED = option("Path specifications are allowed but not required: the army goes only along a written "
                     "path.", v3="b", v2="b", aliases=("allowed",))
    REQUIRED = option("Path specifications are required. The convoy fails if the order does not contain the "
                      "path.", v3="c", v2="c", aliases=("required",))


# --- 4.B coastal issues -------------------------------------------------------------------------


DEFAULT_COAST_NOTE = ("dipsat's default coast is the first coast the map lists (standard map: bul/ec, spa/nc, "
                      "stp/nc); the DATC knows no standard default coast")


class OmittedCoastTwo(Option):
    """DATC 4.B.1 Omitted coast specification in move order when two coasts are possible
    (DATC v3.0: the move fails; v2.x lists early email judges' default coast too)."""

    FAILS = option("The move fails (according to all rulebooks and the DPTG).", v2="a", name="fails")
    DEFAULT_COAST = option("A move is attempted to a default coast (some early email judges).", v2="b",
                           name="default_coast")


class OmittedCoastOne(Option):
    """DATC 4.B.2 Omitted coast specification in move order when one coast is possible."""

    ONLY_COAST = option("A move is attempted to the only possible coast (the DPTG).", v3="a", v2="a",
                        aliases=("only_coast",))
    FAILS = option("The move fails.", v3="b", v2="c", aliases=("fails",))
    DEFAULT_COAST = option("A move is attempted to a default coast; if the fleet cannot reach it, the move fails.",
                           v2="b", name="default_coast")


class ImpossibleCoast(Option):
    """DATC 4.B.3 Move order to impossible coast."""

    IGNORED = option("The coast is ignored and a move is attempted to the possible coast.", v3="a", v2="a",
                     aliases=("ignored",))
    ILLEGAL = option("The order is considered illegal.", v3="b", v2="b", aliases=("illegal",))


class SupportCoast(Option):
    """DATC 4.B.4 Coast specification in support order: may a support leave out the coast
    of the supported fleet's move?"""

    OPTIONAL = option("Coast specification is allowed, but not mandatory: if it is specified the coast must "
                      "match, otherwise the support is to all coasts.", v3="a", v2="d", aliases=("optional",))
    OWN_ONLY = option("The coast may be left out only for a unit of the supporting power (Calhamer); else the "
                      "support is void.", v3="b", aliases=("own_only",))
    REQUIRED = option("Only support orders with coast specification are admissible (orders checked when "
                      "submitted): a missing coast makes the support fail.", v3="c", v2="a",
                      aliases=("required",))
    DEFAULT_COAST = option("Coast specification is mandatory and must match; a missing coast means a default "
                           "coast.", v2="b", name="default_coast")
    UNAMBIGUOUS = option("A missing coast is a poorly written order: the support does not fail for it if the "
                         "moving fleet is of the same nationality (Calhamer, as b) or can reach only one coast.",
                         v2="c", name="unambiguous")
    IGNORED = option("Coast specification is not possible in a support order: any coast in a support order is "
                     "ignored (the DPTG).", v2="e", name="ignored")


class WrongUnitCoast(Option):
    """DATC 4.B.5 Wrong coast of ordered unit."""

    FAILS = option("The move fails.", v3="a", v2="a", aliases=("fails",))
    IGNORED = option("Such coast specification is just ignored.", v3="b", v2="b", aliases=("ignored",))


class UnknownCoast(Option):
    """DATC 4.B.6 Unknown coasts or irrelevant coasts."""

    FAILS = option("The move fails.", v3="a", v2="a", aliases=("fails",))
    IGNORED = option("Such coast specification is just ignored.", v3="b", v2="b", aliases=("ignored",))


class BuildCoast(Option):
    """DATC 4.B.7 Coast specification in build order (DATC v3.0: the build fails without
    the coast; v2.x lists a default coast too)."""

    FAILS = option("A fleet built in a multi-coast area needs its coast; without it the build fails "
                   "(according to the rulebook).", v2="a", name="fails")
    DEFAULT_COAST = option("The fleet is built on a default coast.", v2="b", name="default_coast")


# --- 4.C unit designation and nationality issues -------------------------------------------------


class DesignationReading(Option):
    """The three readings DATC 4.C.1, 4.C.2, 4.C.5 and 4.C.6 share (no members here)."""

    @property
    def invalid(self) -> bool:
        """Choice a: the order is invalid."""
        return self.v3 == "a"

    @property
    def yields(self) -> bool:
        """Choice c: valid unless the unit has another order without the flaw."""
        return self.v3 == "c"


class MissingUnitDesignation(DesignationReading):
    """DATC 4.C.1 Missing unit designation (A or F) in an order."""

    INVALID = option("The order is invalid (the unit can receive hold support).", v3="a", v2="a",
                     aliases=("invalid",))
    VALID = option("The order is still valid.", v3="b", v2="b", aliases=("valid",))
    UNLESS_OTHER = option("The order is still valid unless there is another order with the correct "
                          "designation of the unit.", v3="c", v2="c", aliases=("unless_other",))


class WrongUnitDesignation(DesignationReading):
    """DATC 4.C.2 Wrong unit designation (A for a fleet, F for an army)."""

    INVALID = option("The order is invalid (the unit can receive hold support).", v3="a", v2="a",
                     aliases=("invalid",))
    VALID = option("The order is still valid (the designation is ignored).", v3="b", v2="b",
                   aliases=("valid",))
    UNLESS_OTHER = option("The order is still valid unless there is another order with the correct "
                          "designation of the unit.", v3="c", v2="c", aliases=("unless_other",))


class MissingBuildDesignation(Option):
    """DATC 4.C.3 Missing unit designation in build order."""

    FAILS = option("The build fails always.", v3="a", v2="a", aliases=("fails",))
    LAND_ARMY = option("The build fails for coastal areas, but an army is built in a land area.", v3="b",
                       v2="b", aliases=("land_army",))
    BEST_EFFORT = option("An army is built in a land area and a fleet in a coastal area when a coast is "
                         "specified; else the build fails.", v3="c", v2="c", aliases=("best_effort",))


class FleetBuildInland(Option):
    """DATC 4.C.4 Building a fleet in a land area."""

    FAILS = option("The build fails always.", v3="a", v2="a", aliases=("fails",))
    ARMY = option("An army is built on the specified place.", v3="b", v2="b", aliases=("army",))


class MissingNationality(DesignationReading):
    """DATC 4.C.5 Missing nationality in support (or convoy) order of a foreign unit."""

    INVALID = option("The order is invalid.", v3="a", v2="a", aliases=("invalid",))
    VALID = option("The order is still valid.", v3="b", v2="b", aliases=("valid",))
    UNLESS_OTHER = option("The order is still valid unless there is another order with the correct "
                          "designation of nationality.", v3="c", v2="c", aliases=("unless_other",))


class WrongNationality(DesignationReading):
    """DATC 4.C.6 Wrong nationality in support (or convoy) order."""

    INVALID = option("The order is invalid.", v3="a", v2="a", aliases=("invalid",))
    VALID = option("The order is still valid (the nationality is ignored).", v3="b", v2="b",
                   aliases=("valid",))
    UNLESS_OTHER = option("The order is still valid unless there is another order with the correct "
                          "designation of nationality.", v3="c", v2="c", aliases=("unless_other",))


# --- 4.D too many and too few orders --------------------------------------------------------------


class MultipleOrders(Option):
    """DATC 4.D.3 Multiple orders to the same unit (illegal orders ignored first)."""

    FIRST = option("The first order is used.", v3="a", v2="a", aliases=("first",))
    LAST = option("The last order is used.", v3="b", v2="b", aliases=("last",))
    HOLD = option("The order is illegal and changed into a hold order (able to receive hold support).",
                  v3="c", v2="c", aliases=("hold",))


class TooManyBuilds(Option):
    """DATC 4.D.4 Too many build orders."""

    ALL_INVALID = option("All build orders are invalid.", v3="a", v2="a", aliases=("all_invalid",))
    FIRST = option("The first legal build orders are used.", v3="b", v2="b", aliases=("first",))
    LAST = option("The last legal build orders are used.", v3="c", v2="c", aliases=("last",))


class MultipleBuilds(Option):
    """DATC 4.D.5 Multiple build orders for one province."""

    BOTH_FAIL = option("Both build orders fail.", v3="a", v2="a", aliases=("both_fail",))
    FIRST = option("The first build order is used.", v3="b", v2="b", aliases=("first",))
    LAST = option("The last build order is used.", v3="c", v2="c", aliases=("last",))


class TooManyDisbands(Option):
    """DATC 4.D.6 Too many disband orders."""

    CIVIL_DISORDER = option("All disband orders are handled according to the civil disorder rules.",
                            v3="a", v2="a", aliases=("civil_disorder",))
    FIRST = option("The first legal disband orders are used.", v3="b", v2="b", aliases=("first",))
    LAST = option("The last legal disband orders are used.", v3="c", v2="c", aliases=("last",))


class WaivingBuilds(Option):
    """DATC 4.D.7 Waiving builds."""

    ALLOWED = option("Waiving builds is allowed (the 2000 and 2023 rulebooks).", v3="a", v2="a",
                     aliases=("allowed",))
    FORBIDDEN = option("Waiving builds is not allowed: a waive order is illegal.", v3="b", v2="b",
                       aliases=("forbidden",))


class CivilDisorderRemoval(Option):
    """DATC 4.D.8 Removing a unit in civil disorder: the unit farthest away goes first;
    ties: fleets before armies, then alphabetically (by English name, the DATC says; some
    programs use abbreviations). Distance to what, counted how? DATC v3.0 letters none
    of the readings; DATC v2.x letters the ways of counting the 1971/1982 rulebooks'
    "shortest available route, including convoys" to the home supply centres."""

    R2000 = option("The 2000 rulebook: distance to the home country (every province of it, supply centre or "
                   "not); armies and fleets both over land and sea.", name="2000")
    R2023 = option("The 2023 rulebook: distance to the nearest owned supply centre; armies and fleets both over "
                   "land and sea.", name="2023")
    CONVOY_AS_ONE = option("Distance to the home supply centres; fleets and armies only move regularly, a convoy "
                           "counts as one move and there does not need to be a fleet.", v2="a",
                           name="convoy_as_one")
    OWN_FLEETS = option("As a, but the country in civil disorder must have fleets to convoy the army.", v2="b",
                        name="own_fleets")
    ANY_FLEETS = option("As a, but there must be fleets of any country to convoy the army.", v2="c",
                        name="any_fleets")
    ARMIES_AT_SEA = option("Distance to the home supply centres; fleets only move regularly, armies may also move "
                           "as a fleet (a convoy counts one plus the fleets involved): the DPTG, DATC v2.x's "
                           "preference and the common way before 2023.", v2="d", name="armies_at_sea",
                           aliases=("dptg",))
    LAND_AND_SEA = option("Distance to the home supply centres; fleets and armies have each other's abilities "
                          "(both over land and sea, coasts irrelevant).", v2="e", name="land_and_sea")
    DIPLOMACY = option("As d (armies also at sea, fleets as fleets, to the home supply centres), but ties go by "
                       "abbreviation: the `diplomacy` package.", name="diplomacy", aliases=("dpjudge",))
    GODIP = option("As e (both over land and sea, to the home supply centres), but ties go by abbreviation: "
                   "godip (Droidippy).", name="godip", aliases=("droidippy",))

    @property
    def ties_by_abbreviation(self) -> bool:
        return self in (CivilDisorderRemoval.DIPLOMACY, CivilDisorderRemoval.GODIP)


class CivilDisorderHoldSupport(Option):
    """DATC 4.D.9 Receiving hold support in civil disorder."""

    FAILS = option("The support fails (void) for a unit of a power that gave no orders.", v3="a", v2="a",
                   aliases=("fails",))
    SUCCEEDS = option("The support succeeds.", v3="b", v2="b", aliases=("succeeds",))


# --- 4.E miscellaneous issues ---------------------------------------------------------------------


class IllegalOrders(Option):
    """DATC 4.E.1 Illegal orders: which orders are legal? An illegal order is ignored."""

    IGNORED = option("Only orders that can be valid in the current situation are legal; an illegal order is "
                     "ignored and the unit holds (DATC v3.0, and the 2023 rulebook).", v2="d", name="ignored")


class ImplicitOrders(Option):
    """DATC 4.E.3 Implicit orders: a move deduced from a support or convoy order."""

    ALLOWED = option("Implicit orders are allowed: an unordered unit its own power supports or convoys moves "
                     "as supported.", v3="a", v2="a", aliases=("allowed",))
    FORBIDDEN = option("Implicit orders are not allowed: an unordered unit holds.", v3="b", v2="b",
                       aliases=("forbidden",))


# --- the catalogue ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Issue:
    """A DATC chapter-4 issue: its number, title, the :class:`Rules` field holding it,
    its enum and the DATC v3.0 preference."""

    number: str
    title: str
    field: str
    kind: type[Option]
    preferred: Option

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


ISSUES: dict[str, Issue] = {i.number: i for i in (
    Issue("4.A.1", "multi-route convoy disruption", "multi_route_disruption", MultiRouteDisruption,
          MultiRouteDisruption.EVERY_ROUTE),
    Issue("4.A.2", "convoy disruption paradoxes", "convoy_paradox", ConvoyParadox, ConvoyParadox.SZYKMAN),
    Issue("4.A.3", "convoying to an adjacent province", "adjacent_convoy", AdjacentConvoy, AdjacentConvoy.R2000),
    Issue("4.A.4", "support cut on attack on itself via convoy", "self_attack_via_convoy", SelfAttackViaConvoy,
          SelfAttackViaConvoy.NOT_CUT),
    Issue("4.A.5", "retreat when dislodged by convoy", "retreat_after_convoy", RetreatAfterConvoy,
          RetreatAfterConvoy.ALLOWED),
    Issue("4.A.6", "convoy path specification", "convoy_path", ConvoyPathSpecification,
          ConvoyPathSpecification.IGNORED),
    Issue("4.A.7", "avoiding a head-to-head battle to bounce a unit", "dislodged_unit_effect", DislodgedUnitEffect,
          DislodgedUnitEffect.HEAD_TO_HEAD_ONLY),
    Issue("4.B.1", "omitted coast when two coasts are possible", "two_coasts_omitted", OmittedCoastTwo,
          OmittedCoastTwo.FAILS),
    Issue("4.B.2", "omitted coast when one coast is possible", "one_coast_omitted", OmittedCoastOne,
          OmittedCoastOne.ONLY_COAST),
    Issue("4.B.3", "move to an impossible coast", "impossible_coast", ImpossibleCoast, ImpossibleCoast.ILLEGAL),
    Issue("4.B.4", "coast in a support order", "support_coast", SupportCoast, SupportCoast.OPTIONAL),
    Issue("4.B.5", "wrong coast of the ordered unit", "ordered_unit_coast", WrongUnitCoast, WrongUnitCoast.IGNORED),
    Issue("4.B.6", "unknown or irrelevant coasts", "unknown_coast", UnknownCoast, UnknownCoast.IGNORED),
    Issue("4.B.7", "coast in a build order", "build_coast", BuildCoast, BuildCoast.FAILS),
    Issue("4.C.1", "missing unit designation", "missing_unit_designation", MissingUnitDesignation,
          MissingUnitDesignation.VALID),
    Issue("4.C.2", "wrong unit designation", "wrong_unit_designation", WrongUnitDesignation,
          WrongUnitDesignation.VALID),
    Issue("4.C.3", "missing unit designation in a build order", "build_designation", MissingBuildDesignation,
          MissingBuildDesignation.BEST_EFFORT),
    Issue("4.C.4", "building a fleet in a land area", "fleet_build_inland", FleetBuildInland, FleetBuildInland.FAILS),
    Issue("4.C.5", "missing nationality in a support or convoy order", "missing_nationality", MissingNationality,
          MissingNationality.VALID),
    Issue("4.C.6", "wrong nationality in a support or convoy order", "wrong_nationality", WrongNationality,
          WrongNationality.VALID),
    Issue("4.D.3", "multiple orders to the same unit", "multiple_orders", MultipleOrders, MultipleOrders.HOLD),
    Issue("4.D.4", "too many build orders", "too_many_builds", TooManyBuilds, TooManyBuilds.FIRST),
    Issue("4.D.5", "multiple build orders for one province", "builds_in_one_province", MultipleBuilds,
          MultipleBuilds.FIRST),
    Issue("4.D.6", "too many disband orders", "too_many_disbands", TooManyDisbands, TooManyDisbands.FIRST),
    Issue("4.D.7", "waiving builds", "waiving_builds", WaivingBuilds, WaivingBuilds.ALLOWED),
    Issue("4.D.8", "removing a unit in civil disorder", "civil_disorder", CivilDisorderRemoval,
          CivilDisorderRemoval.R2023),
    Issue("4.D.9", "receiving hold support in civil disorder", "civil_disorder_hold_support",
          CivilDisorderHoldSupport, CivilDisorderHoldSupport.SUCCEEDS),
    Issue("4.E.1", "illegal orders", "illegal_orders", IllegalOrders, IllegalOrders.IGNORED),
    Issue("4.E.3", "implicit orders", "implicit_orders", ImplicitOrders, ImplicitOrders.FORBIDDEN),
)}

_ISSUE_OF: dict[type[Option], Issue] = {i.kind: i for i in ISSUES.values()}

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
    return {_ISSUE_OF[type(option)].number: Pick(option, source) for option, source in picks}


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

DEFAULT_PROFILE = "2000"


class RulesError(DipsatError, ValueError):
    """An unknown profile, issue or option."""


def _v2_prefix(text: str) -> tuple[bool, str]:
    """``v2:4.A.2`` -> (True, "4.A.2"): a DATC v2.x letter follows (or precedes)."""
    text = text.strip()
    if text[:3].lower() == "v2:":
        return True, text[3:].strip()
    return False, text


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
        return cls(name, **chosen)  # type: ignore[arg-type]

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
        return getattr(self, ISSUES[number].field)  # type: ignore[no-any-return]

    def choice(self, number: str) -> str:
        """The key of the reading of issue `number` (``"f"``): for catalogue code and reports."""
        return self.option(number).key

    @property
    def model(self) -> ModelOptions:
        """The options the movement model reads."""
        return ModelOptions(self.multi_route_disruption, self.convoy_paradox, self.self_attack_via_convoy,
                            self.dislodged_unit_effect)

    @property
    def overrides(self) -> dict[str, str]:
        """Issue number -> option key, where these rules depart from their profile."""
        base = Rules.profile(self.profile_name)
        return {n: self.choice(n) for n in ISSUES if self.option(n) is not base.option(n)}

    def with_options(self, *picks: Option) -> Rules:
        """These rules with some readings replaced (the profile name stays)."""
        return dataclasses.replace(self, **{_ISSUE_OF[type(p)].field: p for p in picks})

    def __str__(self) -> str:
        extra = " ".join(f"{n}={c}" for n, c in sorted(self.overrides.items()))
        return f"{self.profile_name} {extra}".strip()


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
