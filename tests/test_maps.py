"""The map data files pass their consistency checks and load through dipsat."""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

import pytest

import dipsat
from dipsat.maps import load_variant_file

CHECKS = Path(__file__).resolve().parent / "maps"


@pytest.mark.parametrize("name", ["standard", "modern"])
def test_map_file_checks(name, monkeypatch):
    # run as `python3 tests/maps/check_<name>.py` would: argv as there, and the script's
    # folder on sys.path so that its `import mapcheck` finds the shared checks
    monkeypatch.setattr(sys, "argv", [f"check_{name}.py"])
    monkeypatch.syspath_prepend(str(CHECKS))
    runpy.run_path(str(CHECKS / f"check_{name}.py"), run_name="__main__")


def test_standard_variant_facts():
    v = dipsat.load_variant("standard")
    assert len(v.map.provinces) == 75 and len(v.centres) == 34
    assert v.start_year == 1901 and v.victory_centres == 18
    assert [p.name for p in v.powers] == ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"]
    assert v.map.can_move(dipsat.UnitKind.FLEET, dipsat.Location("kie"), dipsat.Location("bal"))  # Kiel canal
    assert v.map.can_move(dipsat.UnitKind.FLEET, dipsat.Location("con"), dipsat.Location("bul", "ec"))
    assert not v.map.can_move(dipsat.UnitKind.FLEET, dipsat.Location("cly"), dipsat.Location("iri"))
    assert "swi" not in v.map.provinces


def test_modern_variant_facts():
    v = dipsat.load_variant("modern")
    assert len(v.centres) == 64 and len(v.powers) == 10
    assert v.start_year == 1995 and v.victory_centres == 34 and v.wings
    wings = [u for p in v.powers for u in p.units if u.kind is dipsat.UnitKind.WING]
    assert len(wings) == 3


def test_bad_map_file_names_the_key(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('[variant]\nname="x"\nstart_year=1901\nvictory_centres=1\n'
                   '[provinces]\naaa = { name = "A", kind = "land" }\n'
                   '[adjacency]\narmy = ["aaa zzz"]\n[[powers]]\nname = "P"\n')
    with pytest.raises(dipsat.MapError, match=r"bad.toml: \[adjacency.army\] unknown province 'zzz'"):
        load_variant_file(bad)


@pytest.mark.parametrize("name", ["/etc/hostname", "../maps/standard", "some/dir/evil", "standard.toml", "x" * 300, ""])
def test_only_bundled_variants_are_loaded_by_name(name):
    """Issue 12 item 10: a variant name read from a file was used as a path."""
    with pytest.raises(dipsat.MapError, match=r"^unknown variant .* \(known: modern, standard\)$"):
        dipsat.load_variant(name)
