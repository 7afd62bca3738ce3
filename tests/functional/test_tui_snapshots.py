"""Snapshot tests of the editor's main states at 60x20, 80x24 and 120x40 (pytest-textual-snapshot).

At 60x20 (usable) and 80x24 (comfortable) every field stays reachable: the "summary"
scene focuses the gates pane's last field and shows it scrolled into view.

The scenes are the ones ``python -m gate_tui.tui.screenshots`` draws for the README.
Timestamps are pinned (the timeline shows times) and cursors do not blink. Textual is
pinned to one exact version; regenerate deliberately with ``pytest --snapshot-update``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from gate_tui.tui.screenshots import SCENES, fixed_clock, make_app

SIZES = {"60x20": (60, 20), "80x24": (80, 24), "120x40": (120, 40)}
SHOWN_PATH = Path("sample_configs/ml_project_intake.yaml")


@pytest.fixture(autouse=True)
def _fixed_clock() -> Iterator[None]:
    """Every transition happens at 09:30:00 UTC, shown in UTC (as in the README's pictures)."""
    with fixed_clock():
        yield


@pytest.mark.parametrize("size", SIZES, ids=list(SIZES))
@pytest.mark.parametrize("scene", SCENES, ids=list(SCENES))
def test_main_states(snap_compare, scene: str, size: str) -> None:
    assert snap_compare(make_app(SHOWN_PATH), terminal_size=SIZES[size], run_before=SCENES[scene])
