"""The decision panel: the system's PASS / NO PASS in large coloured type, and why.

The verdict is always a word (never colour alone) and always one the parser or the
session produced; this widget only shows it. Extra lines carry the "model claimed …
overruled" notice and the live-edit marker.

Nothing ever covers the verdict, its reason, the next gate ("Next ▶ …") or the extra
lines (a model's claim overruled): the screen's toasts (docked at the top right,
``styles.tcss``, clear of the big word on the left) start on the row under them, wherever
the panel is (:meth:`keep_clear`, after every resize and every change of the lines above
or in it) — over the next gate's question for a few seconds (the gate's form shows it
too); below the big word's letters they may take the screen's width, so that a long one
keeps to few rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.content import Content
from textual.widgets import Static
from textual.widgets._toast import ToastRack

from gate_tui.tui.keymap import hints_of
from gate_tui.tui.render import big_word, decision_details, status_rows, verdict
from gate_tui.tui.widgets.refresh import set_content

if TYPE_CHECKING:
    from gate_tui.views import ConfigView, DecisionView


class DecisionPanel(Horizontal):
    """Big verdict on the left, reason / next gate / question on the right."""

    def __init__(self, config: ConfigView, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.config = config
        self.word = ""
        self._shown: tuple[DecisionView, Sequence[Content]] | None = None  # redrawn for a new width

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
        self._shown = (decision, extra)
        details = self.query_one("#decision-details", Static)
        width = details.content_size.width or None  # None before the first layout: full words
        if width is None:
            self.call_after_refresh(self._fit)  # once laid out, fit the words to the width
        if set_content(
            details, decision_details(self.config, decision, extra, hints_of(self.app), width)
        ):
            self.call_after_refresh(self.keep_clear)  # a line more or less moves the panel's bottom

    def on_resize(self, _event: events.Resize) -> None:
        self.call_after_refresh(self._fit)  # the words that fit the new width
        self.call_after_refresh(self.keep_clear)

    def _fit(self) -> None:
        details = self.query("#decision-details")
        if self._shown is not None and details and details.first().content_size.width:
            self.show(*self._shown)

    def keep_clear(self) -> None:
        """Start the toasts on the row under the verdict, the next gate and the extra lines."""
        racks = self.screen.query(ToastRack)
        if not racks or not self.is_attached:
            return
        kept = status_rows(self.config, *self._shown) if self._shown is not None else 1
        top = self.region.y + kept
        rack = racks.first()
        if rack.styles.margin.top != top:
            rack.styles.margin = (top, 0, 0, 0)
        # Beside the big word while they share rows; once they start below its letters
        # (a third kept line), as wide as the screen: a narrow one would wrap into more
        # rows and reach the panes below.
        letters = self.query_one("#decision-word", Static)
        beside = top < letters.content_region.bottom
        left = letters.region.right + 1 if beside else 1
        if rack.styles.padding.left != left:
            rack.styles.padding = (0, 0, 0, left)
