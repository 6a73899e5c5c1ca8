"""``dipsat validate INPUT...``: re-adjudicate recorded games and case files.

Inputs: saved games of the ``diplomacy`` package (``.json``: one game;
``.jsonl``: one game per line; either optionally ``.gz``), jDip/DATC case files
(``.txt``, ``.case``, ``.dat``), and folders (walked, sorted). Each game is
judged by :func:`dipsat.runners.validate.validate_game`; each case of a case file counts
as one phase, judged under the rules written in the case (its ``RULES`` line;
``--rules``/``--rule`` apply to recorded games only).

Work is cut into :class:`Item` values (one game, one corrupt line, one case),
each judged by the pure function :func:`validate_item`: a process pool can map it
and the report stays the same, since lines are written in input order.

Output: a summary table on stdout, and with ``--report FILE.jsonl`` one JSON line
per disagreement, rule difference and rejected record or phase (keys sorted, no
time stamps: the same input gives a byte-identical report). The exit status is 1
when some phase disagreed or was rejected, else 0.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import click

from ..errors import DipsatError
from ..runners.inputs import (Item, Judging, iter_items, printable, report_line,
                             validate_item)
from ..runners.inference import ARCHIVE, INFER_MODES, PILOT, Inference, archive_readings
from ..runners.pool import Pool, TaskFailure, call_with_limit, dask_map
from ..runners.runtime import import_solver, long_lived_heap
from ..rules import DEFAULT_PROFILE, PROFILES, Rules, RulesError

if TYPE_CHECKING:
    from ..runners.html import HtmlReport
    from ..runners.validate import GameReport

# The validation itself is imported where it is used, so that `dipsat --help` stays fast.

__all__ = ["validate_command"]

# --- the command -------------------------------------------------------------------------


def _peer_items(games: int, seed: int) -> list[Item]:
    """Play `games` seeded random games with the diplomacy package, in its own process
    (the adapter dipsat.peers.diplomacy; the package is AGPL and never imported here).

    The games are written to a private temporary folder, removed once read; their records
    are named ``diplomacy-random-SEED-GAMES.jsonl.gz:LINE``, so the report does not depend
    on where that folder was."""
    import importlib.util
    import subprocess
    import tempfile
    if importlib.util.find_spec("diplomacy") is None:
        raise click.UsageError("--against diplomacy needs the diplomacy package: pip install 'dipsat[peers]'")
    name = f"diplomacy-random-{seed}-{games}.jsonl.gz"
    with tempfile.TemporaryDirectory(prefix="dipsat-peer-") as folder:  # mode 0700, a fresh name
        out = os.path.join(folder, name)
        run = subprocess.run([sys.executable, "-m", "dipsat.peers.diplomacy", "--games", str(games), "--seed",
                              str(seed), "--out", out], env={**os.environ, "PYTHONHASHSEED": "0"},
                             capture_output=True, text=True)
        if run.returncode != 0:
            raise click.ClickException(f"the diplomacy package failed: {run.stderr.strip().splitlines()[-1:]}")
        return [replace(item, source=name + item.source[len(out):]) for item in iter_items([out])]


def _judge(task: tuple[Item, Judging]) -> GameReport:
    """A pool's unit of work (top level, so worker processes can import it)."""
    item, how = task
    return validate_item(item, how)


def _warm_up() -> None:
    """Import the judging code and the solver before the first record: the time limit is
    the record's, not the imports' (``dipsat`` loads OR-Tools only when first asked)."""
    importlib.import_module("dipsat.runners.validate")
    import_solver()


def _judge_within(task: tuple[Item, Judging, float]) -> GameReport | TaskFailure:
    """A Dask task: one item under the time limit (top level, so the cluster can import it)."""
    item, how, timeout = task
    answer: GameReport | TaskFailure = call_with_limit(_judge, (item, how), timeout)
    return answer


def _failed_record(item: Item, rules: Rules, reason: str) -> GameReport:
    from ..runners.validate import rejected_record

    return rejected_record(item.source, f"the worker failed on this record: {reason}", rules)


def _judged(items: list[Item], how: Judging, workers: int, timeout: float,
            scheduler: Cluster | None) -> Iterator[tuple[int, GameReport]]:
    """(index, report) for every item, in any order; the same time limit and the same
    report whatever runs it (this process, a pool, a Dask cluster)."""
    if scheduler:
        results: Iterator[tuple[int, Any]] = _judged_on_dask(items, how, timeout, scheduler)
    elif workers <= 1:
        _warm_up()
        results = ((i, call_with_limit(_judge, (item, how), timeout)) for i, item in enumerate(items))
    else:
        results = Pool(_judge, workers, timeout, warm_up=_warm_up).run([(item, how) for item in items])
    for i, result in results:
        yield i, (_failed_record(items[i], how.rules, result.reason) if isinstance(result, TaskFailure) else result)


@dataclass(frozen=True)
class Cluster:
    """A Dask scheduler to run on, and the TLS files that prove who is who (``tls://``)."""

    address: str
    ca_file: str | None = None
    cert: str | None = None
    key: str | None = None


def _judged_on_dask(items: list[Item], how: Judging, timeout: float,
                    cluster: Cluster) -> Iterator[tuple[int, GameReport | TaskFailure]]:
    """The same work on a Dask `distributed` cluster (optional extra dipsat[dask]).

    The cluster must be trusted: what it sends back is unpickled here, and unpickling
    can run code. Over ``tls://`` with --tls-ca-file/--tls-cert/--tls-key, the scheduler
    must show a certificate signed by that CA, and the traffic is encrypted."""
    try:  # Dask's functions are not typed: used through Any
        distributed: Any = importlib.import_module("distributed")
        Security: Any = importlib.import_module("distributed.security").Security
    except ImportError:
        raise click.UsageError("--scheduler needs Dask's distributed: pip install 'dipsat[dask]'") from None
    security = Security(tls_ca_file=cluster.ca_file, tls_client_cert=cluster.cert, tls_client_key=cluster.key,
                        require_encryption=True) if cluster.ca_file else None
    try:
        client = distributed.Client(cluster.address, security=security)
    except Exception as exc:  # noqa: BLE001 - refused, unreachable, a TLS handshake that fails ...
        raise click.ClickException(f"--scheduler {cluster.address}: cannot connect: {type(exc).__name__}: {exc}") from None
    with client:
        yield from dask_map(client, _judge_within, [(item, how, timeout) for item in items], timeout)


@dataclass
class _Resumed:
    """What an earlier, cut-off report already holds."""

    lines: list[dict[str, Any]] = field(default_factory=list)  # complete records' lines
    rules: dict[str, str] = field(default_factory=dict)  # source -> the rules its record was judged by
    inputs: dict[str, str | None] = field(default_factory=dict)  # source -> its Item.digest (None: not recorded)
    end: int = 0  # bytes: where the last complete record ends


def _report_line(raw: bytes) -> dict[str, Any] | None:
    """A line of a validate report, decoded (None: it is not one)."""
    try:
        line = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    if not isinstance(line, dict) or not isinstance(line.get("type"), str) or not isinstance(line.get("source"), str):
        return None
    if not isinstance(line.get("rule"), (str, type(None))):
        return None
    if line["type"] == "record":
        counts = line.get("counts")
        if not (isinstance(line.get("rules"), str) and isinstance(line.get("rejected"), bool)
                and isinstance(line.get("input"), (str, type(None))) and isinstance(counts, dict)
                and all(type(n) is int and n >= 0 and "/" in key for key, n in counts.items())):
            return None
    return line


def _resumed(report_path: str | None) -> _Resumed:
    """The complete records of a report cut off by a kill (a record whose lines are not all
    there is judged again). A last line without its newline is the cut (even inside a
    character); any other line that is not a report line means the file is not a report
    this command wrote, and it is left alone."""
    out = _Resumed()
    if not report_path or not os.path.exists(report_path):
        return out
    pending: list[dict[str, Any]] = []
    offset = 0
    try:
        with open(report_path, "rb") as handle:
            for number, raw in enumerate(handle, start=1):
                offset += len(raw)
                if not raw.endswith(b"\n"):
                    break  # the line a kill cut off
                line = _report_line(raw)
                if line is None:
                    raise click.UsageError(f"{report_path}:{number}: not a line of a dipsat validate report "
                                           "(expected a JSON object with 'type' and 'source'): cannot resume it")
                pending.append(line)
                if line["type"] == "record":
                    out.lines += pending
                    pending = []
                    out.rules[line["source"]] = line["rules"]
                    out.inputs[line["source"]] = line.get("input")
                    out.end = offset
    except OSError as exc:
        raise click.FileError(report_path, str(exc)) from None
    return out


def _record_rules(item: Item, how: Judging) -> str | None:
    """The rules a record of `item` would name if judged now (None: cannot tell)."""
    from ..runners.cases import case_rules

    case = item.case
    if item.kind != "case" or case is None or how.named:
        return str(how.rules)
    try:  # a case without --rules/--rule: its own RULES line
        own = case_rules(case)
    except DipsatError:
        return None
    return str(own) if own is not None and not case.errors else None


def _check_resumed_rules(resumed: _Resumed, items: list[Item], how: Judging, path: str) -> None:
    """Refuse to complete a report whose records were judged under other rules than this
    run would use (the report would mix two rule sets), or that are not the inputs of this
    run (another input, or one changed since: records would be lost or counted twice)."""
    here = {item.source: item for item in items}
    for source, digest in resumed.inputs.items():
        item = here.get(source)
        if item is None:
            raise click.UsageError(f"{path}: its record {source} is not among the inputs of this run: resume "
                                   "with the inputs of that run, or write a new report")
        if digest is not None and digest != item.digest:
            raise click.UsageError(f"{path}: {source} has changed since it was judged: write a new report")
    for item in items:
        earlier, now = resumed.rules.get(item.source), _record_rules(item, how)
        if earlier is not None and now is not None and earlier != now:
            raise click.UsageError(f"{path}: {item.source} was judged under rules {earlier}, this run judges it by "
                                   f"{now}: resume with the --rules/--rule of that run, or write a new report")


class _Progress:
    """A one-line progress report on stderr: records, phases per second, ETA."""

    def __init__(self, total: int, enabled: bool) -> None:
        self.total, self.enabled = total, enabled
        self.done = self.phases = 0
        self.start = self.last = time.monotonic()

    def update(self, report: GameReport) -> None:
        self.done += 1
        self.phases += len(report.phases)
        now = time.monotonic()
        if self.enabled and (now - self.last > 0.5 or self.done == self.total):
            self.last = now
            rate = self.phases / max(now - self.start, 1e-9)
            per_record = (now - self.start) / self.done
            eta = per_record * (self.total - self.done)
            click.echo(f"\r{self.done}/{self.total} records, {self.phases} phases, {rate:,.0f} phases/s, "
                       f"ETA {eta:,.0f} s ", nl=self.done == self.total, err=True)


@click.command("validate")
@click.argument("inputs", nargs=-1, type=click.Path(exists=True))
@click.option("--rules", "profile", type=click.Choice(sorted(PROFILES)), default=None,
              help=f"The rules profile to judge by (default: {DEFAULT_PROFILE}; case files without --rules/--rule "
                   "follow their own RULES lines).")
@click.option("--rule", "overrides", multiple=True, metavar="ISSUE=CHOICE",
              help="Override one DATC issue (repeatable), e.g. --rule 4.A.3=fallback.")
@click.option("--infer", type=click.Choice(list(INFER_MODES)), default=ARCHIVE, show_default=True,
              help="Infer the DATC chapter-4 rule readings the records follow for the whole archive (all inputs), "
                   "per game (archives that mix programs), or not at all (judge by the given rules only). "
                   "An issue given with --rule is never inferred.")
@click.option("--show", "show_count", type=click.IntRange(min=0), default=10, show_default=True,
              help="How many disagreements and rejections to list after the summary, one line each.")
@click.option("--summary", "summary_format", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="Print the summary as text or as JSON.")
@click.option("--write-cases", "cases_dir", type=click.Path(file_okay=False), default=None,
              help="Write every disagreement and rule difference as a jDip case file in this folder "
                   "(the record's outcome as POSTSTATE, ours as comments, under the inferred rules), with its "
                   "minimal case (CASE ID.min): `dipsat cases` fails the disagreements, passes the rule differences.")
@click.option("--html", "html_dir", type=click.Path(file_okay=False), default=None,
              help="Write an HTML report in this folder: the summary, then each disagreement, rule difference and "
                   "rejection with pictures of the board, the explanation and its case file (index.html).")
@click.option("--sandbox", default=None, metavar="URL",
              help="With --html: the `dipsat serve` address each case file's 'open it in the sandbox' link "
                   "points to, the state being in the link itself (default http://127.0.0.1:8765/; '' for no links).")
@click.option("--report", "report_path", type=click.Path(dir_okay=False), default=None,
              help="Write a JSONL report: one line per disagreement, rule difference and rejected record, "
                   "and a `record` line with the counts of every record.")
@click.option("--workers", type=int, default=None, help="Worker processes (default: all cores).")
@click.option("--timeout", type=click.FloatRange(min=0, min_open=True), default=300.0, show_default=True,
              help="Seconds one record may take before it is stopped and rejected (with any --workers, "
                   "and on a --scheduler cluster).")
@click.option("--resume", "resume_path", type=click.Path(dir_okay=False), default=None,
              help="Skip the records already in this report (from a run that was stopped) and complete it.")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="Run on a Dask distributed cluster (tcp://host:8786 or tls://host:8786), needs dipsat[dask]. "
                   "The cluster must be trusted: its results are unpickled here.")
@click.option("--tls-ca-file", type=click.Path(exists=True, dir_okay=False), default=None,
              help="With a tls:// scheduler: the CA certificate the cluster's certificates must be signed by.")
@click.option("--tls-cert", type=click.Path(exists=True, dir_okay=False), default=None,
              help="With a tls:// scheduler: this client's certificate.")
@click.option("--tls-key", type=click.Path(exists=True, dir_okay=False), default=None,
              help="With a tls:// scheduler: this client's private key.")
@click.option("--progress/--no-progress", default=None, help="Progress on stderr (default: when it is a terminal).")
@click.option("--against", type=click.Choice(["diplomacy"]), default=None,
              help="Live differential testing: play random games with this peer (needs dipsat[peers]) and judge them.")
@click.option("--random-games", type=int, default=20, show_default=True, help="With --against: how many games.")
@click.option("--seed", type=int, default=0, show_default=True, help="With --against: the games' seed.")
def validate_command(inputs: tuple[str, ...], profile: str | None, overrides: tuple[str, ...], infer: str,
                     show_count: int, summary_format: str, cases_dir: str | None, html_dir: str | None,
                     sandbox: str | None, report_path: str | None,
                     workers: int | None, timeout: float, resume_path: str | None, scheduler: str | None,
                     tls_ca_file: str | None, tls_cert: str | None, tls_key: str | None,
                     progress: bool | None, against: str | None, random_games: int, seed: int) -> None:
    """Re-adjudicate recorded games and case files, and list where the record differs.

    Inputs: saved games of the `diplomacy` package (.json, .jsonl, .gz; also
    webDiplomacy exports without per-order results), Droidippy/godip game histories
    (game_N.txt), jDip/DATC case files, and folders of them. For every phase:
    rebuild the position from the record, adjudicate the recorded orders, compare
    with what the record shows happened (each order's result code where the record
    has them, else the next position alone). The rule readings are inferred for
    the whole archive (--infer): an option of a DATC chapter-4 issue is named when at
    least two phases agree only under it and none contradicts it; disagreements it
    explains are counted as rule differences naming it. Every record is
    counted exactly once: agreed, disagreed, rule difference, or rejected with its
    reason. The report is the same, byte for byte, whatever the number of workers.
    """
    from ..runners.summary import Summary, report_text

    try:
        rules = Rules.parse([profile or DEFAULT_PROFILE, *overrides])
    except RulesError as exc:
        raise click.BadParameter(str(exc), param_hint="--rule") from None
    how = Judging(rules, named=profile is not None or bool(overrides),
                  cases=cases_dir is not None or html_dir is not None, pictures=html_dir is not None,
                  inference=Inference(infer, pinned=frozenset(o.partition("=")[0].strip().upper() for o in overrides)))
    if html_dir is not None and resume_path:
        raise click.UsageError("--html draws the records judged in this run: it cannot be combined with --resume")
    for folder in filter(None, (cases_dir, html_dir)):
        try:
            os.makedirs(folder, exist_ok=True)
        except OSError as exc:
            raise click.FileError(folder, str(exc)) from None
    html: HtmlReport | None = None
    if html_dir is not None:  # (its module loaded only when asked)
        from ..runners.html import SANDBOX, HtmlReport
        html = HtmlReport(html_dir, sandbox=SANDBOX if sandbox is None else sandbox or None)
    if resume_path and report_path and os.path.abspath(resume_path) != os.path.abspath(report_path):
        raise click.UsageError("--resume completes the report it names: give the same file to --report (or none)")
    report_path = report_path or resume_path
    if not inputs and not against:
        raise click.UsageError("give INPUTS (recorded games, case files, folders) or --against diplomacy")
    if (tls_ca_file or tls_cert or tls_key) and not (
            scheduler and scheduler.startswith("tls://") and tls_ca_file and tls_cert and tls_key):
        raise click.UsageError("--tls-ca-file, --tls-cert and --tls-key go together, with a tls:// --scheduler")
    if scheduler and scheduler.startswith("tls://") and not tls_ca_file:
        raise click.UsageError("a tls:// --scheduler needs --tls-ca-file, --tls-cert and --tls-key")
    resumed = _resumed(resume_path)
    summary = Summary(shown_limit=show_count)
    warnings: list[str] = []
    items = list(iter_items(inputs, warnings)) + (_peer_items(random_games, seed) if against else [])
    for warning in warnings:  # a file given twice: counted once
        click.echo(printable(warning), err=True)
    _check_resumed_rules(resumed, items, how, resume_path or "")
    every_item = items
    items = [item for item in items if item.source not in resumed.rules]
    try:  # resuming: drop the cut-off record and append (an archive run writes the report again at the end)
        if resume_path and os.path.exists(resume_path):
            os.truncate(resume_path, resumed.end)
        handle = open(report_path, "a" if resume_path else "w", encoding="utf-8", newline="\n") if report_path else None
    except OSError as exc:
        raise click.FileError(report_path or "", str(exc)) from None
    workers = workers if workers is not None else (os.cpu_count() or 1)
    show = progress if progress is not None else sys.stderr.isatty()
    meter = _Progress(len(items), show)
    archive = infer == ARCHIVE
    if archive and workers <= 1 and not scheduler:  # the records asked again at the end are not read again
        from ..runners.validate import Retained
        how = replace(how, retained=Retained())
    records = _split_records(resumed.lines)  # each record's report lines, in the report's order
    judged: dict[str, GameReport] = {}  # archive runs: the reports of this run, to finish at the end
    cluster = Cluster(scheduler, tls_ca_file, tls_cert, tls_key) if scheduler else None
    settle, release = long_lived_heap(how.retained is not None)  # the judges kept live to the end
    try:
        pilot = {item.source for item in every_item[:PILOT]} if archive else set()
        first = replace(how, inference=replace(how.inference, complete=True)) if archive else how
        parts = [([item for item in items if item.source in pilot], first),
                 ([item for item in items if item.source not in pilot], how)]
        for part, (part_items, part_how) in enumerate(parts):
            if part and archive:  # presume what the first records show
                shown = archive_readings((lines[-1] for lines in records if lines[-1].get("source") in pilot), rules)
                presumed = tuple(sorted((n, r.fitting) for n, r in shown.items() if r.fitting))
                part_how = replace(how, inference=replace(how.inference, presumed=presumed))
            waiting: dict[int, GameReport] = {}
            next_index = 0
            for i, report in _judged(part_items, part_how, workers, timeout, cluster):
                waiting[i] = report
                meter.update(report)
                while next_index in waiting:  # write in input order: the report does not depend on the workers
                    report = waiting.pop(next_index)
                    next_index += 1
                    lines = report.report_lines()
                    lines[-1]["input"] = part_items[next_index - 1].digest  # the record line: what --resume checks
                    records.append(lines)
                    if cases_dir is not None:
                        _write_cases(cases_dir, report)
                    if archive:
                        judged[report.source] = report
                    elif html is not None:
                        html.add(report)
                    if handle is not None:
                        handle.writelines(report_line(line) for line in lines)
                        handle.flush()
                    settle()
        if archive:
            records = _finish_archive(records, every_item, judged, how, workers, timeout, cases_dir, html)
            if handle is not None:  # the archive's readings decided some records' verdicts: written again
                handle.close()
                handle = None
                _rewrite(report_path or "", records)
        for lines in records:
            summary.add_lines(lines)
        groups = [g.to_json() for g in summary.groups]
        if handle is not None:  # the groups of disagreements close the report
            handle.writelines(report_line(line) for line in groups)
        elif report_path and groups:
            _append(report_path, groups)
        if html is not None:
            html.close(summary, rules)
    finally:
        release()
        if handle is not None:
            handle.close()
    if summary_format == "json":
        click.echo(printable(json.dumps(summary.to_json(rules), indent=2, sort_keys=True, ensure_ascii=False)))
    else:
        click.echo(printable(report_text(summary, rules)))
    raise SystemExit(1 if summary.failed else 0)


def _append(path: str, lines: list[dict[str, Any]]) -> None:
    try:
        with open(path, "a", encoding="utf-8", newline="\n") as handle:
            handle.writelines(report_line(line) for line in lines)
    except OSError as exc:
        raise click.FileError(path, str(exc)) from None


def _split_records(lines: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """Report lines cut into records (each ends with its `record` line); the archive's
    `readings` line and the groups of an earlier run are dropped (they are decided again)."""
    out: list[list[dict[str, Any]]] = []
    pending: list[dict[str, Any]] = []
    for line in lines:
        if line.get("type") in ("readings", "group"):
            continue
        pending.append(line)
        if line.get("type") == "record":
            out.append(pending)
            pending = []
    return out


def _finish_archive(records: list[list[dict[str, Any]]], items: list[Item], judged: dict[str, GameReport],
                    how: Judging, workers: int, timeout: float, cases_dir: str | None,
                    html: HtmlReport | None) -> list[list[dict[str, Any]]]:
    """Decide the archive's readings (:func:`dipsat.runners.archive.finish_archive`): the
    records asked again are judged by a pool (in this process with one worker, or with a
    Dask cluster: those tasks are small)."""
    from ..runners.archive import finish_archive

    by_source = {item.source: item for item in items}

    def rejudge(tasks: list[tuple[int, Inference]]) -> Iterator[tuple[int, GameReport]]:
        known = [(k, by_source[records[k][-1]["source"]], inference) for k, inference in tasks
                 if records[k][-1].get("source") in by_source]
        payloads = [(item, replace(how, inference=inference)) for _, item, inference in known]
        if workers <= 1 or len(payloads) <= 1:
            results: Iterator[tuple[int, Any]] = (
                (j, call_with_limit(_judge, payload, timeout)) for j, payload in enumerate(payloads))
        else:
            results = Pool(_judge, workers, timeout, warm_up=_warm_up).run(payloads)
        for j, result in results:
            k, item, _ = known[j]
            report = _failed_record(item, how.rules, result.reason) if isinstance(result, TaskFailure) else result
            if cases_dir is not None and payloads[j][1].inference.only is not None:
                _write_cases(cases_dir, report)
            yield k, report

    final, _ = finish_archive(records, how.rules, rejudge, judged)
    if html is not None:
        for lines in final:
            report = judged.get(lines[-1].get("source", ""))
            if report is not None:
                html.add(report)
    return final


def _rewrite(path: str, records: list[list[dict[str, Any]]]) -> None:
    """The whole report, written anew (a temporary file renamed over it: a kill leaves the old one)."""
    temporary = path + ".part"
    try:
        with open(temporary, "w", encoding="utf-8", newline="\n") as handle:
            for lines in records:
                handle.writelines(report_line(line) for line in lines)
        os.replace(temporary, path)
    except OSError as exc:
        raise click.FileError(path, str(exc)) from None


def _write_cases(folder: str, report: GameReport) -> None:
    """Each disagreement and rule difference of a record as ``GAME.PHASE.txt``."""
    from ..runners.validate import case_name

    for phase in report.phases:
        if phase.case:
            name = case_name(report.game, phase.name) + ".txt"
            try:
                with open(os.path.join(folder, name), "w", encoding="utf-8", newline="\n") as handle:
                    handle.write(phase.case)
            except OSError as exc:
                raise click.FileError(os.path.join(folder, name), str(exc)) from None
