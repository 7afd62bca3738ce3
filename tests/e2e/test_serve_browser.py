"""``gate-tui serve`` end to end: a real headless Chromium pastes a reply and applies it."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.browser import (
    CHROMIUM,
    EditorPage,
    browser_page,
    lying_reply_journey,
    serving,
    wait_until,
)

ROOT = Path(__file__).resolve().parents[2]

# Skipped with the reason printed on a developer machine without Chromium; CI installs it
# (.ci/run) and sets GATE_TUI_REQUIRE_BROWSER, so there the test can never skip.
needs_chromium = pytest.mark.skipif(
    not CHROMIUM.exists() and not os.environ.get("GATE_TUI_REQUIRE_BROWSER"),
    reason=f"{CHROMIUM} is missing (apt-get install -y chromium; .ci/run installs it)",
)


@needs_chromium
def test_the_browser_editor_applies_a_lying_reply_and_journals_it(tmp_path: Path) -> None:
    with serving(tmp_path) as (url, _server), browser_page() as page:
        editor = EditorPage(page)
        lying_reply_journey(editor, url)
        shown = editor.screen_text()
        assert "NO PASS" in shown and "model claimed PASS — overruled: 2_use_case missing" in shown
        editor.press("Control+q")
    journals = lambda: list(tmp_path.glob("sessions/*/journal.jsonl"))  # noqa: E731
    assert wait_until(lambda: any(_replies(j) for j in journals()), timeout=60)
    records = [r for j in journals() for r in _replies(j)]
    assert records[0]["actor"] == "assistant" and records[0]["decision"]["pass"] is False


def _replies(journal: Path) -> list[dict]:
    rows = [
        json.loads(line)
        for line in journal.read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    return [row for row in rows if row.get("kind") == "reply"]


def _gate_tui(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gate_tui", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=timeout,
    )


def test_a_busy_port_is_a_clear_error_with_exit_3() -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        done = _gate_tui("serve", "--port", str(port))
    assert done.returncode == 3
    assert "cannot listen on 127.0.0.1" in done.stderr and "Traceback" not in done.stderr


def test_an_invalid_config_is_refused_before_serving(tmp_path: Path) -> None:
    done = _gate_tui("serve", str(tmp_path / "absent.yaml"))
    assert done.returncode == 3 and "file not found" in done.stderr


def test_binding_beyond_localhost_warns(tmp_path: Path) -> None:
    with serving(tmp_path, "--host", "0.0.0.0"):
        pass
    log = (tmp_path / "serve.log").read_text(encoding="utf-8")
    assert "anyone who can reach this address and has the URL's token can open the editor" in log


def test_the_editor_command_of_each_connection(tmp_path: Path) -> None:
    from gate_tui.cli.commands.serve import editor_command, is_loopback

    command = editor_command(
        Path("sample_configs/ml_project_intake.yaml"), Path("s.json"), tmp_path
    )
    assert (
        command[0] == sys.executable and command[1:3] == ["-m", "gate_tui"] and "--state" in command
    )
    assert str((ROOT / "sample_configs/ml_project_intake.yaml").resolve()) in command
    assert is_loopback("127.0.0.1") and is_loopback("localhost") and is_loopback("::1")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.0.2.1")


@needs_chromium
def test_the_page_without_its_token_shows_how_to_get_in(tmp_path: Path) -> None:
    with serving(tmp_path) as (url, _server), browser_page() as page:
        answer = page.goto(url.split("?", 1)[0])
        assert answer is not None and answer.status == 403
        assert "Open the full URL that gate-tui serve printed" in page.inner_text("body")
        assert page.goto(url.replace("token=", "token=x")).status == 403


@needs_chromium
def test_shift_enter_breaks_the_line_of_a_raw_answer_in_the_browser(tmp_path: Path) -> None:
    """xterm.js sends Shift+Enter as Enter; the served page sends it as shift+enter."""
    with serving(tmp_path) as (url, _server), browser_page() as page:
        editor = EditorPage(page)
        editor.open(url)
        editor.press("F3")  # 1_data_availability's category: available
        editor.press("Enter")
        assert editor.wait_for_text("unavailable")
        mark = editor.mark()
        editor.press("ArrowDown")
        editor.press("Enter")
        assert editor.wait_for_text("2_use_case — Use case", since=mark)
        mark = editor.mark()
        editor.press("F3")
        assert editor.wait_for_text("Shift+Enter: new line", since=mark)  # a browser keeps Ctrl+N
        page.keyboard.type("line one")
        editor.press("Shift+Enter")
        page.keyboard.type("line two")
        editor.press("Enter")
        assert wait_until(lambda: "line one\nline two" in _raw_answers(tmp_path), timeout=60), (
            _raw_answers(tmp_path)
        )


@needs_chromium
def test_a_new_tab_starts_a_fresh_session_not_the_last_visitors(tmp_path: Path) -> None:
    with serving(tmp_path) as (url, _server), browser_page() as page:
        first = EditorPage(page)
        lying_reply_journey(first, url)
        first.press("Control+q")
        assert wait_until(
            lambda: any(_replies(j) for j in tmp_path.glob("sessions/*/journal.jsonl")), timeout=60
        )
        second = EditorPage(page.context.browser.new_page(viewport={"width": 1400, "height": 900}))
        second.open(url)
        assert wait_until(
            lambda: len(list(tmp_path.glob("sessions/*/journal.jsonl"))) == 2, timeout=60
        )
        shown = second.screen_text()
        assert "Resume" not in shown and "overruled" not in shown


def _raw_answers(state_dir: Path) -> list[str]:
    answers = []
    for journal in state_dir.glob("sessions/*/journal.jsonl"):
        for line in journal.read_text(encoding="utf-8").splitlines():
            answers += re.findall(r'"raw":\s*("(?:[^"\\]|\\.)*")', line)
    return [json.loads(answer) for answer in answers]


@needs_chromium
def test_save_as_outside_the_files_folder_writes_nothing_from_the_browser(tmp_path: Path) -> None:
    stray = Path("/tmp") / f"gate-tui-served-{os.getpid()}-{tmp_path.name}.json"
    with serving(tmp_path) as (url, _server), browser_page() as page:
        editor = EditorPage(page)
        editor.open(url)
        mark = editor.mark()
        editor.press("Control+p")
        assert editor.wait_for_text("Search for commands", since=mark)
        mark = editor.mark()
        page.keyboard.type("Save state as")
        assert editor.wait_for_text("Write the current state to a file", since=mark)
        editor.press("Enter")
        assert editor.wait_for_text("Files stay in")
        for path in ("../x", str(stray)):
            mark = editor.mark()
            # What is tested is the refusal (and that nothing is written), not key delivery:
            # on a loaded machine a key sent through the browser and the served websocket
            # was twice not acted on (the typed path, then the Enter), so the whole step
            # (clear, type, Enter) is tried once more before giving up. A refused path
            # entered twice is refused twice.
            refused = False
            for _attempt in range(2):
                editor.press("Control+u")
                page.keyboard.type(path)
                editor.wait_for_text(path[-6:], since=mark, timeout=20)
                editor.press("Enter")
                refused = editor.wait_for_text("outside the files folder", since=mark, timeout=30)
                if refused:
                    break
            assert refused, (path, editor.screen_text()[-600:])
        mark = editor.mark()
        editor.press("Control+u")
        page.keyboard.type("inside.json")
        assert editor.wait_for_text("inside.json", since=mark)
        editor.press("Enter")
        assert wait_until(
            lambda: (tmp_path / "files" / "inside.json").exists()
        )  # a plain name: inside
    assert not (tmp_path / "x").exists() and not stray.exists()
