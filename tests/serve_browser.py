"""A running `dipsat serve` and a headless Chromium driving its page (Playwright with the
system's Chromium, `apt-get install chromium`): shared by the browser tests and by
scripts/bench_serve.py and scripts/serve_screenshots.py."""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

CHROMIUM = os.environ.get("DIPSAT_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def chromium_missing() -> str | None:
    """Why the browser cannot run here (None: it can)."""
    if not (os.path.exists(CHROMIUM) or shutil.which(CHROMIUM)):
        return f"{CHROMIUM} is missing: install Debian's chromium (apt-get update && apt-get install -y chromium)"
    try:
        import playwright  # noqa: F401
    except ImportError:
        return "playwright is missing: pip install '.[test]'"
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def running_server(timeout: float = 20.0) -> Iterator[str]:
    """dipsat serve in a thread of this process, on a free loopback port; yields its URL."""
    import uvicorn

    from dipsat.web.app import Limits, create_app

    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(Limits(timeout=timeout)), host="127.0.0.1", port=port,
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("dipsat serve did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        server.should_exit = True
        thread.join(10)


@contextlib.contextmanager
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield chromium
        finally:
            chromium.close()
