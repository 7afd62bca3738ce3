"""The decision panel: the system's PASS / NO PASS in large coloured type, and why.

The verdict is always a word (never colour alone) and always one the parser or the
session produced; this widget only shows it. Extra lines carry the "model claimed …
overruled" notice and the live-edit marker.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.content import Content
from textual.widgets import Static

from gate_tui.tui.keymap import hints_of
from gate_tui.tui.render import big_word, decision_details, verdict
from gate_tui.tui.widgets.refresh import set_content

if TYPE_CHECKING:
    from gate_tui.views import ConfigView, DecisionView


class DecisionPanel(Horizontal):
    """Big verdict on the left, reason / next gate / question on the right."""

    def __init__(self, config: ConfigView, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.config = config
        self.word = ""

    def compose(self) -> ComposeResult:
        yield Static(id="decision-word")
        yield Static(id="decision-details")

    def show(self, decision: DecisionView, extra: Sequence[Content] = ()) -> None:
        """Show ``decision`` (as decided by the system) with optional extra lines."""
        self.word = verdict(decision)
        word = self.query_one("#decision-word", Static)
        if set_content(word, big_word(self.word)):
            word.set_class(decision.pass_, "-pass")
            word.set_class(not decision.pass_, "-no-pass")
        set_content(self.query_one("#decision-details", Static), decision_details(self.config, decision, extra, hints_of(self.app)))
