"""The panes of the editor and moving between them: widget access, pages, focus keys,
choosing a gate (list, F3, "Go to gate"), and the title and warning bars.

A base class of :class:`gate_tui.tui.app.GateApp`, kept apart because it is one idea —
where things are on screen and which pane is active (on a narrow terminal only the active
pane shows) — and none of the edit rules. The reply and history panes mount after the
first frame, so their accessors come in two kinds: the property (the pane must be there)
and ``_reply()`` / ``_history()`` (None until it is mounted).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

from textual import events
from textual.widget import Widget
from textual.widgets import Static

from gate_tui.tui import keymap
from gate_tui.tui.file_actions import FileActions
from gate_tui.tui.form import gate_value
from gate_tui.tui.render import WARN_STYLE
from gate_tui.tui.startup import display_path
from gate_tui.tui.text import line, lines, visible
from gate_tui.tui.widgets.decision_panel import DecisionPanel
from gate_tui.tui.widgets.gate_editor import GateEditor, SummaryEditor
from gate_tui.tui.widgets.gate_list import GateList
from gate_tui.tui.widgets.page_bar import PageBar

if TYPE_CHECKING:
    from gate_tui.tui.widgets.history_pane import HistoryPane
    from gate_tui.tui.widgets.reply_pane import ReplyPane

PAGES = tuple(name for name, _label, _binding in keymap.PAGES)
PaneT = TypeVar("PaneT", bound=Widget)


class PaneApp(FileActions):
    """Widget access and page/focus handling for the gate editor."""

    # ---------------------------------------------------------- widget access

    @property
    def gate_list(self) -> GateList:
        return self.query_one(GateList)

    @property
    def gate_editor(self) -> GateEditor:
        return self.query_one(GateEditor)

    @property
    def summary_editor(self) -> SummaryEditor:
        return self.query_one(SummaryEditor)

    @property
    def decision_panel(self) -> DecisionPanel:
        return self.query_one(DecisionPanel)

    @property
    def reply_pane(self) -> ReplyPane:
        return self.query_one("#reply-pane")  # type: ignore[return-value]

    @property
    def history_pane(self) -> HistoryPane:
        return self.query_one("#history-pane")  # type: ignore[return-value]

    def mounted(self, kind: type[PaneT]) -> PaneT | None:
        """A lazily mounted pane, or None while it is not mounted yet."""
        found = self.query(kind)
        return found.first() if found else None

    def _reply(self) -> ReplyPane | None:
        """The reply pane, or None before it is mounted and ready (by id: its module loads
        after the first frame)."""
        found = self.query("#reply-pane")
        pane = found.first() if found else None
        return pane if pane is not None and getattr(pane, "ready", False) else None  # type: ignore[return-value]

    def _history(self) -> HistoryPane | None:
        """The history pane, or None before it is mounted and ready (its Ready message
        then shows the timeline: edits made meanwhile are not lost)."""
        found = self.query("#history-pane")
        pane = found.first() if found else None
        return pane if pane is not None and getattr(pane, "ready", False) else None  # type: ignore[return-value]

    def action_focus_reply(self) -> None:
        if self._reply() is None:
            self.call_after_refresh(self.action_focus_reply)
            return
        self.show_page("reply")
        self.focus_now(self.reply_pane.text_area)

    def action_focus_gates(self) -> None:
        self.show_page("gates")
        self.focus_now(self.gate_list)

    def action_show_history(self) -> None:
        if self._history() is None:
            self.call_after_refresh(self.action_show_history)
            return
        self.show_page("history")
        self.focus_now(self.history_pane.table)

    def focus_now(self, widget: Widget) -> None:
        """Focus ``widget`` before the next key is handled (``Widget.focus`` waits its turn
        behind the keys already queued: Enter right after F3 would go to the old field)."""
        self.screen.set_focus(widget)
        widget.focus()  # again in turn, should the widget not be focusable yet (a pane just shown)

    # ------------------------------------------------------------------ pages

    def show_page(self, page: str) -> None:
        """Make ``page`` the active pane (only visible alone on narrow screens)."""
        bar = self.query_one(PageBar)
        if bar.active == page:
            return
        bar.show(page)
        for name in PAGES:
            self.query(f"#{name}-pane").set_class(name != page, "-inactive")

    def on_page_bar_chosen(self, event: PageBar.Chosen) -> None:
        {"gates": self.action_focus_gates, "reply": self.action_focus_reply, "history": self.action_show_history}[event.page]()

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """Show the focused widget's page, and mark its pane (a class, not ``:focus-within``:
        that pseudo-class restyles a pane's whole subtree on every focus move inside it)."""
        if not event.widget.is_attached:
            return  # focus went to a widget that is gone by now (a modal closed at once)
        ancestors = event.widget.ancestors_with_self
        for name in PAGES:
            for pane in self.query(f"#{name}-pane"):
                if pane in ancestors and pane.has_class("-inactive"):
                    self.show_page(name)
        if event.widget.screen is self.screen:
            for pane in self.screen.query(".pane"):
                pane.set_class(pane in ancestors, "-focused")

    def on_option_list_option_highlighted(self, event: GateList.OptionHighlighted) -> None:
        # By id, not by querying the list: the news may arrive while the app shuts down.
        if event.option_list.id == "gate-list" and self.query(GateEditor):
            self.select_gate(self.gate_list.selected_key)

    def select_gate(self, key: str | None) -> None:
        """Show gate ``key`` in the editor (the list's cursor is the source of truth)."""
        if key is None or key == self.gate_editor.key:
            return
        self.commit_pending()
        if self.gate_list.selected_key != key:
            self.gate_list.select_key(key)
        self.gate_editor.load(key, gate_value(self.session.state, key))
        self.show_current()

    def on_option_list_option_selected(self, event: GateList.OptionSelected) -> None:
        if event.option_list.id == "gate-list":
            self.focus_gate_field()

    def focus_gate_field(self) -> None:
        """Focus the field that would complete the selected gate."""
        key = self.gate_editor.key
        if key is None:
            return
        categorical = self.config.gates[key].categorical
        self.focus_now(self.query_one("#classified-select" if categorical else "#raw"))

    def action_next_gate(self) -> None:
        """Select the gate the system asks for next and focus the field that completes it.

        The pending edit is recorded first: the answer just typed may complete the gate on
        show, and the next gate is the one asked for *after* it (else F3 stays put).
        """
        self.commit_pending()
        key = self.session.decision.next_gate
        if key is None:
            self.commit_pending()
            self.notify("Nothing to jump to: the decision is PASS.", markup=False)
            return
        self.go_to_gate(key)

    def action_go_to_gate(self, key: str) -> None:
        self.go_to_gate(key)

    def go_to_gate(self, key: str) -> None:
        """Select gate ``key`` (from F3 or the palette's "Go to gate") and focus its field."""
        if key not in self.config.gates:
            return
        self.commit_pending()
        self.show_page("gates")
        self.select_gate(key)
        self.focus_gate_field()

    def _sub_title(self) -> str:
        parts = [display_path(self.config_path)]
        if self.session.directory is not None:
            parts.append(f"session {self.session.name}")
        if self.session.read_only:
            parts.append("READ-ONLY")
        elif not self.session.persistent and (self.session.directory is not None or self.session.persistence_warning):
            parts.append("NOT SAVING")
        return visible(" · ".join(parts), one_line=True)

    def _show_notices(self) -> None:
        """The warning bar: the persistence warning first, then the session's notices."""
        warning = self.session.persistence_warning
        notices = ([warning] if warning else []) + [n for n in self.session.notices if n != warning] + self._notices
        rows = [line(("⚠ ", WARN_STYLE), text) for text in notices[:3]]
        if len(notices) > 3:
            rows[-1] = line(("⚠ ", WARN_STYLE), f"… and {len(notices) - 2} more notices (they are in the review report)")
        bar = self.query_one("#notices", Static)
        bar.update(lines(rows))
        bar.display = bool(rows)
        self.session.take_notices()

    def _toast_new_notices(self) -> None:
        """Notices the session added since we last looked (e.g. a failed write) as toasts."""
        fresh = self.session.take_notices()
        for notice in fresh:
            self.notify(visible(notice), title="Session", severity="warning", markup=False, timeout=10)
        if fresh:
            self.sub_title = self._sub_title()
            self._show_notices()

    def on_history_pane_ready(self, event: HistoryPane.Ready) -> None:
        if event.pane.is_attached:
            event.pane.show(self.session.timeline)
