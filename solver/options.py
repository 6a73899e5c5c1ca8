"""The rule options no model constraint reads: DATC 4.A.3, 4.A.5, 4.A.6 and the issues of
4.B-4.E, one enum per issue (4.A.1, 4.A.2, 4.A.4 and 4.A.7, which the CP-SAT model reads,
are in :mod:`dipsat.encodings.options`).

Each enum is its issue's one declaration: the members are the readings, each with the
DATC's words (:func:`~dipsat.encodings.options.option`), and the class keywords give the
DATC number, the title, DATC v3.0's preference and the stages that read the option
(:class:`~dipsat.encodings.options.Issued`). :mod:`dipsat.rules` builds the catalogue,
the :class:`~dipsat.rules.Rules` checks and the stages' option sets from them.
"""

from __future__ import annotations

from .encodings.options import Option, Stage, option

__all__ = ["AdjacentConvoy", "BuildCoast", "CivilDisorderHoldSupport", "CivilDisorderRemoval",
           "ConvoyPathSpecification", "DesignationReading", "FleetBuildInland", "IllegalOrders", "ImplicitOrders",
           "ImpossibleCoast", "MissingBuildDesignation", "MissingNationality", "MissingUnitDesignation",
           "MultipleBuilds", "MultipleOrders", "OmittedCoastOne", "OmittedCoastTwo", "RetreatAfterConvoy",
           "SupportCoast", "TooManyBuilds", "TooManyDisbands", "UnknownCoast", "WaivingBuilds", "WrongNationality",
           "WrongUnitCoast", "WrongUnitDesignation"]

_PRESCAN = (Stage.PRESCAN,)
_ADJUSTMENT = (Stage.ADJUSTMENT,)


class AdjacentConvoy(Option, number="4.A.3", title="convoying to an adjacent province", preferred="c",
                     read_by=_PRESCAN):
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
    INTENT_FALLBACK = option("The `diplomacy` package's reading (not a DATC option): the route as 4.A.3 intent "
                             "gives it, and an army sent by convoy only because a fleet of its own power convoys "
                             "it takes the land route when no convoy route carries it; an order that says 'via "
                             "convoy' has no such fallback, nor has an army whose destination's unit supports an "
                             "attack on a fleet of its convoy (its land route would cut that support and so make "
                             "the convoy possible: DATC 6.G.11, where the DATC prefers no fallback).",
                             name="intent_fallback")
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


class RetreatAfterConvoy(Option, number="4.A.5", title="retreat when dislodged by convoy", preferred="b",
                         read_by=(Stage.RETREAT,)):
    """DATC 4.A.5 Retreat when dislodged by convoy: may the unit retreat to the area the
    convoyed army came from?"""

    FORBIDDEN = option("The unit may not retreat to the starting province of the attacker.", v3="a", v2="a",
                       aliases=("forbidden",))
    ALLOWED = option("The unit may retreat to the starting province of the attacker when the attack was with "
                     "convoy (the 2023 rulebook).", v3="b", v2="b", aliases=("allowed", "2023"))


class ConvoyPathSpecification(Option, number="4.A.6", title="convoy path specification", preferred="a",
                              read_by=_PRESCAN):
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


class OmittedCoastTwo(Option, number="4.B.1", title="omitted coast when two coasts are possible",
                      preferred="fails", read_by=(Stage.PRESCAN, Stage.RETREAT)):
    """DATC 4.B.1 Omitted coast specification in move order when two coasts are possible
    (DATC v3.0: the move fails; v2.x lists early email judges' default coast too)."""

    FAILS = option("The move fails (according to all rulebooks and the DPTG).", v2="a", name="fails")
    DEFAULT_COAST = option("A move is attempted to a default coast (some early email judges).", v2="b",
                           name="default_coast")


class OmittedCoastOne(Option, number="4.B.2", title="omitted coast when one coast is possible", preferred="a",
                      read_by=(Stage.PRESCAN, Stage.RETREAT)):
    """DATC 4.B.2 Omitted coast specification in move order when one coast is possible."""

    ONLY_COAST = option("A move is attempted to the only possible coast (the DPTG).", v3="a", v2="a",
                        aliases=("only_coast",))
    FAILS = option("The move fails.", v3="b", v2="c", aliases=("fails",))
    DEFAULT_COAST = option("A move is attempted to a default coast; if the fleet cannot reach it, the move fails.",
                           v2="b", name="default_coast")


class ImpossibleCoast(Option, number="4.B.3", title="move to an impossible coast", preferred="b",
                      read_by=(Stage.PRESCAN, Stage.RETREAT)):
    """DATC 4.B.3 Move order to impossible coast."""

    IGNORED = option("The coast is ignored and a move is attempted to the possible coast.", v3="a", v2="a",
                     aliases=("ignored",))
    ILLEGAL = option("The order is considered illegal.", v3="b", v2="b", aliases=("illegal",))


class SupportCoast(Option, number="4.B.4", title="coast in a support order", preferred="a", read_by=_PRESCAN):
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


class WrongUnitCoast(Option, number="4.B.5", title="wrong coast of the ordered unit", preferred="b",
                     read_by=_PRESCAN):
    """DATC 4.B.5 Wrong coast of ordered unit."""

    FAILS = option("The move fails.", v3="a", v2="a", aliases=("fails",))
    IGNORED = option("Such coast specification is just ignored.", v3="b", v2="b", aliases=("ignored",))


class UnknownCoast(Option, number="4.B.6", title="unknown or irrelevant coasts", preferred="b", read_by=_PRESCAN):
    """DATC 4.B.6 Unknown coasts or irrelevant coasts."""

    FAILS = option("The move fails.", v3="a", v2="a", aliases=("fails",))
    IGNORED = option("Such coast specification is just ignored.", v3="b", v2="b", aliases=("ignored",))


class BuildCoast(Option, number="4.B.7", title="coast in a build order", preferred="fails", read_by=_ADJUSTMENT):
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


class MissingUnitDesignation(DesignationReading, number="4.C.1", title="missing unit designation", preferred="b",
                             read_by=_PRESCAN):
    """DATC 4.C.1 Missing unit designation (A or F) in an order."""

    INVALID = option("The order is invalid (the unit can receive hold support).", v3="a", v2="a",
                     aliases=("invalid",))
    VALID = option("The order is still valid.", v3="b", v2="b", aliases=("valid",))
    UNLESS_OTHER = option("The order is still valid unless there is another order with the correct "
                          "designation of the unit.", v3="c", v2="c", aliases=("unless_other",))


class WrongUnitDesignation(DesignationReading, number="4.C.2", title="wrong unit designation", preferred="b",
                           read_by=_PRESCAN):
    """DATC 4.C.2 Wrong unit designation (A for a fleet, F for an army)."""

    INVALID = option("The order is invalid (the unit can receive hold support).", v3="a", v2="a",
                     aliases=("invalid",))
    VALID = option("The order is still valid (the designation is ignored).", v3="b", v2="b",
                   aliases=("valid",))
    UNLESS_OTHER = option("The order is still valid unless there is another order with the correct "
                          "designation of the unit.", v3="c", v2="c", aliases=("unless_other",))


class MissingBuildDesignation(Option, number="4.C.3", title="missing unit designation in a build order",
                              preferred="c", read_by=_ADJUSTMENT):
    """DATC 4.C.3 Missing unit designation in build order."""

    FAILS = option("The build fails always.", v3="a", v2="a", aliases=("fails",))
    LAND_ARMY = option("The build fails for coastal areas, but an army is built in a land area.", v3="b",
                       v2="b", aliases=("land_army",))
    BEST_EFFORT = option("An army is built in a land area and a fleet in a coastal area when a coast is "
                         "specified; else the build fails.", v3="c", v2="c", aliases=("best_effort",))


class FleetBuildInland(Option, number="4.C.4", title="building a fleet in a land area", preferred="a",
                       read_by=_ADJUSTMENT):
    """DATC 4.C.4 Building a fleet in a land area."""

    FAILS = option("The build fails always.", v3="a", v2="a", aliases=("fails",))
    ARMY = option("An army is built on the specified place.", v3="b", v2="b", aliases=("army",))


class MissingNationality(DesignationReading, number="4.C.5", title="missing nationality in a support or convoy order",
                         preferred="b", read_by=_PRESCAN):
    """DATC 4.C.5 Missing nationality in support (or convoy) order of a foreign unit."""

    INVALID = option("The order is invalid.", v3="a", v2="a", aliases=("invalid",))
    VALID = option("The order is still valid.", v3="b", v2="b", aliases=("valid",))
    UNLESS_OTHER = option("The order is still valid unless there is another order with the correct "
                          "designation of nationality.", v3="c", v2="c", aliases=("unless_other",))


class WrongNationality(DesignationReading, number="4.C.6", title="wrong nationality in a support or convoy order",
                       preferred="b", read_by=_PRESCAN):
    """DATC 4.C.6 Wrong nationality in support (or convoy) order."""

    INVALID = option("The order is invalid.", v3="a", v2="a", aliases=("invalid",))
    VALID = option("The order is still valid (the nationality is ignored).", v3="b", v2="b",
                   aliases=("valid",))
    UNLESS_OTHER = option("The order is still valid unless there is another order with the correct "
                          "designation of nationality.", v3="c", v2="c", aliases=("unless_other",))


# --- 4.D too many and too few orders --------------------------------------------------------------


class MultipleOrders(Option, number="4.D.3", title="multiple orders to the same unit", preferred="c",
                     read_by=(Stage.PRESCAN, Stage.RETREAT)):
    """DATC 4.D.3 Multiple orders to the same unit (illegal orders ignored first)."""

    FIRST = option("The first order is used.", v3="a", v2="a", aliases=("first",))
    LAST = option("The last order is used.", v3="b", v2="b", aliases=("last",))
    HOLD = option("The order is illegal and changed into a hold order (able to receive hold support).",
                  v3="c", v2="c", aliases=("hold",))


class TooManyBuilds(Option, number="4.D.4", title="too many build orders", preferred="b", read_by=_ADJUSTMENT):
    """DATC 4.D.4 Too many build orders."""

    ALL_INVALID = option("All build orders are invalid.", v3="a", v2="a", aliases=("all_invalid",))
    FIRST = option("The first legal build orders are used.", v3="b", v2="b", aliases=("first",))
    LAST = option("The last legal build orders are used.", v3="c", v2="c", aliases=("last",))


class MultipleBuilds(Option, number="4.D.5", title="multiple build orders for one province", preferred="b",
                     read_by=_ADJUSTMENT):
    """DATC 4.D.5 Multiple build orders for one province."""

    BOTH_FAIL = option("Both build orders fail.", v3="a", v2="a", aliases=("both_fail",))
    FIRST = option("The first build order is used.", v3="b", v2="b", aliases=("first",))
    LAST = option("The last build order is used.", v3="c", v2="c", aliases=("last",))


class TooManyDisbands(Option, number="4.D.6", title="too many disband orders", preferred="b", read_by=_ADJUSTMENT):
    """DATC 4.D.6 Too many disband orders."""

    CIVIL_DISORDER = option("All disband orders are handled according to the civil disorder rules.",
                            v3="a", v2="a", aliases=("civil_disorder",))
    FIRST = option("The first legal disband orders are used.", v3="b", v2="b", aliases=("first",))
    LAST = option("The last legal disband orders are used.", v3="c", v2="c", aliases=("last",))


class WaivingBuilds(Option, number="4.D.7", title="waiving builds", preferred="a", read_by=_ADJUSTMENT):
    """DATC 4.D.7 Waiving builds."""

    ALLOWED = option("Waiving builds is allowed (the 2000 and 2023 rulebooks).", v3="a", v2="a",
                     aliases=("allowed",))
    FORBIDDEN = option("Waiving builds is not allowed: a waive order is illegal.", v3="b", v2="b",
                       aliases=("forbidden",))


class CivilDisorderRemoval(Option, number="4.D.8", title="removing a unit in civil disorder", preferred="2023",
                           read_by=_ADJUSTMENT):
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


class CivilDisorderHoldSupport(Option, number="4.D.9", title="receiving hold support in civil disorder",
                               preferred="b", read_by=_PRESCAN):
    """DATC 4.D.9 Receiving hold support in civil disorder."""

    FAILS = option("The support fails (void) for a unit of a power that gave no orders.", v3="a", v2="a",
                   aliases=("fails",))
    SUCCEEDS = option("The support succeeds.", v3="b", v2="b", aliases=("succeeds",))


# --- 4.E miscellaneous issues ---------------------------------------------------------------------


class IllegalOrders(Option, number="4.E.1", title="illegal orders", preferred="ignored", read_by=()):
    """DATC 4.E.1 Illegal orders: which orders are legal? An illegal order is ignored."""

    IGNORED = option("Only orders that can be valid in the current situation are legal; an illegal order is "
                     "ignored and the unit holds (DATC v3.0, and the 2023 rulebook).", v2="d", name="ignored")


class ImplicitOrders(Option, number="4.E.3", title="implicit orders", preferred="b", read_by=_PRESCAN):
    """DATC 4.E.3 Implicit orders: a move deduced from a support or convoy order."""

    ALLOWED = option("Implicit orders are allowed: an unordered unit its own power supports or convoys moves "
                     "as supported.", v3="a", v2="a", aliases=("allowed",))
    FORBIDDEN = option("Implicit orders are not allowed: an unordered unit holds.", v3="b", v2="b",
                       aliases=("forbidden",))
