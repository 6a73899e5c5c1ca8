"""``dipsat map`` and ``dipsat orders``: the map reference and a unit's legal orders.

    dipsat map [--variant modern] [PROVINCE...]      provinces, names, coasts, centres, adjacency
    dipsat orders POSITION --unit "F lon"            every legal order of one unit there
"""

from __future__ import annotations

import sys

import click

from ..errors import NotationError
from ..rules import PROFILES, Rules


@click.command("map")
@click.argument("provinces", nargs=-1, metavar="[PROVINCE]...")
@click.option("--variant", "variant_name", default="standard", show_default=True,
              help="standard, modern, or DATC_Standard (the standard map with wings).")
def map_command(provinces: tuple[str, ...], variant_name: str) -> None:
    """The map: every province with its full name and every other name the map knows
    (English, German, Dutch, rulebook abbreviations), kind, coasts, supply centre and home
    power, and its neighbours for armies, fleets (per coast) and wings; the powers with
    their home centres and names; the coasts; the impassable areas. With PROVINCE
    names, only those provinces."""
    from .positions import _initial_position, _input_or_exit
    from ..maps import fold
    from ..notation import parse_location
    from ..printers.reference import map_lines

    with _input_or_exit():
        variant = _initial_position(variant_name).state.variant
    chosen = None
    if provinces:
        chosen = []
        for name in provinces:
            closed = variant.map.impassable.get(fold(name))  # Switzerland is listed too
            try:
                chosen.append(closed or parse_location(name, variant).province)
            except NotationError as exc:
                raise click.BadParameter(str(exc), param_hint="PROVINCE") from None
        chosen = list(dict.fromkeys(chosen))
    for line in map_lines(variant, chosen):
        click.echo(line)


@click.command("orders")
@click.argument("position", required=False, metavar="POSITION")
@click.option("--unit", "unit_text", required=True, metavar="UNIT",
              help='The unit, as in an order: "F lon", "A Munich", "F stp/sc" (the kind may be left out).')
@click.option("--case", "case_id", metavar="ID", help="The case of a case file to use (default: its first).")
@click.option("--initial", is_flag=True, help="The variant's initial position (then give no POSITION).")
@click.option("--variant", "variant_name", default="standard", show_default=True, help="The variant of --initial.")
@click.option("--rules", "profile", type=click.Choice(sorted(PROFILES)), default=None,
              help="Rules profile (default: the case's RULES line, else 2000); coasts depend on it (DATC 4.B).")
@click.option("--rule", "overrides", multiple=True, metavar="ISSUE=CHOICE", help="Override one DATC issue (repeatable).")
def orders_command(position: str | None, unit_text: str, case_id: str | None, initial: bool, variant_name: str,
                   profile: str | None, overrides: tuple[str, ...]) -> None:
    """Every legal order of one unit in POSITION (read as `dipsat adjudicate` reads it: a
    case file, or a dipsat JSON state): in a movement phase its hold, its moves (armies also
    by convoy where fleets now at sea could carry them), its supports of every unit it
    could support and, for a fleet at sea, its convoys; in a retreat phase its retreats;
    in an adjustment phase its removal. Legality is the adjudicator's own (DATC 4.E.1):
    an order not listed is illegal, and adjudicating it makes the unit hold."""
    from .positions import _initial_position, _input_or_exit, _load_position, _warn
    from ..notation import format_order, parse_order
    from ..printers.reference import legal_orders

    if initial == (position is not None):
        raise click.UsageError("give a POSITION (a case file or a .json state), or --initial")
    with _input_or_exit():
        pos = _initial_position(variant_name) if initial or position is None else _load_position(position, case_id)
        rules = Rules.parse(([profile] if profile else list(pos.rule_words)) + list(overrides))
    state = pos.state
    try:
        ref = parse_order(f"{unit_text} H", state.variant).unit  # type: ignore[union-attr]
    except NotationError as exc:  # said of what was given, not of the hold order it was read as
        hint = f"; {exc.hint}" if exc.hint else ""
        found = f"found {exc.found!r}" if exc.found and exc.found != "H" else "found nothing"
        expected = exc.expected if exc.position < len(unit_text) + 1 else "a unit like 'F lon' or 'A par'"
        raise click.BadParameter(f"{unit_text!r}: expected {expected}, {found}{hint}", param_hint="--unit") from None
    except AttributeError:
        raise click.BadParameter(f"{unit_text!r}: expected a unit like 'F lon' or 'A par'", param_hint="--unit") from None
    units = [d.unit for d in state.dislodged] if state.phase.kind.name == "RETREAT" else list(state.units)
    unit = next((u for u in units if u.province == ref.province), None)
    if unit is None:
        where = "dislodged units" if state.phase.kind.name == "RETREAT" else "units"
        listed = ", ".join(f"{u.kind} {u.location}" for u in units) or "none"
        _warn(f"--unit: no unit in {ref.province} in {pos.name} ({where}: {listed})")
        sys.exit(2)
    if ref.kind is not None and ref.kind is not unit.kind:
        _warn(f"--unit: the unit in {unit.province} is {unit.kind} {unit.location} (listed for it)")
    orders = legal_orders(state, unit, rules)
    click.echo(f"{pos.name}: {state.phase} (rules {rules}): {unit}: {len(orders)} legal order"
               + ("s" if len(orders) != 1 else ""))
    for order in orders:
        click.echo(f"  {format_order(order, with_power=False)}")


__all__ = ["map_command", "orders_command"]
