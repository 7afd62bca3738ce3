"""Grounding in a real terminal (issue 29): tmux runs the editor, the scripted
OpenAI-compatible server (in this test's process, on loopback) answers twice.

Ask (F6, a message, Enter) and apply; ask again: the second reply keeps the first answer
and invents one for another gate. The gate list's mark, the reply preview and
``gate-tui report`` on the session all say the invented answer is not the user's words.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("openai")

from tests.helpers.scripted_openai import ScriptedServer, Step  # noqa: E402
from tests.helpers.tmux import Tmux, gate_tui  # noqa: E402
from tests.tui_helpers import ML_CONFIG  # noqa: E402

pytestmark = pytest.mark.tmux
INVENTED = "Fraud detection for card payments"


def state(use_case: str | None) -> str:
    gates = {
        "1_data_availability": {"raw": "labelled tickets", "classified": "available"},
        "2_use_case": {"raw": use_case, "classified": None},
        "3_success_metric": {"raw": None, "classified": None},
        "4_data_privacy": {"raw": None, "classified": None},
        "5_stakeholder": {"raw": None, "classified": None},
    }
    status = {"pass": False, "next_gate": None, "next_query": None}
    return json.dumps({"summary": "s", "gates": gates, "status": status}, indent=2)


@pytest.fixture
def tmux() -> Iterator[Tmux]:
    if shutil.which("tmux") is None:
        pytest.skip("tmux not installed")
    server = Tmux()
    yield server
    server.kill()


def ask(tmux: Tmux, message: str, shows: str) -> str:
    """F6, type ``message``, Enter; the screen once the reply's preview ``shows`` a text."""
    tmux.run("send-keys", "F6")
    tmux.wait_for(lambda s: "Ask the model" in s, "the message box")
    time.sleep(0.5)  # the box takes the focus after it shows
    tmux.run("send-keys", "-l", message)
    tmux.wait_for(lambda s: message in s, "the message typed in the box")
    tmux.run("send-keys", "Enter")
    return tmux.wait_for(
        lambda s: shows in s, f"the reply's preview showing {shows!r}", timeout=90
    )


def test_the_second_reply_invents_an_answer_and_every_view_says_so(
    tmux: Tmux, tmp_path: Path
) -> None:
    saved = tmp_path / "s.json"
    steps = [Step(text=state(None)), Step(text=state(INVENTED))]
    with ScriptedServer(steps) as server:
        env = {
            "GATE_TUI_STATE_DIR": str(tmp_path / "state"),
            "TERM": "xterm-256color",
            "GATE_TUI_NO_BLINK": "1",
            "OPENAI_BASE_URL": server.base_url,
            "GATE_TUI_MODEL": "scripted",
            "XDG_CONFIG_HOME": str(tmp_path / "xdg"),
        }
        tmux.start(gate_tui(ML_CONFIG, "--state", saved), env)
        tmux.wait_for(lambda s: "1_data_availability" in s, "the editor's first screen")
        first = ask(tmux, "We have labelled tickets", "If applied:")
        assert "not the user's words" not in first
        tmux.run("send-keys", "C-j")
        tmux.wait_for(lambda s: "#1 reply by assistant" in s, "the first reply applied")
        # The preview's warnings: the invented answer first, with the closest user words.
        # (the pane wraps the warning's line, so the words are matched up to the wrap)
        second = ask(tmux, "Still thinking about the use case", f"'{INVENTED}' is not the user")
        assert "Warnings:" in second and "closest: your message #2" in second, second
        tmux.run("send-keys", "C-j")
        screen = tmux.wait_for(
            lambda s: "#2 reply by assistant" in s and "not your words" in s,
            "gate 2 marked in the gate list",
            timeout=60,
        )
        marked = [row for row in screen.splitlines() if "not your words" in row]
        assert len(marked) == 1 and "2_use_case" in marked[0], screen
        tmux.run("send-keys", "C-q")
        tmux.wait_for(lambda s: "EXITED=0" in s, "a clean exit")
    time.sleep(0.2)
    report = subprocess.run(
        [sys.executable, "-m", "gate_tui", "report", str(saved)],
        capture_output=True,
        text=True,
        timeout=60,
        env={**env, "PATH": "/usr/bin:/bin"},
    )
    assert report.returncode == 0, report.stderr
    assert "NOT the user's words" in report.stdout, report.stdout
    said = report.stdout[report.stdout.index("NOT the user's words") - 400 :]
    assert "2_use_case" in said or "Use case" in said, said
