"""``gate-tui review RESULTS``: the app around :class:`~gate_tui.tui.review.screen.ReviewScreen`
(thin: the screen owns the keys, the table and the verdicts)."""

from __future__ import annotations

from typing import Any

from gate_tui.results.index import ResultsIndex
from gate_tui.results.verdicts import VerdictStore
from gate_tui.tui.review.screen import ReviewScreen
from gate_tui.tui.shell import AppShell


class ReviewApp(AppShell[None]):
    """Review one eval run's results."""

    TITLE = "gate-tui review"

    def __init__(
        self,
        index: ResultsIndex,
        verdicts: VerdictStore,
        *,
        config: Any = None,
        contract: Any = None,
        blink: bool | None = None,
        assign: tuple[int, int, float] | None = None,
        by: tuple[str, Any] | None = None,
    ) -> None:
        super().__init__(blink=blink)
        self.config = config
        self.contract = contract
        self.index = index
        self.verdicts = verdicts
        self.assign = assign
        self.by = by

    def on_mount(self) -> None:
        self.push_screen(
            ReviewScreen(
                self.index, self.verdicts, self.config, self.contract, self.assign, self.by
            )
        )

    def on_unmount(self) -> None:
        self.verdicts.close()
