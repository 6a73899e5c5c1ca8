"""``dipsat game``: whole games in one JSON file (``docs/game.md``).

    dipsat game new --variant modern GAME.json       a new game at its first phase
    dipsat game turn GAME.json ORDERS                 adjudicate the current phase, advance
    dipsat game show GAME.json [--phase S1902M]       position, centres, history; one phase
"""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

from typing import TYPE_CHECKING

import click

from ..board import PhaseKind
from ..errors import DipsatError
from ..rules import DEFAULT_PROFILE, PROFILES, Rules, RulesError

if TYPE_CHECKING:
    from ..game import Game, PhaseRecord
    from ..results import PhaseResult

# The commands import the game logic when they run (`dipsat --help` stays fast).


def _fail(message: str, code: int = 2) -> None:
    click.echo(message, err=True)
    sys.exit(code)


@click.group("game")
def game() -> None:
    """Play whole games: new, turn, show (one JSON file per game, docs/game.md)."""


@game.command("new")
@click.argument("path", metavar="GAME.json")
@click.option("--variant", "variant_name", default="standard", show_default=True,
              help="standard, modern, or DATC_Standard (the standard map with wings).")
@click.option("--players", type=int, default=None,
              help="Player count (standard: 2-7, seed 000's set-ups; default: one player per power).")
@click.option("--seed", type=int, default=0, show_default=True, help="Seeds every chance event (the 2-player coin).")
@click.option("--rules", "profile", type=click.Choice(sorted(PROFILES)), default=DEFAULT_PROFILE, show_default=True,
              help="Rules profile for every phase of the game.")
@click.option("--rule", "overrides", multiple=True, metavar="ISSUE=CHOICE", help="Override one DATC issue (repeatable).")
@click.option("--force", is_flag=True, help="Overwrite GAME.json if it exists.")
def new_command(path: str, variant_name: str, players: int | None, seed: int, profile: str,
                overrides: tuple[str, ...], force: bool) -> None:
    """Start a game at the variant's (or the set-up's) first phase and save it to GAME.json."""
    from ..game import new_game

    if Path(path).exists() and not force:
        _fail(f"{path}: exists (use --force to overwrite)")
    try:
        rules = Rules.parse([profile, *overrides])
        g = new_game(variant_name, players, seed, rules)
        g.save(path)
    except RulesError as exc:
        _fail(f"rules: {exc}")
    except (DipsatError, OSError) as exc:
        _fail(f"{path}: {exc}")
    click.echo(f"New game {path}: {_describe(g)}")
    click.echo(render_position(g, g.current))
    click.echo(f"Next phase: {g.state.phase}")


@game.command("turn")
@click.argument("path", metavar="GAME.json")
@click.argument("orders_path", metavar="ORDERS")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="text for people; json: the game file's records of the phases just played.")
def turn_command(path: str, orders_path: str, fmt: str) -> None:
    """Adjudicate the current phase of GAME.json with the orders in ORDERS (one per line,
    - for stdin), advance to the next phase that needs orders, and save the game.

    With movement orders, retreats may be given in advance (seed 001, 10a):
    'Austria: A boh R gal, sil if dislodged by Russia', 'Austria: retreats centres
    first, then alphabetical' (docs/game.md).

    A power with units that gives no movement orders is in civil disorder. Orders that
    cannot be read are reported on stderr (file:line) and skipped. Exit code 0 when the
    phase was played, 1 when the game is already over, 2 when a file cannot be read.
    """
    from ..game import GameError, load_game, parse_game_orders
    from ..printers.text import render_text

    try:
        g = load_game(path)
    except GameError as exc:
        _fail(str(exc))
    if g.over:
        _fail(f"{path}: the game is over: {g.detail}", 1)
    from ..formats.textfile import read_stream, read_text

    try:
        text, warning = read_stream(sys.stdin) if orders_path == "-" else read_text(orders_path)
    except OSError as exc:
        _fail(f"{orders_path}: cannot read: {exc.strerror or exc}")
    if warning:
        click.echo(warning, err=True)
    orders, advance, problems = parse_game_orders(text, g)
    name = "<stdin>" if orders_path == "-" else orders_path
    for line, message in problems:
        click.echo(f"{name}:{line}: {message} (order skipped)", err=True)
    first = len(g.phases) - 1
    events_before = len(g.events)
    results = g.play(orders, advance)
    try:
        g.save(path)
    except OSError as exc:
        _fail(f"{path}: cannot write: {exc.strerror or exc}")
    except GameError as exc:
        _fail(str(exc))
    if fmt == "json":
        played = g.to_json()["phases"][first:first + len(results)]
        doc = {"played": played, "events": g.events[events_before:], "next_phase": g.current.name,
               "status": g.to_json()["status"]}
        click.echo(json.dumps(doc, indent=2, ensure_ascii=False))
        return
    for record, result in zip(g.phases[first:], results):
        label = f"{path} {record.name}" + (" (settled automatically: nobody could give an order)" if record.auto else "")
        if record.civil_disorder and record.state.phase.kind is PhaseKind.MOVEMENT:
            click.echo(f"Civil disorder: {', '.join(record.civil_disorder)}")
        click.echo(render_text(result, label), nl=False)
    for event in g.events[events_before:]:
        click.echo(f"Event {event['phase']}: {event['text']}")
    if g.over:
        click.echo(f"Game over: {g.detail}")
    else:
        click.echo(f"Now: {g.state.phase} ({g.current.name})")


@game.command("show")
@click.argument("path", metavar="GAME.json")
@click.option("--phase", "phase_name", metavar="PHASE", help="One phase (S1902M, F1902R, W1902A): its position, orders and results.")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "case", "svg", "png"]), default="text",
              show_default=True, help="case: the phase as a jDip case file (position, orders, dipsat's result) to run "
                                      "with dipsat adjudicate --explain or another adjudicator; svg or png: a picture "
                                      "of the phase (with --phase: its orders and results; else the position now).")
@click.option("-o", "--output", metavar="FILE", help="Write to FILE instead of standard output.")
def show_command(path: str, phase_name: str | None, fmt: str, output: str | None) -> None:
    """The game: players, position, centre counts, history; or one phase with --phase."""
    from ..game import GameError, load_game

    try:
        g = load_game(path)
        record = g.find(phase_name) if phase_name else None
    except GameError as exc:
        _fail(str(exc))
    if fmt in ("svg", "png"):
        from .draw import result_picture, state_picture, write_picture
        record = record or g.current
        if record.played:
            text = result_picture(replay(g, record), f"{Path(path).stem} {record.name}", False)
        else:
            text = state_picture(record.state, f"{Path(path).stem} {record.name}", False, rules=g.rules)
        write_picture(text, fmt, output)
        return
    if fmt == "case":
        from ..formats.casefile import write_case
        from ..printers.text import prestate_results, write_result_case

        record = record or g.current
        out = io.StringIO()
        name = f"{Path(path).stem}.{record.name}"
        if record.played:
            result = replay(g, record)
            write_result_case(out, name, result, [r.order for r in result.results], g.setup.players)
        else:
            write_case(out, name, record.state.phase, list(record.state.units), [], None,
                       owners=list(record.state.owners), rules=str(g.rules),
                       prestate_dislodged=[d.unit for d in record.state.dislodged],
                       prestate_results=prestate_results(record.state), players=g.setup.players)
        _emit(out.getvalue(), output)
        return
    if fmt == "json":
        doc = g.to_json()
        if record is not None:
            doc = doc["phases"][g.phases.index(record)]
        _emit(json.dumps(doc, indent=2, ensure_ascii=False) + "\n", output)
        return
    _emit(render_record(g, record) if record is not None else render_game(g, path), output)


def _emit(text: str, output: str | None) -> None:
    """`text` to standard output, or to the file `output`."""
    if output is None:
        click.echo(text, nl=False)
        return
    try:
        Path(output).write_text(text, encoding="utf-8")
    except OSError as exc:
        _fail(f"{output}: cannot write: {exc.strerror or exc}")


# --- text ------------------------------------------------------------------------------


def _describe(g: Game) -> str:
    neutral = g.setup.neutral
    bits = [f"{g.variant.name} ({g.variant.title}{', wings' if g.variant.wings and g.variant.name != 'modern' else ''})",
            f"{g.setup.players} players"]
    if neutral:
        bits.append(f"neutral: {', '.join(neutral)}")
    bits += [f"seed {g.seed}", f"rules {g.rules}"]
    return ", ".join(bits)


def render_position(g: Game, record: PhaseRecord) -> str:
    from ..adjustments import blockaded_centres, counted_centres

    state = record.state
    lines = [f"Position ({state.phase}):"]
    powers = [p.name for p in g.variant.powers]
    width = max(len(p) for p in powers)
    blockaded = blockaded_centres(state)
    for power in powers:
        units = state.units_of(power)
        owned = state.centres_of(power)
        counted = counted_centres(state, power)
        if not units and not owned and not any(d.unit.power == power for d in state.dislodged):
            continue
        centres = f"{len(counted)} centre{'s' if len(counted) != 1 else ''}"
        if len(counted) != len(owned):
            centres += f" ({len(owned) - len(counted)} blockaded)"
        text = ", ".join(f"{u.kind} {u.location}" for u in units) or "(no units)"
        dislodged = [d.unit for d in state.dislodged if d.unit.power == power]
        if dislodged:
            text += "; dislodged: " + ", ".join(f"{u.kind} {u.location}" for u in dislodged)
        lines.append(f"  {power:<{width}}  {centres:<12}  {text}")
    if blockaded:
        lines.append("  Blockaded: " + ", ".join(f"{c} (owner {state.owner_of[c]}, {p} wing)"
                                                 for c, p in sorted(blockaded.items())))
    unowned = sorted(c for c in state.variant.centres if c not in state.owner_of)
    if unowned:
        lines.append(f"  Unowned centres ({len(unowned)}): {', '.join(unowned)}")
    return "\n".join(lines)


def render_game(g: Game, path: str = "") -> str:
    lines = [f"Game {path}: {_describe(g)}".replace("Game : ", "Game: ")]
    if g.over:
        lines.append(f"Status: game over ({g.status}): {g.detail}")
    else:
        lines.append(f"Status: active; phase to play: {g.state.phase} ({g.current.name})")
    lines.append("Players:")
    for n, (name, powers) in enumerate(g.players(), start=1):
        lines.append(f"  {n}  {name}")
    neutral = g.neutral(g.state.phase.year)
    if neutral:
        lines.append(f"  neutral: {', '.join(neutral)}")
    lines.append(render_position(g, g.current))
    disorder = g.civil_disorder()
    if disorder and not g.over:
        lines.append(f"Civil disorder (no orders in the last movement phase): {', '.join(disorder)}")
    if g.eliminated:
        lines.append("Eliminated: " + ", ".join(f"{p} ({when})" for p, when in g.eliminated.items()))
    played = [r for r in g.phases if r.played]
    if played:
        lines.append("History:")
        for record in played:
            report = record.report or {}
            results = report.get("orders", [])
            ok = sum(1 for r in results if r["succeeded"])
            notes = []
            if record.auto:
                notes.append("settled automatically")
            if record.civil_disorder and record.state.phase.kind is PhaseKind.MOVEMENT:
                notes.append("civil disorder: " + ", ".join(record.civil_disorder))
            if report.get("dislodged"):
                notes.append(f"{len(report['dislodged'])} dislodged")
            if report.get("disbanded"):
                notes.append(f"{len(report['disbanded'])} disbanded")
            lines.append(f"  {record.name:<7} {len(results):>3} orders, {ok} succeeded" + (f"; {'; '.join(notes)}" if notes else ""))
    if g.history:
        lines.append("Centres after each fall:")
        for h in g.history:
            counts = ", ".join(f"{p} {n}" for p, n in h["centres"].items())
            lines.append(f"  {h['year']}  {counts}" + ("" if h["changed"] else "  (no centre changed owner)"))
    if g.events:
        lines.append("Events:")
        for event in g.events:
            lines.append(f"  {event['phase']:<7} {event['text']}")
    return "\n".join(lines) + "\n"


def _without_power(order: str, power: str | None) -> str:
    prefix = f"{power}: " if power else ""
    return order[len(prefix):] if prefix and order.startswith(prefix) else order


def render_record(g: Game, record: PhaseRecord) -> str:
    lines = [f"{record.name}: {record.state.phase}" + (" (settled automatically)" if record.auto else "")]
    lines.append(render_position(g, record))
    if not record.played:
        lines.append("Not played yet.")
        return "\n".join(lines) + "\n"
    if record.civil_disorder:
        lines.append(f"Civil disorder: {', '.join(record.civil_disorder)}")
    report = record.report or {}
    results = report.get("orders", [])
    if results:
        lines.append("Orders:")
        pw = max(len(r["power"] or "-") for r in results)
        texts = [_without_power(r["order"], r["power"]) for r in results]
        ow = min(max(len(t) for t in texts), 30)
        for r, text in zip(results, texts):
            detail = f"  {r['detail']}" if r["detail"] else ""
            lines.append(f"  {r['power'] or '-':<{pw}}  {text:<{ow}}  {r['result']}{detail}")
    else:
        lines.append("Orders: none")
    for d in report.get("dislodged", []):
        options = ", ".join(d["retreat_options"]) or "none: disbanded"
        lines.append(f"Dislodged: {d['power']} {d['kind']} {d['location']} (retreats: {options})")
    for d in report.get("disbanded", []):
        lines.append(f"Disbanded: {d['power']} {d['kind']} {d['location']} ({d['reason']})")
    index = g.phases.index(record)
    if index + 1 < len(g.phases):
        lines.append(f"Next phase: {g.phases[index + 1].state.phase}")
    return "\n".join(lines) + "\n"


def replay(g: Game, record: PhaseRecord) -> PhaseResult:
    """The result of a played phase, adjudicated again from its recorded orders (the same
    result: adjudication is deterministic) for the picture of its orders and results."""
    from ..adjudicator import adjudicate

    state, orders, silent = g.replay_input(g.phases.index(record))
    return adjudicate(state, orders, g.rules, silent)


__all__ = ["game", "render_game", "render_position", "render_record", "replay"]
