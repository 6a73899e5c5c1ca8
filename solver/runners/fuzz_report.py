"""The report of a ``dipsat fuzz`` run (``--report FILE``) and how a run is resumed from it
(``--resume``).

The report is JSON lines, keys sorted:

- first a ``run`` line: what the run asks (``seed``, ``engine``, ``rules``, ``families``,
  ``variants``); a run resumed from the report must ask the same;
- an ``item`` line per generated item, written as soon as every phase of it is answered:
  its number and per phase the engine's reply (the protocol's reply object, with
  ``unknown`` where a case runner failed every result offered) or how the engine failed;
- at the end, the verdicts: a ``phase`` line per rule difference and disagreement, an
  ``engine-failure`` line per phase the engine did not answer, the ``readings`` inferred
  and a ``group`` line per kind of disagreement.

A run cut off (killed, out of time) leaves the items it finished; ``--resume`` takes them as
they are (the phases are generated again from the seed, the replies read back), asks the
engine only about the items not yet asked, and judges the whole run again, so nothing is
counted twice or lost. The verdicts of an earlier run are dropped: they are decided again.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any

from ..engines.command import EngineFailure, FailureKind
from ..engines.protocol import ReplyError, read_reply, reply_json
from ..maps import Variant
from ..rules import Rules
from .fuzz import FuzzPhase, JudgedPhase, JudgedRun, ShrunkPhase
from .generators import generate_item

__all__ = ["ReportError", "Resumed", "group_lines", "item_line", "read_report", "report_line", "run_line",
           "verdict_lines", "write_html"]


class ReportError(ValueError):
    """A report that cannot be resumed (the message names the file and line, and why)."""


def report_line(doc: dict[str, Any]) -> str:
    return json.dumps(doc, sort_keys=True, ensure_ascii=False) + "\n"


def run_line(seed: int, engine: str, rules: Rules, families: list[str], variants: list[str]) -> dict[str, Any]:
    """What a run asks: a run resumed from its report must ask the same."""
    return {"type": "run", "seed": seed, "engine": engine, "rules": str(rules), "families": sorted(families),
            "variants": sorted(variants)}


def item_line(n: int, phases: list[FuzzPhase]) -> dict[str, Any]:
    """One generated item, every phase of it answered or failed."""
    out: list[dict[str, Any]] = []
    for p in phases:
        if p.reply is not None:
            reply = reply_json(p.id, p.reply.after, p.reply.retreat_options, p.reply.succeeded or None)
            out.append({"id": p.id, "reply": reply, **({"unknown": True} if p.reply.unknown else {})})
        elif p.failure is not None:
            out.append({"id": p.id, "failure": str(p.failure.kind), "detail": p.failure.detail})
    return {"type": "item", "item": n, "phases": out}


def verdict_lines(judged: list[JudgedPhase], failed: list[FuzzPhase], readings: list[str],
                  groups: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The verdicts closing a report: rule differences and disagreements, engine failures,
    the readings inferred, the groups of disagreements."""
    lines = [{"type": "phase", **j.to_json()} for j in judged if j.status != "agreed"]
    lines += [{"type": "engine-failure", "id": p.id, "family": p.generated.family, "status": "engine-failure",
               "failure": str(p.failure.kind), "detail": p.failure.detail} for p in failed if p.failure is not None]
    lines.append({"type": "readings", "readings": readings})
    lines += [{"type": "group", **g} for g in groups]
    return lines


@dataclass
class Resumed:
    """What an earlier run's report holds: its items (by number) and where the last ends."""

    items: dict[int, list[FuzzPhase]] = field(default_factory=dict)
    end: int = 0
    """Bytes: the end of the last complete item line (what follows is dropped)."""


def read_report(path: str, expected: dict[str, Any], variants: list[Variant], families: list[str],
                rules: Rules) -> Resumed:
    """The items of the report at `path` of a run that asked `expected` (a :func:`run_line`).

    :raises ReportError: the file is not a fuzz report, is one of another run (seed,
        engine, rules, families or maps), or an item cannot be read back.
    :raises OSError: the file cannot be read.
    """
    out = Resumed()
    if not os.path.exists(path) or os.path.getsize(path) == 0:
        return out
    offset = 0
    with open(path, "rb") as handle:
        for number, raw in enumerate(handle, start=1):
            offset += len(raw)
            if not raw.endswith(b"\n"):
                break  # the line a kill cut off
            try:
                line = json.loads(raw.decode("utf-8"))
            except (UnicodeDecodeError, ValueError, RecursionError):
                line = None
            if not isinstance(line, dict) or not isinstance(line.get("type"), str):
                raise ReportError(f"{path}:{number}: not a line of a dipsat fuzz report (expected a JSON object "
                                  "with 'type'): cannot resume it")
            if number == 1:
                if line.get("type") != "run":
                    raise ReportError(f"{path}:1: not a dipsat fuzz report (expected its 'run' line first): "
                                      "cannot resume it")
                for key in ("seed", "engine", "rules", "families", "variants"):
                    if line.get(key) != expected[key]:
                        raise ReportError(f"{path}: a run with {key} {_shown(line.get(key))}, not "
                                          f"{_shown(expected[key])}: resume with that run's options, or write a "
                                          "new report")
                out.end = offset
            elif line["type"] == "item":
                n = line.get("item")
                if not isinstance(n, int) or n < 0 or n in out.items:
                    raise ReportError(f"{path}:{number}: an item line without a new item number: cannot resume it")
                out.items[n] = _read_item(path, number, line, expected["seed"], n, variants, families, rules)
                out.end = offset
    return out


def _shown(value: object) -> str:
    return ",".join(map(str, value)) if isinstance(value, list) else str(value)


def _read_item(path: str, number: int, line: dict[str, Any], seed: int, n: int, variants: list[Variant],
               families: list[str], rules: Rules) -> list[FuzzPhase]:
    """An item's phases generated again from the seed, with the replies of the report."""
    generated = {g.id: g for g in generate_item(seed, n, variants, families, rules)}
    phases = line.get("phases")
    if not isinstance(phases, list):
        raise ReportError(f"{path}:{number}: item {n} has no list of 'phases': cannot resume it")
    out = []
    for entry in phases:
        g = generated.get(str(entry.get("id"))) if isinstance(entry, dict) else None
        if g is None or not isinstance(entry, dict):
            raise ReportError(f"{path}:{number}: item {n} names a phase the seed does not generate: cannot resume it")
        if "failure" in entry:
            try:
                kind = FailureKind(entry["failure"])
            except ValueError:
                raise ReportError(f"{path}:{number}: {g.id}: unknown failure {entry['failure']!r}") from None
            out.append(FuzzPhase(g.id, g, None, EngineFailure(g.id, kind, str(entry.get("detail", "")))))
            continue
        try:
            reply = read_reply(json.dumps(entry.get("reply")), g.id, g.state, len(g.orders))
        except ReplyError as exc:
            raise ReportError(f"{path}:{number}: {g.id}: {exc}") from None
        if entry.get("unknown") is True:
            reply = type(reply)(reply.id, reply.after, reply.retreat_options, reply.succeeded, unknown=True)
        out.append(FuzzPhase(g.id, g, reply))
    return out


def write_html(folder: str, judged: JudgedRun, shrunk: dict[str, ShrunkPhase], engine_name: str) -> str:
    """Validate's HTML report (:class:`dipsat.runners.html.HtmlReport`) of a run: the summary
    of every phase judged, and a section per kind of disagreement with its smallest case --
    the position and orders, the engine's next position (as "the record") beside dipsat's,
    the explanation and the case file. Returns the index's path."""
    from .fuzz import NO_READINGS, engine_record
    from .html import HtmlReport
    from .summary import Summary
    from .validate import validate_recorded
    html = HtmlReport(folder)
    summary = Summary()
    for report in judged.reports.values():
        summary.add(report)
    for _, small in sorted(shrunk.items()):
        html.add(validate_recorded(engine_record(small.phase, engine_name), judged.rules, small.phase.id, cases=True,
                                   pictures=True, inference=NO_READINGS))
    return str(html.close(summary, judged.rules))


def group_lines(judged: list[JudgedPhase], shrunk: dict[str, ShrunkPhase]) -> list[dict[str, Any]]:
    """The disagreements grouped by signature, most first: each its count, its phases and
    its smallest case (units, orders, the case's id)."""
    groups: dict[str, list[JudgedPhase]] = {}
    for j in judged:
        if j.status == "disagreed":
            groups.setdefault(j.signature, []).append(j)
    out = []
    for signature, members in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        line: dict[str, Any] = {"signature": signature, "count": len(members), "phases": [m.id for m in members]}
        small = shrunk.get(signature)
        if small is not None:
            units, orders, _ = small.phase_size
            line.update(smallest=small.judged.id, units=units, orders=orders, asked=small.asked)
        out.append(line)
    return out
