"""The rule options the CP-SAT model reads: DATC 4.A.1, 4.A.2, 4.A.4 and 4.A.7.

Each DATC chapter-4 issue is an enum whose members are its readings (:class:`Option`),
and the enum class is the issue's one declaration: its class keywords give the DATC
number, title, DATC v3.0's preference and the stages that read it (:class:`Issued`).
The issues the encodings read live here, so that the encodings depend on nothing
outside themselves; :mod:`dipsat.rules` holds them together with every other issue
and builds :class:`ModelOptions` from a :class:`~dipsat.rules.Rules` value.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import ClassVar


class Stage(Enum):
    """A part of the adjudication that reads a rule option."""

    PRESCAN = "prescan"  # movement/prescan.py and movement/legality.py: which orders reach the model, and how
    MODEL = "model"  # the encodings, through ModelOptions
    RETREAT = "retreat"  # retreats.py and the retreat options of phases.py
    ADJUSTMENT = "adjustment"  # adjustments.py


@dataclass(frozen=True)
class Issued:
    """What an issue's enum declares about the issue (its class keywords)."""

    number: str  # "4.A.1"
    title: str  # "multi-route convoy disruption"
    preferred: str  # the key of DATC v3.0's preference
    read_by: tuple[Stage, ...]  # the stages that read the option (none where it has one reading)


def option(text: str, v3: str | None = None, v2: str | None = None, name: str | None = None,
           aliases: tuple[str, ...] = ()) -> tuple[str | None, str | None, str | None, tuple[str, ...], str]:
    """The value of an :class:`Option` member: its DATC v3.0 letter (``v3``), its DATC
    v2.x letter (``v2``), a name where v3.0 gives it no letter, other accepted names,
    and the option as the DATC states it."""
    return v3, v2, name, aliases, text


class Option(Enum):
    """One reading of a DATC chapter-4 issue.

    The value (:attr:`key`) is the option's DATC v3.0 letter where v3.0 letters it
    (``a`` is the first option the DATC lists), else a name (``fallback``, ``2023``).
    :attr:`v2` is its letter in DATC v2.x where v2.x lists it. The member's docstring
    is the option in the DATC's words."""

    issue: ClassVar[Issued]  # set by the class keywords of an issue's enum (none for a base class)
    v3: str | None
    v2: str | None
    aliases: tuple[str, ...]

    # Members are singletons, equal only to themselves: hashed by identity, in C (Enum hashes
    # the name in Python; validation's caches, keyed by the options a phase can feel, hash
    # options by the hundred thousand). No output depends on it: names hash differently in
    # every process anyway.
    __hash__ = object.__hash__

    def __init_subclass__(cls, *, number: str | None = None, title: str = "", preferred: str = "",
                          read_by: tuple[Stage, ...] = (), **kwargs: object) -> None:
        """``class MultiRouteDisruption(Option, number="4.A.1", title=..., preferred="b",
        read_by=(Stage.PRESCAN, Stage.MODEL))``: the declaration of the issue."""
        super().__init_subclass__(**kwargs)
        if number is not None:
            cls.issue = Issued(number, title, preferred, read_by)

    def __new__(cls, v3: str | None, v2: str | None, name: str | None, aliases: tuple[str, ...],
                text: str) -> Option:
        member = object.__new__(cls)
        member._value_ = v3 or name
        member.v3 = v3
        member.v2 = v2
        member.aliases = aliases
        member.__doc__ = text
        return member

    @property
    def key(self) -> str:
        """How RULES lines, ``--rule`` and JSON name this option (``4.A.2=f``)."""
        return str(self.value)

    @property
    def text(self) -> str:
        return self.__doc__ or ""

    def __str__(self) -> str:
        return self.key


class MultiRouteDisruption(Option, number="4.A.1", title="multi-route convoy disruption", preferred="b",
                           read_by=(Stage.PRESCAN, Stage.MODEL)):
    """DATC 4.A.1 Multi-route convoy disruption: when is a convoy with several routes disrupted?"""

    ANY_ROUTE = option("The convoy is disrupted when one of the routes is disrupted (the 1971 rulebook).",
                       v3="a", v2="a", aliases=("1971",))
    EVERY_ROUTE = option("The convoy is disrupted when all of the possible routes are disrupted "
                         "(every later rulebook).", v3="b", v2="b", aliases=("1982", "2000", "2023"))
    DPTG = option("The DPTG's reading of choice a: the convoy is disrupted when one of its routes is, but "
                  "routes with foreign fleets are skipped when there is a route of the army's own fleets "
                  "(DATC v2.x 4.A.1 a; parlance).", name="dptg")

    @property
    def any_route_disrupts(self) -> bool:
        """Is the convoy disrupted as soon as one of its (remaining) routes is?"""
        return self is not MultiRouteDisruption.EVERY_ROUTE


class ConvoyParadox(Option, number="4.A.2", title="convoy disruption paradoxes", preferred="f",
                    read_by=(Stage.MODEL,)):
    """DATC 4.A.2 Convoy disruption paradoxes: the rulebooks' rules for a possibly
    disrupted convoy with no resolution or several, and the backup rules for what
    paradox they leave (a paradox as the DATC defines it, without the rulebooks'
    rules). Where a rulebook's rule leaves a paradox, dipsat settles it with the
    Szykman rule unless the option names another backup."""

    R1971 = option("The 1971 rule: \"If a convoyed army attacks a fleet which is supporting a fleet which is "
                   "attacking one of the convoy fleets, that support is not cut.\" Szykman as backup.",
                   v3="a", v2="a", aliases=("1971", "a/f"))
    R1971_ALL_HOLD = option("The 1971 rule, with the 'All Hold' rule as backup.", v3="a/d", v2="a/e",
                            aliases=("1971/allhold",))
    R1982 = option("The 1982 rule: \"If a convoyed army attacks a fleet which is supporting an action in a "
                   "body of water; and that body of water contains a convoying fleet, that support is not cut.\" "
                   "Szykman as backup (the DATC finds the rule leaves no paradox).", v3="b", v2="b",
                   aliases=("1982", "b/f"))
    R1982_ALL_HOLD = option("The 1982 rule, with the 'All Hold' rule as backup (the DATC finds the 1982 rule "
                            "leaves no paradox, so the same results as b).", v3="b/d", v2="b/e",
                            aliases=("1982/allhold",))
    R2000 = option("The 2000/2023 rule: \"A convoyed Army does not cut the support of a unit supporting an "
                   "attack against one of the fleets necessary for the army to convoy.\" Szykman as backup.",
                   v3="c", v2="c", aliases=("2000", "2023", "c/f"))
    R2000_ALL_HOLD = option("The 2000/2023 rule, with the 'All Hold' rule as backup.", v3="c/d", v2="c/e",
                            aliases=("2000/allhold",))
    ALL_HOLD = option("The 'All Hold' rule: \"If a situation arises in which an army's convoy order results in "
                      "a paradoxical adjudication, all the moves part of the paradoxical situation fail.\"",
                      v3="d", v2="e", aliases=("all_hold", "allhold"))
    SZYKMAN = option("The Szykman rule: \"If a situation arises in which an army's convoy order results in a "
                     "paradoxical adjudication, the convoying fleet(s) part of the paradox will execute a hold "
                     "order.\"", v3="f", v2="d", aliases=("szykman",))
    DPTG = option("The DPTG's refinement of 'All Hold': when the paradox has two resolutions and in one of them "
                  "all the convoys of the paradox core are disrupted, that resolution is chosen; in all other "
                  "cases the 'All Hold' rule is used.", v2="f", name="dptg")

    @property
    def rulebook_rule(self) -> ConvoyParadox | None:
        """The rulebook's exception to cutting support (R1971, R1982 or R2000), if any."""
        return _RULEBOOK_RULE.get(self)

    @property
    def backup(self) -> ConvoyParadox:
        """The rule that settles a paradox the rulebook's rule leaves: SZYKMAN, ALL_HOLD or DPTG."""
        if self in (ConvoyParadox.ALL_HOLD, ConvoyParadox.DPTG):
            return self
        if self in (ConvoyParadox.R1971_ALL_HOLD, ConvoyParadox.R1982_ALL_HOLD, ConvoyParadox.R2000_ALL_HOLD):
            return ConvoyParadox.ALL_HOLD
        return ConvoyParadox.SZYKMAN


_RULEBOOK_RULE = {
    ConvoyParadox.R1971: ConvoyParadox.R1971, ConvoyParadox.R1971_ALL_HOLD: ConvoyParadox.R1971,
    ConvoyParadox.R1982: ConvoyParadox.R1982, ConvoyParadox.R1982_ALL_HOLD: ConvoyParadox.R1982,
    ConvoyParadox.R2000: ConvoyParadox.R2000, ConvoyParadox.R2000_ALL_HOLD: ConvoyParadox.R2000,
}


class SelfAttackViaConvoy(Option, number="4.A.4", title="support cut on attack on itself via convoy",
                          preferred="a", read_by=(Stage.MODEL,)):
    """DATC 4.A.4 Support cut on attack on itself via convoy: a support for an attack
    on a unit, and that unit attacks the supporter by convoy."""

    NOT_CUT = option("The support is not cut (the attack comes from the army's own province, as Calhamer "
                     "agreed).", v3="a", v2="a", aliases=("not_cut",))
    CUT = option("The support is cut (the attack comes from the body of water).", v3="b", v2="b",
                 aliases=("cut",))


class DislodgedUnitEffect(Option, number="4.A.7", title="avoiding a head-to-head battle to bounce a unit",
                          preferred="b", read_by=(Stage.MODEL,)):
    """DATC 4.A.7 Avoiding a head-to-head battle to bounce a unit: may a dislodged unit
    still bounce a third unit in the area its attacker came from?"""

    NEVER = option("A dislodged unit has never effect on the area where the attacker departed from "
                   "(the rulebooks' words taken literally).", v3="a", v2="a", aliases=("never",))
    HEAD_TO_HEAD_ONLY = option("A dislodged unit has only no effect on the area where the attacker departed "
                               "from when it was engaged in a head-to-head battle.", v3="b", v2="b",
                               aliases=("head_to_head",))


@dataclass(frozen=True)
class ModelOptions:
    """The options the movement model reads, and only those: a field (named as in
    :class:`~dipsat.rules.Rules`) for each issue whose enum is read by :attr:`Stage.MODEL`
    (:mod:`dipsat.rules` checks this when it is imported, and fills the fields)."""

    multi_route_disruption: MultiRouteDisruption  # DATC 4.A.1
    convoy_paradox: ConvoyParadox  # DATC 4.A.2: the rulebooks' exceptions to cutting support
    self_attack_via_convoy: SelfAttackViaConvoy  # DATC 4.A.4
    dislodged_unit_effect: DislodgedUnitEffect  # DATC 4.A.7
