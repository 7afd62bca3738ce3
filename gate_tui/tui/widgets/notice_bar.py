"""The warning bar under the title: why the session is not saving, and the session's notices.

It shows the persistence warning first, then the session's notices and the app's own
(an unknown keymap id), three at most (the rest are counted: they are all in the review
report), and hides itself when there is nothing to say. The title's "NOT SAVING" /
"READ-ONLY" comes from :func:`session_title` next to it, so the two never disagree: the
bar sets both (:meth:`NoticeBar.show_session`), toasts the notices the session adds
(:meth:`NoticeBar.toast_new`) and posts :class:`NoticeBar.Shown` each time it may have
come or gone (the screen keeps what is under it in view).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from textual.message import Message
from textual.widgets import Static

from gate_tui.tui.render import WARN_STYLE
from gate_tui.tui.session_words import display_path
from gate_tui.tui.text import line, lines, visible

if TYPE_CHECKING:
    from gate_tui.session.live import Session

SHOWN = 3


def session_title(config_path: Path | None, session: Session) -> str:
    """The header's second part: the config, the session's name, READ-ONLY or NOT SAVING."""
    parts = [display_path(config_path)]
    if session.directory is not None:
        parts.append(f"session {session.name}")
    if session.read_only:
        parts.append("READ-ONLY")
    elif not session.persistent and (session.directory is not None or session.persistence_warning):
        parts.append("NOT SAVING")
    return visible(" · ".join(parts), one_line=True)


class NoticeBar(Static):
    """Up to three warnings about the session; hidden when there are none."""

    class Shown(Message):
        """The bar was filled again: it may have come or gone."""

    def show_session(self, session: Session, own: list[str]) -> None:
        """Show ``session`` in the bar and the app's title line."""
        config_path = getattr(self.app, "config_path", None)
        self.app.sub_title = session_title(config_path, session)
        self.show(session, own)
        self.post_message(self.Shown())

    def toast_new(self, session: Session, own: list[str]) -> None:
        """Notices the session added since the bar last looked (e.g. a failed write), as
        toasts; the bar and the title then show them too."""
        fresh = session.take_notices()
        for notice in fresh:
            self.notify(
                visible(notice), title="Session", severity="warning", markup=False, timeout=10
            )
        if fresh:
            self.show_session(session, own)

    def show(self, session: Session, own: list[str]) -> None:
        """Show ``session``'s warnings and ``own`` notices (the session's are taken: seen)."""
        warning = session.persistence_warning
        notices = (
            ([warning] if warning else []) + [n for n in session.notices if n != warning] + own
        )
        rows = [line(("⚠ ", WARN_STYLE), text) for text in notices[:SHOWN]]
        if len(notices) > SHOWN:
            rows[-1] = line(
                ("⚠ ", WARN_STYLE),
                f"… and {len(notices) - SHOWN + 1} more notices (they are in the review report)",
            )
        self.update(lines(rows))
        self.display = bool(rows)
        session.take_notices()
