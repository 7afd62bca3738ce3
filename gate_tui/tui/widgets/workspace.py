"""The workspace: the gate, reply and history panes, and which of them is active.

On a narrow terminal only the active pane shows (``-inactive`` hides the others); the
pane holding the focus is marked ``-focused`` (a class, not ``:focus-within``: that
pseudo-class restyles a pane's whole subtree on every focus move inside it). Focus moving
into an inactive pane makes it the active page; the screen hears of every page change
(:class:`Workspace.PageShown`) for its page bar. The reply and history panes mount after
the first frame (:meth:`mount_panes`), so :meth:`ready_pane` says None until one is
there and ready. After a resize the focused field is scrolled back into view.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import events
from textual.containers import Container
from textual.message import Message
from textual.widget import Widget

from gate_tui.tui.keymap import PAGES as PAGE_KEYS

if TYPE_CHECKING:
    from textual.timer import Timer

    from gate_tui.tui.widgets.history_pane import HistoryPane
    from gate_tui.tui.workbench.target import ReplyHost
    from gate_tui.tui.workbench.widget import Workbench

PAGES = tuple(name for name, _label, _binding in PAGE_KEYS)


def focus_now(widget: Widget) -> None:
    """Focus ``widget`` before the next key is handled (``Widget.focus`` waits its turn
    behind the keys already queued: Enter right after F3 would go to the old field)."""
    widget.screen.set_focus(widget)
    widget.focus()  # again in turn, should the widget not be focusable yet (a pane just shown)


class Workspace(Container):
    """The panes; one page of them active."""

    class PageShown(Message):
        """``page`` became the active pane."""

        def __init__(self, page: str) -> None:
            super().__init__()
            self.page = page

    page = "gates"
    _settle: Timer | None = None  # the scroll after a resize, once sizes settle

    def on_resize(self) -> None:
        # The focused field stays in view: a smaller terminal can push it below the fold.
        # Once the sizes settle (a timer, restarted by each resize): scrolling from inside a
        # burst of resizes made the served page and the editor trade sizes without end.
        if self._settle is not None:
            self._settle.stop()
        self._settle = self.set_timer(0.2, self._focus_in_view)

    @property
    def settled(self) -> bool:
        """True when no scroll after a resize is waiting (its timer has run)."""
        return self._settle is None

    def _focus_in_view(self) -> None:
        self._settle = None
        focused = self.screen.focused
        if focused is not None and focused.is_attached:
            focused.scroll_visible(animate=False)

    def ready_pane(self, selector: str) -> Widget | None:
        """A lazily mounted pane, or None while it is not mounted and ready yet."""
        found = self.query(selector)
        pane = found.first() if found else None
        return pane if pane is not None and getattr(pane, "ready", False) else None

    async def mount_panes(self, host: ReplyHost) -> None:
        """Mount the reply pane (the workbench, for ``host``) and the history pane: the
        panes not needed for the first frame."""
        from gate_tui.tui.widgets.history_pane import HistoryPane
        from gate_tui.tui.workbench.widget import Workbench

        app = self.app
        if not self.is_attached or app._exit_renderables or app._closing:
            return  # the app is already on its way out
        if self.query("#reply-pane"):
            return  # they are there
        await self.mount(
            Workbench(host, id="reply-pane", classes="pane -inactive"),
            HistoryPane(id="history-pane", classes="pane -inactive"),
        )

    def reply(self) -> Workbench | None:
        """The reply pane (the workbench), or None before it is mounted and ready."""
        from gate_tui.tui.workbench.widget import Workbench

        pane = self.ready_pane("#reply-pane")
        return pane if isinstance(pane, Workbench) else None

    def history(self) -> HistoryPane | None:
        """The history pane, or None before it is mounted and ready (its ready message
        then shows the timeline: edits made meanwhile are not lost)."""
        from gate_tui.tui.widgets.history_pane import HistoryPane

        pane = self.ready_pane("#history-pane")
        return pane if isinstance(pane, HistoryPane) else None

    def show_page(self, page: str) -> None:
        """Make ``page`` the active pane (only visible alone on narrow screens)."""
        if self.page == page:
            return
        self.page = page
        for name in PAGES:
            self.query(f"#{name}-pane").set_class(name != page, "-inactive")
        self.post_message(self.PageShown(page))

    FOCUS = {"gates": "#gate-list", "reply": "#reply", "history": "#timeline"}
    """The widget that takes the focus when a page is opened by its key."""

    def open_page(self, page: str) -> None:
        """Show ``page`` and focus its main widget; a pane not mounted yet (they mount after
        the first frame) is tried again after the next refresh."""
        if page != "gates" and self.ready_pane(f"#{page}-pane") is None:
            self.call_after_refresh(self.open_page, page)
            return
        self.show_page(page)
        focus_now(self.query_one(self.FOCUS[page]))

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """Show the focused widget's page, and mark its pane."""
        if not event.widget.is_attached:
            return  # focus went to a widget that is gone by now (a modal closed at once)
        ancestors = event.widget.ancestors_with_self
        for name in PAGES:
            for pane in self.query(f"#{name}-pane"):
                if pane in ancestors and pane.has_class("-inactive"):
                    self.show_page(name)
        for pane in self.query(".pane"):
            pane.set_class(pane in ancestors, "-focused")
