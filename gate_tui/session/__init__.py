"""Sessions: the persistent side of the editor (journal, atomic state file, lock, resume).

Headless on purpose: the CLI, the tests and the editor all use it, and none of it
imports Textual.
"""

from gate_tui.session.core import Session, SessionInfo, find_resumable, list_sessions, open_session

__all__ = ["Session", "SessionInfo", "find_resumable", "list_sessions", "open_session"]
