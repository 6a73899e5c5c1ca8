"""An engine run as a command speaking the engine protocol (``--against 'cmd:COMMAND'``).

The command is started once and kept: one request line in, one reply line out. An engine
that crashes, hangs past the per-request timeout or answers with something that is not a
reply is reported for that request (:class:`EngineFailure`), restarted, and the run goes on.
"""

from __future__ import annotations

import enum
import os
import queue
import shlex
import subprocess
import threading
from collections.abc import Mapping
from dataclasses import dataclass

from ..orders import Order
from ..state import State
from .protocol import EngineReply, ReplyError, read_reply, request_line

__all__ = ["CommandEngine", "EngineFailure", "FailureKind"]


class FailureKind(enum.Enum):
    """How an engine failed to answer a request."""

    CRASHED = "crashed"  # the process ended (or could not start)
    HUNG = "hung"  # no reply within the timeout
    GARBAGE = "garbage"  # a line that is no reply to the request (or an error it reported)

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class EngineFailure(Exception):
    """The engine did not answer request `request_id`: `kind`, and what was seen."""

    request_id: str
    kind: FailureKind
    detail: str

    def __str__(self) -> str:
        return f"engine {self.kind} on {self.request_id}: {self.detail}"


class CommandEngine:
    """A command (a shell-like string, split as a POSIX shell would) speaking the protocol."""

    def __init__(self, command: str, timeout: float = 10.0, env: Mapping[str, str] | None = None,
                 name: str | None = None) -> None:
        self.argv = shlex.split(command)
        if not self.argv:
            raise ValueError("the engine command is empty")
        self.name = name or command
        self.timeout = timeout
        self.env = {**os.environ, **(env or {})}
        self.restarts = 0
        self._process: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()

    # --- the process -------------------------------------------------------------------------

    def _start(self) -> subprocess.Popen[str]:
        self._lines = queue.Queue()
        process = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                   stderr=subprocess.DEVNULL, text=True, encoding="utf-8", errors="replace",
                                   bufsize=1, env=self.env)
        lines = self._lines

        def pump() -> None:
            assert process.stdout is not None
            for line in process.stdout:
                lines.put(line)
            lines.put(None)  # end of output: the process is gone

        threading.Thread(target=pump, daemon=True).start()
        return process

    def close(self) -> None:
        """Stop the command (closing its input first, so a well-behaved engine ends itself)."""
        process, self._process = self._process, None
        if process is None:
            return
        try:
            if process.stdin:
                process.stdin.close()
            process.wait(timeout=2)
        except (OSError, subprocess.TimeoutExpired):
            process.kill()
            process.wait()

    def _restart(self) -> None:
        if self._process is not None:
            self._process.kill()
            self._process.wait()
            self._process = None
        self.restarts += 1

    def __enter__(self) -> CommandEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- one request ---------------------------------------------------------------------------

    def judge(self, request_id: str, state: State, orders: list[Order]) -> EngineReply:
        """The engine's reply to one phase.

        :raises EngineFailure: it crashed, hung or answered with no usable reply (it is
            restarted before the next request).
        """
        line = self.ask(request_id, request_line(request_id, state, orders))
        try:
            return read_reply(line, request_id, state, len(orders))
        except ReplyError as exc:
            self._restart()  # out of step, maybe: start afresh
            raise EngineFailure(request_id, FailureKind.GARBAGE, str(exc)) from None

    def ask(self, request_id: str, line: str) -> str:
        """Send one request line; the reply line (raises :class:`EngineFailure`)."""
        try:
            if self._process is None or self._process.poll() is not None:
                self._process = self._start()
            assert self._process.stdin is not None
            self._process.stdin.write(line + "\n")
            self._process.stdin.flush()
        except OSError as exc:
            self._restart()
            raise EngineFailure(request_id, FailureKind.CRASHED, f"cannot run {self.argv[0]}: {exc}") from None
        try:
            reply = self._lines.get(timeout=self.timeout)
        except queue.Empty:
            self._restart()
            raise EngineFailure(request_id, FailureKind.HUNG, f"no reply within {self.timeout:g} s") from None
        if reply is None:
            code = self._process.wait()
            self._process = None
            self.restarts += 1
            raise EngineFailure(request_id, FailureKind.CRASHED, f"the engine exited (status {code})")
        return reply.rstrip("\n")
