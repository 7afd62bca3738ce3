"""Moving around the gate editor: the pages of a narrow terminal, the focus keys, and
choosing a gate (the list, F3 "next gate", the palette's "Go to gate").

A helper the screen holds (``screen.navigation``), not a base class; the screen's actions
call it. The reply and history panes mount after the first frame: a key that wants one
before it is there tries again after the next refresh.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gate_tui.tui.form import gate_value

if TYPE_CHECKING:
    from gate_tui.tui.screens.editor import GateScreen


class Navigation:
    """Pages, focus and the gate on show, for one editor screen."""

    def __init__(self, screen: GateScreen) -> None:
        self.screen = screen

    def focus_reply(self) -> None:
        screen = self.screen
        if screen.reply() is None:
            screen.call_after_refresh(self.focus_reply)
            return
        screen.workspace.show_page("reply")
        self.focus_now(screen.reply_pane.text_area)

    def focus_gates(self) -> None:
        self.screen.workspace.show_page("gates")
        self.focus_now(self.screen.gate_list)

    def show_history(self) -> None:
        screen = self.screen
        if screen.history() is None:
            screen.call_after_refresh(self.show_history)
            return
        screen.workspace.show_page("history")
        self.focus_now(screen.history_pane.table)

    def focus_now(self, widget: Any) -> None:
        """Focus ``widget`` before the next key is handled (``Widget.focus`` waits its turn
        behind the keys already queued: Enter right after F3 would go to the old field)."""
        self.screen.set_focus(widget)
        widget.focus()  # again in turn, should the widget not be focusable yet (a pane just shown)

    def select_gate(self, key: str | None) -> None:
        """Show gate ``key`` in the editor (the list's cursor is the source of truth)."""
        screen = self.screen
        if key is None or key == screen.gate_editor.key:
            return
        screen.commit_pending()
        if screen.gate_list.selected_key != key:
            screen.gate_list.select_key(key)
        screen.gate_editor.load(key, gate_value(screen.session.state, key))
        screen.show_current()

    def focus_gate_field(self) -> None:
        """Focus the field that would complete the selected gate."""
        screen = self.screen
        key = screen.gate_editor.key
        if key is None:
            return
        categorical = screen.config.gates[key].categorical
        self.focus_now(screen.query_one("#classified-select" if categorical else "#raw"))

    def next_gate(self) -> None:
        """Select the gate the system asks for next and focus the field that completes it.

        The pending edit is recorded first: the answer just typed may complete the gate on
        show, and the next gate is the one asked for *after* it (else F3 stays put).
        """
        screen = self.screen
        screen.commit_pending()
        key = screen.session.decision.next_gate
        if key is None:
            screen.notify("Nothing to jump to: the decision is PASS.", markup=False)
            return
        self.go_to_gate(key)

    def go_to_gate(self, key: str) -> None:
        """Select gate ``key`` (from F3 or the palette's "Go to gate") and focus its field."""
        screen = self.screen
        if key not in screen.config.gates:
            return
        screen.commit_pending()
        screen.workspace.show_page("gates")
        self.select_gate(key)
        self.focus_gate_field()
