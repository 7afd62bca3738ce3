"""The interface the editor codes against: Session, SessionInfo and the functions that find and open them.

The implementation lives in :mod:`~gate_tui.session.live` (the Session),
:mod:`~gate_tui.session.opening` (``open_session``) and :mod:`~gate_tui.session.catalog`.

Contract used by the editor (stable; new things are only added, with defaults):

* ``open_session(config, config_path, *, state_file=None, new=False, resume=True, root=None,
  directory=None, read_only=False) -> Session`` never raises; problems (unwritable
  directory, torn journal line, foreign fingerprint, locked by another instance) end up
  in ``session.notices``; ``session.persistence_warning`` is the one line the editor
  should keep on screen while the session is not being saved (None when all is well).
* ``find_resumable(config, config_path, root=None) -> SessionInfo | None``: the
  unfinished session the editor should offer to resume (then pass its ``directory``).
* ``Session.in_memory(config, config_path)``: no files at all (tests, demos).
* ``session.state`` / ``decision`` / ``timeline`` / ``can_undo`` / ``can_redo`` / ``rejected``.
* ``session.accept(result, payload, actor) -> Transition``: the journal line is written
  and fsync'd, then the state file is replaced atomically; only then does it return,
  and only then may the editor show the new state.
* ``session.reject(result, payload, actor)``: journal a rejected payload (no state change).
* ``session.undo()`` / ``redo()`` / ``jump_to(index)`` -> ``Transition | None`` (journaled).
* ``session.save(path=None)``, ``open_state(path)``, ``export_state_json(path)``,
  ``export_report(path)`` -> ``str | None`` (an error message, or None on success);
  ``state_json()`` and ``report_markdown()`` -> ``str``; ``take_notices()``; ``close()``.

When a write fails mid-session the session drops to memory (``persistent`` becomes
False, ``persistence_warning`` says why) and every transition is still accepted.
"""

from gate_tui.session.catalog import SessionInfo, find_resumable, list_sessions
from gate_tui.session.live import Session
from gate_tui.session.opening import open_session

__all__ = ["Session", "SessionInfo", "find_resumable", "list_sessions", "open_session"]
