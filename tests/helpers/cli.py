"""Run the ``gate-tui`` command (the installed script when there is one) as a user would."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = Path(sys.executable).with_name("gate-tui")


def command(*args: str) -> list[str]:
    base = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "gate_tui"]
    return [*base, *args]


def gate_tui(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(command(*args), input=stdin, capture_output=True, text=True, timeout=60)


def gate_tui_in_root(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """``gate_tui`` run from the repository's root (relative paths name its files)."""
    base = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "gate_tui"]
    return subprocess.run(
        [*base, *args], input=stdin, capture_output=True, text=True, timeout=60, cwd=ROOT
    )
