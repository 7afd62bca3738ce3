"""The code's style is checked where CI runs: ruff's rules (pyproject.toml), lines at most
100 columns (E501 is on) and the formatting of every statement ruff would reflow."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RUFF = [sys.executable, "-m", "ruff"]


def test_ruff_finds_nothing_in_the_package_the_tests_and_the_bench() -> None:
    done = subprocess.run(
        [*RUFF, "check", "--no-cache", "gate_tui", "tests", "bench", "tools"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]


def test_no_line_is_over_100_columns() -> None:
    done = subprocess.run(
        [
            *RUFF,
            "check",
            "--no-cache",
            "--select",
            "E501",
            "--output-format",
            "concise",
            "gate_tui",
            "tests",
            "bench",
            "tools",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stdout[-4000:]
