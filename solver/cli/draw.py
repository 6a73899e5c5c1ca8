"""``dipsat draw`` and the picture output of the other commands (``--format svg|png``).

    dipsat draw POSITION [ORDERS]            a position, or a position with orders (not adjudicated)
    dipsat adjudicate ... --format svg        the phase with every order's result
    dipsat game show GAME.json --phase S1902M --format svg
    dipsat cases PATH --svg DIR               before/after pictures of each failing case
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ..printers import pictures
from ..printers.pictures import FORMATS, PictureError

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ..orders import Order
    from ..results import PhaseResult
    from ..rules import Rules
    from .positions import _Position
    from ..state import State


def _board(*args: Any, **kwargs: Any) -> str:
    try:
        return pictures.board(*args, **kwargs)
    except PictureError as exc:
        raise click.ClickException(str(exc)) from None


def render(text: str, fmt: str) -> bytes:
    try:
        return pictures.render(text, fmt)
    except PictureError as exc:
        raise click.ClickException(str(exc)) from None


def write_picture(text: str, fmt: str, output: str | None) -> None:
    """Write the picture to `output` (a file) or to standard output."""
    data = render(text, fmt)
    if output:
        try:
            Path(output).write_bytes(data)
        except OSError as exc:
            click.echo(f"{output}: cannot write: {exc.strerror or exc}", err=True)
            sys.exit(2)
        return
    if fmt == "png" and sys.stdout.isatty():
        raise click.UsageError("a PNG is not for the terminal: give -o FILE or redirect the output")
    sys.stdout.buffer.write(data)
    sys.stdout.flush()


def result_picture(result: PhaseResult, name: str, crop: bool, area: str | None = None,
                   size: int | None = None) -> str:
    """The picture of a result; `area` as --area gives it (None: a corner for a case, else the map)."""
    try:
        return pictures.result_picture(result, name, crop, _area(area, crop), size)
    except PictureError as exc:
        raise click.ClickException(str(exc)) from None
    except ValueError as exc:
        raise click.UsageError(f"--area: {exc}") from None


def state_picture(state: State, name: str, crop: bool, area: str | None = None, size: int | None = None,
                  rules: Rules | None = None) -> str:
    """The picture of a position alone; a retreat phase's options are worked out under `rules`."""
    from ..phases import retreat_choices

    options = retreat_choices(state, rules) if rules is not None else None
    try:
        return pictures.state_picture(state, name, crop, _area(area, crop), size, options)
    except PictureError as exc:
        raise click.ClickException(str(exc)) from None
    except ValueError as exc:
        raise click.UsageError(f"--area: {exc}") from None


AREA_HELP = ("auto: the provinces the units and orders touch (default for case files; in a retreat phase the "
             "dislodged units and where they may go); full: the whole map (default otherwise); or province ids, "
             "e.g. bur,mun,par.")
area_option = click.option("--area", default=None, metavar="auto|full|IDS", help=AREA_HELP)
"""--area of the commands that draw (draw, adjudicate --format svg|png)."""
size_option = click.option("--size", type=click.IntRange(64, 8192), default=None,
                           help="Width of a picture in pixels (64 to 8192; default 760 for a corner, 1000 for the "
                                "whole map, wider for a map whose units would be smaller, such as Modern).")


@click.command("draw")
@click.argument("position", required=False, metavar="POSITION")
@click.argument("orders_path", required=False, metavar="[ORDERS]")
@click.option("--case", "case_id", metavar="ID", help="The case of a case file to draw (default: its first).")
@click.option("--initial", is_flag=True, help="The variant's initial position (then the only argument is ORDERS).")
@click.option("--variant", "variant_name", default="standard", show_default=True, help="The variant of --initial.")
@click.option("--no-orders", is_flag=True, help="Draw the position alone, without the case's ORDERS.")
@click.option("--results", is_flag=True,
              help="Adjudicate the orders (under the case's or JSON result's rules, or --rules) and draw every "
                   "result, as adjudicate --format svg does: e.g. draw RESULT.json --results.")
@click.option("--rules", "profile", default=None, metavar="PROFILE",
              help="The rules of --results, and of a retreat phase's options (e.g. 2000; default: the case's).")
@area_option
@size_option
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="svg", show_default=True)
@click.option("-o", "--output", metavar="FILE", help="Write the picture to FILE (default: standard output).")
def draw_command(position: str | None, orders_path: str | None, case_id: str | None, initial: bool,
                 variant_name: str, no_orders: bool, results: bool, profile: str | None, area: str | None,
                 size: int | None, fmt: str, output: str | None) -> None:
    """Draw a position, alone or with orders (not adjudicated), or with --results every order's
    result, as SVG or PNG.

    POSITION is read as `dipsat adjudicate` reads it: a case file (its first case, or --case
    ID; its ORDERS are drawn unless --no-orders or an ORDERS file is given) or a dipsat JSON
    state or result (a result's position and orders; with --results, adjudicated again under
    its rules: the same result). ORDERS is a file with one order per line, or - for stdin.
    """
    from .positions import _initial_position, _input_or_exit, _load_position, _position_arguments, _read_orders, _warn
    from ..phases import retreat_choices

    position, orders_path = _position_arguments(position, orders_path, initial)
    with _input_or_exit():
        phase = _result_phase(position) if results and position and not initial and case_id is None else None
        pos = (_initial_position(variant_name) if initial or position is None
               else phase or _load_position(position, case_id))
        orders, rejected = _read_orders(orders_path, pos.state) if orders_path is not None else (
            pos.orders or [], pos.rejected)
    for line in rejected:
        _warn(f"{line} (order skipped)")
    if no_orders:
        orders = []
    crop = not initial and not str(position).lower().endswith(".json")
    if results:
        write_picture(result_picture(_adjudicated(pos, orders, profile), pos.name, crop, area, size), fmt, output)
        return
    chosen = _area(area, crop)
    title = f"{pos.name}: {pos.state.phase}" + (" (orders not adjudicated)" if orders else "")
    try:
        text = _board(pos.state, orders=orders, area=chosen, size=size, title=title,
                      retreat_options=retreat_choices(pos.state, _rules(pos, profile)))
    except ValueError as exc:
        raise click.UsageError(f"--area: {exc}") from None
    write_picture(text, fmt, output)


def _result_phase(path: str) -> _Position | None:
    """A dipsat JSON result as the phase it judged (its ``before`` state, its orders in the order
    given, its rules), for --results; None for any other file (read as a position)."""
    import json

    from .positions import _json_position, _read_text

    if not path.lower().endswith(".json"):
        return None
    text = _read_text(path)
    try:
        data = json.loads(text)
    except ValueError:
        return None  # reported as the position's error
    if not isinstance(data, dict) or data.get("type") != "result" or not isinstance(data.get("before"), dict):
        return None
    given = sorted((o for o in data.get("orders", []) if isinstance(o, dict) and "order" in o),
                   key=lambda o: o.get("index", 0))
    state = {"format": data.get("format"), "type": "state", **data["before"], "orders": [o["order"] for o in given]}
    if "rules" in data:
        state["rules"] = data["rules"]
    return _json_position(path, json.dumps(state))


def _rules(pos: _Position, profile: str | None) -> Rules:
    """The rules a picture is drawn under: --rules, else the position's own (a case's RULES)."""
    from ..rules import Rules, RulesError

    try:
        return Rules.parse([profile] if profile else list(pos.rule_words))
    except RulesError as exc:
        raise click.UsageError(f"--rules: {exc}") from None


def _adjudicated(pos: _Position, orders: Sequence[Order], profile: str | None) -> PhaseResult:
    """--results: the phase adjudicated as `dipsat adjudicate` does it."""
    from ..adjudicator import adjudicate

    return adjudicate(pos.state, list(orders), _rules(pos, profile), pos.silent)


def _area(text: str | None, crop: bool) -> str | list[str] | None:
    if text is None:
        return "auto" if crop else None
    if text in ("full", "auto"):
        return text
    return [p.strip().lower() for p in text.split(",") if p.strip()]


__all__ = ["draw_command", "render", "result_picture", "state_picture", "write_picture"]
