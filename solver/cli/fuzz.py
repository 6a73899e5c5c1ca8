"""``dipsat fuzz --against ENGINE``: test another adjudicator on generated phases.

ENGINE is ``diplomacy`` (the ``diplomacy`` package, through ``python -m
dipsat.peers.engine``; needs ``dipsat[peers]``), ``cmd:COMMAND`` (any program speaking the
engine protocol of docs/engines.md) or ``cases:COMMAND {file}`` (a case runner: a command
that runs one jDip/DATC case file and exits 0 when it passes).
"""

from __future__ import annotations

import os
import shutil
import sys
import textwrap
import time
from collections import Counter
from typing import TYPE_CHECKING

import click

from ..rules import DEFAULT_PROFILE, PROFILES, Rules, RulesError

if TYPE_CHECKING:
    from ..runners.fuzz import Engine, FuzzPhase, JudgedPhase

__all__ = ["fuzz_command"]

FAMILY_NAMES = ("convoys", "paradoxes", "rings", "head_to_head", "coasts", "retreats", "adjustments", "games")


def _engine(spec: str, rules: Rules, timeout: float) -> tuple[Engine, str]:
    from ..engines.command import CommandEngine
    if spec == "diplomacy":
        import importlib.util
        if importlib.util.find_spec("diplomacy") is None:
            raise click.UsageError("--against diplomacy needs the diplomacy package: pip install 'dipsat[peers]'")
        command = f"{sys.executable} -m dipsat.peers.engine"
        return CommandEngine(command, timeout, env={"PYTHONHASHSEED": "0"}, name="diplomacy"), "diplomacy"
    if spec.startswith("cmd:") and spec[4:].strip():
        return CommandEngine(spec[4:], timeout), spec
    if spec.startswith("cases:") and spec[6:].strip():
        from ..engines.casefile import CaseRunnerEngine
        from ..runners.fuzz import other_readings
        try:
            return CaseRunnerEngine(spec[6:], rules, other_readings(rules), timeout), spec
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--against") from None
    raise click.BadParameter(f"{spec!r}: expected diplomacy, cmd:COMMAND or 'cases:COMMAND {{file}}'",
                             param_hint="--against")


@click.command("fuzz")
@click.option("--against", "spec", required=True, metavar="ENGINE",
              help="diplomacy, cmd:COMMAND (the engine protocol, docs/engines.md) or 'cases:COMMAND {file}'.")
@click.option("--seed", type=int, default=0, show_default=True, help="The generated phases' seed.")
@click.option("--phases", type=click.IntRange(min=1), default=None, help="Ask the engine about this many phases.")
@click.option("--minutes", type=click.FloatRange(min=0, min_open=True), default=None,
              help="Ask the engine for this long (with --phases: whichever comes first; default 200 phases).")
@click.option("--family", "families", multiple=True, type=click.Choice(FAMILY_NAMES),
              help="Generate only these families (repeatable; default: all).")
@click.option("--variant", "variants", multiple=True, type=click.Choice(["standard", "modern"]),
              help="Generate on these maps (repeatable; default: standard).")
@click.option("--rules", "profile", type=click.Choice(sorted(PROFILES)), default=None,
              help="Rules profile dipsat judges by (default 2000).")
@click.option("--rule", "overrides", multiple=True, metavar="ISSUE=CHOICE", help="Override one DATC issue.")
@click.option("--timeout", type=click.FloatRange(min=0, min_open=True), default=10.0, show_default=True,
              help="Seconds an engine may take to answer one request.")
@click.option("--write-cases", "cases_dir", type=click.Path(file_okay=False), default=None,
              help="Write each disagreement as a jDip/DATC case file to this folder.")
@click.option("--report", "report_path", type=click.Path(dir_okay=False), default=None,
              help="A JSON line per disagreement, rule difference and engine failure.")
@click.option("--show", "show_count", type=int, default=10, show_default=True, help="Disagreements listed.")
@click.option("--shrink/--no-shrink", default=True, show_default=True,
              help="Shrink the first disagreement of each kind to the fewest units and orders that still show it "
                   "(every candidate asked of the engine).")
@click.option("--infer/--no-infer", default=True, show_default=True,
              help="Infer the engine's rule readings from the whole run (else judge by the rules given only).")
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True,
              help="Engines run at once (each its own process, each asked about the next phase), and processes "
                   "judging the answers.")
@click.option("--resume", is_flag=True, default=False,
              help="Complete the run whose --report FILE is given (cut off, or with a larger budget): its phases are "
                   "taken as answered, the rest asked, the whole run judged again. The run must have the same "
                   "--against, --seed, --rules/--rule, --family and --variant.")
@click.option("--html", "html_dir", type=click.Path(file_okay=False), default=None,
              help="Write validate's HTML report to this folder: the summary, and per kind of disagreement its "
                   "smallest case with pictures (the engine's next position beside dipsat's) and its case file.")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="Judge the answers on a Dask distributed cluster (tcp://host:8786), needs dipsat[dask]; the "
                   "engines still run here. The cluster must be trusted: its results are unpickled here.")
@click.option("--progress/--no-progress", default=None, help="Progress on stderr (default: when it is a terminal).")
def fuzz_command(spec: str, seed: int, phases: int | None, minutes: float | None, families: tuple[str, ...],
                 variants: tuple[str, ...], profile: str | None, overrides: tuple[str, ...], timeout: float,
                 cases_dir: str | None, report_path: str | None, show_count: int, shrink: bool, infer: bool,
                 workers: int, resume: bool, html_dir: str | None, scheduler: str | None,
                 progress: bool | None) -> None:
    """Test another adjudicator without an archive: generated phases where the rules are
    hard (convoys, convoy paradoxes, rings, head-to-head battles, coasts, retreats, builds
    and civil disorder, whole games), each asked of ENGINE and judged as validate judges
    a record: agreed, a rule reading the engine follows, or a disagreement. Every request
    is counted once; an engine that crashes, hangs or answers garbage is reported for that
    request and restarted. The exit status is 1 when some phase disagreed."""
    import dipsat
    from ..runners.fuzz import ask_engine, judge_run, shrink_groups, write_fuzz_cases
    from ..runners.fuzz_report import (ReportError, group_lines, item_line, read_report, report_line, run_line,
                                       verdict_lines, write_html)
    from ..runners.fuzz_workers import dask_judge, pool_judge

    try:
        rules = Rules.parse([profile or DEFAULT_PROFILE, *overrides])
    except RulesError as exc:
        raise click.BadParameter(str(exc), param_hint="--rule") from None
    if resume and report_path is None:
        raise click.UsageError("--resume completes the run of a --report FILE: give that file with --report")
    if phases is None and minutes is None:
        phases = 200
    family_list = list(families or FAMILY_NAMES)
    variant_names = list(variants or ("standard",))
    loaded = [dipsat.load_variant(v) for v in variant_names]
    name = spec
    header = run_line(seed, name, rules, family_list, variant_names)
    resumed_items: dict[int, list[FuzzPhase]] = {}
    end = 0
    if resume and report_path is not None:
        try:
            earlier = read_report(report_path, header, loaded, family_list, rules)
        except ReportError as exc:
            raise click.UsageError(str(exc)) from None
        except OSError as exc:
            raise click.FileError(report_path, str(exc)) from None
        resumed_items, end = earlier.items, earlier.end
    judge_all = pool_judge(workers, JUDGE_TIMEOUT)
    if scheduler:
        try:
            judge_all = dask_judge(scheduler, JUDGE_TIMEOUT)
        except ImportError:
            raise click.UsageError("--scheduler needs Dask's distributed: pip install 'dipsat[dask]'") from None
    for folder in filter(None, (cases_dir, html_dir)):
        try:
            os.makedirs(folder, exist_ok=True)
        except OSError as exc:
            raise click.FileError(folder, str(exc)) from None
    handle = None
    if report_path is not None:
        try:
            if resume and end:
                os.truncate(report_path, end)  # the earlier verdicts and a cut-off line go: decided again
            handle = open(report_path, "a" if resume and end else "w", encoding="utf-8", newline="\n")
            if not (resume and end):
                handle.write(report_line(header))
        except OSError as exc:
            raise click.FileError(report_path, str(exc)) from None

    def on_item(n: int, done: list[FuzzPhase]) -> None:
        if handle is not None:
            handle.write(report_line(item_line(n, done)))
            handle.flush()

    meter = _Meter(progress if progress is not None else sys.stderr.isatty(), phases, minutes,
                   sum(map(len, resumed_items.values())))
    made = [_engine(spec, rules, timeout) for _ in range(workers)]
    engines = [e for e, _ in made]
    try:
        try:
            run = ask_engine(engines, loaded, family_list, rules, seed, phases=phases, minutes=minutes,
                             progress=meter.update, resumed=resumed_items, on_item=on_item)
            meter.finish(f"judging {len(run.answered)} phases")
            pinned = frozenset(n for n in (o.split("=", 1)[0].strip().upper() for o in overrides))
            judging = time.monotonic()
            verdicts = judge_run(run, rules, name, cases=cases_dir is not None, infer=infer, pinned=pinned,
                                 judge_all=judge_all)
            judging = time.monotonic() - judging
            meter.finish("shrinking" if shrink else "")
            judged = verdicts.phases
            shrunk = shrink_groups(engines[0], run, verdicts, name) if shrink else {}
            meter.finish("")
        finally:
            for engine in engines:
                engine.close()
        readings = [reading.summary() for _, reading in sorted(verdicts.readings.items())
                    if reading.fitting or any(reading.support.values())]  # issues with evidence either way
        if handle is not None:
            handle.writelines(report_line(line) for line in verdict_lines(judged, run.failed, readings,
                                                                         group_lines(judged, shrunk)))
    finally:
        if handle is not None:
            handle.close()
    counts = Counter(j.status for j in judged)
    failures = Counter(str(p.failure.kind) for p in run.failed if p.failure is not None)
    lines = [f"dipsat fuzz --against {name} (rules {verdicts.rules}, seed {seed}): {len(run.phases)} phases asked in "
             f"{run.seconds:.1f} s ({len(run.phases) / max(run.seconds, 1e-9):.0f} phases/s)"
             + (f", {sum(map(len, resumed_items.values()))} of them by the run resumed" if resumed_items else "")
             + f"; judged in {judging:.1f} s ({len(run.answered) / max(judging, 1e-9):.0f} phases/s, "
             + (f"on {scheduler})" if scheduler else f"{workers} worker{'s' if workers > 1 else ''})"),
             f"  agreed {counts['agreed']}, rule differences {counts['rule-difference']}, "
             f"disagreements {counts['disagreed']}, engine failures {sum(failures.values())}"
             + (f" ({', '.join(f'{k} {v}' for k, v in sorted(failures.items()))})" if failures else "")
             + (f", not judged (a worker failed) {counts['rejected']}" if counts["rejected"] else "")
             + (f", gaps (the engine's next phase skips one: no verdict) {counts['gap']}" if counts["gap"] else "")]
    if readings:
        lines.append("rule readings of the engine (inferred from the whole run; --no-infer: none):")
        lines += [f"  {text}" for text in readings]
    groups: dict[str, list[JudgedPhase]] = {}
    for j in judged:
        if j.status == "disagreed":
            groups.setdefault(j.signature, []).append(j)
    if groups:
        lines.append(f"disagreements by kind ({len(groups)} kinds):")
        for signature, members in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0]))[:show_count]:
            first = members[0]
            lines.append(f"  {len(members):4d}  {signature}: e.g. {first.id} ({first.family}): {first.summary}")
            said = [part for part in first.note.split("; ") if part and not part.startswith("no per-order results")]
            if said:  # an engine's answer has no per-order results: every phase is judged on positions
                lines.append(f"        note: {'; '.join(said)}")
            small = shrunk.get(signature)
            if small is not None:
                units, orders, _ = small.phase_size
                lines.append(f"        smallest: {small.judged.id}: {units} units, {orders} orders "
                             f"({small.asked} phases asked while shrinking): {small.judged.summary}")
    for p in run.failed[:show_count]:
        lines.append(f"  engine failure: {p.failure}")
    width = max(60, min(shutil.get_terminal_size((100, 24)).columns, 140))
    click.echo("\n".join(textwrap.fill(line, width, subsequent_indent=" " * (len(line) - len(line.lstrip()) + 8),
                                      break_on_hyphens=False, break_long_words=False) for line in lines))
    try:
        if cases_dir is not None:
            write_fuzz_cases(cases_dir, judged, shrunk)
        if html_dir is not None:
            write_html(html_dir, verdicts, shrunk, name)
    except OSError as exc:
        raise click.FileError(exc.filename or cases_dir or html_dir or "", str(exc)) from None
    raise SystemExit(1 if counts["disagreed"] else 0)


JUDGE_TIMEOUT = 600.0
"""Seconds a worker may take to judge a chunk of phases (:data:`dipsat.runners.fuzz_workers.CHUNK`)."""


class _Meter:
    """A one-line progress report on stderr: phases asked, phases per second, time left."""

    def __init__(self, enabled: bool, phases: int | None, minutes: float | None, resumed: int) -> None:
        self.enabled, self.phases, self.minutes, self.resumed = enabled, phases, minutes, resumed
        self.start = self.last = time.monotonic()
        self.shown = False
        self.asked = 0

    def update(self, asked: int, final: bool = False) -> None:
        self.asked = asked
        now = time.monotonic()
        if not self.enabled or (now - self.last < 0.5 and not final):
            return
        self.last = now
        elapsed = now - self.start
        rate = asked / max(elapsed, 1e-9)
        left = [self.minutes * 60 - elapsed] if self.minutes is not None else []
        if self.phases is not None:
            left.append((self.phases - self.resumed - asked) / max(rate, 1e-9))
        eta = 0.0 if final else max(0.0, min(left)) if left else 0.0
        done = min(1.0, elapsed / (elapsed + eta)) if elapsed + eta > 0 else 1.0
        bar = "#" * int(done * 24)
        click.echo(f"\r[{bar:<24}] {self.resumed + asked} phases asked, {rate:,.1f} phases/s, ETA {eta:,.0f} s ",
                   nl=False, err=True)
        self.shown = True

    def finish(self, next_step: str) -> None:
        if not self.enabled:
            return
        if self.asked:  # the bar full: the budget is spent (shown even when it took under the half second between updates)
            self.update(self.asked, final=True)
            self.asked = 0
        if self.shown:
            click.echo("", err=True)
            self.shown = False
        if next_step:
            click.echo(f"{next_step} ...", err=True)
