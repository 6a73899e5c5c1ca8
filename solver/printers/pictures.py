"""Pictures of phases and cases as files: the SVG of :mod:`dipsat.printers.svg`, and PNG through
resvg (the ``png`` extra). Used by the CLI and by the case runner (``dipsat cases --svg``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import DipsatError

if TYPE_CHECKING:
    from ..board import Location, Unit
    from ..orders import Order
    from ..results import PhaseResult
    from ..state import State

__all__ = ["FORMATS", "PictureError", "render", "result_picture", "state_picture", "case_pictures",
           "validation_pictures", "position_pictures"]

FORMATS = ["svg", "png"]


class PictureError(DipsatError):
    """A picture that cannot be made (no renderer for PNG, no geometry for the map)."""


def render(text: str, fmt: str) -> bytes:
    """The picture as bytes: SVG text, or PNG through resvg (the ``png`` extra)."""
    if fmt == "svg":
        return text.encode("utf-8")
    try:
        import resvg_py
    except ImportError:
        raise PictureError("--format png needs resvg: pip install 'dipsat[png]'") from None
    return bytes(resvg_py.svg_to_bytes(svg_string=text))


def board(*args: Any, **kwargs: Any) -> str:
    """svg.board, with a map that has no geometry reported as a :class:`PictureError`."""
    from . import svg  # imported when a picture is drawn: the command line starts without it
    from ..errors import MapError

    try:
        return svg.board(*args, **kwargs)
    except MapError as exc:
        raise PictureError(str(exc)) from None


def result_picture(result: PhaseResult, name: str, crop: bool, area: Area = None, size: int | None = None) -> str:
    """A phase with its orders and results (a corner of the map for a case; `area`, when
    given, chooses the corner as :func:`dipsat.printers.svg.board` does; `size`: the width)."""
    title = f"{name}: {result.before.phase} (rules {result.rules})" if name else f"{result.before.phase} (rules {result.rules})"
    return board(result=result, area=_chosen(area, crop), size=size, title=title)


def state_picture(state: State, name: str, crop: bool, area: Area = None, size: int | None = None,
                  retreat_options: Mapping[Unit, Sequence[Location]] | None = None) -> str:
    """A position alone (`retreat_options`: a retreat phase's, worked out by the caller under
    the game's rules; the printer adjudicates nothing)."""
    title = f"{name}: {state.phase}" if name else str(state.phase)
    return board(state, area=_chosen(area, crop), size=size, title=title, retreat_options=retreat_options)


Area = str | Sequence[str] | None
"""An ``area`` of :func:`dipsat.printers.svg.board`: ``auto``, ``full``, province ids, or None."""


def _chosen(area: Area, crop: bool) -> Area:
    """The area asked for, else a corner of the map (crop) or the whole map."""
    if area is None:
        return "auto" if crop else None
    return area


def case_pictures(directory: str, case_id: str, result: PhaseResult) -> list[Path]:
    """``ID.before.svg`` (the position, the orders and their results) and ``ID.after.svg``
    (the position dipsat adjudicated) for a case, in `directory`."""
    folder = Path(directory)
    folder.mkdir(parents=True, exist_ok=True)
    stem = re.sub(r"[^A-Za-z0-9_.\[\]=-]+", "_", case_id)
    before, after = folder / f"{stem}.before.svg", folder / f"{stem}.after.svg"
    before.write_text(result_picture(result, case_id, True), encoding="utf-8")
    touched = sorted({u.province for u in [*result.before.units, *result.after.units]})
    after.write_text(board(result.after, area=touched or None, title=f"{case_id}: after, {result.after.phase}",
                           retreat_options=result.retreat_options), encoding="utf-8")
    return [before, after]


def validation_pictures(result: PhaseResult, area: Sequence[str], record: State | None = None,
                        ours: State | None = None, highlight: Sequence[str] = ()) -> dict[str, str]:
    """The pictures of a phase where a record and dipsat differ (``dipsat validate --html``):
    ``before`` (the position, the recorded orders and dipsat's results) and, given the
    record's next position and ours, ``record`` and ``ours``; all of the same corner of the
    map (`area`: province ids, the whole map when empty), the provinces where they differ
    outlined (`highlight`)."""
    corner = list(area) or None
    out = {"before": board(result=result, area=corner, highlight=highlight,
                           title=f"{result.before.phase}: the orders and dipsat's results (rules {result.rules})")}
    if record is not None and ours is not None:
        out["record"] = board(record, area=corner, highlight=highlight, title=f"The record: {record.phase}")
        out["ours"] = board(ours, area=corner, highlight=highlight, title=f"dipsat: {ours.phase}")
    return out


def position_pictures(state: State, orders: Sequence[Order], area: Sequence[str]) -> dict[str, str]:
    """A phase that could not be judged: its position and the orders read (``before``)."""
    return {"before": board(state, orders=list(orders), area=list(area) or None,
                            title=f"{state.phase}: the recorded position and orders")}
