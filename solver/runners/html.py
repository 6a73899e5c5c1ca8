"""The HTML report of a validation run: ``dipsat validate ... --html DIR``.

:class:`HtmlReport` takes the :class:`~dipsat.runners.validate.GameReport` values of a run in
input order (:meth:`HtmlReport.add`) and, at the end, the run's
:class:`~dipsat.runners.summary.Summary` (:meth:`HtmlReport.close`). It writes into DIR

- ``index.html``: the summary table (the facts of the terminal summary), the counts of
  sections, links to the pages, and the first page of sections (with a single page, the
  contents too: one row per section, linking to it);
- ``page-N.html``: the next pages, :data:`PAGE_SIZE` sections each, and ``contents.html``;
- ``pictures/NNNNN-NAME.svg``: the pictures of each section (drawn by the process that
  judged the phase: :attr:`~dipsat.runners.validate.PhaseReport.pictures`), loaded lazily
  (``<img loading="lazy">`` with their sizes), so a page opens fast whatever the count;
- ``cases/GAME.PHASE.txt``: each disagreement and rule difference as a jDip case file
  (what ``--write-cases`` writes), linked from its section, with a link that opens it in
  ``dipsat serve``'s sandbox (:func:`sandbox_link`: at :data:`SANDBOX` unless told another
  address), its minimal case too.

One section per disagreement, rule difference and rejection (of a phase or of a whole
record): the game and phase, what differs (the record against dipsat), the pictures
(before, with the orders and our results; the record's next position beside ours when the
boards differ), our explanation of the orders involved, the rule the record follows if
one explains it, the link to the case file. Pages are self-contained: no script, no
network, no external font. Same reports, same bytes (whatever the number of workers):
nothing depends on the time or the machine.

Memory stays bounded: pictures and case files are written as reports arrive, a page as
soon as the next one starts; only the contents rows and the first page are kept. The
index does not grow with the number of sections.
"""

from __future__ import annotations

import base64
import json
import os
import re
from dataclasses import dataclass
from html import escape
from pathlib import Path

from ..rules import Rules
from .validate import DISAGREED, GAP, REJECTED, RULE_DIFFERENCE, GameReport, PhaseReport, case_name
from .summary import BOARD, CODES, COLUMNS, KINDS, Summary

__all__ = ["HtmlReport", "PAGE_SIZE", "SANDBOX", "sandbox_link"]

PAGE_SIZE = 50
"""Sections per page."""
SANDBOX = "http://127.0.0.1:8765/"
"""The sandbox the case files' links open by default: ``dipsat serve`` on this machine."""

PICTURES = (("before", "Before: the position, the recorded orders and dipsat's results"),
            ("record", "After, as the record shows it"),
            ("ours", "After, as dipsat adjudicates it"))
STATUS_WORDS: dict[str, str] = {DISAGREED: "disagreed", RULE_DIFFERENCE: "rule difference", REJECTED: "rejected", GAP: "gap"}
_SIZE = re.compile(r'<svg\b[^>]*?\bwidth="(\d+)"[^>]*?\bheight="(\d+)"')

CSS = """
:root { --ink: #222; --muted: #666; --line: #d8d4c8; --paper: #fbfaf6; --bad: #c0161c; --rule: #7a3fb0;
  --rejected: #8a6d00; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 system-ui, "Segoe UI", "DejaVu Sans", Verdana, sans-serif; color: var(--ink);
  background: var(--paper); }
header, main, footer { max-width: 1500px; margin: 0 auto; padding: 0 20px; }
header { padding-top: 14px; }
h1 { font-size: 24px; margin: 0 0 4px; }
h2 { font-size: 19px; margin: 0 0 6px; }
h3 { font-size: 15px; margin: 12px 0 4px; }
a { color: #1d4f91; }
code { font: 13px/1.3 "DejaVu Sans Mono", Menlo, Consolas, monospace; }
.lead { color: var(--muted); margin: 0 0 12px; }
table { border-collapse: collapse; background: #fff; }
th, td { border: 1px solid var(--line); padding: 3px 8px; text-align: left; vertical-align: top; }
th { background: #efece3; font-weight: 600; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
tr.total td { font-weight: 600; border-top: 2px solid #aaa; }
.summary td.bad { color: var(--bad); font-weight: 600; }
.facts { margin: 8px 0 0; padding-left: 20px; }
.columns { color: var(--muted); font-size: 13px; margin: 6px 0 0; }
.columns dt { float: left; clear: left; width: 80px; font-weight: 600; }
.columns dd { margin: 0 0 0 88px; }
nav.pages { margin: 10px 0; }
#contents { margin-top: 18px; }
nav.pages a, nav.pages b, nav.pages span { display: inline-block; min-width: 28px; padding: 1px 6px; margin: 1px;
  text-align: center; border: 1px solid var(--line); background: #fff; text-decoration: none; }
nav.pages span { border-color: transparent; background: none; }
nav.pages b { background: #1d4f91; color: #fff; border-color: #1d4f91; }
table.contents { width: 100%; font-size: 13px; }
section.problem { background: #fff; border: 1px solid var(--line); border-left: 6px solid var(--bad);
  margin: 18px 0; padding: 12px 16px; }
section.problem.rule-difference { border-left-color: var(--rule); }
section.problem.rejected { border-left-color: var(--rejected); }
.status { display: inline-block; font-size: 12px; font-weight: 600; padding: 1px 8px; border-radius: 10px;
  color: #fff; background: var(--bad); vertical-align: 2px; margin-left: 6px; }
.status.rule-difference { background: var(--rule); }
.status.rejected { background: var(--rejected); }
.where { color: var(--muted); font-size: 13px; margin: 0 0 8px; }
.differences td:nth-child(3), .differences td:nth-child(4) { font-weight: 600; }
.rule { border-left: 3px solid var(--rule); padding: 2px 10px; margin: 8px 0; }
.reason { border-left: 3px solid var(--rejected); padding: 2px 10px; margin: 8px 0; }
.note { color: var(--muted); font-size: 13px; }
.top, .pair { display: flex; flex-wrap: wrap; gap: 16px; align-items: flex-start; }
.top .text { flex: 1 1 480px; min-width: 0; }
.pair { margin-top: 12px; }
figure { margin: 0; flex: 1 1 480px; max-width: 760px; }
figure img { width: 100%; height: auto; border: 1px solid var(--line); background: #eef3f7; }
figcaption { font-size: 13px; color: var(--muted); }
.explanation { width: 100%; }
.explanation td:first-child { white-space: nowrap; width: 1%; }
.explanation ul { margin: 0; padding-left: 18px; }
.case { margin: 8px 0 0; }
footer { color: var(--muted); font-size: 12px; padding: 20px; }
""".strip()


@dataclass(frozen=True)
class _Row:
    """One row of the contents: a section and the page it is on."""

    number: int
    page: int
    game: str
    phase: str
    kind: str
    status: str
    what: str


class HtmlReport:
    """Writes the HTML report of a run into `folder` (see the module docstring)."""

    def __init__(self, folder: str | os.PathLike[str], page_size: int = PAGE_SIZE, sandbox: str | None = SANDBOX) -> None:
        self.folder = Path(folder)
        self.page_size = max(1, page_size)
        self.sandbox = sandbox  # the dipsat serve address of the "open in the sandbox" links (None: no links)
        (self.folder / "pictures").mkdir(parents=True, exist_ok=True)
        (self.folder / "cases").mkdir(parents=True, exist_ok=True)
        self.rows: list[_Row] = []
        self.first: list[str] = []  # the sections of the first page (in index.html)
        self.current: list[str] = []  # the sections of the page being filled (page >= 2)
        self.case_names: set[str] = set()
        self.counts: dict[str, int] = {DISAGREED: 0, RULE_DIFFERENCE: 0, REJECTED: 0, GAP: 0}

    # --- sections ---------------------------------------------------------------------------

    def add(self, report: GameReport) -> None:
        """The sections of one record (its disagreements, rule differences and rejections);
        records must come in input order."""
        if report.error is not None:
            self._section(report, None)
        for phase in report.phases:
            if phase.status in (DISAGREED, RULE_DIFFERENCE, REJECTED, GAP):
                self._section(report, phase)

    def _section(self, report: GameReport, phase: PhaseReport | None) -> None:
        number = len(self.rows) + 1
        page = (number - 1) // self.page_size + 1
        if page > 1 and (number - 1) % self.page_size == 0 and self.current:
            self._write_page(page - 1, last=False)
        status = phase.status if phase is not None else REJECTED
        self.counts[status] += 1
        if phase is None:
            what = f"record rejected: {report.error}"
        elif phase.status in (REJECTED, GAP):
            what = phase.reason
        else:
            what = "; ".join(f"{d.what} {d.subject}: record {d.recorded}, dipsat {d.ours}" for d in phase.differences[:2])
            what += f"; +{len(phase.differences) - 2} more" if len(phase.differences) > 2 else ""
        self.rows.append(_Row(number, page, report.game, phase.name if phase is not None else "",
                              phase.kind if phase is not None else "", status, _clip(what, 160)))
        text = self._section_html(number, report, phase)
        (self.first if page == 1 else self.current).append(text)

    def _section_html(self, number: int, report: GameReport, phase: PhaseReport | None) -> str:
        status = phase.status if phase is not None else REJECTED
        label = STATUS_WORDS[status]
        if phase is not None and status == DISAGREED:
            label += ": board differs" if phase.board_differs else ": result codes differ"
        title = escape(report.game) + (f" · {escape(phase.name)}" if phase is not None else " (whole record)")
        out = [f'<section class="problem {status}" id="s{number}">',
               f'<h2><a href="#s{number}">#{number}</a> {title}<span class="status {status}">{escape(label)}</span></h2>']
        where = [f"source <code>{escape(report.source)}</code>"]
        if phase is not None:
            where.append(f"{escape(phase.kind)} phase")
            where.append("judged on the next position only (no per-order results recorded)" if phase.basis == "positions"
                         else "judged on the recorded results and the next position")
        where.append(f"rules {escape(report.rules)}")
        if report.inferred:
            where.append(f"the record follows {escape(report.inferred)}")
        out.append(f'<p class="where">{" · ".join(where)}</p>')
        figures = self._pictures(number, phase) if phase is not None else {}
        out.append('<div class="top"><div class="text">')
        if phase is None or status == REJECTED:
            reason = report.error if phase is None else phase.reason
            out.append(f'<p class="reason"><b>Why it cannot be judged:</b> {escape(reason or "")}</p>')
        elif status == GAP:
            out.append(f'<p class="reason"><b>A gap in the record:</b> {escape(phase.reason)}</p>')
        if phase is not None and phase.differences:
            out.append('<table class="differences"><thead><tr><th>what</th><th>subject</th><th>the record</th>'
                       '<th>dipsat</th></tr></thead><tbody>')
            out += [f"<tr><td>{escape(d.what)}</td><td>{escape(d.subject)}</td><td>{escape(d.recorded)}</td>"
                    f"<td>{escape(d.ours)}</td></tr>" for d in phase.differences]
            out.append("</tbody></table>")
        if phase is not None and phase.rule:
            others = [o for o in phase.rule_options if o != phase.rule]
            also = f" (also reproduced by {escape(', '.join(others))})" if others else ""
            out.append(f'<p class="rule"><b>Rule difference:</b> the record follows <code>{escape(phase.rule)}</code>'
                       f"{also}: {escape(phase.rule_title)}</p>")
        if phase is not None and phase.note:
            out.append(f'<p class="note">Note: {escape(phase.note)}</p>')
        if phase is not None:
            out.append(self._case(report, phase))
            if phase.pictures.get("error"):
                out.append(f'<p class="note">No picture: {escape(phase.pictures["error"])}</p>')
            elif not figures:
                out.append('<p class="note">No picture: the record gives no position for this phase.</p>')
        out.append("</div>")  # text
        out += [figures.get("before", ""), "</div>"]
        if "record" in figures and "ours" in figures:
            out += ['<div class="pair">', figures["record"], figures["ours"], "</div>"]
        if phase is not None:
            out += _explanation(phase)
        out.append("</section>")
        return "\n".join(out)

    def _pictures(self, number: int, phase: PhaseReport) -> dict[str, str]:
        """Each picture of a section written as a file, and its figure (an image loaded lazily)."""
        figures = {}
        for key, caption in PICTURES:
            text = phase.pictures.get(key)
            if not text:
                continue
            name = f"pictures/{number:05d}-{key}.svg"
            _write(self.folder / name, text)
            size = _SIZE.search(text)
            dims = f' width="{size.group(1)}" height="{size.group(2)}"' if size else ""
            if key == "before" and phase.status == REJECTED:
                caption = "The recorded position and orders (the phase could not be judged: no results)"
            if 'class="highlight"' in text:
                caption += " (outlined: where the record and dipsat differ)"
            figures[key] = (f'<figure class="{key}"><img src="{name}" loading="lazy" decoding="async"{dims} '
                            f'alt="{escape(caption)}"><figcaption>{escape(caption)}</figcaption></figure>')
        return figures

    def _case(self, report: GameReport, phase: PhaseReport) -> str:
        if not phase.case:
            why = "the phase cannot be judged" if phase.status in (REJECTED, GAP) else "the input is a case file (its source above)"
            return f'<p class="case note">No case file: {why}.</p>'
        stem = case_name(report.game, phase.name)
        name, n = stem, 1
        while name in self.case_names:  # the same game and phase in two inputs
            n += 1
            name = f"{stem}-{n}"
        self.case_names.add(name)
        _write(self.folder / "cases" / f"{name}.txt", phase.case)
        return (f'<p class="case">Case file: <a href="cases/{escape(name)}.txt">{escape(name)}.txt</a> '
                f'(the record\'s outcome as POSTSTATE, dipsat\'s as comments; run it with '
                f'<code>dipsat adjudicate --explain</code>){self._sandbox_links(report, phase)}</p>')

    def _sandbox_links(self, report: GameReport, phase: PhaseReport) -> str:
        """Links opening the case (and its minimal case) in the sandbox: under the case's rules,
        a rule difference compared with the run's rules."""
        if not self.sandbox:
            return ""
        links = []
        for label, text in _case_texts(phase.case):
            rules = next((line.split(None, 1)[1] for line in text.splitlines() if line.split()[:1] == ["RULES"]
                          and len(line.split()) > 1), "")
            compare = ""
            if phase.status == RULE_DIFFERENCE and rules and rules.split() != report.rules.split():
                compare = ",".join(r.replace(" ", "+") for r in (report.rules, rules))
            links.append(f'<a class="sandbox" href="{escape(sandbox_link(self.sandbox, text, rules, compare))}">{label}</a>')
        return f"; open it in the sandbox (<code>dipsat serve</code>): {', '.join(links)}" if links else ""

    # --- pages ------------------------------------------------------------------------------

    def _pages(self) -> int:
        return max(1, (len(self.rows) - 1) // self.page_size + 1)

    def _pager(self, page: int | None, pages: int | None) -> str:
        """Links to the summary, the contents and the pages around `page` (``None``: the
        contents page); `pages` is ``None`` while the number of pages is not known yet."""
        known = pages if pages is not None else (page or 1) + 1  # not the last page: there is a next one
        contents = "index.html#contents" if known == 1 else "contents.html"
        parts = ['<nav class="pages">', '<a href="index.html#summary">summary</a>',
                 f'<a href="{contents}">contents</a>' if page is not None else "<b>contents</b>"]
        if page is not None and page > 1:
            parts.append(f'<a href="{_page_file(page - 1)}" rel="prev">‹</a>')
        shown = sorted({1, known, *range(max(1, (page or 1) - 3), min(known, (page or 1) + 3) + 1)})
        if pages is None:
            shown = [p for p in shown if p <= (page or 1) + 1]
        for k, p in enumerate(shown):
            if k and p > shown[k - 1] + 1:
                parts.append("<span>…</span>")
            parts.append(f"<b>{p}</b>" if p == page else f'<a href="{_page_file(p)}">{p}</a>')
        if page is not None and page < known:
            parts.append(f'<a href="{_page_file(page + 1)}" rel="next">›</a>')
        parts.append("</nav>")
        return "".join(parts)

    def _write_page(self, page: int, last: bool) -> None:
        pages = page if last else None
        body = [self._pager(page, pages), *self.current, self._pager(page, pages)]
        _write(self.folder / f"page-{page}.html", _document(f"dipsat validate: page {page}", body))
        self.current = []

    def close(self, summary: Summary, rules: Rules) -> Path:
        """Write the last page, the contents (when there are several pages) and the index;
        returns the index's path."""
        pages = self._pages()
        if pages > 1:
            self._write_page(pages, last=True)
            body = ['<section id="contents">', f"<h2>Disagreements, rule differences and rejections: {len(self.rows)}</h2>",
                    self._pager(None, pages), self._table(), "</section>"]
            _write(self.folder / "contents.html", _document("dipsat validate: contents", body))
        body = [_summary_html(summary, rules, self.counts), self._overview(pages)]
        if self.first:
            body += [self._pager(1, pages), *self.first, self._pager(1, pages)]
        index = self.folder / "index.html"
        _write(index, _document(f"dipsat validate: {summary.games} records", body))
        return index

    def _overview(self, pages: int) -> str:
        """The index's view of the sections: their counts, the pages, and with one page the contents."""
        total = len(self.rows)
        counts = ", ".join(f"{n:,} {STATUS_WORDS[s]}" + ("s" if n != 1 and s == RULE_DIFFERENCE else "")
                           for s, n in self.counts.items() if n)
        out = ['<section id="contents">', f"<h2>Disagreements, rule differences and rejections: {total:,}</h2>"]
        if not total:
            out.append('<p class="lead">None: every phase agrees with the record.</p></section>')
            return "\n".join(out)
        if pages == 1:
            out.append(f'<p class="lead">{escape(counts)}, in input order.</p>')
            out.append(self._table())
        else:
            out.append(f'<p class="lead">{escape(counts)}, in input order, on {pages} pages of {self.page_size} '
                       f'sections; <a href="contents.html">all {total:,} in one table</a>.</p>')
        out.append("</section>")
        return "\n".join(out)

    def _table(self) -> str:
        """One row per section, linking to it."""
        out = ['<table class="contents"><thead><tr><th class="n">#</th><th>game</th><th>phase</th><th>kind</th>'
               "<th>status</th><th>what differs</th></tr></thead><tbody>"]
        for r in self.rows:
            out.append(f'<tr><td class="n"><a href="{_page_file(r.page)}#s{r.number}">{r.number}</a></td>'
                       f"<td>{escape(r.game)}</td><td>{escape(r.phase)}</td><td>{escape(r.kind)}</td>"
                       f"<td>{STATUS_WORDS[r.status]}</td><td>{escape(r.what)}</td></tr>")
        out.append("</tbody></table>")
        return "\n".join(out)


def _summary_html(summary: Summary, rules: Rules, counts: dict[str, int]) -> str:
    """The summary table: the facts of the terminal summary (:func:`~dipsat.runners.summary.report_text`)."""
    out = ['<section id="summary">', "<h2>Summary</h2>",
           f'<p class="lead">Rules {escape(str(rules))}: {summary.games} records read (games, or cases of case files), '
           f"{summary.records_rejected} rejected as a whole.</p>",
           '<table class="summary"><thead><tr><th>kind</th>']
    out += [f'<th class="n" title="{escape(meaning)}">{escape(name)}</th>' for _, name, meaning in COLUMNS]
    out.append("</tr></thead><tbody>")
    kinds = [k for k in KINDS if summary.count(kind=k)]
    for kind in [*kinds, "total"]:
        k = None if kind == "total" else kind
        cells = []
        for key, _, _ in COLUMNS:
            n = summary.count(k, None if key == "phases" else key)
            bad = " bad" if n and key in (BOARD, CODES, REJECTED) else ""
            cells.append(f'<td class="n{bad}">{n:,}</td>')
        row = '<tr class="total">' if kind == "total" else "<tr>"
        out.append(f'{row}<td>{kind}</td>{"".join(cells)}</tr>')
    out.append("</tbody></table>")
    out.append('<dl class="columns">' + "".join(f"<dt>{escape(name)}</dt><dd>{escape(meaning)}</dd>"
                                               for _, name, meaning in COLUMNS[1:]) + "</dl>")
    facts = []
    positions = sum(summary.positions_only.values())
    if positions:
        facts.append(f"Judged on positions only (the record has no per-order results): {positions:,} "
                     f"phase{'s' if positions != 1 else ''}.")
    if summary.inferred:
        facts.append("Rules the records follow (inferred per game, where not ours): " + ", ".join(
            f"<code>{escape(r)}</code> ({n} of {summary.games} games)" for r, n in sorted(summary.inferred.items())) + ".")
    if summary.rules_used:
        facts.append("Rule differences (phases): " + ", ".join(
            f"<code>{escape(r)}</code> ({n})" for r, n in sorted(summary.rules_used.items())) + ".")
    if summary.readings:
        facts.append("Rule readings of the archive (inferred from all its records): " + "; ".join(
            escape(text) for text in summary.readings) + ".")
    facts.append(f"Disagreements and rejections: {summary.problems:,}; with the rule differences, "
                 f"{sum(counts.values()):,} sections below.")
    out.append('<ul class="facts">' + "".join(f"<li>{f}</li>" for f in facts) + "</ul>")
    groups = summary.groups
    if groups:
        out.append(f"<h3>Disagreements grouped by signature: {len(groups):,}</h3>")
        out.append('<table class="groups"><thead><tr><th class="n">count</th><th>signature (kind; differences; '
                   "orders; rules that would reproduce them)</th><th>smallest case</th><th>games</th></tr></thead>"
                   "<tbody>")
        out += [f'<tr><td class="n">{g.count:,}</td><td>{escape(g.signature)}</td><td>{escape(g.smallest)}</td>'
                f"<td>{escape(', '.join(g.games))}</td></tr>" for g in groups]
        out.append("</tbody></table>")
    out.append("</section>")
    return "\n".join(out)


def _explanation(phase: PhaseReport) -> list[str]:
    if not phase.orders:
        return []
    out = []
    if phase.conclusions:
        out += ["<h3>What the record implies, against dipsat</h3>", "<ul>"]
        out += [f"<li>{escape(line)}</li>" for line in phase.conclusions] + ["</ul>"]
    out += ["<h3>dipsat's explanation of the orders involved</h3>",
           '<table class="explanation"><thead><tr><th>order</th><th>dipsat: the outcome and why</th></tr></thead><tbody>']
    for label in phase.orders:
        lines = phase.explanation.get(label, [])
        head, rest = (lines[0], lines[1:]) if lines else ("", [])
        why = "<ul>" + "".join(f"<li>{escape(line)}</li>" for line in rest) + "</ul>" if rest else ""
        out.append(f"<tr><td><code>{escape(label)}</code></td><td><b>{escape(head)}</b>{why}</td></tr>")
    out.append("</tbody></table>")
    return out


def _document(title: str, body: list[str]) -> str:
    return "\n".join(['<!DOCTYPE html>', '<html lang="en">', "<head>", '<meta charset="utf-8">',
                      '<meta name="viewport" content="width=device-width, initial-scale=1">',
                      f"<title>{escape(title)}</title>", f"<style>\n{CSS}\n</style>", "</head>", "<body>",
                      '<header><h1>dipsat validate</h1></header>', "<main>", *body, "</main>",
                      "<footer>Written by dipsat validate --html: the record against dipsat's adjudication. "
                      "Pictures load as you scroll.</footer>", "</body>", "</html>"]) + "\n"


def sandbox_link(sandbox: str, position: str, rules: str = "", compare: str = "", orders: str = "") -> str:
    """A link to ``dipsat serve``'s page at `sandbox` with `position` (a case file's text: its
    orders come with it), `orders`, `rules` (a profile and ``ISSUE=CHOICE`` options) and the
    rules to `compare`: the state in the URL's fragment exactly as the page's permalink writes
    it (``#s=``, base64url of the JSON ``{p, o, r, x, c, a, g, n}``: solver/web/static/app.js)."""
    words = rules.split()
    profile = next((w for w in words if "=" not in w), "")
    options = " ".join(w for w in words if "=" in w)
    state = {"p": position, "o": orders, "r": profile, "x": options, "c": compare, "a": True, "g": "", "n": ""}
    try:
        data = json.dumps(state, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: the JSON escape the page reads as well
        data = json.dumps(state, separators=(",", ":")).encode("ascii")
    return f"{sandbox}#s={base64.urlsafe_b64encode(data).decode('ascii').rstrip('=')}"


def _case_texts(case: str) -> list[tuple[str, str]]:
    """A written case file's full case and its minimal case, each a case file of its own."""
    lines = case.splitlines()
    variant = next((line for line in lines if line.split()[:1] == ["VARIANT_ALL"]), "")
    ends = [k for k, line in enumerate(lines) if line.strip() == "END"]
    if not ends:
        return []
    out = [("the case", "\n".join(lines[:ends[0] + 1]) + "\n")]
    rest = lines[ends[0] + 1:]
    start = next((k for k, line in enumerate(rest) if line.split()[:1] == ["CASE"]), None)
    if start is not None and len(ends) > 1:
        while start > 0 and rest[start - 1].startswith("#"):
            start -= 1  # the comment saying what the minimal case keeps
        out.append(("its minimal case", "\n".join([variant, "", *rest[start:ends[1] - ends[0]]]).lstrip("\n") + "\n"))
    return out


def _page_file(page: int) -> str:
    return "index.html" if page == 1 else f"page-{page}.html"


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _write(path: Path, text: str) -> None:
    # a lone surrogate from a record (a "\ud800" escape, a godip line that is not UTF-8) is shown as its escape
    with open(path, "w", encoding="utf-8", errors="backslashreplace", newline="\n") as handle:
        handle.write(text)
