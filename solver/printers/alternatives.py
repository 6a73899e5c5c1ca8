"""Every consistent resolution of a movement turn (``--all``).

The driver keeps the resolutions it enumerated before any backup rule; this
module says in words where they differ, which one the rules picked (or that the
backup rule replaced them all), and for a paradox with no consistent resolution
which orders form its core (a minimal infeasibility core of the CP-SAT model).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field, replace

from ..movement.driver import MAX_RESOLUTIONS, count_resolutions, paradox_core
from ..encodings.options import ConvoyParadox
from ..encodings import Key
from ..encodings.decisions import CONVOY, DISLODGED, MOVE, PATH, SUPPORT
from ..movement import MovementTrace
from ..notation import format_order
from ..results import PhaseResult


KINDS = ((MOVE, "moves"), (DISLODGED, "dislodged"), (SUPPORT, "support given"), (PATH, "convoy path"),
         (CONVOY, "convoys"))
"""The decisions of DATC 5.A by kind, as the resolutions are compared."""


@dataclass
class Alternatives:
    count: int  # consistent resolutions before any backup rule (found: see `capped`)
    differing: list[str] = field(default_factory=list)  # the decisions on which they differ
    resolutions: list[list[tuple[str, str]]] = field(default_factory=list)
    """Per resolution: (kind, value) of those decisions; the first MAX_RESOLUTIONS when there are more."""
    chosen: int | None = None  # index of the resolution the rules picked (None: none of them)
    rules: list[str] = field(default_factory=list)  # backup rules applied
    core: list[str] = field(default_factory=list)  # orders in the paradox core (count == 0)
    without_rulebook_rule: int | None = None
    """Under a rulebook's convoy rule (DATC 4.A.2 a-c): the resolutions without it, as the
    DATC defines a paradox (None: no such rule, or the same count)."""
    rulebook: str = ""  # that rule's rulebook ("2000")
    capped: bool = False  # there are more than `count` (the driver's cap per independent part)


def alternatives(result: PhaseResult) -> Alternatives:
    trace = result.trace
    if not isinstance(trace, MovementTrace):
        return Alternatives(1)
    found = trace.solved.resolutions
    out = _alternatives(trace, result) if found is not None else Alternatives(1, rules=list(result.backup_rules))
    options = result.rules.model
    rulebook = options.convoy_paradox.rulebook_rule
    if rulebook is not None and trace.scan.problem.convoys:
        plain = count_resolutions(trace.scan.problem, replace(options, convoy_paradox=ConvoyParadox.SZYKMAN))
        if plain != out.count:
            out.without_rulebook_rule, out.rulebook = plain, rulebook.aliases[0]
    return out


def _alternatives(trace: MovementTrace, result: PhaseResult) -> Alternatives:
    resolutions = trace.solved.resolutions
    assert resolutions is not None
    found = list(itertools.islice(resolutions, MAX_RESOLUTIONS))
    words = _Words(trace)
    final = trace.solved.values
    order = {kind: n for n, (kind, _) in enumerate(KINDS)}
    differing = sorted({k for sol in found for k in sol if len({s[k] for s in found}) > 1},
                       key=lambda k: (order.get(k[0], 9), k))
    out = Alternatives(len(resolutions), [words.decision(k) for k in differing], rules=list(result.backup_rules),
                       capped=resolutions.capped)
    for sol in found:
        out.resolutions.append([(dict(KINDS)[k[0]], words.value(k, sol[k])) for k in differing])
    for i, sol in enumerate(found):
        if all(final.get(k) == v for k, v in sol.items()):
            out.chosen = i
    if not found:
        core = paradox_core(trace.scan.problem, result.rules, trace.scan.problem.decisions())
        out.core = sorted({words.order_of(k) for k in core})
    return out


class _Words:
    def __init__(self, trace: MovementTrace) -> None:
        self.t = trace
        scan = trace.scan
        self.text: dict[Key, str] = {}
        for k, m in scan.move_of.items():
            self.text[(MOVE, m)] = self.text[(PATH, m)] = format_order(trace.orders[k])
        for k, s in scan.support_of.items():
            self.text[(SUPPORT, s)] = format_order(trace.orders[k])
        for k, c in scan.convoy_of.items():
            self.text[(CONVOY, c)] = format_order(trace.orders[k])
        for u in range(len(scan.problem.provinces)):
            unit = trace.units[u]
            chosen = scan.chosen.get(u)
            self.text[(DISLODGED, u)] = (format_order(trace.orders[chosen]) if chosen is not None
                                         else f"{unit.power}: {unit.kind} {unit.location} H")

    def order_of(self, key: Key) -> str:
        return self.text.get(key, f"{key[0]} {key[1]}")

    def decision(self, key: Key) -> str:
        kind = {MOVE: "move", PATH: "convoy route of", SUPPORT: "support", CONVOY: "convoy",
                DISLODGED: "dislodgement of"}[key[0]]
        return f"{kind} {self.order_of(key)}"

    def value(self, key: Key, value: bool) -> str:
        verbs = {MOVE: ("succeeds", "fails"), PATH: ("alive", "broken"), SUPPORT: ("given", "cut"),
                 CONVOY: ("convoys", "fails"), DISLODGED: ("dislodged", "stays")}[key[0]]
        return f"{self.order_of(key)}: {verbs[0] if value else verbs[1]}"
