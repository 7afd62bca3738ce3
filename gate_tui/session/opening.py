"""Opening a session: resume, start fresh, look read-only, or fall back to memory.

:func:`open_session` never raises. It locks a session before reading its journal (so no
other writer can append in between), refuses journals and state files written for
another config, repairs a torn journal tail, keeps aside anything it would otherwise
overwrite (``--new``, a state file edited by hand), and when the disk cannot be used
returns an in-memory session whose ``persistence_warning`` says so.
"""

from __future__ import annotations

import os
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gate_tui.atomic import describe_os_error
from gate_tui.models import GateConfig, ParseResult
from gate_tui.session import records as rec
from gate_tui.session.catalog import find_resumable
from gate_tui.session.history import History
from gate_tui.session.journal import JournalRead, JournalWriter, read_header, read_journal
from gate_tui.session.live import SAVE_AS_HINT, Session, session_header
from gate_tui.session.lock import SessionLock, acquire
from gate_tui.session.paths import (
    SessionPaths,
    create_session_dir,
    folder_paths,
    remove_session_files,
    resolved,
    session_stem,
    sessions_dir,
    state_file_paths,
)
from gate_tui.session.replay import Replayer
from gate_tui.session.resume_checks import keep_outside_edits, refused, set_aside, stop_at_gap
from gate_tui.session.store import read_state_file, validate_loaded


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
            return _open_state_file(
                config, config_path, Path(state_file), new=new, read_only=read_only
            )
        if directory is not None and not new:
            return _open_existing(
                config, config_path, folder_paths(Path(directory)), read_only=read_only, root=root
            )
        if not new and resume:
            found = find_resumable(config, config_path, root)
            if found is not None:
                return _open_existing(
                    config,
                    config_path,
                    folder_paths(found.directory),
                    read_only=read_only,
                    root=root,
                )
        return _create_folder(config, config_path, root)
    except OSError as exc:
        where = f" ({exc.filename})" if exc.filename else ""
        return _memory(
            config, config_path, f"could not open a session{where}: {describe_os_error(exc)}"
        )
    except ValueError as exc:
        return _memory(config, config_path, f"could not open a session: {exc}")


def _memory(
    config: GateConfig, config_path: Path | None, warning: str, notices: list[str] | None = None
) -> Session:
    session = Session.in_memory(config, config_path)
    session.notices.extend(notices or [])
    session._warn(f"{warning}; working in memory — nothing is saved to disk; {SAVE_AS_HINT}")
    return session



def _create_folder(
    config: GateConfig,
    config_path: Path | None,
    root: Path | None,
    notices: list[str] | None = None,
) -> Session:
    base = sessions_dir(root)
    try:
        directory = create_session_dir(base, session_stem(config_path, config.name))
    except OSError as exc:
        return _memory(
            config,
            config_path,
            f"cannot create a session in {base}: {describe_os_error(exc)}",
            notices,
        )
    paths = folder_paths(directory)
    session = _start_fresh(config, config_path, paths, notices)
    session._created_here = session.persistent
    if not session.persistent:
        remove_session_files(paths)
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
    header = session_header(config, config_path)
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
    config: GateConfig,
    config_path: Path | None,
    paths: SessionPaths,
    *,
    read_only: bool,
    root: Path | None,
) -> Session:
    """Resume a session folder; if it cannot be used, start a new one and say why."""
    opened = _resume(config, config_path, paths, _lock_existing(paths, read_only))
    if isinstance(opened, Session):
        return opened
    if read_only:
        return _memory(config, config_path, opened)
    return _create_folder(config, config_path, root, [f"{opened}; started a new session instead"])


def _resume(
    config: GateConfig, config_path: Path | None, paths: SessionPaths, held: _Held
) -> Session | str:
    """The session replayed from ``paths.journal``, or why it was refused.

    The lock is taken (``held``) before the journal is read, so no other writer can
    append between reading and appending. The journal is read one line at a time into
    the replay: memory holds the history the editor shows, never the journal's lines.
    """
    lock, busy_notice, lock_problem, read_only = held.lock, held.busy, held.problem, held.read_only
    header = read_header(paths.journal)
    refusal = (
        refused(JournalRead(exists=True, header=header), config, paths)
        if header is not None
        else None
    )
    if refusal is None:
        try:
            replayer = Replayer(config)
            read = read_journal(paths.journal, sink=replayer.add)
            refusal = refused(read, config, paths)
        except MemoryError:
            replayer = None  # let go of the partial history before saying anything
            refusal = (
                f"journal {paths.journal} is too large to open in the memory available "
                f"({_size_text(paths.journal)}); it was left as it is (`gate-tui report "
                f"{shlex.quote(str(paths.directory or paths.state))}` reads it in little memory)"
            )
    if refusal is not None:
        if lock is not None:
            lock.release()
        return refusal
    assert replayer is not None
    if read.gap is not None:
        read, gap_problem = stop_at_gap(read, paths, writing=not read_only and busy_notice is None)
        if gap_problem is not None:
            read_only, lock_problem = True, gap_problem
    replayed = replayer.finish()
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
        # The rest stays in the journal (reports stream it); the model calls are the conversation.
        records=sorted(replayed.rejected + replayed.model_calls, key=_seq_of),
        _lock=lock,
        _seq=read.last_seq,
    )
    if busy_notice is not None:
        session.persistence_warning = busy_notice
    elif not read_only:
        _attach_writer(session, paths, read)
    return session


def _size_text(path: Path) -> str:
    try:
        return f"{path.stat().st_size / 1e6:,.0f} MB"
    except OSError:
        return "size unknown"


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
        return _Held(
            busy=f"session {paths.name} is open in another gate-tui ({who}); opened read-only"
        )
    if attempt.error is not None:
        return _Held(problem=f"{attempt.error}; continuing without a lock")
    return _Held(lock=attempt.lock)


def _attach_writer(session: Session, paths: SessionPaths, read: JournalRead) -> None:
    writer, error = JournalWriter.reopen(paths.journal, read)
    if writer is None:
        session._warn(f"{error}; working in memory — {SAVE_AS_HINT}")
        return
    session._writer = writer
    session._journal(rec.event_record(session._next_seq(), "open", pid=os.getpid()))
    keep_outside_edits(session, paths.state)
    session._write_state()


# --- --state FILE ------------------------------------------------------------------------


def _open_state_file(
    config: GateConfig, config_path: Path | None, file: Path, *, new: bool, read_only: bool
) -> Session:
    paths = state_file_paths(file)
    if file.is_dir():
        return _memory(config, config_path, f"{file} is a folder, not a state file")
    if not file.parent.is_dir():
        return _memory(
            config, config_path, f"cannot use {file}: the folder {file.parent} does not exist"
        )
    held = _lock_existing(paths, read_only)
    if held.read_only or held.busy is not None:
        return _state_file_read_only(config, config_path, paths, held)
    notices = [held.problem] if held.problem else []
    if new:
        notices += set_aside(paths.journal, paths.state)
    if _has_journal(paths.journal):
        opened = _resume(config, config_path, paths, held)
        if isinstance(opened, Session):
            opened.notices[:0] = notices
            return opened
        return _memory(config, config_path, opened, notices)
    if (
        paths.journal.exists()
    ):  # an empty journal, or one whose header was cut off: keep its bytes aside
        notices += set_aside(paths.journal)
    return _start_from_file(config, config_path, paths, held.lock, notices)


def _has_journal(journal: Path) -> bool:
    """Whether ``journal`` holds something to resume (or to refuse with a reason): a
    header, a record, or a read error. Only a journal without a readable header is read
    through (counting, keeping nothing) to find out."""
    if read_header(journal) is not None:
        return True
    read = read_journal(journal, sink=lambda record: None)
    return read.error is not None or read.header is not None or read.count > 0


def _start_from_file(
    config: GateConfig,
    config_path: Path | None,
    paths: SessionPaths,
    lock: SessionLock | None,
    notices: list[str],
) -> Session:
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


def _load_start(
    config: GateConfig, config_path: Path | None, file: Path
) -> tuple[ParseResult | None, Any, str | None]:
    """FILE's state validated as a user edit over the empty state: (result, payload, error)."""
    if not file.exists():
        return None, None, None
    load = read_state_file(file)
    label = str(config_path) if config_path is not None else "this config"
    result, error = validate_loaded(load, config, file, label)
    if result is not None and not result.ok:
        details = "; ".join(
            f"{e.field_path}: {e.message}" if e.field_path else e.message for e in result.errors[:3]
        )
        return None, None, f"{file} is not a valid state for this config ({details})"
    return result, load.state, error


def _state_file_read_only(
    config: GateConfig, config_path: Path | None, paths: SessionPaths, held: _Held
) -> Session:
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


def _seq_of(record: dict[str, Any]) -> int:
    seq = record.get("seq")
    return seq if isinstance(seq, int) else 0
