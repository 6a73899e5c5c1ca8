"""Rule options: typed readings per DATC chapter-4 issue, profiles, overrides, the catalogue."""

from __future__ import annotations

import dataclasses
import pickle

import pytest

from dipsat.encodings.options import ModelOptions, option
from dipsat.movement.prescan import PRESCAN_OPTIONS

from dipsat.runners.cases import case_rules
from dipsat.rules import (ISSUES, NOT_APPLICABLE, PROFILES, AdjacentConvoy, CivilDisorderRemoval, ConvoyParadox,
                          Option, Rules, RulesError, Stage, _catalogue)

from .conftest import all_cases, run


def test_every_issue_is_a_typed_field_of_rules():
    rules = Rules.profile("2000")
    for number, issue in ISSUES.items():
        reading = getattr(rules, issue.field)
        assert isinstance(reading, issue.kind) and isinstance(reading, Option)
        assert rules.option(number) is reading and rules.choice(number) == reading.key
        assert issue.preferred in issue.kind and issue.kind.__doc__.startswith(f"DATC {number} ")
        for member in issue.kind:
            assert member.text and member.__doc__ == member.text  # documented with the DATC's words


def test_profiles_and_overrides_from_text():
    rules = Rules.parse(["2000", "4.A.2=szykman", "4.a.3=fallback"])
    assert rules.convoy_paradox is ConvoyParadox.SZYKMAN
    assert rules.adjacent_convoy is AdjacentConvoy.FALLBACK
    assert rules.overrides == {"4.A.2": "f", "4.A.3": "fallback"}
    assert str(rules) == "2000 4.A.2=f 4.A.3=fallback"
    assert Rules.parse(str(rules).split()) == rules  # the text round-trips
    assert Rules.profile("2000", {"4.D.8": CivilDisorderRemoval.GODIP}).civil_disorder is CivilDisorderRemoval.GODIP
    assert Rules.profile("2000").with_options(ConvoyParadox.SZYKMAN) == Rules.profile("2000", {"4.A.2": "f"})


def test_bad_rules_are_errors_naming_what_is_selectable():
    with pytest.raises(RulesError, match="unknown rules profile 'nope'"):
        Rules.profile("nope")
    with pytest.raises(RulesError, match="unknown or not yet selectable DATC issue '4.Z.9'"):
        Rules.parse(["4.Z.9=a"])
    with pytest.raises(RulesError, match=r"DATC 4.A.5: option 'x' is not selectable \(selectable: a .*b "):
        Rules.parse(["4.A.5=x"])


def test_a_misspelt_reading_fails_at_once():
    with pytest.raises(AttributeError):
        ConvoyParadox.SZYKMANN  # noqa: B018 -- the typo a string comparison would have hidden


def test_rules_are_values():
    a, b = Rules.profile("1971"), Rules.profile("1971")
    assert a == b and hash(a) == hash(b) and pickle.loads(pickle.dumps(a)) == a
    with pytest.raises(AttributeError):
        a.convoy_paradox = ConvoyParadox.SZYKMAN  # type: ignore[misc]  # frozen


def test_profiles_say_what_each_reading_rests_on():
    for name, profile in PROFILES.items():
        rules = Rules.profile(name)
        for number, issue in ISSUES.items():
            pick = profile.pick(number)
            assert isinstance(pick.option, issue.kind) and pick.source and rules.option(number) is pick.option


def test_honest_profile_names():
    """datc is every DATC v3.0 preference; 2023 is the 2023 rulebook (its convoy rule, Szykman
    only as backup, its civil-disorder removals); 2000 differs from 2023 in civil disorder."""
    assert all(Rules.profile("datc").option(n) is issue.preferred for n, issue in ISSUES.items())
    assert Rules.profile("2023").overrides == {} and str(Rules.profile("datc", {"4.A.2": "c"})) == "datc 4.A.2=c"
    differs = lambda a, b: {n for n in ISSUES if Rules.profile(a).option(n) is not Rules.profile(b).option(n)}
    assert differs("2023", "datc") == {"4.A.2"}
    assert differs("2000", "2023") == {"4.D.8"}
    assert Rules.parse(["datc", "4.A.2=2023"]).convoy_paradox is ConvoyParadox.R2000  # the 2023 rulebook's rule
    assert Rules.profile("1971").civil_disorder is Rules.profile("1982").civil_disorder is \
        CivilDisorderRemoval.ARMIES_AT_SEA


def test_catalogue_keeps_the_letters_and_names_validate_walks():
    for number, issue in ISSUES.items():
        for key, text in issue.options.items():
            assert issue.resolve(key).key == key and text
        for alias, key in issue.names.items():
            assert issue.resolve(alias).key == key


class Undeclared(Option):
    """An enum of readings that declares no issue."""

    ONE = option("One reading.", v3="a")


class BadPreference(Option, number="4.Z.1", title="a test issue", preferred="z", read_by=(Stage.PRESCAN,)):
    """DATC 4.Z.1 A test issue whose preference names no member."""

    ONE = option("One reading.", v3="a")


@dataclasses.dataclass(frozen=True)
class RulesWithAnUndeclaredEnum:
    profile_name: str
    thing: Undeclared


@dataclasses.dataclass(frozen=True)
class RulesWithABadPreference:
    profile_name: str
    thing: BadPreference


def test_each_issue_is_declared_once_by_its_enum():
    """ISSUES comes from the Rules fields and their enums' class keywords; ModelOptions and
    the prescan's option set are the issues their stage reads."""
    assert [i.field for i in ISSUES.values()] == [f.name for f in dataclasses.fields(Rules)][1:]
    for number, issue in ISSUES.items():
        declared = issue.kind.issue
        assert (declared.number, declared.title, declared.read_by) == (number, issue.title, issue.read_by)
        assert issue.preferred.key == declared.preferred
    assert [f.name for f in dataclasses.fields(ModelOptions)] == \
        [i.field for i in ISSUES.values() if Stage.MODEL in i.read_by]
    prescan = {i.field for i in ISSUES.values() if Stage.PRESCAN in i.read_by}
    assert set(PRESCAN_OPTIONS) | {"adjacent_convoy"} == prescan
    rules = Rules.profile("dptg")
    model = {i.field: rules.option(n) for n, i in ISSUES.items() if Stage.MODEL in i.read_by}
    assert rules.model == ModelOptions(**model) and rules.model.convoy_paradox is ConvoyParadox.DPTG


def test_a_field_whose_enum_declares_no_issue_is_refused_on_import():
    with pytest.raises(TypeError, match="RulesWithAnUndeclaredEnum.thing: .*not an issue's enum"):
        _catalogue(RulesWithAnUndeclaredEnum)
    with pytest.raises(TypeError, match="BadPreference: preferred='z' names no member"):
        _catalogue(RulesWithABadPreference)


def test_model_options_are_only_what_the_model_reads():
    model = Rules.profile("1971").model
    assert model.multi_route_disruption.key == "a" and model.convoy_paradox is ConvoyParadox.R1971
    assert not hasattr(model, "civil_disorder")


def test_datc_v2_letters_select_the_same_readings():
    assert Rules.parse(["2000", "v2:4.A.2=e"]).convoy_paradox is ConvoyParadox.ALL_HOLD  # v3.0's d
    assert Rules.parse(["2000", "4.A.2=v2:d"]).convoy_paradox is ConvoyParadox.SZYKMAN  # v3.0's f
    assert Rules.parse(["2000", "v2:4.A.3=c"]).adjacent_convoy is AdjacentConvoy.R1971  # v3.0's a
    assert Rules.parse(["2000", "v2:4.A.2=f"]).convoy_paradox is ConvoyParadox.DPTG  # no v3.0 letter
    # where DATC v3.0 letters none of an issue's options, v2.x letters need no prefix
    assert Rules.parse(["2000", "4.D.8=d"]).civil_disorder is CivilDisorderRemoval.ARMIES_AT_SEA
    assert str(Rules.parse(["2000", "v2:4.A.2=e"])) == "2000 4.A.2=d"  # printed by v3.0 key
    with pytest.raises(RulesError, match=r"DATC v2.x 4.A.5: option 'x' is not selectable"):
        Rules.parse(["v2:4.A.5=x"])


# Readings no position tells apart from another one, and why.
NO_CASE = {("4.A.2", "b/d"): "the 1982 rule leaves no paradox for a backup to settle (DATC 4.A.2)"}


def test_every_option_has_a_bundled_case():
    """Each reading is the rule of some case in cases/ (options/ holds one where it changes the result)."""
    used = set()
    for case in all_cases():
        rules = case_rules(case)
        used |= {(n, rules.choice(n)) for n in ISSUES}
    missing = {(n, o.key) for n, issue in ISSUES.items() for o in issue.kind} - used
    assert missing == set(NO_CASE)


def test_dipsat_rules_lists_every_option_and_what_cannot_be_selected():


    out = run("rules").output
    for number, issue in ISSUES.items():
        block = out.split(f"\n{number}  {issue.title}\n")[1].split("\n\n")[0]
        for option in issue.kind:
            assert f"    {option.key} " in block
            if option.v2 not in (None, option.key):
                assert f"v2 {option.v2} " in block
    for key in NOT_APPLICABLE:
        assert key.split()[0] in out
    assert "4.E.1 v2 a-c" not in ISSUES and "a-c:" in out


def test_dipsat_rules_profile_prints_one_profile_in_full():


    out = run("rules", "--profile", "1982").output
    assert out.startswith("Profile 1982: the 1982 Avalon Hill rulebook")
    for number, issue in ISSUES.items():
        assert f"\n{number}  {issue.title}: {Rules.profile('1982').choice(number)}\n" in out
    assert out.count("    why: ") == len(ISSUES)
    assert "4.D.8  removing a unit in civil disorder: armies_at_sea" in out
    assert "why: the rulebook is silent: DATC v3.0's preference" in out  # e.g. 4.C.1
