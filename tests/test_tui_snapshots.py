"""Snapshot tests of the editor's main states at 80x24 and 120x40 (pytest-textual-snapshot).

The scenes are the ones ``python -m gate_tui.tui.screenshots`` draws for the README.
Timestamps are pinned (the timeline shows times) and cursors do not blink. Textual is
pinned to one exact version; regenerate deliberately with ``pytest --snapshot-update``.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from gate_tui.tui.screenshots import SCENES, make_app

SIZES = {"80x24": (80, 24), "120x40": (120, 40)}
SHOWN_PATH = Path("sample_configs/ml_project_intake.yaml")


@pytest.fixture(autouse=True)
def _fixed_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every transition happens at 09:30:00 UTC, shown in UTC."""
    monkeypatch.setattr("gate_tui.history.now_iso", lambda: "2026-01-15T09:30:00.000+00:00")
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()


@pytest.mark.parametrize("size", SIZES, ids=list(SIZES))
@pytest.mark.parametrize("scene", SCENES, ids=list(SCENES))
def test_main_states(snap_compare, scene: str, size: str) -> None:
    assert snap_compare(make_app(SHOWN_PATH), terminal_size=SIZES[size], run_before=SCENES[scene])
