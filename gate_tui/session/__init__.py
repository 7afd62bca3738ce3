"""Sessions: the persistent side of the editor (journal, atomic state file, lock, resume).

Headless on purpose: the CLI, the tests and the editor all use it, and none of it
imports Textual. One idea per module:

* :mod:`~gate_tui.session.live` — :class:`Session` (the editor's API);
  :mod:`~gate_tui.session.opening` — :func:`open_session`
* :mod:`~gate_tui.session.history` — the in-memory timeline and undo/redo
* :mod:`~gate_tui.session.catalog` — :class:`SessionInfo`, :func:`list_sessions`,
  :func:`find_resumable`
* :mod:`~gate_tui.session.journal` — fsync'd JSON Lines and the tolerant reader
* :mod:`~gate_tui.session.records` — the journal's record format
* :mod:`~gate_tui.session.replay` — rebuilding a History from records
* :mod:`~gate_tui.session.store` — the state file format; :mod:`~gate_tui.atomic` — atomic writes
* :mod:`~gate_tui.session.lock` — one writer per session (flock)
* :mod:`~gate_tui.session.paths` — where sessions live
* :mod:`~gate_tui.session.report` — the Markdown review report
* :mod:`~gate_tui.session.commands` — ``gate-tui sessions`` and ``gate-tui report``

The contract the editor codes against (stable; new things are only added, with defaults):

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

This file loads its names lazily (PEP 562): importing one module of the layer does not load
the others.
"""

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gate_tui.session.catalog import SessionInfo, find_resumable, list_sessions
    from gate_tui.session.live import Session
    from gate_tui.session.opening import open_session

_HOME_OF = {
    "Session": "gate_tui.session.live",
    "SessionInfo": "gate_tui.session.catalog",
    "find_resumable": "gate_tui.session.catalog",
    "list_sessions": "gate_tui.session.catalog",
    "open_session": "gate_tui.session.opening",
}

__all__ = ["Session", "SessionInfo", "find_resumable", "list_sessions", "open_session"]


def __getattr__(name: str) -> Any:
    home = _HOME_OF.get(name)
    if home is None:
        raise AttributeError(f"module 'gate_tui.session' has no attribute {name!r}")
    value = getattr(import_module(home), name)
    globals()[name] = value
    return value
