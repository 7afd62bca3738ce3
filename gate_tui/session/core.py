"""The Session object the editor talks to: a History that is journaled, saved and locked.

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

from __future__ import annotations

import contextlib
import os
import threading
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from gate_tui.config import config_fingerprint, config_title
from gate_tui.history import History, Transition
from gate_tui.models import Actor, GateConfig, GateDecision, GateState, ParseResult
from gate_tui.session import records as rec
from gate_tui.session.atomic import atomic_write_text, describe_os_error
from gate_tui.session.catalog import SessionInfo, find_resumable, list_sessions
from gate_tui.session.journal import JournalRead, JournalWriter, gc_paused, read_journal
from gate_tui.session.lock import SessionLock, acquire
from gate_tui.session.paths import (
    SessionPaths,
    create_session_dir,
    folder_paths,
    resolved,
    session_stem,
    sessions_dir,
    state_file_paths,
)
from gate_tui.session.replay import replay
from gate_tui.session.report import render_report
from gate_tui.session.store import (
    read_state_file,
    state_document,
    validate_loaded,
    write_state_file,
)
from gate_tui.session.store import (
    state_json as canonical_state_json,
)

__all__ = ["Session", "SessionInfo", "find_resumable", "list_sessions", "open_session"]

SAVE_AS_HINT = "use “Save state as…” to keep your work"


@dataclass(eq=False)
class Session:
    """One editing session: a :class:`History` plus where (and whether) it is persisted."""

    config: GateConfig
    config_path: Path | None
    history: History
    name: str = "in-memory"
    directory: Path | None = None
    read_only: bool = False
    notices: list[str] = field(default_factory=list)
    state_file: Path | None = None
    journal_path: Path | None = None
    persistence_warning: str | None = None
    header: dict[str, Any] = field(default_factory=dict)
    records: list[dict[str, Any]] = field(default_factory=list)
    closed: bool = False
    _writer: JournalWriter | None = field(default=None, repr=False)
    _lock: SessionLock | None = field(default=None, repr=False)
    _seq: int = field(default=0, repr=False)
    _created_here: bool = field(default=False, repr=False)
    _notices_taken: int = field(default=0, repr=False)
    _state_error: str | None = field(default=None, repr=False)
    _mutex: threading.RLock = field(default_factory=threading.RLock, repr=False)

    @classmethod
    def in_memory(cls, config: GateConfig, config_path: Path | None = None, initial: GateState | None = None) -> Session:
        """A session that never touches the disk."""
        return cls(config=config, config_path=config_path, history=History.start(config, initial), header=_header(config, config_path))

    # --- what the editor shows -------------------------------------------------

    @property
    def persistent(self) -> bool:
        """Whether every accepted transition is being written to disk right now."""
        return self._writer is not None and not self.read_only

    @property
    def state(self) -> GateState:
        return self.history.state

    @property
    def decision(self) -> GateDecision:
        return self.history.decision

    @property
    def timeline(self) -> list[Transition]:
        return self.history.timeline

    @property
    def can_undo(self) -> bool:
        return self.history.can_undo

    @property
    def can_redo(self) -> bool:
        return self.history.can_redo

    @property
    def rejected(self) -> list[dict[str, Any]]:
        """The journal records of rejected payloads, oldest first."""
        return [record for record in self.records if record.get("kind") == "rejected"]

    def take_notices(self) -> list[str]:
        """The notices added since the last call (for toasts); ``notices`` keeps them all."""
        fresh = self.notices[self._notices_taken :]
        self._notices_taken = len(self.notices)
        return fresh

    # --- transitions -------------------------------------------------------------

    def accept(self, result: ParseResult, payload: Any, actor: Actor, *, origin: str | None = None) -> Transition:
        """Make an ``ok`` parse result the current state; journaled and saved before returning."""
        with self._mutex:
            transition = self.history.accept(result, payload, actor)
            self._record_transition(transition, origin)
            return transition

    def reject(self, result: ParseResult, payload: Any, actor: Actor, *, origin: str | None = None) -> None:
        """Journal a payload that was refused; the state does not change."""
        with self._mutex:
            self._journal(rec.rejected_record(self._next_seq(), result, payload, actor, origin))

    def undo(self) -> Transition | None:
        with self._mutex:
            return self._record_transition(self.history.undo())

    def redo(self) -> Transition | None:
        with self._mutex:
            return self._record_transition(self.history.redo())

    def jump_to(self, index: int) -> Transition | None:
        """Restore the state after timeline entry ``index`` (-1: the start) as a new transition."""
        with self._mutex:
            return self._record_transition(self.history.jump_to(index))

    # --- files -------------------------------------------------------------------

    def save(self, path: Path | None = None) -> str | None:
        """ctrl+s (``path`` None): rewrite the state file now. With a path: "Save state as…".

        "Save state as…" writes a copy in the state file format; the session keeps
        journaling where it was. ``gate-tui CONFIG --state COPY`` continues from it.
        """
        with self._mutex:
            if path is None:
                return self._save_here()
            error = write_state_file(Path(path), self._document())
            if error is None:
                self._event("export", what="state file", path=resolved(path))
            return error

    def open_state(self, path: Path) -> str | None:
        """"Open state…": load a state file and make it the current state, as a user edit.

        The file goes through ``parse(…, actor="user")``, so the system decides. A file
        for another config, or one that does not validate, changes nothing (the latter
        is journaled as rejected); the message says why.
        """
        file = Path(path)
        load = read_state_file(file)
        result, error = validate_loaded(load, self.config, file, self._config_label())
        if result is None:
            return error
        origin = f"opened state file {resolved(file)}"
        if not result.ok:
            self.reject(result, load.state, "user", origin=origin)
            first = result.errors[0]
            more = f" (and {len(result.errors) - 1} more)" if len(result.errors) > 1 else ""
            where = f"{first.field_path}: " if first.field_path else ""
            return f"{file} was not opened: {where}{first.message}{more}"
        self.accept(result, load.state, "user", origin=origin)
        return None

    def state_json(self) -> str:
        """The canonical state as JSON text (``pass`` as the key), for the clipboard."""
        return canonical_state_json(self.state)

    def export_state_json(self, path: Path) -> str | None:
        """Write just the canonical state JSON to ``path``."""
        with self._mutex:
            error = atomic_write_text(Path(path), self.state_json())
            if error is None:
                self._event("export", what="state JSON", path=resolved(path))
            return error

    def report_markdown(self) -> str:
        """The review report of this session (see :mod:`gate_tui.session.report`)."""
        return render_report(self.header, self.records, name=self.name, notices=self.notices)

    def export_report(self, path: Path) -> str | None:
        """Write the review report to ``path``."""
        with self._mutex:
            error = atomic_write_text(Path(path), self.report_markdown())
            if error is None:
                self._event("export", what="review report", path=resolved(path))
            return error

    def close(self) -> None:
        """Record a clean close and let go of the files. Safe to call more than once.

        A session this process created that saw nothing (no transition, no rejected
        payload) is removed again, so starting and quitting leaves no clutter.
        """
        with self._mutex:
            if self.closed:
                return
            self.closed = True
            if self._writer is not None and self._discardable():
                self._writer.close()
                self._writer = None
                self._remove_files()
            elif self._writer is not None:
                self._journal(rec.event_record(self._next_seq(), "close"))
                self._writer.close()
                self._writer = None
            if self._lock is not None:
                self._lock.release()
                self._lock = None

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- internals -----------------------------------------------------------------

    def _record_transition(self, transition: Transition | None, origin: str | None = None) -> Transition | None:
        if transition is not None:
            self._journal(rec.transition_record(self._next_seq(), transition, origin))
            self._write_state()
        return transition

    def _next_seq(self) -> int:
        self._seq += 1
        return self._seq

    def _journal(self, record: dict[str, Any]) -> None:
        self.records.append(record)
        if self._writer is None or self.read_only:
            return
        error = self._writer.append(record)
        if error is not None:
            self._drop_to_memory(error)

    def _event(self, kind: str, **fields: Any) -> None:
        self._journal(rec.event_record(self._next_seq(), kind, **fields))

    def _drop_to_memory(self, error: str) -> None:
        if self._writer is not None:
            self._writer.close()
            self._writer = None
        self._warn(f"{error}; working in memory from now on — {SAVE_AS_HINT}")

    def _warn(self, message: str) -> None:
        self.persistence_warning = message
        self.notices.append(message)

    def _write_state(self) -> None:
        if not self.persistent or self.state_file is None:
            return
        error = write_state_file(self.state_file, self._document())
        if error is not None and error != self._state_error:
            self.notices.append(f"{error} (the journal still has every transition)")
        self._state_error = error

    def _save_here(self) -> str | None:
        if self.read_only:
            return f"session {self.name} is read-only; {SAVE_AS_HINT}"
        if not self.persistent or self.state_file is None:
            return f"this session is not being saved to disk; {SAVE_AS_HINT}"
        self._write_state()
        return self._state_error

    def _document(self) -> dict[str, Any]:
        path = self.header.get("config_path")
        return state_document(self.state, self.decision, config_fingerprint(self.config), path, config_title(self.config, self.config_path))

    def _config_label(self) -> str:
        return str(self.config_path) if self.config_path is not None else "this config"

    def _discardable(self) -> bool:
        return self._created_here and self.directory is not None and all(r.get("kind") == "export" for r in self.records)

    def _remove_files(self) -> None:
        assert self.directory is not None
        _remove_folder(folder_paths(self.directory))


def _remove_folder(paths: SessionPaths) -> None:
    """Delete a session folder this process made and never used (only our own files)."""
    for file in (paths.journal, paths.state, paths.lock):
        with contextlib.suppress(OSError):
            file.unlink()
    if paths.directory is not None:
        with contextlib.suppress(OSError):
            paths.directory.rmdir()


# --- opening ---------------------------------------------------------------------------


def open_session(
    config: GateConfig,
    config_path: Path | None,
    *,
    state_file: Path | None = None,
    new: bool = False,
    resume: bool = True,
    root: Path | None = None,
    directory: Path | None = None,
    read_only: bool = False,
) -> Session:
    """Open the session to edit; never raises (problems become notices).

    * ``state_file``: the ``--state FILE`` session (resumed from its journal if it has one).
    * ``directory``: that session folder (e.g. ``find_resumable(...).directory``).
    * otherwise, unless ``new`` or not ``resume``: the newest resumable session of this
      config; else a new session folder under the state directory (``root`` overrides it).
    * ``read_only``: look without writing or locking (reports, tests).
    """
    try:
        if state_file is not None:
            return _open_state_file(config, config_path, Path(state_file), new=new, read_only=read_only)
        if directory is not None and not new:
            return _open_existing(config, config_path, folder_paths(Path(directory)), read_only=read_only, root=root)
        if not new and resume:
            found = find_resumable(config, config_path, root)
            if found is not None:
                return _open_existing(config, config_path, folder_paths(found.directory), read_only=read_only, root=root)
        return _create_folder(config, config_path, root)
    except (OSError, ValueError) as exc:
        return _memory(config, config_path, f"could not open a session ({type(exc).__name__}: {exc})")


def _memory(config: GateConfig, config_path: Path | None, warning: str, notices: list[str] | None = None) -> Session:
    session = Session.in_memory(config, config_path)
    session.notices.extend(notices or [])
    session._warn(f"{warning}; working in memory — nothing is saved to disk; {SAVE_AS_HINT}")
    return session


def _header(config: GateConfig, config_path: Path | None) -> dict[str, Any]:
    path = resolved(config_path) if config_path is not None else None
    return rec.header_record(path, config_fingerprint(config), config_title(config, config_path))


def _create_folder(config: GateConfig, config_path: Path | None, root: Path | None, notices: list[str] | None = None) -> Session:
    base = sessions_dir(root)
    try:
        directory = create_session_dir(base, session_stem(config_path, config.name))
    except OSError as exc:
        return _memory(config, config_path, f"cannot create a session in {base}: {describe_os_error(exc)}", notices)
    paths = folder_paths(directory)
    session = _start_fresh(config, config_path, paths, notices)
    session._created_here = session.persistent
    if not session.persistent:
        _remove_folder(paths)
    return session


def _start_fresh(
    config: GateConfig,
    config_path: Path | None,
    paths: SessionPaths,
    notices: list[str] | None = None,
    *,
    lock: SessionLock | None = None,
    take_lock: bool = True,
) -> Session:
    """A new journal (header only) and the empty state in the state file."""
    extra = list(notices or [])
    if lock is None and take_lock:
        lock, problem = _lock_for_new(paths)
        if problem:
            extra.append(problem)
    header = _header(config, config_path)
    writer, error = JournalWriter.create(paths.journal, header)
    if writer is None:
        if lock is not None:
            lock.release()
        return _memory(config, config_path, error or "cannot create the journal", extra)
    session = Session(
        config=config,
        config_path=config_path,
        history=History.start(config),
        name=paths.name,
        directory=paths.directory,
        notices=extra,
        state_file=paths.state,
        journal_path=paths.journal,
        header=header,
        _writer=writer,
        _lock=lock,
    )
    session._write_state()
    return session


def _lock_for_new(paths: SessionPaths) -> tuple[SessionLock | None, str | None]:
    attempt = acquire(paths.lock)
    if attempt.error is not None:
        return None, f"{attempt.error}; continuing without a lock"
    return attempt.lock, None


def _open_existing(
    config: GateConfig, config_path: Path | None, paths: SessionPaths, *, read_only: bool, root: Path | None
) -> Session:
    """Resume a session folder; if it cannot be used, start a new one and say why."""
    opened = _resume(config, config_path, paths, _lock_existing(paths, read_only))
    if isinstance(opened, Session):
        return opened
    if read_only:
        return _memory(config, config_path, opened)
    return _create_folder(config, config_path, root, [f"{opened}; started a new session instead"])


def _resume(config: GateConfig, config_path: Path | None, paths: SessionPaths, held: _Held, read: JournalRead | None = None) -> Session | str:
    """The session replayed from ``paths.journal``, or why it was refused.

    The lock is taken (``held``) before the journal is read, so no other writer can
    append between reading and appending.
    """
    lock, busy_notice, lock_problem, read_only = held.lock, held.busy, held.problem, held.read_only
    read = read if read is not None else read_journal(paths.journal)
    refusal = _refusal(read, config, paths)
    if refusal is not None:
        if lock is not None:
            lock.release()
        return refusal
    with gc_paused():
        replayed = replay(config, read.records)
    session = Session(
        config=config,
        config_path=config_path,
        history=replayed.history,
        name=paths.name,
        directory=paths.directory,
        read_only=read_only or busy_notice is not None,
        notices=read.notices + replayed.notices + [n for n in (busy_notice, lock_problem) if n],
        state_file=paths.state,
        journal_path=paths.journal,
        header=dict(read.header or {}),
        records=list(read.records),
        _lock=lock,
        _seq=rec.last_seq(read.records),
    )
    if busy_notice is not None:
        session.persistence_warning = busy_notice
    elif not read_only:
        _attach_writer(session, paths, read)
    return session


@dataclass(frozen=True)
class _Held:
    """The outcome of locking an existing session before reading it."""

    lock: SessionLock | None = None
    busy: str | None = None  # another instance has it: the notice to show
    problem: str | None = None  # locking is impossible here: the notice to show
    read_only: bool = False  # the caller asked not to write


def _lock_existing(paths: SessionPaths, read_only: bool) -> _Held:
    if read_only:
        return _Held(read_only=True)
    attempt = acquire(paths.lock)
    if attempt.busy:
        who = f"pid {attempt.held_by}" if attempt.held_by else "unknown pid"
        return _Held(busy=f"session {paths.name} is open in another gate-tui ({who}); opened read-only")
    if attempt.error is not None:
        return _Held(problem=f"{attempt.error}; continuing without a lock")
    return _Held(lock=attempt.lock)


def _refusal(read: JournalRead, config: GateConfig, paths: SessionPaths) -> str | None:
    if read.error is not None:
        return read.error
    header = read.header
    if header is None:
        return f"journal {paths.journal} has no readable header, so it cannot be checked against this config"
    if header.get("format") != rec.FORMAT:
        return f"journal {paths.journal} has format {header.get('format')!r}; this gate-tui reads format {rec.FORMAT}"
    found, expected = header.get("fingerprint"), config_fingerprint(config)
    if found != expected:
        return (
            f"session {paths.name} was written for a different config (fingerprint {found}, "
            f"this config has {expected}); it was not resumed and its files were left as they are"
        )
    return None


def _attach_writer(session: Session, paths: SessionPaths, read: JournalRead) -> None:
    writer, error = JournalWriter.reopen(paths.journal, read)
    if writer is None:
        session._warn(f"{error}; working in memory — {SAVE_AS_HINT}")
        return
    session._writer = writer
    session._journal(rec.event_record(session._next_seq(), "open", pid=os.getpid()))
    _keep_outside_edits(session, paths.state)
    session._write_state()


def _keep_outside_edits(session: Session, file: Path) -> None:
    """Before the state file is rewritten from the journal, keep a version edited by hand.

    A state file one step behind the journal (a crash between the two writes) is just
    stale. One that holds a state the journal never had was changed outside gate-tui:
    it is renamed to ``<name>.<stamp>.bak`` and a notice says how to apply it.
    """
    if not file.exists():
        return
    load = read_state_file(file)
    if load.state is not None and _journal_had(session, load.state):
        return
    for notice in _set_aside(file):
        session.notices.append(
            f"{file.name} did not match this session's journal (changed outside gate-tui?); "
            f"the journal's state is shown — {notice}; use “Open state…” to apply it"
        )


def _journal_had(session: Session, state: dict[str, Any]) -> bool:
    """Whether ``state`` is the session's current, initial or any recorded state."""
    if state == session.state.model_dump(mode="json") or state == session.history.initial.model_dump(mode="json"):
        return True
    return any(record.get("state") == state for record in reversed(session.records))


# --- --state FILE ------------------------------------------------------------------------


def _open_state_file(config: GateConfig, config_path: Path | None, file: Path, *, new: bool, read_only: bool) -> Session:
    paths = state_file_paths(file)
    if file.is_dir():
        return _memory(config, config_path, f"{file} is a folder, not a state file")
    if not file.parent.is_dir():
        return _memory(config, config_path, f"cannot use {file}: the folder {file.parent} does not exist")
    held = _lock_existing(paths, read_only)
    if held.read_only or held.busy is not None:
        return _state_file_read_only(config, config_path, paths, held)
    notices = [held.problem] if held.problem else []
    if new:
        notices += _set_aside(paths.journal, paths.state)
    read = read_journal(paths.journal)
    if read.error is not None or read.header is not None or read.records:
        opened = _resume(config, config_path, paths, held, read)
        if isinstance(opened, Session):
            opened.notices[:0] = notices
            return opened
        return _memory(config, config_path, opened, notices)
    if read.exists:  # an empty journal, or one whose header was cut off: keep its bytes aside
        notices += _set_aside(paths.journal)
    return _start_from_file(config, config_path, paths, held.lock, notices)


def _start_from_file(config: GateConfig, config_path: Path | None, paths: SessionPaths, lock: SessionLock | None, notices: list[str]) -> Session:
    """A new journal beside FILE, starting from FILE's state when there is one."""
    result, payload, error = _load_start(config, config_path, paths.state)
    if error is not None:
        if lock is not None:
            lock.release()
        return _memory(config, config_path, f"{error}; the file was left as it is", notices)
    session = _start_fresh(config, config_path, paths, notices, lock=lock, take_lock=False)
    if result is not None:
        session.accept(result, payload, "user", origin=f"state file {resolved(paths.state)}")
    return session


def _load_start(config: GateConfig, config_path: Path | None, file: Path) -> tuple[ParseResult | None, Any, str | None]:
    """FILE's state validated as a user edit over the empty state: (result, payload, error)."""
    if not file.exists():
        return None, None, None
    load = read_state_file(file)
    label = str(config_path) if config_path is not None else "this config"
    result, error = validate_loaded(load, config, file, label)
    if result is not None and not result.ok:
        details = "; ".join(f"{e.field_path}: {e.message}" if e.field_path else e.message for e in result.errors[:3])
        return None, None, f"{file} is not a valid state for this config ({details})"
    return result, load.state, error


def _state_file_read_only(config: GateConfig, config_path: Path | None, paths: SessionPaths, held: _Held) -> Session:
    """Look at a ``--state`` session without writing: its journal, else FILE's state."""
    if paths.journal.exists():
        opened = _resume(config, config_path, paths, held)
        if isinstance(opened, Session):
            return opened
        return _memory(config, config_path, opened)
    result, payload, error = _load_start(config, config_path, paths.state)
    session = Session.in_memory(config, config_path)
    session.name = paths.name
    session.read_only = True
    if error is not None:
        session._warn(error)
    elif result is not None:
        session.accept(result, payload, "user", origin=f"state file {resolved(paths.state)}")
    if held.busy is not None:
        session._warn(held.busy)
    return session


def _set_aside(*files: Path) -> list[str]:
    """Rename existing ``files`` to ``<name>.<stamp>.bak`` so a fresh start loses nothing."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    notices = []
    for file in files:
        if not file.exists():
            continue
        backup = file.with_name(f"{file.name}.{stamp}.bak")
        try:
            os.replace(file, backup)
        except OSError as exc:
            notices.append(f"cannot move {file} aside: {describe_os_error(exc)}")
            continue
        notices.append(f"the previous {file.name} was kept as {backup.name}")
    return notices
