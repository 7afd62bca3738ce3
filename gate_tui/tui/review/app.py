"""``gate-tui review RESULTS``: the app around :class:`~gate_tui.tui.review.screen.ReviewScreen`
(thin: the screen owns the keys, the table and the verdicts)."""

from __future__ import annotations

import os
from typing import Any

from textual.app import App

from gate_tui.results.index import ResultsIndex
from gate_tui.results.verdicts import VerdictStore
from gate_tui.tui.review.screen import ReviewScreen


class ReviewApp(App[None]):
    """Review one eval run's results."""

    TITLE = "gate-tui review"

    def __init__(self, index: ResultsIndex, verdicts: VerdictStore, *, config: Any = None, contract: Any = None, blink: bool | None = None,
                 assign: tuple[int, int, float] | None = None,
                 by: tuple[str, Any] | None = None) -> None:
        super().__init__()
        self.config = config
        self.contract = contract
        self.index = index
        self.verdicts = verdicts
        self.assign = assign
        self.by = by
        self.blink = os.environ.get("GATE_TUI_NO_BLINK") != "1" if blink is None else blink

    def on_mount(self) -> None:
        self.push_screen(
            ReviewScreen(
                self.index, self.verdicts, self.config, self.contract, self.assign, self.by
            )
        )

    def on_unmount(self) -> None:
        self.verdicts.close()
