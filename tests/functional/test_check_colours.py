"""``gate-tui check`` on a terminal: its verdict colours reach the terminal as colour codes
(not as visible ``␛[1;32m`` pictures), while an escape in the file name stays visible."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

from tests.conftest import CONFIGS, REPLIES

ROOT = Path(__file__).resolve().parents[2]


def _on_a_terminal(*args: str) -> str:
    leader, follower = pty.openpty()
    env = {key: value for key, value in os.environ.items() if key != "NO_COLOR"}
    env["PYTHONPATH"] = str(ROOT)
    process = subprocess.Popen(
        [sys.executable, "-m", "gate_tui", *args],
        stdout=follower,
        stderr=follower,
        env=env,
        cwd=ROOT,
    )
    os.close(follower)
    out = b""
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    process.wait(timeout=60)
    os.close(leader)
    return out.decode("utf-8", "replace")


def test_check_colours_are_colours_on_a_terminal(tmp_path: Path) -> None:
    reply = tmp_path / "evil\x1b[31mname.md"
    reply.write_text((REPLIES / "ml_good.md").read_text(encoding="utf-8"), encoding="utf-8")
    out = _on_a_terminal("check", "--config", str(CONFIGS / "ml_project_intake.yaml"), str(reply))
    assert "\x1b[1;32mPASS\x1b[0m" in out
    assert "␛[1;32m" not in out
    assert "evil␛[31mname.md" in out and "evil\x1b[31m" not in out
