"""A case's ``#=`` lines (dipsat's addition to the case format, ``cases/README.md``): the
outcome kinds single orders are expected to get, checked against the outcome values of the
adjudication (their JSON ``kind``, :data:`dipsat.formats.outcome_json.KINDS`).

``dipsat cases`` and the tests check them on the same path: :func:`expected_orders` before
adjudicating (a line naming no order of ORDERS is an error: the case cannot be checked), then
:func:`diff_expected` with the result (a mismatch fails the case).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from ..board import PhaseKind
from ..errors import NotationError
from ..formats.case_comments import Expectation
from ..formats.casefile import Case
from ..formats.outcome_json import KINDS
from ..maps import Variant
from ..notation import format_order, parse_order
from ..orders import Order
from ..results import PhaseResult

__all__ = ["ExpectedOrder", "diff_expected", "expected_orders"]

ExpectedOrder = tuple[Expectation, Order, int]
"""A ``#=`` line, the order of ORDERS it names and which time that order is given (0: the
first), for an order given more than once."""


def expected_orders(case: Case, variant: Variant, kind: PhaseKind,
                    orders: Sequence[Order]) -> tuple[list[ExpectedOrder], list[str]]:
    """Each ``#=`` line of `case` with the order of its ORDERS (`orders`) it names, and the
    problems (``file:line: ...``): an order that cannot be read, or that ORDERS does not give.
    The line's order is read as an ORDERS line is; one without its power (the DATC's layout)
    names the order of any power written so. Of an order given twice, the first line naming
    it states the first one's outcome, the second line the second's."""
    out: list[ExpectedOrder] = []
    problems: list[str] = []
    used: dict[Order, int] = {}
    for expectation in case.expected:
        where = f"{case.source}:{expectation.line}"
        try:
            written = parse_order(expectation.order, variant, kind, lenient_powers=True)
        except NotationError as exc:
            problems.append(f"{where}: #= line: expected an order of ORDERS before the last ':': {exc}")
            continue
        named = [o for o in orders if _names(written, o)]
        if not named:
            problems.append(f"{where}: #= line: expected an order of the case's ORDERS, found "
                            f"{expectation.order!r} (no such order)")
            continue
        k = used.get(named[0], 0)
        if k >= len(named):
            problems.append(f"{where}: #= line: expected one line per time an order is given, found a line "
                            f"{k + 1} for {expectation.order!r}, given {len(named)} time(s)")
            continue
        used[named[0]] = k + 1
        out.append((expectation, named[k], sum(o == named[k] for o in named[:k])))
    return out, problems


def diff_expected(expected: Sequence[ExpectedOrder], result: PhaseResult) -> list[str]:
    """The ``#=`` lines whose order's outcome is not of a kind they allow: ``outcome of ORDER:
    expected KIND, got KIND (line N)``."""
    out = []
    for expectation, order, k in expected:
        results = [r for r in result.results if r.order == order]
        got = KINDS[type(results[k].outcome)] if k < len(results) else "no result"
        if got not in expectation.kinds:
            out.append(f"outcome of {format_order(order)}: expected {' or '.join(expectation.kinds)}, got {got} "
                       f"(line {expectation.line})")
    return out


def _names(written: Order, given: Order) -> bool:
    """Whether the order of a ``#=`` line names `given`: equal, or equal but for the power
    when the line names none."""
    return written == given or (written.power is None and dataclasses.replace(given, power=None) == written)
