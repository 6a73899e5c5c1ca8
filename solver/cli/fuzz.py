"""``dipsat fuzz --against ENGINE``: test another adjudicator on generated phases.

ENGINE is ``diplomacy`` (the ``diplomacy`` package, through ``python -m
dipsat.peers.engine``; needs ``dipsat[peers]``), ``cmd:COMMAND`` (any program speaking the
engine protocol of docs/engines.md) or ``cases:COMMAND {file}`` (a case runner: a command
that runs one jDip/DATC case file and exits 0 when it passes).
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import textwrap
from collections import Counter
from typing import TYPE_CHECKING

import click

from ..rules import DEFAULT_PROFILE, PROFILES, Rules, RulesError

if TYPE_CHECKING:
    from ..runners.fuzz import Engine, JudgedPhase

__all__ = ["fuzz_command"]

FAMILY_NAMES = ("convoys", "rings", "head_to_head", "coasts", "retreats", "adjustments", "games")


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
              help="Engines run at once (each its own process), each asked about the next phase.")
def fuzz_command(spec: str, seed: int, phases: int | None, minutes: float | None, families: tuple[str, ...],
                 variants: tuple[str, ...], profile: str | None, overrides: tuple[str, ...], timeout: float,
                 cases_dir: str | None, report_path: str | None, show_count: int, shrink: bool, infer: bool, workers: int) -> None:
    """Test another adjudicator without an archive: generated phases where the rules are
    hard (convoys and paradoxes, rings, head-to-head battles, coasts, retreats, builds
    and civil disorder, whole games), each asked of ENGINE and judged as validate judges
    a record: agreed, a rule reading the engine follows, or a disagreement. Every request
    is counted once; an engine that crashes, hangs or answers garbage is reported for that
    request and restarted. The exit status is 1 when some phase disagreed."""
    import dipsat
    from ..runners.fuzz import ask_engine, judge_run, shrink_groups, write_fuzz_cases

    try:
        rules = Rules.parse([profile or DEFAULT_PROFILE, *overrides])
    except RulesError as exc:
        raise click.BadParameter(str(exc), param_hint="--rule") from None
    if phases is None and minutes is None:
        phases = 200
    made = [_engine(spec, rules, timeout) for _ in range(workers)]
    engines, name = [e for e, _ in made], made[0][1]
    loaded = [dipsat.load_variant(v) for v in (variants or ("standard",))]
    show = sys.stderr.isatty()

    def progress(n: int) -> None:
        if show and n % 25 == 0:
            click.echo(f"\rasked {n} phases", nl=False, err=True)

    try:
        run = ask_engine(engines, loaded, list(families or FAMILY_NAMES), rules, seed, phases=phases, minutes=minutes,
                         progress=progress)
        if show:
            click.echo("", err=True)
        pinned = frozenset(n for n in (o.split("=", 1)[0].strip().upper() for o in overrides))
        verdicts = judge_run(run, rules, name, cases=cases_dir is not None, infer=infer, pinned=pinned)
        judged = verdicts.phases
        shrunk = shrink_groups(engines[0], run, verdicts, name) if shrink else {}
    finally:
        for engine in engines:
            engine.close()
    counts = Counter(j.status for j in judged)
    failures = Counter(str(p.failure.kind) for p in run.failed if p.failure is not None)
    lines = [f"dipsat fuzz --against {name} (rules {verdicts.rules}, seed {seed}): {len(run.phases)} phases asked in "
             f"{run.seconds:.1f} s ({len(run.phases) / max(run.seconds, 1e-9):.0f} phases/s)",
             f"  agreed {counts['agreed']}, rule differences {counts['rule-difference']}, "
             f"disagreements {counts['disagreed']}, engine failures {sum(failures.values())}"
             + (f" ({', '.join(f'{k} {v}' for k, v in sorted(failures.items()))})" if failures else "")]
    if verdicts.readings:
        lines.append("rule readings of the engine (inferred from the whole run; --no-infer: none):")
        lines += [f"  {reading.summary()}" for _, reading in sorted(verdicts.readings.items())
                  if reading.fitting or any(reading.support.values())]  # issues with evidence either way
    groups: dict[str, list[JudgedPhase]] = {}
    for j in judged:
        if j.status == "disagreed":
            groups.setdefault(j.signature, []).append(j)
    if groups:
        lines.append(f"disagreements by kind ({len(groups)} kinds):")
        for signature, members in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0]))[:show_count]:
            first = members[0]
            lines.append(f"  {len(members):4d}  {signature}: e.g. {first.id} ({first.family}): {first.summary}")
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
    if cases_dir is not None:
        try:
            os.makedirs(cases_dir, exist_ok=True)
            write_fuzz_cases(cases_dir, judged, shrunk)
        except OSError as exc:
            raise click.FileError(cases_dir, str(exc)) from None
    if report_path is not None:
        try:
            with open(report_path, "w", encoding="utf-8", newline="\n") as handle:
                for j in judged:
                    if j.status != "agreed":
                        handle.write(json.dumps(j.to_json(), sort_keys=True, ensure_ascii=False) + "\n")
                for p in run.failed:
                    assert p.failure is not None
                    handle.write(json.dumps({"id": p.id, "family": p.generated.family, "status": "engine-failure",
                                             "failure": str(p.failure.kind), "detail": p.failure.detail},
                                            sort_keys=True, ensure_ascii=False) + "\n")
        except OSError as exc:
            raise click.FileError(report_path, str(exc)) from None
    raise SystemExit(1 if counts["disagreed"] else 0)
