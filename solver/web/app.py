"""``dipsat serve``: the sandbox page and its HTTP API as a Starlette application (the ``web``
extra), served by uvicorn (:func:`serve`).

Safe on a shared machine: every request body is bounded (:attr:`Limits.max_bytes`) and every
adjudication in time (:attr:`Limits.timeout`); adjudication runs in worker threads (at most
:attr:`Limits.workers` at once), so a slow one does not block the page; no request names a
path on the server's disk (the static files are the package's own); every bad request is a
4xx JSON ``{"error", "problems"}``, never a traceback.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import anyio
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .api import RequestError, adjudicate_request, case_request, cases_list, draw_request, rules_catalogue

__all__ = ["Limits", "create_app", "serve", "STATIC"]

STATIC = Path(__file__).resolve().parent / "static"
"""The page's files: HTML, JavaScript and CSS, all bundled (no network needed)."""

_log = logging.getLogger("dipsat.serve")


@dataclass(frozen=True)
class Limits:
    """The bounds every request is held to."""

    timeout: float = 10.0
    """Seconds an adjudication may take before the request is answered 503."""
    max_bytes: int = 1_000_000
    """The largest request body, in bytes (413 beyond)."""
    workers: int = 4
    """Adjudications run at once (in threads), counting those whose answer came too late and that
    are still working; more wait their turn (up to the time limit)."""


def _error(problems: list[str], status: int) -> JSONResponse:
    return JSONResponse(RequestError(problems, status).to_json(), status_code=status)


async def _body(request: Request, limits: Limits) -> Any:
    """The request's JSON, read no further than the size limit."""
    declared = request.headers.get("content-length")
    if declared is not None and not declared.isdigit():
        raise RequestError([f"the request: a Content-Length that is not a number ({declared[:40]!r})"])
    if declared is not None and int(declared) > limits.max_bytes:
        raise RequestError([f"the request: larger than {limits.max_bytes} bytes"], 413)
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limits.max_bytes:
            raise RequestError([f"the request: larger than {limits.max_bytes} bytes"], 413)
        chunks.append(chunk)
    try:
        data = json.loads(b"".join(chunks).decode("utf-8"))
        json.dumps(data, ensure_ascii=False).encode("utf-8")  # a lone surrogate ("\ud800") is not text
    except UnicodeError:
        raise RequestError(["the request: not UTF-8 text (or a lone surrogate escape such as \\ud800)"]) from None
    except (ValueError, RecursionError) as exc:
        raise RequestError([f"the request: not valid JSON ({str(exc).splitlines()[0][:120]})"]) from None
    return data


SLOT_SLACK = 0.5
"""Seconds the answer may come after --timeout: a request still waiting for a slot then
says the server is busy (its own 503) rather than racing the time limit with it."""


def _in_a_slot(job: Callable[[Any], dict[str, Any]], slots: threading.BoundedSemaphore,
               limits: Limits) -> Callable[[Any], dict[str, Any]]:
    """`job` holding one of the `slots` while it works: a request whose answer came too late
    keeps its slot until its thread is done, so at most :attr:`Limits.workers` adjudications
    ever run at once, and a request that finds no slot within the time limit gets a 503."""

    def run(payload: Any) -> dict[str, Any]:
        if not slots.acquire(timeout=limits.timeout):
            raise RequestError([f"the server is busy: no adjudication slot within --timeout {limits.timeout:g} s"], 503)
        try:
            return job(payload)
        finally:
            slots.release()

    return run


def _json_endpoint(job: Callable[[Any], dict[str, Any]], limits: Limits, limiter: anyio.CapacityLimiter,
                   slots: threading.BoundedSemaphore) -> Callable[[Request], Awaitable[Response]]:
    """A POST endpoint: the body's JSON to `job` in a worker thread, within the time limit."""
    bounded = _in_a_slot(job, slots, limits)

    async def endpoint(request: Request) -> Response:
        payload = await _body(request, limits)
        with anyio.move_on_after(limits.timeout + SLOT_SLACK) as scope:
            data = await anyio.to_thread.run_sync(partial(bounded, payload), limiter=limiter, abandon_on_cancel=True)
        if scope.cancelled_caught:
            raise RequestError([f"the request took longer than the server's --timeout of {limits.timeout:g} s"], 503)
        return JSONResponse(data)

    return endpoint


async def _rules(request: Request) -> Response:
    return JSONResponse(rules_catalogue())


def _cases(limiter: anyio.CapacityLimiter) -> Callable[[Request], Awaitable[Response]]:
    async def endpoint(request: Request) -> Response:
        return JSONResponse(await anyio.to_thread.run_sync(cases_list, limiter=limiter))

    return endpoint


def _case(limiter: anyio.CapacityLimiter) -> Callable[[Request], Awaitable[Response]]:
    async def endpoint(request: Request) -> Response:
        case_id = request.query_params.get("id", "")
        if not case_id.strip():
            raise RequestError(["id: give a case's id, e.g. /api/case?id=6.F.24"])
        return JSONResponse(await anyio.to_thread.run_sync(case_request, case_id, limiter=limiter))

    return endpoint


async def _page(request: Request) -> Response:
    return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})


async def _request_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, RequestError)
    return JSONResponse(exc.to_json(), status_code=exc.status)


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    if request.url.path.startswith("/api/") or exc.status_code != 404:
        return _error([f"{request.method} {request.url.path}: {exc.detail}"], exc.status_code)
    return _error([f"{request.url.path}: no such page (the sandbox is at /)"], 404)


async def _unexpected(request: Request, exc: Exception) -> Response:
    """A bug in dipsat: logged with its traceback on the server, one line to the client."""
    _log.exception("%s %s failed", request.method, request.url.path)
    return _error([f"dipsat failed on this request ({type(exc).__name__}); please report it with the request"], 500)


def create_app(limits: Limits = Limits()) -> Starlette:
    """The application: the page at ``/``, its files under ``/static``, the API under ``/api``."""
    limiter = anyio.CapacityLimiter(4 * limits.workers)  # threads: those working, and those waiting for a slot
    slots = threading.BoundedSemaphore(limits.workers)
    routes = [
        Route("/", _page),
        Route("/api/adjudicate", _json_endpoint(adjudicate_request, limits, limiter, slots), methods=["POST"]),
        Route("/api/draw", _json_endpoint(draw_request, limits, limiter, slots), methods=["POST"]),
        Route("/api/rules", _rules),
        Route("/api/cases", _cases(limiter)),
        Route("/api/case", _case(limiter)),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    handlers: dict[Any, Callable[[Request, Exception], Awaitable[Response]]] = {
        RequestError: _request_error, HTTPException: _http_error, Exception: _unexpected}
    return Starlette(routes=routes, exception_handlers=handlers)


def serve(host: str = "127.0.0.1", port: int = 8765, limits: Limits = Limits(),
          ready: Callable[[str], None] | None = None) -> None:
    """Serve the sandbox until Ctrl-C (uvicorn, one process)."""
    import uvicorn

    config = uvicorn.Config(create_app(limits), host=host, port=port, log_level="warning",
                            limit_concurrency=64, timeout_graceful_shutdown=2)
    server = uvicorn.Server(config)
    if ready is not None:
        original = server.startup

        async def startup(sockets: Any = None) -> None:
            await original(sockets)
            if server.started:
                ready(f"http://{'[' + host + ']' if ':' in host else host}:{port}/")

        server.startup = startup  # type: ignore[method-assign]
    server.run()
