"""Acceptance checks of issue 13 (``gate-tui serve``) beyond the journey test: two browser
tabs on one ``--state`` file (the second is read-only) and Ctrl+C with tabs still open."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from tests.helpers.browser import CHROMIUM, CHROMIUM_ARGS, EditorPage, serving, wait_until

needs_chromium = pytest.mark.skipif(
    not CHROMIUM.exists() and not os.environ.get("GATE_TUI_REQUIRE_BROWSER"),
    reason=f"{CHROMIUM} is missing (apt-get install -y chromium; .ci/run installs it)",
)


@needs_chromium
def test_two_tabs_on_one_state_file_the_second_is_read_only_and_ctrl_c_stops_cleanly(
    tmp_path: Path,
) -> None:
    from playwright.sync_api import sync_playwright

    state = tmp_path / "demo.json"
    with serving(tmp_path / "state", "--state", str(state)) as (url, server):
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            try:
                first = EditorPage(browser.new_page(viewport={"width": 1400, "height": 900}))
                first.open(url)
                # the first editor holds the session's lock once its pid is in the lock file
                lock = state.with_name(state.name + ".lock")
                assert wait_until(
                    lambda: lock.exists() and lock.read_text(encoding="utf-8").strip() != "",
                    timeout=60,
                )
                second = EditorPage(browser.new_page(viewport={"width": 1400, "height": 900}))
                second.open(url)
                assert second.wait_for_text("read-only"), second.screen_text()[-2000:]
                assert "read-only" not in first.screen_text()
                # Ctrl+C on the server while both tabs are still connected.
                server.send_signal(signal.SIGINT)
                server.wait(timeout=60)
            finally:
                browser.close()
    out = (tmp_path / "state" / "serve.log").read_text(encoding="utf-8")
    assert server.returncode == 0, out
    assert "Traceback" not in out and "gate-tui serve: stopped" in out
