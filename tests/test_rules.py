"""Rule options: typed readings per DATC chapter-4 issue, profiles, overrides, the catalogue."""

from __future__ import annotations

import pickle

import pytest

from dipsat.rules import (ISSUES, PROFILES, AdjacentConvoy, CivilDisorderRemoval, ConvoyParadox, Option, Rules,
                          RulesError)


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


def test_profiles_name_known_readings_once_per_issue():
    for name, picks in PROFILES.items():
        kinds = [type(p) for p in picks]
        assert len(kinds) == len(set(kinds)), name
        Rules.profile(name)


def test_catalogue_keeps_the_letters_and_names_validate_walks():
    for number, issue in ISSUES.items():
        for key, text in issue.options.items():
            assert issue.resolve(key).key == key and text
        for alias, key in issue.names.items():
            assert issue.resolve(alias).key == key


def test_model_options_are_only_what_the_model_reads():
    model = Rules.profile("1971").model
    assert model.multi_route_disruption.key == "a" and model.convoy_paradox is ConvoyParadox.R1971
    assert not hasattr(model, "civil_disorder")
