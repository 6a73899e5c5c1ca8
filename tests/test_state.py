"""No hidden state: what states, maps and variants derive is their own, and goes with them."""

from __future__ import annotations

import dataclasses
import gc
import pickle
import weakref

import pytest
import dipsat
from dipsat.board import Location, Unit, UnitKind
from dipsat.setups import closed_variant, draw_after_unchanged_falls, setup_for
from dipsat.state import State


def test_replace_gives_a_state_its_own_unit_index():
    state = dipsat.load_variant("standard").initial_state()
    assert state.unit_at("par") is not None
    moved = dataclasses.replace(state, units=(Unit("France", UnitKind.ARMY, Location("bur")),))
    assert moved.unit_at("bur") is not None and moved.unit_at("par") is None
    assert state.unit_at("par") is not None and state.unit_at("bur") is None  # the original is untouched
    assert state.with_(units=()).unit_at("par") is None and state.unit_at("par") is not None


def _fresh_standard() -> dipsat.Variant:
    """A variant object nothing else holds (load_variant keeps its own for the process)."""
    variant = dipsat.load_variant("standard")
    the_map = variant.map
    fresh_map = dipsat.Map(the_map.name, the_map.provinces, the_map.army_adjacency, the_map.fleet_adjacency,
                           the_map.province_names, the_map.coast_names, the_map.coast_titles,
                           the_map.impassable, the_map.wing_adjacency)
    return dataclasses.replace(variant, map=fresh_map)


def test_a_closed_variant_is_made_once_and_kept_by_its_variant_only():
    variant = _fresh_standard()
    closed = closed_variant(variant, ("Italy",))
    assert closed_variant(variant, ("Italy",)) is closed  # the same object: maps compare by identity
    assert not closed.map.can_reach_province(UnitKind.ARMY, Location("tyr"), "ven")
    assert variant.map.can_reach_province(UnitKind.ARMY, Location("tyr"), "ven")
    gone = weakref.ref(closed), weakref.ref(closed.map), weakref.ref(variant.map)
    del variant, closed
    gc.collect()
    assert [ref() for ref in gone] == [None, None, None]  # no module cache keeps them alive


def test_a_maps_answers_go_with_the_map():
    variant = _fresh_standard()
    the_map = variant.map
    assert the_map.reachable_coasts(Location("mao"), "spa") == (Location("spa", "nc"), Location("spa", "sc"))
    assert the_map.can_reach_province(UnitKind.FLEET, Location("lyo"), "spa")
    assert the_map.convoy_routes("lon", "tun", ["eng", "mao", "wes"]) == (frozenset({"eng", "mao", "wes"}),)
    copy = pickle.loads(pickle.dumps(the_map))  # the caches are no data: a copy gets its own
    assert copy.reachable_coasts(Location("mao"), "spa") == the_map.reachable_coasts(Location("mao"), "spa")
    gone = weakref.ref(the_map)
    del variant, the_map
    gc.collect()
    assert gone() is None


def test_setups_are_read_from_the_variants_own_file_tables():
    variant = _fresh_standard()
    assert setup_for(variant, 6).neutral == ("Italy",)
    assert draw_after_unchanged_falls(variant) is None
    assert draw_after_unchanged_falls(dipsat.load_variant("modern")) == 3
    bare = dataclasses.replace(variant, tables={})
    assert setup_for(bare, None).players == 7 and draw_after_unchanged_falls(bare) is None


def test_states_and_results_show_compactly_and_as_pictures() -> None:
    """repr() stays short (it was 51 kB for the initial position), and notebooks get the
    board as SVG through _repr_svg_, as python-chess's boards do."""
    import dipsat
    state = dipsat.load_variant("standard").initial_state()
    assert repr(state) == "<State standard Spring 1901, Movement: 22 units, 22 centres owned>"
    result = dipsat.adjudicate(state, [dipsat.notation.parse_order("A par - bur", state.variant)],
                               dipsat.Rules.profile("2000"))
    assert repr(result) == ("<PhaseResult Spring 1901, Movement (rules 2000): 1 orders, 1 succeeded, 0 dislodged; "
                            "next Fall 1901, Movement>")
    drawn, with_result = state._repr_svg_(), result._repr_svg_()
    assert drawn.startswith("<svg") and with_result.startswith("<svg") and drawn != with_result


def test_units_are_sorted_by_province_then_coast_even_when_a_province_repeats():
    # an invalid position (two units in one province) keeps the (province, coast) order it had
    from dipsat.board import Location, Unit, UnitKind
    from dipsat.maps import load_variant

    variant = load_variant("standard")
    start = variant.initial_state()
    units = (Unit("France", UnitKind.FLEET, Location("spa", "sc")), Unit("Italy", UnitKind.ARMY, Location("spa")),
             Unit("England", UnitKind.FLEET, Location("nwy")), Unit("Russia", UnitKind.FLEET, Location("spa", "nc")))
    state = start.with_(units=units)
    assert [str(u.location) for u in state.units] == ["nwy", "spa", "spa/nc", "spa/sc"]
    assert [str(u.location) for u in start.with_(units=units[2:]).units] == ["nwy", "spa/nc"]


def test_with_puts_the_changed_fields_in_order_and_refuses_unknown_ones():
    """with_ (every phase makes states with it) orders only what it changes, and the new state
    equals one made from scratch, cached unit index included."""
    import dipsat

    start = State.initial(dipsat.load_variant("standard"))
    shuffled = start.with_(units=tuple(reversed(start.units)), owners=tuple(reversed(start.owners)))
    fresh = State(start.variant, start.phase, tuple(reversed(start.units)), tuple(reversed(start.owners)))
    assert shuffled == fresh == start and shuffled.units == start.units and shuffled.owners == start.owners
    assert hash(shuffled) == hash(start)
    assert shuffled.unit_at("lon") == start.unit_at("lon") and shuffled.unit_at("bur") is None
    with pytest.raises(TypeError, match="no field 'colour'"):
        start.with_(colour="red")


def test_the_states_phase_logic_makes_in_order_are_the_values_state_makes():
    """Movement, retreat and adjustment phases make the next state from collections kept in
    their one order (State.in_order, no sorting again): each must be the value State(...)
    makes of the same collections in any order, and carry no derived fact of another state."""
    from pathlib import Path

    from dipsat.runners.bench import corpus_phases, corpus_texts

    corpus = Path(__file__).resolve().parent.parent / "cases" / "corpus" / "random_games.jsonl.gz"
    phases = corpus_phases(corpus_texts([str(corpus)])[:3], dipsat.Rules.profile("2000"))
    kinds = set()
    for p in phases:
        after = dipsat.adjudicate(p.state, p.orders, p.rules).after
        kinds.add(p.state.phase.kind)
        made = State(after.variant, after.phase, after.units[::-1], after.owners[::-1], after.dislodged[::-1],
                     after.standoffs)
        assert (made.units, made.owners, made.dislodged) == (after.units, after.owners, after.dislodged), p.key
        assert made == after and hash(made) == hash(after)
        assert set(vars(after)) == {f.name for f in dataclasses.fields(State)}, p.key  # nothing cached carried over
    assert len(kinds) == 3  # movement, retreat and adjustment phases
