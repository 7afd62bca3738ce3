"""Drive ``gate-tui serve`` in a real headless Chromium (Debian's package) with Playwright.

Used by ``tests/e2e/test_serve_browser.py`` and by ``make screenshots`` (``python -m
tests.helpers.browser OUT.png``), so the screenshot in the README comes from the very
journey the test checks. The terminal in the page is xterm.js drawing on a canvas, so
what the editor shows is read from the websocket frames the server sends (the terminal
output, with escape sequences stripped) rather than from the DOM.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
REPLY = ROOT / "sample_configs" / "replies" / "ml_lying_pass.md"
_ESCAPES = re.compile(
    r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][A-Z0-9]|\x1b[=>]"
)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_until(condition: Callable[[], bool], timeout: float = 60.0, step: float = 0.2) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(step)
    return condition()


@contextmanager
def serving(
    state_dir: Path, *args: str, port: int | None = None
) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """``gate-tui serve ARGS`` on a free local port, sessions under ``state_dir``; yields
    (the URL it printed, with its token; the process). Its output goes to
    ``state_dir/serve.log`` (a file: a pipe nobody reads could fill up and stall it)."""
    port = port or free_port()
    state_dir.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "GATE_TUI_STATE_DIR": str(state_dir), "GATE_TUI_NO_BLINK": "1"}
    command = [sys.executable, "-m", "gate_tui", "serve", "--port", str(port), *args]
    log = state_dir / "serve.log"
    with log.open("w", encoding="utf-8") as out:
        server = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, text=True
        )
    try:
        if not wait_until(
            lambda: (_answers(port) and printed_url(log) is not None) or server.poll() is not None
        ):
            raise RuntimeError("gate-tui serve did not start listening")
        if server.poll() is not None:
            raise RuntimeError(f"gate-tui serve exited: {log.read_text(encoding='utf-8')}")
        yield str(printed_url(log)), server
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def printed_url(log: Path) -> str | None:
    """The URL ``gate-tui serve`` printed (``open http://...?token=... in a browser``)."""
    found = re.search(
        r"open (http://\S+) in a browser", log.read_text(encoding="utf-8", errors="replace")
    )
    return found.group(1) if found else None


def _answers(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


class EditorPage:
    """One browser tab on the served editor: keys, paste, and the screen text seen so far."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.frames: list[bytes] = []
        page.on("websocket", self._watch)

    def _watch(self, socket_: Any) -> None:
        socket_.on(
            "framereceived",
            lambda payload: self.frames.append(
                payload if isinstance(payload, bytes) else payload.encode()
            ),
        )

    def screen_text(self) -> str:
        """Everything the editor has written to the terminal so far, escapes removed."""
        return _ESCAPES.sub("", b"".join(self.frames).decode("utf-8", "ignore"))

    def mark(self) -> int:
        """A place in the frames: :meth:`wait_for_text` ``since=`` it sees only what came later."""
        return len(self.frames)

    def wait_for_text(self, text: str, timeout: float = 60.0, since: int = 0) -> bool:
        """Poll the frames (from ``since``) for ``text``. The sync API delivers events only
        while it runs, so the wait is Playwright's own (``wait_for_timeout``), never
        ``time.sleep``."""
        deadline = time.monotonic() + timeout
        while text not in _ESCAPES.sub("", b"".join(self.frames[since:]).decode("utf-8", "ignore")):
            if time.monotonic() > deadline:
                return False
            self.page.wait_for_timeout(200)
        return True

    def pause(self, seconds: float) -> None:
        self.page.wait_for_timeout(seconds * 1000)

    def open(self, url: str) -> None:
        self.page.goto(url)
        if not self.wait_for_text("NO PASS"):
            raise AssertionError("the editor did not render in the browser")
        # Focus the terminal (its hidden textarea) by clicking the screen.
        self.page.click("#terminal", position={"x": 700, "y": 400})

    def focus_reply(self) -> None:
        """F2, then wait until the reply pane has the focus: the footer is redrawn leading with
        the pane's own key (^z Undo). A paste sent before that could be lost during start-up
        (issue 17, item 9)."""
        mark = self.mark()
        self.press("F2")
        if not self.wait_for_text("^z Undo", since=mark):
            raise AssertionError("F2 did not focus the reply pane")

    def press(self, key: str) -> None:
        self.page.keyboard.press(key)

    def paste(self, text: str) -> None:
        """A real paste event on the terminal: xterm.js sends it as a bracketed paste."""
        self.page.evaluate(
            """(text) => {
                const area = document.querySelector('.xterm-helper-textarea');
                area.focus();
                const data = new DataTransfer();
                data.setData('text/plain', text);
                area.dispatchEvent(new ClipboardEvent(
                    'paste', {clipboardData: data, bubbles: true, cancelable: true}
                ));
            }""",
            text,
        )


@contextmanager
def browser_page(width: int = 1400, height: int = 900) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield browser.new_page(viewport={"width": width, "height": height})
        finally:
            browser.close()


def lying_reply_journey(editor: EditorPage, url: str) -> None:
    """Open the editor, paste the lying reply into the reply pane and apply it."""
    editor.open(url)
    editor.focus_reply()
    editor.paste(REPLY.read_text(encoding="utf-8"))
    if not editor.wait_for_text("If applied"):
        raise AssertionError("the reply preview did not appear")
    editor.press("Control+j")
    if not editor.wait_for_text("overruled"):
        raise AssertionError("applying the reply did not show the overruled claim")


def screenshot(out: Path, state_dir: Path) -> None:
    """``make screenshots``: the browser after the lying reply was applied."""
    with serving(state_dir) as (url, _server), browser_page() as page:
        editor = EditorPage(page)
        lying_reply_journey(editor, url)
        editor.pause(1.0)
        page.screenshot(path=str(out))


if __name__ == "__main__":
    import tempfile

    target = Path(sys.argv[1] if len(sys.argv) > 1 else "screenshots/browser.png")
    if not CHROMIUM.exists():
        sys.exit(f"{CHROMIUM} is missing: apt-get install -y chromium")
    with tempfile.TemporaryDirectory() as state:
        screenshot(target, Path(state))
    print(f"wrote {target}")
