"""The ``dipsat`` command line: a thin layer over the library."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from .casework import case_files, describe_results, load_cases, run_case
from .rules import DEFAULT_PROFILE, ISSUES, PROFILES, Rules, RulesError


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


if __name__ == "__main__":  # pragma: no cover
    main()
