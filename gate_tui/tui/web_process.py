"""One served editor process per browser connection, that never outlives it.

textual-serve's :class:`AppService` starts the editor through a shell and, when the page
goes away, asks it to quit and then waits for it without a limit — an editor that does not
answer (busy, or stuck) stays alive for ever. This subclass:

- starts the editor itself (no shell) in a process group of its own, and on Linux asks
  the kernel to send it SIGTERM if the server dies first (no orphan after ``kill -9``);
- passes on only terminal sizes a screen can have (:func:`clamp_size`);
- stops in steps: ``quit`` (the editor saves and exits), then SIGTERM to the group after
  a grace period, then SIGKILL — so ``stop`` always returns, and the process is gone.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from collections.abc import Sequence
from typing import Any

from textual_serve.app_service import AppService

from gate_tui.tui.web_guard import clamp_size

QUIT_GRACE = 5.0  # seconds an editor has to save and exit after its page went away
TERM_GRACE = 3.0  # then after SIGTERM, before SIGKILL


def _die_with_parent() -> None:  # pragma: no cover - runs in the child between fork and exec
    """Linux: SIGTERM this process when its parent (the server) dies."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


class EditorProcess(AppService):
    """The editor behind one websocket."""

    def __init__(self, argv: Sequence[str], **kwargs: Any) -> None:
        super().__init__(" ".join(argv), **kwargs)
        self.argv = list(argv)

    async def _open_app_process(
        self, width: int = 80, height: int = 24
    ) -> asyncio.subprocess.Process:
        width, height = clamp_size(width, height)
        extra: dict[str, Any] = (
            {"preexec_fn": _die_with_parent} if sys.platform.startswith("linux") else {}
        )
        self._process = process = await asyncio.create_subprocess_exec(
            *self.argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=self._build_environment(width=width, height=height),
            start_new_session=True,
            **extra,
        )
        assert process.stdin is not None
        self._stdin = process.stdin
        return process

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    async def set_terminal_size(self, width: int, height: int) -> None:
        width, height = clamp_size(width, height)
        await super().set_terminal_size(width, height)

    async def stop(self) -> None:
        """Quit the editor, and make sure it is gone however it behaves."""
        task, process = self._task, self._process
        if task is None or process is None:
            return
        with contextlib.suppress(Exception):
            await asyncio.wait_for(super().stop(), QUIT_GRACE)
        for signal_number, grace in ((signal.SIGTERM, TERM_GRACE), (signal.SIGKILL, None)):
            if process.returncode is not None:
                break
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal_number)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(process.wait(), grace)
        if self._task is not None and not self._task.done():
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        self._task = None
        if process.returncode is None:
            with contextlib.suppress(Exception):
                await process.wait()
