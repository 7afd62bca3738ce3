"""Sessions: the persistent side of the editor (journal, atomic state file, lock, resume).

Headless on purpose: the CLI, the tests and the editor all use it, and none of it
imports Textual. One idea per module:

* :mod:`~gate_tui.session.core` — :class:`Session` and :func:`open_session` (the editor's API)
* :mod:`~gate_tui.session.catalog` — :class:`SessionInfo`, :func:`list_sessions`, :func:`find_resumable`
* :mod:`~gate_tui.session.journal` — fsync'd JSON Lines and the tolerant reader
* :mod:`~gate_tui.session.records` — the journal's record format
* :mod:`~gate_tui.session.replay` — rebuilding a History from records
* :mod:`~gate_tui.session.store` — the state file format; :mod:`~gate_tui.session.atomic` — atomic writes
* :mod:`~gate_tui.session.lock` — one writer per session (flock)
* :mod:`~gate_tui.session.paths` — where sessions live
* :mod:`~gate_tui.session.report` — the Markdown review report
* :mod:`~gate_tui.session.commands` — ``gate-tui sessions`` and ``gate-tui report``
"""

from gate_tui.session.core import Session, SessionInfo, find_resumable, list_sessions, open_session

__all__ = ["Session", "SessionInfo", "find_resumable", "list_sessions", "open_session"]
