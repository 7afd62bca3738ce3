"""The model in the loop in a real terminal: tmux runs gate-tui, the scripted
OpenAI-compatible server (in this test's process, on loopback) streams the reply.

Ask (F6), watch the text stream into the reply pane, apply it (Ctrl+J), quit, and
``gate-tui report`` shows the conversation turn next to the transition it made.
"""

from __future__ import annotations

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
from tests.tui_helpers import ML_CONFIG, reply  # noqa: E402

pytestmark = pytest.mark.tmux


@pytest.fixture
def tmux() -> Iterator[Tmux]:
    if shutil.which("tmux") is None:
        pytest.skip("tmux not installed")
    server = Tmux()
    yield server
    server.kill()


def test_ask_watch_the_stream_apply_quit_and_the_report_shows_the_turn(
    tmux: Tmux, tmp_path: Path
) -> None:
    text = reply("ml_lying_pass.md")
    state = tmp_path / "s.json"
    with ScriptedServer([Step(text=text, chunk=12, delay=0.15)]) as server:
        env = {
            "GATE_TUI_STATE_DIR": str(tmp_path / "state"),
            "TERM": "xterm-256color",
            "GATE_TUI_NO_BLINK": "1",
            "OPENAI_BASE_URL": server.base_url,
            "GATE_TUI_MODEL": "scripted",
            "XDG_CONFIG_HOME": str(tmp_path / "xdg"),
        }
        tmux.start(gate_tui(ML_CONFIG, "--state", state), env)
        tmux.wait_for(
            lambda s: "NO PASS" in s and "1_data_availability" in s, "the editor's first screen"
        )
        tmux.run("send-keys", "F6")
        tmux.wait_for(
            lambda s: "Ask the model" in s and "scripted at http://127.0.0.1" in s,
            "the message box",
        )
        tmux.run("send-keys", "-l", "Tickets are labelled in the warehouse")
        tmux.run("send-keys", "Enter")
        tmux.wait_for(
            lambda s: "streaming" in s and "Great news" in s, "the reply streaming in", timeout=30
        )
        screen = tmux.wait_for(
            lambda s: "so far: gates.1_data_availability" in s, "the so-far preview", timeout=30
        )
        assert "No decision until the reply ends" in screen
        tmux.wait_for(
            lambda s: "overruled" in s and "streaming" not in s,
            "the normal preview after the stream",
            timeout=60,
        )
        tmux.run("send-keys", "C-j")
        tmux.wait_for(lambda s: "assistant" in s and "reply" in s, "the reply applied (timeline)")
        tmux.run("send-keys", "C-q")
        tmux.wait_for(lambda s: "EXITED=0" in s, "a clean exit")
    time.sleep(0.2)
    report = subprocess.run(
        [sys.executable, "-m", "gate_tui", "report", str(state)],
        capture_output=True,
        text=True,
        timeout=60,
        env={**env, "PATH": "/usr/bin:/bin"},
    )
    assert report.returncode == 0, report.stderr
    assert (
        "Tickets are labelled in the warehouse" in report.stdout and "scripted" in report.stdout
    ), report.stdout[report.stdout.find("## Timeline") :][:1500]
    turn = report.stdout.index("Tickets are labelled in the warehouse")
    assert turn < report.stdout.index("overruled") or "claimed" in report.stdout[turn:]
