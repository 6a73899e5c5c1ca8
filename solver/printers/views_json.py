"""The rule lawyer's views in JSON (``--explain``, ``--all``, ``--compare`` with ``--format
json``): the same facts as the text, as data (docs/json.md)."""

from __future__ import annotations

from typing import Any

from ..formats.outcome_json import unit_json
from ..notation import format_order
from ..results import PhaseResult
from .alternatives import alternatives
from .compare import comparison_rows
from .explain import explain, explain_disorder

__all__ = ["explanations_json", "alternatives_json", "comparison_json"]


def explanations_json(result: PhaseResult) -> list[dict[str, Any]]:
    """Per order (input order): its text and its facts (see dipsat.printers.explain); then
    per unit removed in civil disorder (no order of its own): the unit and why it went,
    as the text's explanations say it."""
    out: list[dict[str, Any]] = [{"index": k, "order": format_order(r.order), "facts": facts}
                                 for k, (r, facts) in enumerate(zip(result.results, explain(result)))]
    for d, facts in zip(result.civil_disorder, explain_disorder(result)):
        out.append({"index": None, "order": None, "removed": unit_json(d.unit),
                    "facts": facts})
    return out


def alternatives_json(result: PhaseResult) -> dict[str, Any]:
    alt = alternatives(result)
    return {"count": alt.count, "capped": alt.capped, "differing": alt.differing,
            "resolutions": [[{"kind": kind, "value": value} for kind, value in r] for r in alt.resolutions],
            "chosen": alt.chosen, "backup_rules": alt.rules, "paradox_core": alt.core,
            "without_rulebook_rule": alt.without_rulebook_rule}


def comparison_json(results: dict[str, PhaseResult]) -> dict[str, Any]:
    """The rows of :func:`dipsat.printers.compare.comparison_rows`: every difference, named."""
    rows = comparison_rows(results)
    names = list(results)
    return {"profiles": names, "rules": {n: str(r.rules) for n, r in results.items()},
            "differences": [row.to_json(names) for row in rows], "all_agree": not rows}
