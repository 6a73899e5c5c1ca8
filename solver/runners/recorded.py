"""One phase of a recorded game, whatever its format (``dipsat adjudicate GAME --phase``).

Recorded games come as a godip/Droidippy history (``.txt`` whose first non-blank
line starts with ``PHASE``, :mod:`dipsat.formats.godip`), a saved game of the
``diplomacy`` package (``.json``, or one line of a ``.jsonl`` named ``FILE:LINE``;
optionally ``.gz``, or a member of a ``.zip`` / ``.tar`` named ``ARCHIVE:MEMBER`` as
``dipsat validate`` names it; :mod:`dipsat.formats.diplomacy_json`) or a dipsat game file
(``dipsat game``, :mod:`dipsat.game`). :func:`recorded_position` gives the recorded
position of one phase and its recorded orders; :func:`game_record` turns a dipsat
game into a :class:`RecordedGame` (to write it as a godip history, say).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ..adjudicator import adjudicate
from ..board import Phase, PhaseKind, Power
from ..errors import DipsatError
from ..formats.dipsat_json import JsonFormatError, parse_json
from ..formats.diplomacy_json import read_game
from ..formats.godip import is_godip_history, read_godip_game
from ..game import GAME_FORMATS, Game
from ..notation import parse_order
from ..orders import Order
from ..formats.records import RecordedGame, RecordedPhase, RecordError, package_phase_name, with_attackers
from ..rules import Rules
from ..state import State

__all__ = ["RecordedPosition", "RecordedGameError", "recorded_position", "load_record", "game_record"]


class RecordedGameError(DipsatError, ValueError):
    """A recorded game file that cannot be read, or has no such phase (the message names the file)."""


@dataclass
class RecordedPosition:
    """A phase of a recorded game, ready to adjudicate."""

    name: str  # "game_804 F1902M"
    state: State
    orders: list[Order]
    silent: dict[Power, str] = field(default_factory=dict)  # powers whose orders are ignored, and why
    warnings: list[str] = field(default_factory=list)  # what the record says against this phase, its unread orders


def _read_bytes(path: str) -> bytes:
    """A file's bytes, gunzipped, or an archive member's as validate names it (``A.zip:MEMBER``)."""
    from .archives import read_named

    try:
        return read_named(path)
    except OSError as exc:
        raise RecordedGameError(f"{path}: cannot read: {getattr(exc, 'strerror', None) or exc}") from None


def load_record(path: str) -> RecordedGame | Game:
    """The recorded game in `path` (``FILE:LINE`` for one game of a ``.jsonl``).

    :raises DipsatError: the file cannot be read, or is none of the formats above."""
    line: int | None = None
    m = re.match(r"^(.*):(\d+)$", path)
    if m and not Path(path).exists():
        path, line = m.group(1), int(m.group(2))
    data = _read_bytes(path)
    if line is None and is_godip_history(data):
        try:
            return read_godip_game(data, path)
        except RecordError as exc:
            raise RecordedGameError(f"{path}: {exc}") from None
    try:
        text = data.decode("utf-8-sig")  # a byte-order mark (a file saved by a Windows editor) is read past
    except UnicodeDecodeError as exc:
        raise RecordedGameError(f"{path}: not UTF-8 ({exc.reason} at byte {exc.start})") from None
    where = path
    if line is not None or path.lower().removesuffix(".gz").endswith(".jsonl"):
        lines = [(n, t) for n, t in enumerate(text.split("\n"), start=1) if t.strip()]
        if line is None and len(lines) != 1:
            raise RecordedGameError(f"{path}: {len(lines)} games, one per line: name one as {path}:LINE "
                                          f"(e.g. {path}:{lines[0][0] if lines else 1})")
        chosen = [t for n, t in lines if line is None or n == line]
        if not chosen:
            raise RecordedGameError(f"{path}:{line}: no game on that line")
        text, where = chosen[0], f"{path}:{line}" if line is not None else path
    try:
        record = parse_json(text, where)  # every failure of json.loads (deep nesting, 5000 digits ...)
    except JsonFormatError as exc:
        raise RecordedGameError(f"{exc}; expected a godip history (first line 'PHASE ...'), a diplomacy saved "
                                "game or a dipsat game file") from None
    if isinstance(record, dict) and record.get("format") in GAME_FORMATS:
        return Game.from_json(record, where)
    try:
        return read_game(record)
    except RecordError as exc:
        raise RecordedGameError(f"{where}: {exc}") from None


def recorded_position(path: str, phase_name: str, rules: Rules | None = None) -> RecordedPosition:
    """The recorded position and orders of the phase `phase_name` (``F1902M``, ``W1902A``
    or ``F1902A``, ``Spring 1902, Movement``) of the game in `path`.

    A retreat phase of a record that does not say who dislodged whom gets the attacker
    origins (and standoffs) from dipsat's adjudication of the movement before it under
    `rules`, where that adjudication dislodges the same units.

    A phase the record contradicts (or with orders that could not be typed) is still
    given, with :attr:`RecordedPosition.warnings` saying so.

    :raises DipsatError: unreadable file, no such phase, or a phase without a position.
    """
    record = load_record(path)
    try:
        wanted = Phase.parse(phase_name)
    except ValueError as exc:
        raise RecordedGameError(f"--phase: {exc}") from None
    if isinstance(record, Game):
        for index, stored in enumerate(record.phases):
            if stored.state.phase == wanted:
                state, orders, silent = record.replay_input(index)
                return RecordedPosition(f"{Path(path).stem} {stored.name}", state, orders, silent)
        known = ", ".join(p.name for p in record.phases)
        raise RecordedGameError(f"{path}: no phase {phase_name!r} (phases: {known})")
    for index, entry in enumerate(record.phases):
        if entry.phase == wanted:
            if entry.state is None:
                raise RecordedGameError(f"{path}: {entry.error or f'phase {entry.name} has no position'}")
            warnings = [f"{path}: {entry.error} (warning)"] if entry.error is not None else []
            warnings += [f"{path}: {note}" for note in getattr(entry, "unread", ())]
            state = entry.state
            if entry.kind is PhaseKind.RETREAT and index > 0:
                state = _retreat_position(record.phases[index - 1], entry, rules or Rules.profile())
            return RecordedPosition(f"{record.id} {entry.name}", state, [o for o, _ in entry.orders],
                                    warnings=warnings)
    known = ", ".join(p.name for p in record.phases)
    raise RecordedGameError(f"{path}: no phase {phase_name!r} (phases: {known})")


def _retreat_position(movement: RecordedPhase, retreat: RecordedPhase, rules: Rules) -> State:
    """A retreat phase's position with the attackers and standoffs its record leaves out,
    from dipsat's adjudication of the recorded movement before it."""
    assert retreat.state is not None
    if all(d.attacker_origin is not None for d in retreat.state.dislodged) or movement.state is None \
            or movement.error is not None:
        return retreat.state
    return with_attackers(movement, retreat, adjudicate(movement.state, [o for o, _ in movement.orders], rules))


def game_record(game: Game) -> RecordedGame:
    """A dipsat game as a :class:`RecordedGame`: each phase's position and its orders as
    given (typed again from their stored text; the current phase has none); no results."""
    phases = []
    for index, stored in enumerate(game.phases):
        state = stored.state
        orders = [(parse_order(text, state.variant, state.phase.kind), text) for text in stored.orders or []]
        phases.append(RecordedPhase(index, package_phase_name(state.phase), state.phase, state, orders,
                                    results_recorded=False))
    name = game.variant.name
    return RecordedGame(f"{name}-{game.seed}", game.variant.map.name, (str(game.rules),), game.variant, phases, format="dipsat")

