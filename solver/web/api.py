"""What ``dipsat serve``'s HTTP API answers, as plain functions of the request's JSON (no web
framework here: :mod:`dipsat.web.app` serves them, tests and programs may call them).

``POST /api/adjudicate`` (docs/serve.md) answers the JSON of ``dipsat adjudicate --format json``
(with ``explanations``, ``alternatives`` and ``comparison`` as ``--explain``, ``--all`` and
``--compare`` add them), plus ``pictures`` (SVG) and ``input`` (how the position was read).
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..errors import DipsatError
from ..rules import DEFAULT_PROFILE, ISSUES, PROFILES, Rules, RulesError, compared_rules
from .inputs import InputError, Position, read_orders, read_position, read_rules

__all__ = ["RequestError", "adjudicate_request", "draw_request", "rules_catalogue", "case_request", "cases_list", "MAX_ORDERS"]

MAX_ORDERS = 500
"""Order lines a request may give (a full Standard board has 34 units; Modern 64)."""
MAX_COMPARE = 8
"""Rule sets one comparison may name."""
_KNOWN = {"position", "case", "phase", "players", "orders", "rules", "explain", "all", "compare", "pictures", "area"}


class RequestError(DipsatError, ValueError):
    """A request that cannot be answered as asked: its HTTP status and one line per problem."""

    def __init__(self, problems: list[str], status: int = 400) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems
        self.status = status

    def to_json(self) -> dict[str, Any]:
        return {"error": self.problems[0] if len(self.problems) == 1 else f"{len(self.problems)} problems",
                "problems": self.problems}


def _field(request: Mapping[str, Any], name: str, kind: type, default: Any) -> Any:
    value = request.get(name, default)
    if value is None:
        return default
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise RequestError([f"{name}: expected {kind.__name__ if kind is not str else 'text'}, "
                            f"found {type(value).__name__}"])
    return value


def _checked(request: Any) -> Mapping[str, Any]:
    if not isinstance(request, dict):
        raise RequestError([f"the request: expected a JSON object, found {type(request).__name__}"])
    unknown = sorted(set(request) - _KNOWN)
    if unknown:
        raise RequestError([f"{name}: not a field of this request (fields: {', '.join(sorted(_KNOWN))})"
                            for name in unknown])
    return request


def _position(request: Mapping[str, Any]) -> tuple[Position, str]:
    """The position and the orders' text (the request's, else those that came with the position)."""
    orders_text = _field(request, "orders", str, "")
    if orders_text.count("\n") >= MAX_ORDERS:
        raise RequestError([f"orders: more than {MAX_ORDERS} lines"], 413)
    raw = request.get("position", "standard")
    if raw is None:
        raw = "standard"
    try:
        position = read_position(raw, _field(request, "case", str, None), orders_text,
                                 _field(request, "phase", str, None), _field(request, "players", int, None))
    except InputError as exc:
        raise RequestError(exc.problems) from None
    if not orders_text.strip() and position.orders_text is not None:
        orders_text = position.orders_text
    return position, orders_text


def adjudicate_request(request: Any) -> dict[str, Any]:
    """``POST /api/adjudicate``: the result of adjudicating the request's position and orders.

    :raises RequestError: a field that cannot be read, each problem named."""
    from ..adjudicator import adjudicate
    from ..formats.dipsat_json import result_to_json
    from ..printers.views_json import alternatives_json, comparison_json, explanations_json

    request = _checked(request)
    position, orders_text = _position(request)
    try:
        rules = read_rules(_field(request, "rules", str, ""), position.rule_words)
    except InputError as exc:
        raise RequestError(exc.problems) from None
    orders, rejected, unread = read_orders(orders_text, position.state)
    compare_text = _field(request, "compare", str, "")
    compared: dict[str, Rules] = {}
    if compare_text.strip():
        try:
            compared = compared_rules(compare_text, position.rule_words)
        except RulesError as exc:
            raise RequestError([f"compare: {exc}"]) from None
        if len(compared) > MAX_COMPARE:
            raise RequestError([f"compare: at most {MAX_COMPARE} rule sets, not {len(compared)}"])
    result = adjudicate(position.state, orders, rules, position.silent)
    data: dict[str, Any] = {}
    for key, value in result_to_json(result).items():  # as the command line: unread lines beside the orders
        data[key] = value
        if key == "orders":
            data["rejected"] = [line.to_json() for line in rejected]
    if _field(request, "explain", bool, False):
        data["explanations"] = explanations_json(result)
    if _field(request, "all", bool, False):
        data["alternatives"] = alternatives_json(result)
    results = {}
    if compared:
        results = {name: adjudicate(position.state, orders, r, position.silent) for name, r in compared.items()}
        data["comparison"] = comparison_json(results)
    if _field(request, "pictures", bool, True):
        data["pictures"] = _pictures(result, results, position, _area(request, position))
    data["input"] = _input_json(position, orders_text, result, rejected, unread)
    return data


def draw_request(request: Any) -> dict[str, Any]:
    """``POST /api/draw``: the position (and its orders, not adjudicated) as a picture, and
    the position read (as dipsat JSON) for the page's editor."""
    from ..formats.dipsat_json import state_to_json
    from ..phases import retreat_choices
    from ..printers.pictures import board

    request = _checked(request)
    position, orders_text = _position(request)
    try:  # a retreat phase's options are drawn as the rules chosen say
        rules = read_rules(_field(request, "rules", str, ""), position.rule_words)
    except InputError as exc:
        raise RequestError(exc.problems) from None
    orders, rejected, unread = read_orders(orders_text, position.state)
    title = f"{position.name}: {position.state.phase}" + (" (orders not adjudicated)" if orders else "")
    pictures = {}
    if _field(request, "pictures", bool, True):
        try:
            pictures["board"] = board(position.state, orders=orders, area=_area(request, position), title=title,
                                      retreat_options=retreat_choices(position.state, rules))
        except (DipsatError, ValueError) as exc:
            raise RequestError([f"area: {exc}"]) from None
    return {"pictures": pictures, "state": state_to_json(position.state),
            "rejected": [line.to_json() for line in rejected],
            "coasts": {pid: sorted(p.coasts) for pid, p in position.state.variant.map.provinces.items() if p.coasts},
            "powers": [p.name for p in position.state.variant.powers],
            "setups": _setups(position),
            "input": {"name": position.name, "title": position.title, "note": position.note,
                      "orders": orders_text, "rules": " ".join(position.rule_words),
                      "phases": position.phases, "phase": position.phase, "players": position.players,
                      "neutral": sorted(position.silent), "unread": unread}}


def _setups(position: Position) -> list[dict[str, Any]]:
    """The variant's player set-ups (``[[setups]]`` of its map file), for the page's choice:
    none for a recorded game, which is played with its own."""
    from ..setups import setups

    if position.phases:
        return []
    return [{"players": s.players, "controls": ["/".join(c) for c in s.controls], "neutral": list(s.neutral)}
            for s in setups(position.state.variant).values()]


def _area(request: Mapping[str, Any], position: Position) -> str | list[str] | None:
    area = _field(request, "area", str, "")
    if area in ("", "auto"):
        return "auto" if position.crop else None
    if area == "full":
        return None
    return [p.strip().lower() for p in area.split(",") if p.strip()]


def _pictures(result: Any, results: Mapping[str, Any], position: Position, area: str | list[str] | None) -> dict[str, Any]:
    from ..printers.pictures import board

    title = f"{position.name}: {result.before.phase} (rules {result.rules})"
    try:
        out: dict[str, Any] = {"board": board(result=result, area=area, title=title)}
        if results:
            out["compare"] = {name: board(result=r, area=area, legend=False, size=380, title=name)
                              for name, r in results.items()}
    except (DipsatError, ValueError) as exc:
        raise RequestError([f"area: {exc}"]) from None
    return out


def _input_json(position: Position, orders_text: str, result: Any, rejected: list[Any],
                unread: list[dict[str, Any]]) -> dict[str, Any]:
    """How the request was read, and what the page needs to go on: the orders used, the case
    file to rerun it, the next phase's position (to step on)."""
    from ..formats.dipsat_json import state_to_json
    from ..printers.text import write_result_case

    case = io.StringIO()
    write_result_case(case, position.name.replace(" ", "_"), result, [r.order for r in result.results],
                      position.players, rejected)
    return {"name": position.name, "title": position.title, "note": position.note, "orders": orders_text,
            "phases": position.phases, "phase": position.phase, "players": position.players,
            "neutral": sorted(position.silent), "unread": unread, "case": case.getvalue(),
            "next": state_to_json(result.after)}


def rules_catalogue() -> dict[str, Any]:
    """``GET /api/rules``: the profiles and every DATC issue's options, for the page's menus."""
    return {"default": DEFAULT_PROFILE,
            "profiles": [{"name": name, "title": PROFILES[name].title} for name in sorted(PROFILES)],
            "issues": [{"number": number, "title": issue.title, "options": [o.key for o in issue.kind]}
                       for number, issue in ISSUES.items()]}


def _bundled_cases() -> Path | None:
    """The bundled case files: installed with the package as ``dipsat/cases`` (package data),
    or the repository's ``cases/`` folder (a source checkout, an editable install)."""
    for here in (Path(__file__).resolve().parent.parent / "cases", Path(__file__).resolve().parent.parent.parent / "cases"):
        if (here / "datc").is_dir():
            return here
    return None


def _bundled() -> list[tuple[Path, Any]]:
    from ..runners.cases import case_files, load_cases

    folder = _bundled_cases()
    if folder is None:
        raise RequestError(["cases: the bundled cases are not installed with this copy of dipsat"], 404)
    return [(path, case) for path in case_files([folder]) for case in load_cases(path)[0]]


def cases_list() -> dict[str, Any]:
    """``GET /api/cases``: every bundled case's id and title, for the page's searchable list."""
    return {"cases": [{"id": case.id, "title": case.title} for _, case in _bundled()]}


def case_request(case_id: str) -> dict[str, Any]:
    """``GET /api/case?id=6.F.24``: a bundled case's text, found by id (never by a path)."""
    for path, case in _bundled():
        if case.id.casefold() == case_id.strip().casefold():
            lines = path.read_text(encoding="utf-8").splitlines()[case.line - 1:]
            end = next((k for k, line in enumerate(lines) if k and line.split()[:1] == ["CASE"]), len(lines))
            body = lines[:end]
            while body and (not body[-1].strip() or body[-1].lstrip().startswith("#")):
                body.pop()  # the comments above the next case
            return {"id": case.id, "title": case.title,
                    "text": "\n".join([f"VARIANT_ALL {case.variant_name}", *body]) + "\n"}
    raise RequestError([f"case: no bundled case {case_id!r}"], 404)
