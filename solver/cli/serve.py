"""``dipsat serve``: the sandbox page and its HTTP API on a local web server (the ``web`` extra).

The web layer (:mod:`dipsat.web`) is imported only when the command runs: the rest of the
command line never loads Starlette or uvicorn.
"""

from __future__ import annotations

import ipaddress
import webbrowser

import click

__all__ = ["serve_command", "DEFAULT_PORT"]

DEFAULT_PORT = 8765


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on; anything but loopback lets other machines use the sandbox.")
@click.option("--port", type=click.IntRange(0, 65535), default=DEFAULT_PORT, show_default=True)
@click.option("--open", "open_browser", is_flag=True, help="Open the page in a web browser once the server is up.")
@click.option("--timeout", type=click.FloatRange(0.1, 3600), default=10.0, show_default=True,
              help="Seconds a request may take (an adjudication); beyond, its answer is an error (503).")
@click.option("--max-bytes", type=click.IntRange(1024, 100_000_000), default=1_000_000, show_default=True,
              help="The largest request accepted, in bytes (413 beyond).")
def serve_command(host: str, port: int, open_browser: bool, timeout: float, max_bytes: int) -> None:
    """Serve the rule lawyer's sandbox: set up a position, adjudicate under any rules, see why,
    compare rulebooks, share a link. The page works offline; its HTTP API (POST
    /api/adjudicate, docs/serve.md) answers what `dipsat adjudicate --format json` writes.
    Stop with Ctrl-C."""
    try:
        from ..web.app import Limits, serve
    except ImportError as exc:
        raise click.ClickException(f"dipsat serve needs the web extra: pip install 'dipsat[web]' ({exc})") from None
    if not _loopback(host):
        click.echo(f"warning: listening on {host}, not loopback: other machines can reach this sandbox", err=True)

    def ready(url: str) -> None:
        click.echo(f"dipsat sandbox at {url} (Ctrl-C to stop)", err=True)
        if open_browser:
            webbrowser.open(url)

    try:
        serve(host, port, Limits(timeout=timeout, max_bytes=max_bytes), ready)
    except KeyboardInterrupt:  # pragma: no cover (uvicorn handles the signal itself)
        pass
    click.echo("dipsat sandbox stopped", err=True)
