"""The ``dipsat`` command line: a thin layer over the library."""

from __future__ import annotations

import io
import json
import sys
import textwrap
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TextIO

import click

from .adjudicator import adjudicate
from .board import PhaseKind, Unit
from .casework import build_position, case_files, describe_results, load_cases, run_case
from .errors import DipsatError, NotationError
from .formats.casefile import format_unit_line, read_cases, resolve_variant, write_case
from .formats.dipsat_json import (JsonFormatError, disbanded_report, dislodged_report, order_power,
                                  position_from_json, result_to_json, sorted_results, state_problems,
                                  status_word)
from .maps import load_variant
from .notation import format_order, parse_order, parse_orders
from .orders import Order
from .results import PhaseResult
from .rules import DEFAULT_PROFILE, ISSUES, PROFILES, Rules, RulesError
from .state import State

WIDTH = 80


@click.group()
@click.version_option(package_name="dipsat")
def main() -> None:
    """dipsat: a Diplomacy adjudicator built on the CP-SAT constraint solver."""


@main.command("cases")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--rules", "profile", type=click.Choice(sorted(PROFILES)), default=None,
              help="Run every case under this profile (cases written for another profile are skipped).")
@click.option("-v", "--verbose", is_flag=True, help="Print each order's result for failures.")
def cases_command(paths: tuple[str, ...], profile: str | None, verbose: bool) -> None:
    """Run case files (jDip/DATC format): PASS/FAIL per case, then a tally."""
    passed = failed = skipped = 0
    for path in case_files(paths):
        cases, errors = load_cases(path)
        for error in errors:
            click.echo(f"ERROR {error}")
            failed += 1
        for case in cases:
            run = run_case(case, profile)
            if run.status == "PASS":
                passed += 1
                click.echo(f"PASS {case.id}")
                continue
            if run.status == "SKIP":
                skipped += 1
                click.echo(f"SKIP {case.id}: {run.problems[0]}")
                continue
            failed += 1
            click.echo(f"{run.status} {case.id} ({case.source}:{case.line})" + (f" [rules {run.rules}]" if run.rules else ""))
            for problem in run.problems:
                click.echo(f"    {problem}")
            if verbose and run.result is not None:
                for line in describe_results(run.result):
                    click.echo(f"      {line}")
    tally = f"{passed} passed, {failed} failed" + (f", {skipped} skipped" if skipped else "")
    click.echo(tally)
    sys.exit(1 if failed else 0)


@main.command("rules")
def rules_command() -> None:
    """List the rule options (DATC chapter 4) and what each profile picks."""
    profiles = sorted(PROFILES)
    for number, issue in ISSUES.items():
        picks = ", ".join(f"{p}={Rules.profile(p).choice(number)}" for p in profiles)
        click.echo(f"{number}  {issue.title}  [{picks}; DATC prefers {issue.preferred}]")
        for letter, text in issue.options.items():
            names = [n for n, l in issue.names.items() if l == letter]
            click.echo(f"    {letter}  {text}" + (f"  (also: {', '.join(names)})" if names else ""))
    click.echo(f"default profile: {DEFAULT_PROFILE}")


# --- adjudicate ------------------------------------------------------------------------


class _Unreadable(Exception):
    """The position (or the orders file) cannot be read: one line per problem."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


@dataclass
class _Position:
    state: State
    name: str  # the case id, or the file's stem
    orders: list[Order] | None = None  # orders that came with the position
    rule_words: list[str] = field(default_factory=list)  # the case's RULES line


def _warn(message: str) -> None:
    click.echo(message, err=True)


def _read_text(path: str) -> str:
    if path == "-":
        return click.get_text_stream("stdin").read()
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise _Unreadable([f"{path}: cannot read: {reason}"]) from None


def _load_position(path: str, case_id: str | None) -> _Position:
    text = _read_text(path)
    if path.lower().endswith(".json") or text.lstrip().startswith("{"):
        if case_id is not None:
            raise _Unreadable([f"{path}: --case applies to case files, not to a JSON state"])
        return _json_position(path, text)
    return _case_position(path, text, case_id)


def _json_position(path: str, text: str) -> _Position:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise _Unreadable([f"{path}:{exc.lineno}:{exc.colno}: not valid JSON: {exc.msg}"]) from None
    try:
        state, order_texts = position_from_json(data, source=path)
    except JsonFormatError as exc:
        raise _Unreadable(exc.problems) from None
    orders = None
    if order_texts is not None:
        orders = []
        for where, line in order_texts:
            try:
                orders.append(parse_order(line, state.variant, state.phase.kind))
            except NotationError as exc:
                _warn(f"{path}: {where}: {exc} (order skipped)")
    rules = data.get("rules") if isinstance(data, dict) else None
    words = rules.split() if isinstance(rules, str) else []
    return _Position(state, Path(path).stem, orders, words)


def _case_position(path: str, text: str, case_id: str | None) -> _Position:
    cases, errors = read_cases(io.StringIO(text), path)
    if case_id is None:
        if not cases:
            raise _Unreadable([str(e) for e in errors] + [f"{path}: no CASE in the file (expected a case file or a .json state)"])
        case = cases[0]
    else:
        matches = [c for c in cases if c.id == case_id] or [c for c in cases if c.id.casefold() == case_id.casefold()]
        if not matches:
            known = ", ".join(c.id for c in cases[:8]) + (", ..." if len(cases) > 8 else "")
            raise _Unreadable([f"{path}: no case {case_id!r} (cases: {known or 'none'})"])
        case = matches[0]
    for error in [*errors, *case.errors]:
        _warn(f"{error} (warning)")
    position_only = replace(case, blocks={k: v for k, v in case.blocks.items() if k != "ORDERS"})
    try:
        state, _, problems = build_position(position_only, Rules.profile())
    except (ValueError, DipsatError) as exc:
        message = str(exc)
        raise _Unreadable([message if message.startswith(f"{path}:") else f"{path}:{case.line}: {message}"]) from None
    problems += [f"{path}:{case.line}: case {case.id}: {p}" for p in state_problems(state)]
    if problems:
        raise _Unreadable(problems)
    orders = None
    if case.has("ORDERS"):
        orders = []
        for line in case.block("ORDERS"):
            try:
                orders.append(parse_order(line.text, state.variant, state.phase.kind))
            except NotationError as exc:
                _warn(f"{path}:{line.number}: {exc} (order skipped)")
    return _Position(state, case.id, orders, list(case.rules or []))


def _initial_position(variant_name: str) -> _Position:
    """The initial position of a variant named as in case files (``Standard``,
    ``DATC_Standard``) or as a bundled map file (``standard``)."""
    try:
        variant = resolve_variant(variant_name)
    except ValueError as exc:
        if not variant_name.replace("_", "").isalnum():
            raise _Unreadable([f"--variant: {exc}"]) from None
        try:
            variant = load_variant(variant_name.lower())
        except DipsatError as exc2:
            raise _Unreadable([f"--variant: {exc2}"]) from None
    return _Position(variant.initial_state(), f"{variant.name}.initial")


def _read_orders(path: str, state: State) -> list[Order]:
    text = _read_text(path)
    name = "<stdin>" if path == "-" else path
    orders, errors = parse_orders(text, state.variant, state.phase.kind)
    for exc in errors:
        _warn(f"{name}:{getattr(exc, 'line', '?')}: {exc} (order skipped)")
    return orders


@main.command("adjudicate")
@click.argument("position", required=False, metavar="POSITION")
@click.argument("orders_path", required=False, metavar="[ORDERS]")
@click.option("--case", "case_id", metavar="ID", help="The case of a case file to use (default: its first).")
@click.option("--initial", is_flag=True, help="Start from the variant's initial position (then the only argument is ORDERS).")
@click.option("--variant", "variant_name", default="standard", show_default=True, help="The variant of --initial.")
@click.option("--rules", "profile", type=click.Choice(sorted(PROFILES)), default=None,
              help=f"Rules profile (default: the case's RULES line, else {DEFAULT_PROFILE}).")
@click.option("--rule", "overrides", multiple=True, metavar="ISSUE=CHOICE",
              help="Override one DATC issue, e.g. 4.A.2=szykman (repeatable; see `dipsat rules`).")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "case"]), default="text", show_default=True,
              help="text for people, json (dipsat/1, docs/json.md) for programs, case for other adjudicators.")
def adjudicate_command(position: str | None, orders_path: str | None, case_id: str | None, initial: bool,
                       variant_name: str, profile: str | None, overrides: tuple[str, ...], fmt: str) -> None:
    """Adjudicate one phase: POSITION plus orders in, every result and the new position out.

    POSITION is a case file (its first case, or --case ID; its ORDERS block is used
    when no ORDERS file is given) or a dipsat JSON state or result (.json).
    ORDERS is a file with one order per line, or - for stdin. Problems with single
    orders are reported on stderr (file:line) and those orders skipped; the exit code
    is 0 when the phase was adjudicated, 2 when the position cannot be read.
    """
    if initial:
        if orders_path is not None:
            raise click.UsageError("with --initial, give only ORDERS (the position is the initial one)")
        orders_path, position = position, None
    elif position is None:
        raise click.UsageError("give a POSITION (a case file or a .json state), or --initial")
    if position == "-" and orders_path == "-":
        raise click.UsageError("only one of POSITION and ORDERS can be read from stdin (-)")
    try:
        pos = _initial_position(variant_name) if initial else _load_position(position, case_id)
        words = [profile] if profile else list(pos.rule_words)
        rules = Rules.parse(words + list(overrides))
        orders = _read_orders(orders_path, pos.state) if orders_path is not None else (pos.orders or [])
    except _Unreadable as exc:
        for problem in exc.problems:
            _warn(problem)
        sys.exit(2)
    except RulesError as exc:
        _warn(f"rules: {exc}")
        sys.exit(2)
    result = adjudicate(pos.state, orders, rules)
    out = click.get_text_stream("stdout")
    if fmt == "json":
        out.write(json.dumps(result_to_json(result), indent=2, ensure_ascii=False) + "\n")
    elif fmt == "case":
        write_result_case(out, pos.name, result, orders)
    else:
        out.write(render_text(result, pos.name))
    out.flush()


# --- text output -----------------------------------------------------------------------


def _wrap(prefix: str, text: str, indent: int | None = None) -> list[str]:
    """`prefix` + `text`, wrapped at 80 columns; continuation lines are indented
    under the text (or by `indent`)."""
    hang = len(prefix) if indent is None and len(prefix) <= WIDTH - 24 else (indent or 6)
    if not text:
        return [prefix.rstrip()]
    return textwrap.wrap(text, WIDTH, initial_indent=prefix, subsequent_indent=" " * hang,
                         break_on_hyphens=False, break_long_words=False) or [prefix.rstrip()]


def _units_text(units: list[Unit]) -> str:
    return ", ".join(f"{u.kind} {u.location}" for u in units)


def render_text(result: PhaseResult, name: str = "") -> str:
    """The people's report: orders and results, dislodgements, the new position."""
    before, after = result.before, result.after
    lines = [f"{name + ': ' if name else ''}{before.phase} (rules {result.rules})"]
    ranked = sorted_results(result)
    powers = [p.name for p in before.variant.powers]
    pw = max([len(order_power(r) or "-") for _, r in ranked] + [len(p) for p in powers])
    if ranked:
        texts = [format_order(r.order, with_power=False) for _, r in ranked]
        ow = min(max(len(t) for t in texts), 30)
        sw = max(len(status_word(r)) for _, r in ranked)
        lines.append("Orders:")
        for (_, r), text in zip(ranked, texts):
            head = f"  {order_power(r) or '-':<{pw}}  {text:<{ow}}  "
            if len(head) > 2 + pw + 2 + ow + 2:  # an order wider than its column: result below it
                lines.append(head.rstrip())
                head = " " * (2 + pw + 2 + ow + 2)
            lines += _wrap(f"{head}{status_word(r):<{sw}}  ", r.detail)
    else:
        lines.append("Orders: none (every unit holds)")
    if result.backup_rules:
        for backup in result.backup_rules:
            lines += _wrap("Backup rule: ", backup, 4)
    if result.resolutions is not None and result.resolutions > 1:
        lines.append(f"Consistent resolutions: {result.resolutions}")
    dislodged = dislodged_report(result)
    if dislodged:
        lines.append("Dislodged:")
        for info in dislodged:
            d = info.dislodged
            origin = f"attacked from {d.attacker_origin}" + (" by convoy" if d.by_convoy else "") if d.attacker_origin else ""
            where = ("retreats: " + ", ".join(map(str, info.options))) if info.options else "no retreat: disbanded"
            head = f"  {d.unit.power:<{pw}}  {d.unit.kind} {str(d.unit.location):<6}  "
            lines += _wrap(head, "; ".join(x for x in (origin, where) if x))
    gone = [i for i in disbanded_report(result) if before.phase.kind is not PhaseKind.MOVEMENT]
    if gone:
        lines.append("Disbanded:")
        for info in gone:
            lines += _wrap(f"  {info.unit.power:<{pw}}  {info.unit.kind} {str(info.unit.location):<6}  ", info.reason)
    lines.append("New position:")
    waiting = {}
    for d in after.dislodged:
        waiting.setdefault(d.unit.power, []).append(d.unit)
    shown = [p for p in powers if before.units_of(p) or after.units_of(p) or p in waiting]
    for power in shown:
        text = _units_text(list(after.units_of(power)))
        if power in waiting:
            text += ("; " if text else "") + "dislodged: " + _units_text(waiting[power])
        text = text or "(no units)"
        lines += _wrap(f"  {power:<{pw}}  ", text)
    if not shown:
        lines.append("  (the board is empty)")
    old, new = before.owner_of, after.owner_of
    changed = sorted(c for c in set(old) | set(new) if old.get(c) != new.get(c))
    if changed:
        lines.append("Centres changed:")
        for centre in changed:
            lines.append(f"  {centre}  {new.get(centre) or 'unowned'} (was {old.get(centre) or 'unowned'})")
        counts = [f"{p} {len(after.centres_of(p))}" for p in powers if after.centres_of(p) or before.centres_of(p)]
        lines += _wrap("  Centres now: ", ", ".join(counts), 4)
    lines.append(f"Next phase: {after.phase}")
    return "\n".join(lines) + "\n"


# --- case-file output ------------------------------------------------------------------


def write_result_case(handle: TextIO, case_id: str, result: PhaseResult, orders: list[Order]) -> None:
    """The position, the orders and the adjudicated board as one case, so another
    adjudicator (or ``dipsat cases``) can run it."""
    before, after = result.before, result.after
    variant = before.variant.name
    if variant == "standard":
        variant = "DATC_Standard" if before.variant.wings else "Standard"
    handle.write(f"# Written by dipsat adjudicate: POSTSTATE is dipsat's result under rules {result.rules}.\n")
    handle.write(f"VARIANT_ALL {variant}\n\n")
    dislodged: list[Unit] = []
    if before.phase.kind is PhaseKind.MOVEMENT and after.phase.kind is PhaseKind.RETREAT:
        dislodged = sorted((d.unit for d in after.dislodged), key=lambda u: (u.province, u.location.coast or ""))
    write_case(handle, case_id.split()[0] if case_id.strip() else "dipsat", before.phase, list(before.units),
               [format_order(o) for o in orders], list(after.units), dislodged, list(before.owners),
               str(result.rules), prestate_dislodged=[d.unit for d in before.dislodged],
               prestate_results=_prestate_results(before))


def _prestate_results(state: State) -> list[str]:
    """PRESTATE_RESULTS lines that carry what a retreat phase needs from the movement
    before it: each attacker's origin (and convoy), and the standoffs (as two failed moves)."""
    if state.phase.kind is not PhaseKind.RETREAT:
        return []
    lines = []
    for d in sorted(state.dislodged, key=lambda d: (d.unit.province, d.unit.location.coast or "")):
        if d.attacker_origin is None:
            continue
        attacker = state.unit_at(d.unit.province)
        who = f"{attacker.power}: {attacker.kind}" if attacker else "A"
        via = " via convoy" if d.by_convoy else ""
        lines.append(f"SUCCESS: {who} {d.attacker_origin} - {d.unit.province}{via}")
    for province in sorted(state.standoffs):
        neighbours = sorted(state.map.neighbours(province))
        bouncers = [state.unit_at(n) for n in neighbours if state.unit_at(n) is not None][:2]
        lines += [f"FAILURE: {format_unit_line(u)} - {province}" for u in bouncers]
        spare = [n for n in neighbours if state.unit_at(n) is None]
        lines += [f"FAILURE: A {n} - {province}" for n in spare[:2 - len(bouncers)]]
    return lines


if __name__ == "__main__":  # pragma: no cover
    main()
