"""Notifications as compact toasts that hide nothing the user needs.

Textual shows toasts at the bottom right for about five seconds: over the newest
timeline rows, the field being typed in and the panes' bottom border. The editor's
style (``styles.tcss``, "notifications") moves them to the top right, over the title
bar, and this base class makes each one a single block of text — the title becomes the
start of the message ("Reply applied · NO PASS") — so that a short notice takes one row
of the title bar instead of three rows of the screen. A new toast replaces the one shown,
so toasts never stack down over the decision panel.
"""

from __future__ import annotations

from textual.app import App
from textual.notifications import SeverityLevel


class ToastApp(App[int]):
    """An app whose plain-text notifications put their title inline."""

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        if title and not markup:  # markup text is Textual's own: left as it is
            message, title = f"{title} · {message}", ""
        # One toast at a time: a second one would stack below the first, over the decision panel.
        self.clear_notifications()
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=markup)
