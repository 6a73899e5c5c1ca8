"""The ``dipsat`` command line: a thin layer over the library."""

from __future__ import annotations

import importlib
import io
import json
import os
import sys
import textwrap
from pathlib import Path
from typing import TYPE_CHECKING

import click

from .. import __version__
from ..errors import DipsatError
from ..runners.runtime import end_at_once, import_solver, one_blas_thread, tune_for_batches
from ..rules import DEFAULT_PROFILE, ISSUES, NOT_APPLICABLE, PROFILES, Profile, Rules
from .draw import area_option, size_option
from .positions import _initial_position, _input_or_exit, _load_position, _orders_position, _Position, \
    _position_arguments, _read_orders, _Unreadable, _warn

if TYPE_CHECKING:
    from ..formats.casefile import Case

# The commands import what they use when they run: `dipsat --help`, `--version` and shell
# completion load only click and the rule options (OR-Tools is imported on the first solve).

COMMAND_MODULES = {"game": ("game", "game"), "validate": ("validate", "validate_command"),
                   "draw": ("draw", "draw_command"), "map": ("reference", "map_command"),
                   "orders": ("reference", "orders_command"), "fuzz": ("fuzz", "fuzz_command"),
                   "serve": ("serve", "serve_command")}
"""The commands defined in other modules of ``dipsat.cli``: (module, click command) by name."""


class _Commands(click.Group):
    """dipsat's commands; those of :data:`COMMAND_MODULES` are imported when named, so that
    `dipsat adjudicate` loads none of validate's pools, the fuzzer, games or the web layer."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *COMMAND_MODULES})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in COMMAND_MODULES:
            module, name = COMMAND_MODULES[cmd_name]
            command = getattr(importlib.import_module(f".{module}", __name__), name)
            assert isinstance(command, click.Command)
            return command
        return super().get_command(ctx, cmd_name)


@click.group(cls=_Commands)
@click.version_option(version=__version__, package_name="dipsat")  # not read from the metadata: 0.15 s
def main() -> None:
    """dipsat: a Diplomacy adjudicator built on the CP-SAT constraint solver."""
    tune_for_batches()
    one_blas_thread()


def run() -> None:
    """The ``dipsat`` command (and ``python -m dipsat.cli``): :func:`main`, whose process then
    ends at once (:func:`~dipsat.runners.runtime.end_at_once`: the heap of a batch command is
    not torn down object by object). An error escapes as it would from :func:`main`."""
    try:
        main()
    except SystemExit as done:  # (click ends every command so, its status in it)
        if done.code is None or isinstance(done.code, int):
            end_at_once(done.code)
        raise


@main.command("cases")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--rules", "profile", type=click.Choice(sorted(PROFILES)), default=None,
              help="Run every case under this profile (cases written for another profile are skipped).")
@click.option("-v", "--verbose", is_flag=True, help="Print each order's result for failures.")
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True,
              help="Worker processes (the output is the same, in the same order).")
@click.option("--svg", "svg_dir", metavar="DIR", type=click.Path(file_okay=False),
              help="Write before/after pictures of each failing case to DIR.")
@click.option("--list", "list_only", is_flag=True, help="List the cases (id and title) instead of running them.")
@click.option("--case", "case_id", metavar="ID", help="Only the case with this id (searched in every file and folder).")
def cases_command(paths: tuple[str, ...], profile: str | None, verbose: bool, workers: int,
                  svg_dir: str | None, list_only: bool, case_id: str | None) -> None:
    """Run case files (jDip/DATC format): PASS/FAIL per case, then a tally."""
    from ..runners.cases import OUTSIDE, WARNING, run_cases

    if list_only or case_id:
        found = _listed_cases(paths, case_id)
        if list_only:
            for case in found:
                click.echo(f"{case.id}  {case.title}".rstrip() + f"  ({case.source}:{case.line})")
            sys.exit(0 if found or not case_id else 1)
        if not found:
            click.echo(f"no case {case_id!r} in {', '.join(paths)}", err=True)
            sys.exit(1)
        for case in found:
            click.echo(f"Case {case.id}: {case.title}".rstrip(": "))
        paths = tuple(sorted({c.source for c in found}))
    if svg_dir is not None:
        try:
            os.makedirs(svg_dir, exist_ok=True)
        except OSError as exc:
            raise click.FileError(svg_dir, str(exc)) from None
    passed = failed = skipped = outside = 0
    for status, lines in run_cases(paths, profile, verbose, workers, svg_dir=svg_dir, only=case_id):
        if status == WARNING:  # a file read as Windows-1252: said, and not a case
            _warn("\n".join(lines))
            continue
        passed += status == "PASS"
        skipped += status == "SKIP"
        outside += status == OUTSIDE  # a line outside any case: reported, counted apart from the cases
        failed += status not in ("PASS", "SKIP", OUTSIDE)
        click.echo("\n".join(lines))
    tally = f"{passed} passed, {failed} failed" + (f", {skipped} skipped" if skipped else "")
    if outside:
        tally += f", {outside} problem{'s' if outside != 1 else ''} outside any case"
    click.echo(tally)
    sys.exit(1 if failed or outside else 0)


def _listed_cases(paths: tuple[str, ...], case_id: str | None) -> list[Case]:
    """The cases of the files and folders, or only those with the id `case_id`."""
    from ..runners.cases import case_files, load_cases

    out = []
    for path in case_files(paths):
        cases, _ = load_cases(path)
        out += [c for c in cases if case_id is None or c.id.casefold() == case_id.casefold()]
    return out


@main.command("rules")
@click.option("--profile", "profile", type=click.Choice(sorted(PROFILES)), default=None,
              help="Print one profile in full: each issue's reading and what it rests on.")
def rules_command(profile: str | None) -> None:
    """List the rule options (DATC chapter 4), their DATC v3.0 and v2.x letters, and what each profile picks."""
    for line in _profile_lines(PROFILES[profile]) if profile else _catalogue_lines():
        click.echo(line)


RULES_HEADER = """\
Rule options by DATC chapter-4 issue. Each option: its key (the DATC v3.0 letter, or a
name where v3.0 letters none), its DATC v2.x letter where that differs ("-": v2.x does
not list it), and the option in the DATC's words. Select with --rule 4.A.2=KEY, or by
v2.x letter with --rule v2:4.A.2=LETTER (also in RULES lines and JSON). "picked by"
gives each profile's reading; * marks a profile whose rulebook is silent on the issue,
which takes DATC v3.0's preference, ~ one whose rulebook is ambiguous, read one way
(dipsat rules --profile P says which way and why for each)."""


def _profile_names() -> list[str]:
    return sorted(PROFILES)


def _marker(profile: str, number: str) -> str:
    """``*``: the profile's rulebook is silent on the issue; ``~``: it is ambiguous, read one way."""
    pick = PROFILES[profile].picks.get(number)
    if pick is None:
        return "*"
    return "~" if "ambiguous" in pick.source else ""


def _catalogue_lines() -> list[str]:
    lines = RULES_HEADER.splitlines() + ["", "Profiles:"]
    for name in _profile_names():
        lines += _wrapped(f"    {name:<5} ", PROFILES[name].title + (" (default)" if name == DEFAULT_PROFILE else ""))
    for number, issue in ISSUES.items():
        lines += ["", f"{number}  {issue.title}"]
        width = max(len(o.key) for o in issue.kind)
        for option in issue.kind:
            also = f"  (also: {', '.join(option.aliases)})" if option.aliases else ""
            v2 = "" if option.v2 == option.key else f"v2 {option.v2}" if option.v2 else "-"
            lines += _wrapped(f"    {option.key:<{width}}  {v2:<6}  ", option.text + also)
        picks = ", ".join(f"{name}={PROFILES[name].pick(number).option.key}" + _marker(name, number)
                          for name in _profile_names())
        lines += _wrapped("    picked by: ", f"{picks}; DATC v3.0 prefers {issue.preferred.key}")
        for key, why in NOT_APPLICABLE.items():
            if key.split()[0] == number and " " in key:
                lines += _wrapped("    not selectable: ", f"{key.split(' ', 1)[1]}: {why}")
    lines += ["", "not selectable, and why:"]
    for key, why in NOT_APPLICABLE.items():
        if " " not in key:
            lines += _wrapped(f"    {key}  ", why)
    return lines


def _profile_lines(profile: Profile) -> list[str]:
    """One profile in full: per issue its reading, the reading's words and what it rests on."""
    lines = [f"Profile {profile.name}: {profile.title}" + (" (the default)" if profile.name == DEFAULT_PROFILE else "")]
    for number, issue in ISSUES.items():
        pick = profile.pick(number)
        lines += ["", f"{number}  {issue.title}: {pick.option.key}"]
        lines += _wrapped("    ", pick.option.text)
        lines += _wrapped("    why: ", pick.source)
    return lines


def _wrapped(head: str, text: str, width: int = 100) -> list[str]:
    return textwrap.wrap(text, width, initial_indent=head, subsequent_indent=" " * len(head),
                         break_on_hyphens=False) or [head.rstrip()]


# --- adjudicate ------------------------------------------------------------------------


@main.command("adjudicate")
@click.argument("position", required=False, metavar="POSITION")
@click.argument("orders_path", required=False, metavar="[ORDERS]")
@click.option("--case", "case_id", metavar="ID", help="The case of a case file to use (default: its first).")
@click.option("--phase", "phase_name", metavar="NAME",
              help="POSITION is a recorded game (godip history .txt, diplomacy saved game .json or FILE.jsonl:LINE, "
                   "dipsat game file): adjudicate its phase NAME (e.g. F1902M) with the recorded orders.")
@click.option("--initial", is_flag=True, help="Start from the variant's initial position (then the only argument is ORDERS).")
@click.option("--from-orders", "from_orders", is_flag=True,
              help="No position: take the units the orders name (a DATC test pasted as the DATC writes it; then the "
                   "only argument is ORDERS), in Spring of the first year or the movement phase --phase names.")
@click.option("--variant", "variant_name", default="standard", show_default=True,
              help="The variant of --initial and --from-orders.")
@click.option("--rules", "profile", type=click.Choice(sorted(PROFILES)), default=None,
              help=f"Rules profile (default: the case's RULES line, else {DEFAULT_PROFILE}).")
@click.option("--rule", "overrides", multiple=True, metavar="ISSUE=CHOICE",
              help="Override one DATC issue, e.g. 4.A.2=szykman (repeatable; see `dipsat rules`).")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "case", "svg", "png"]), default="text",
              show_default=True, help="text for people, json (dipsat/2, docs/json.md) for programs, case for other "
                                      "adjudicators, svg or png for a picture of the board with every result.")
@area_option
@size_option
@click.option("-o", "--output", metavar="FILE", help="Write to FILE instead of standard output.")
@click.option("--explain", is_flag=True, help="For each order, the decisive facts: strengths, supports, cuts, routes, rules.")
@click.option("--all", "show_all", is_flag=True,
              help="Every consistent resolution before any backup rule, which one was taken and why; a paradox's core.")
@click.option("--compare", "compare", metavar="RULES",
              help="Adjudicate under each of these rules too and show where results differ: profiles and options, "
                   "e.g. 1971,1982,2000,2023,datc,dptg or 2000,2000+4.A.2=d (all: every profile).")
@click.option("--strict", is_flag=True, help="An order line that cannot be read is an error (exit status 1), "
                                            "not left out.")
def adjudicate_command(position: str | None, orders_path: str | None, case_id: str | None, phase_name: str | None,
                       initial: bool, from_orders: bool, variant_name: str, profile: str | None,
                       overrides: tuple[str, ...], fmt: str, explain: bool, show_all: bool, compare: str | None,
                       output: str | None, strict: bool, area: str | None = None, size: int | None = None) -> None:
    """Adjudicate one phase: POSITION plus orders in, every result and the new position out.

    POSITION is a case file (its first case, or --case ID; its ORDERS block is used
    when no ORDERS file is given) or a dipsat JSON state or result (.json).
    ORDERS is a file with one order per line, or - for stdin; a power's name alone on a
    line ("Germany:") gives that power to the orders under it, up to a blank line (the
    DATC's layout), a heading that names no power skips the orders under it; a line may
    hold several orders separated by commas. With --from-orders there is no POSITION: the
    units are those the orders name (a DATC test pasted as the DATC writes it), said on
    stderr; POSITION - (stdin) holding orders and no PRESTATE is read so too.
    Files may be UTF-8 (with a byte-order mark or not) or Windows-1252.
    An order line that cannot be read is reported on stderr (file:line), left out and
    listed in the result ("rejected" in JSON); with --strict it is an error. Exit
    status 0 when the phase was adjudicated, 1 when --strict found an unreadable order,
    2 when the position cannot be read.
    """
    from ..adjudicator import adjudicate

    position, orders_path = _position_arguments(position, orders_path, initial, from_orders)
    if position == "-" and orders_path == "-":
        raise click.UsageError("only one of POSITION and ORDERS can be read from stdin (-)")
    with _input_or_exit():
        if from_orders and orders_path is not None:  # the one argument (_position_arguments)
            pos, orders_path = _orders_position(orders_path, variant_name, phase_name), None
        elif phase_name is not None:
            pos = _recorded_position(position, phase_name, case_id, profile, overrides)
        else:
            pos = (_initial_position(variant_name) if initial or position is None
                   else _load_position(position, case_id, variant_name))
        words = [profile] if profile else list(pos.rule_words)
        rules = Rules.parse(words + list(overrides))
        orders, rejected = _read_orders(orders_path, pos.state) if orders_path is not None else (
            pos.orders or [], pos.rejected)
        compared = _compare_rules(compare, words, overrides) if compare else {}
    for line in rejected:
        _warn(f"{line} ({'error: --strict' if strict else 'order skipped'})")
    if strict and rejected:
        sys.exit(1)
    result = adjudicate(pos.state, orders, rules, pos.silent)
    results = {name: adjudicate(pos.state, orders, r, pos.silent) for name, r in compared.items()}
    if (area is not None or size is not None) and fmt not in ("svg", "png"):
        raise click.UsageError("--area and --size are for a picture: --format svg or png")
    if fmt in ("svg", "png"):
        from .draw import result_picture, write_picture
        write_picture(result_picture(result, pos.name, pos.crop, area, size), fmt, output)
        return
    buffer = io.StringIO()
    out = buffer if output else sys.stdout
    if fmt == "json":  # each format loads its printers only (a process adjudicates one phase)
        from ..formats.dipsat_json import result_to_json
        from ..printers.views_json import alternatives_json, comparison_json, explanations_json

        data = {}
        for key, value in result_to_json(result).items():  # the lines not read go beside the orders
            data[key] = value
            if key == "orders":
                data["rejected"] = [line.to_json() for line in rejected]
        if explain:
            data["explanations"] = explanations_json(result)
        if show_all:
            data["alternatives"] = alternatives_json(result)
        if compare:
            data["comparison"] = comparison_json(results)
        out.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    elif fmt == "case":
        from ..printers.text import write_result_case

        write_result_case(out, pos.name, result, orders, pos.players, rejected)
    else:
        from ..printers.text import render_alternatives, render_comparison, render_explanations, render_text

        if pos.title:
            out.write("\n".join(textwrap.wrap(f"Case {pos.name}: {pos.title}", 80, subsequent_indent="  ")) + "\n")
        out.write(render_text(result, pos.name, rejected))
        if explain:
            out.write(render_explanations(result))
        if show_all:
            out.write(render_alternatives(result))
        if compare:
            out.write(render_comparison(results))
    if output:
        try:
            Path(output).write_text(buffer.getvalue(), encoding="utf-8")
        except OSError as exc:
            _warn(f"{output}: cannot write: {exc.strerror or exc}")
            sys.exit(2)
        return
    out.flush()


def _recorded_position(path: str | None, phase_name: str, case_id: str | None, profile: str | None,
                       overrides: tuple[str, ...]) -> _Position:
    """--phase: a phase of a recorded game (dipsat.runners.recorded)."""
    from ..runners.recorded import recorded_position

    if path is None or path == "-" or case_id is not None:
        raise click.UsageError("--phase needs a recorded game file as POSITION (and no --case or --initial)")
    try:
        recorded = recorded_position(path, phase_name, Rules.parse([profile or DEFAULT_PROFILE, *overrides]))
    except DipsatError as exc:
        raise _Unreadable([str(exc)]) from None
    for warning in recorded.warnings:
        _warn(warning)
    return _Position(recorded.state, recorded.name, recorded.orders, silent=recorded.silent)


def _compare_rules(profiles: str, position_words: list[str], overrides: tuple[str, ...]) -> dict[str, Rules]:
    """``--compare``: :func:`dipsat.rules.compared_rules`."""
    from ..rules import compared_rules

    return compared_rules(profiles, position_words, overrides)


@main.command("bench")
@click.argument("paths", nargs=-1, type=click.Path(exists=True))
@click.option("--repeat", default=5, show_default=True, help="Case files: times each phase is adjudicated (median).")
@click.option("--workers", type=int, default=None, help="Recorded games: the 'all workers' run (default: all cores).")
@click.option("--rules", "profile", type=click.Choice(sorted(PROFILES)), default=DEFAULT_PROFILE, show_default=True)
def bench_command(paths: tuple[str, ...], repeat: int, workers: int | None, profile: str) -> None:
    """Time adjudication: recorded games (default: the bundled corpus; saved games of the
    diplomacy package, godip histories or folders of them) or case files.

    On recorded games: phases per second and per-phase median/p90/p99 by phase kind,
    one worker (one call per phase, and batch mode) and all workers, and when the
    diplomacy package is installed, the same games through its Game.process() in
    the same run, with the ratio. On case files: per-phase times of each case.
    """
    from ..runners.bench import bench_cases, format_report, recorded_inputs

    chosen = list(paths) or [str(_bundled_cases() / "corpus" / "random_games.jsonl.gz")]
    if not paths and not Path(chosen[0]).is_file():
        raise click.ClickException(f"{chosen[0]}: the bundled corpus is missing from this install (expected "
                                   "the file; name recorded games or case files to time)")
    if recorded_inputs(chosen):
        _bench_corpus(chosen, workers or os.cpu_count() or 1, Rules.profile(profile))
        return
    report = bench_cases(chosen, repeat)
    for line in report.skipped:
        click.echo(f"dipsat bench: {line} (not timed)", err=True)
    if not report.timings:
        raise click.ClickException(f"no phase to time in {', '.join(chosen)} (expected case files with cases "
                                   "that can be adjudicated, or recorded games)")
    click.echo(f"dipsat bench: {len(report.timings)} phases from {', '.join(chosen)}, median of {repeat} runs each")
    for line in format_report(report):
        click.echo(line)


def _bench_corpus(paths: list[str], workers: int, rules: Rules) -> None:
    from ..runners.bench import (batch_kind_table, corpus_phases, corpus_texts, kind_table, package_timings, time_batch,
                                 time_batch_kinds, time_phases, time_workers)

    import gc

    texts = corpus_texts(paths)
    timed = package_timings(paths)  # first: dipsat then times exactly the phases the package replayed
    phases = corpus_phases(texts, rules, None if timed is None else {(g, n) for _, _, g, n in timed})
    keys = {p.key for p in phases}  # and the package's timings of the phases dipsat times (records it cannot read)
    package = None if timed is None else [(kind, seconds) for kind, seconds, g, n in timed if (g, n) in keys]
    gc.collect()
    gc.freeze()  # the loaded games live all along: keep them out of the collector's way
    click.echo(f"dipsat bench: {len(texts)} games, {len(phases)} phases from {', '.join(paths)} (rules {rules})"
               + ("; the same phases for both" if package is not None else ""))
    import_solver()  # the solver and numpy loaded before any timing, whatever the first phases need
    time_phases(phases[:50])  # warm up
    single = time_phases(phases)
    single_rate = len(phases) / sum(s for _, s in single)
    batch_rate = len(phases) / time_batch(phases)
    by_kind = time_batch_kinds(phases)
    for line in kind_table("dipsat, one call a phase", single) + batch_kind_table(by_kind):
        click.echo(line)
    click.echo(f"dipsat, 1 worker:   {single_rate:8,.0f} phases/s one call a phase, {batch_rate:8,.0f} phases/s batch mode")
    one = time_workers(texts, rules, 1)
    click.echo(f"dipsat, pool of 1:  {one:8,.0f} phases/s (batch mode)")
    if workers > 1:
        many = time_workers(texts, rules, workers)
        click.echo(f"dipsat, pool of {workers}:  {many:8,.0f} phases/s (batch mode), {many / one:.2f}x one worker")
    if package is None:
        click.echo("diplomacy package: not installed (pip install 'dipsat[peers]') - no comparison")
        return
    for line in kind_table("diplomacy Game.process()", package):
        click.echo(line)
    package_rate = len(package) / sum(s for _, s in package)
    click.echo(f"diplomacy package:  {package_rate:8,.0f} phases/s (one process)")
    click.echo(f"ratio dipsat/diplomacy per core: {single_rate / package_rate:.2f}x one call a phase, "
               f"{batch_rate / package_rate:.2f}x batch mode")


def _bundled_cases() -> Path:
    here = Path(__file__).resolve().parent.parent / "cases"
    return here if here.is_dir() else Path("cases")


if __name__ == "__main__":  # pragma: no cover
    main()
