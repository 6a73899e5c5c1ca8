"""Printers for people and other adjudicators: the text report and case-file output.

Pure functions from results to text; the CLI only chooses which to call.
"""

from __future__ import annotations

import shutil
import textwrap
from collections.abc import Sequence
from typing import TextIO

from ..board import PhaseKind, Unit
from .compare import comparison_rows
from ..formats.casefile import case_variant, format_unit_line, write_case
from ..report import (AdjustmentCount, adjustment_counts, disbanded_report, disorder_reason, dislodged_report, order_power,
                     status_word)
from ..notation import RejectedOrder, format_order
from ..orders import Order
from ..results import OrderResult, PhaseResult
from ..state import State

WIDTH = 80


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


def given_order(result: PhaseResult) -> list[tuple[int, OrderResult]]:
    """The order results with their index, by power (by name; orders of no power last) and
    each power's orders in the order given: where the first legal builds or removals count
    (DATC 4.D.4, 4.D.6), the order that decided is seen before those it made fail (6.I.1, 6.J.1)."""
    def key(item: tuple[int, OrderResult]) -> tuple[bool, str, int]:
        power = order_power(item[1])
        return (power is None, power or "", item[0])
    return sorted(enumerate(result.results), key=key)


def render_text(result: PhaseResult, name: str = "", rejected: Sequence[RejectedOrder] = ()) -> str:
    """The people's report: orders and results, the order lines that could not be read
    (`rejected`), dislodgements, the new position."""
    before, after = result.before, result.after
    lines = _wrap(f"{name + ': ' if name else ''}", f"{before.phase} (rules {result.rules})", indent=4)
    ranked = given_order(result)
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
        lines.append("Orders: none" + (" (every unit holds)" if before.phase.kind is PhaseKind.MOVEMENT else ""))
    if rejected:
        lines.append("Not read (skipped):")
        for line in rejected:
            lines += _wrap("  ", str(line), 4)
    if before.phase.kind is PhaseKind.ADJUSTMENT:
        counts = adjustment_lines(result)
        if counts:
            lines.append("Adjustments:")
            for count in counts:
                lines += _wrap("  ", count, 4)
    for backup in result.backup_rules:
        name, _, settled = backup.partition(": ")
        if name == "circular movement":  # no backup rule: the rulebooks let three or more units rotate
            figure = "2000 rulebook, figure 7; " if result.rules.profile_name == "2000" else ""
            lines += _wrap("Circular movement: ", f"{settled}: every move succeeds (the rulebook allows a rotation: "
                                                  f"{figure}DATC 5.B.9, 6.C.1)", 4)
        else:
            lines += _wrap("Backup rule: ", backup, 4)
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
        for gone_unit in gone:
            unit = gone_unit.unit
            lines += _wrap(f"  {unit.power:<{pw}}  {unit.kind} {str(unit.location):<6}  ", gone_unit.reason)
    lines.append("New position:")
    waiting: dict[str, list[Unit]] = {}
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


def write_result_case(handle: TextIO, case_id: str, result: PhaseResult, orders: list[Order],
                      players: int | None = None, rejected: Sequence[RejectedOrder] = ()) -> None:
    """The position, the orders and the adjudicated board as one case, so another
    adjudicator (or ``dipsat cases``) can run it; order lines that could not be read
    (`rejected`) are comments."""
    before, after = result.before, result.after
    handle.write(f"# Written by dipsat adjudicate: POSTSTATE is dipsat's result under rules {result.rules}.\n")
    for line in rejected:
        handle.write(f"# Not read, skipped: {' '.join(str(line).split())}\n")
    handle.write(f"VARIANT_ALL {case_variant(before.variant)}\n\n")
    dislodged: list[Unit] = []
    if before.phase.kind is PhaseKind.MOVEMENT and after.phase.kind is PhaseKind.RETREAT:
        dislodged = sorted((d.unit for d in after.dislodged), key=lambda u: (u.province, u.location.coast or ""))
    write_case(handle, case_id.split()[0] if case_id.strip() else "dipsat", before.phase, list(before.units),
               [format_order(o) for o in orders], list(after.units), dislodged, list(before.owners),
               str(result.rules), prestate_dislodged=[d.unit for d in before.dislodged],
               prestate_results=prestate_results(before), players=players)


def prestate_results(state: State) -> list[str]:
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
        bouncers = [u for n in neighbours if (u := state.unit_at(n)) is not None][:2]
        lines += [f"FAILURE: {format_unit_line(u)} - {province}" for u in bouncers]
        spare = [n for n in neighbours if state.unit_at(n) is None]
        lines += [f"FAILURE: A {n} - {province}" for n in spare[:2 - len(bouncers)]]
    return lines


# --- rule lawyer's views: --explain, --all, --compare -----------------------------------


def adjustment_lines(result: PhaseResult) -> list[str]:
    """For each power that adjusts: its centres, units and builds or removals
    (``France: 4 centres, 5 units: 1 removal``)."""
    out = []
    for count in adjustment_counts(result):
        power, centres, units, delta = count.power, count.centres, count.units, count.delta
        what = f"{abs(delta)} build{'s' if abs(delta) > 1 else ''}" if delta > 0 else \
            f"{-delta} removal{'s' if -delta > 1 else ''}"
        line = f"{power}: {centres} centre{'s' if centres != 1 else ''}, {units} unit{'s' if units != 1 else ''}: {what}"
        if delta > 0:
            line += f": {count.built} built" + (f", {_unused(count)}" if count.unused else "")
        disorder = [d for d in result.civil_disorder if d.unit.power == power]
        if disorder:
            line += "; civil disorder removes " + "; ".join(
                f"{d.unit.kind} {d.unit.location} ({disorder_reason(d)})" for d in disorder)
        out.append(line)
    return out


def _unused(count: AdjustmentCount) -> str:
    """``1 not used (waived)``, ``2 not used (1 waived, 1 not ordered)``."""
    parts = [f"{n} {what}" for n, what in ((count.waived, "waived"), (count.refused, "refused"),
                                           (count.not_ordered, "not ordered")) if n]
    if len(parts) == 1:
        parts = [parts[0].split(" ", 1)[1]]
    return f"{count.unused} not used ({', '.join(parts)})"


def render_explanations(result: PhaseResult) -> str:
    """Each order's decisive facts (read off the solved model)."""
    from .explain import explain, explain_disorder

    lines = ["Explanations:"]
    for r, facts in zip(result.results, explain(result)):
        lines.append(f"  {format_order(r.order)}")
        for fact in facts:
            lines += _wrap("      ", fact, 8)
    for d, facts in zip(result.civil_disorder, explain_disorder(result)):
        lines.append(f"  {d.unit.power}: {d.unit.kind} {d.unit.location} removed in civil disorder")
        for fact in facts:
            lines += _wrap("      ", fact, 8)
    if len(lines) == 1:
        lines.append("  (no orders)")
    return "\n".join(lines) + "\n"


def render_alternatives(result: PhaseResult) -> str:
    """Every consistent resolution before the backup rule, and which one was taken."""
    from .alternatives import alternatives

    alt = alternatives(result)
    capped = "at least " if alt.capped else ""
    lines = [f"Consistent resolutions: {capped}{alt.count}" + (" (no circular movement or paradox)" if alt.count == 1
                                                       and not alt.capped and alt.without_rulebook_rule is None else "")]
    if alt.without_rulebook_rule is not None:
        n = alt.without_rulebook_rule
        lines += _wrap("  ", f"A convoy paradox as the DATC defines it: {n} resolution{'s' if n != 1 else ''} "
                             f"without the {alt.rulebook} convoy rule (DATC 4.A.2), {alt.count} with it.", 4)
    if alt.count == 0:
        lines.append("  No resolution satisfies the rules: a paradox. Orders in its core:")
        lines += [f"    {order}" for order in alt.core]
    elif alt.count > 1 or alt.capped:
        listed = f" (the first {len(alt.resolutions)})" if len(alt.resolutions) < alt.count else ""
        lines.append(f"  They differ in{listed}:")
        for i, values in enumerate(alt.resolutions, start=1):
            mark = "  <- taken" if alt.chosen == i - 1 else ""
            lines.append(f"  Resolution {i}{mark}")
            width = max((len(kind) for kind, _ in values), default=0)
            lines += [f"    {kind + ':':<{width + 1}} {value}" for kind, value in values]
        if alt.chosen is None:
            lines.append("  None of them is taken: the backup rule changes the result.")
    for rule in alt.rules:
        lines += _wrap("  Settled by: ", rule, 4)
    return "\n".join(lines) + "\n"


def render_comparison(results: dict[str, PhaseResult], width: int | None = None) -> str:
    """One row per difference between the results (:func:`dipsat.printers.compare.comparison_rows`),
    as wide as the terminal (``COLUMNS``); a subject wider than its column is printed on
    its own line, never cut."""
    names = list(results)
    rows = comparison_rows(results)
    if not rows:
        return (f"Compared {', '.join(names)}: all agree (orders, dislodgements, retreats, standoffs, builds, "
                f"removals, units and centres).\n")
    width = width or shutil.get_terminal_size((WIDTH, 24)).columns
    widths = [max(len(n), *(len(row.values[i]) for row in rows)) for i, n in enumerate(names)]
    room = width - sum(w + 2 for w in widths)
    labels = [f"{row.what}: {row.subject}" for row in rows]
    lines = [f"Compared {', '.join(names)}: {len(rows)} difference(s)", ""]
    if room < 12:  # the columns do not fit: each difference as a list, rules with the same result together
        for label, row in zip(labels, rows):
            lines.append(label)
            groups: dict[str, list[str]] = {}
            for name, value in zip(names, row.values):
                groups.setdefault(value, []).append(name)
            for value, group in groups.items():
                lines += textwrap.wrap(f"{', '.join(group)}: {value}", max(width - 4, 20), initial_indent="    ",
                                       subsequent_indent="      ", break_long_words=False, break_on_hyphens=False)
        return "\n".join(line.rstrip() for line in lines) + "\n"
    ow = max(12, min(max(len(label) for label in labels), room))
    lines.append(f"{'':<{ow}}  " + "  ".join(f"{n:<{w}}" for n, w in zip(names, widths)))
    for label, row in zip(labels, rows):
        cells = "  ".join(f"{v:<{w}}" for v, w in zip(row.values, widths))
        if len(label) > ow:
            lines.append(label)
            lines.append(f"{'':<{ow}}  {cells}")
        else:
            lines.append(f"{label:<{ow}}  {cells}")
    return "\n".join(line.rstrip() for line in lines) + "\n"
