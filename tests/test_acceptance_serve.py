"""Acceptance checks of issue 13 (``gate-tui serve``) beyond the journey test: two browser
tabs on one ``--state`` file (the second is read-only) and Ctrl+C with tabs still open."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.browser import CHROMIUM, CHROMIUM_ARGS, ROOT, EditorPage, free_port, wait_until

needs_chromium = pytest.mark.skipif(
    not CHROMIUM.exists() and not os.environ.get("GATE_TUI_REQUIRE_BROWSER"),
    reason=f"{CHROMIUM} is missing (apt-get install -y chromium; .ci/run installs it)",
)


def _answers(port: int) -> bool:
    import socket

    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


@needs_chromium
def test_two_tabs_on_one_state_file_the_second_is_read_only_and_ctrl_c_stops_cleanly(tmp_path: Path) -> None:
    from playwright.sync_api import sync_playwright

    port = free_port()
    state = tmp_path / "demo.json"
    env = {**os.environ, "GATE_TUI_STATE_DIR": str(tmp_path / "state"), "GATE_TUI_NO_BLINK": "1"}
    server = subprocess.Popen(
        [sys.executable, "-m", "gate_tui", "serve", "--port", str(port), "--state", str(state)],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        assert wait_until(lambda: _answers(port) or server.poll() is not None, timeout=30)
        assert server.poll() is None
        url = f"http://127.0.0.1:{port}"
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            try:
                first = EditorPage(browser.new_page(viewport={"width": 1400, "height": 900}))
                first.open(url)
                first.pause(1.0)  # let the first editor take the session's lock
                second = EditorPage(browser.new_page(viewport={"width": 1400, "height": 900}))
                second.open(url)
                assert second.wait_for_text("read-only", timeout=30), second.screen_text()[-2000:]
                assert "read-only" not in first.screen_text()
                # Ctrl+C on the server while both tabs are still connected.
                server.send_signal(signal.SIGINT)
                out, err = server.communicate(timeout=30)
            finally:
                browser.close()
    finally:
        if server.poll() is None:
            server.kill()
            server.communicate()
    assert server.returncode == 0, (out, err)
    assert "Traceback" not in out + err
