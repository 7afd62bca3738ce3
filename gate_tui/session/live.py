"""The live :class:`Session`: a History whose every transition is journaled and saved.

:func:`gate_tui.session.opening.open_session` builds one (resumed, fresh, read-only or in
memory); this module holds what it does afterwards. Each accepted transition is first
appended to the journal and fsync'd, then the state file is replaced atomically, and
only then does :meth:`Session.accept` return. A failing write never raises: the session
drops to memory, ``persistence_warning`` says why, and the editor keeps working.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gate_tui.atomic import atomic_write_text
from gate_tui.config.loading import config_fingerprint, config_title
from gate_tui.models import Actor, GateConfig, GateDecision, GateState, ParseResult
from gate_tui.session import records as rec
from gate_tui.session.history import History, Transition
from gate_tui.session.journal import JournalWriter
from gate_tui.session.lock import SessionLock
from gate_tui.session.paths import folder_paths, remove_session_files, resolved
from gate_tui.session.report import format_for_path, journal_report, render_report
from gate_tui.session.store import (
    read_state_file,
    state_document,
    validate_loaded,
    write_state_file,
)
from gate_tui.session.store import state_json as canonical_state_json

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
    def in_memory(
        cls, config: GateConfig, config_path: Path | None = None, initial: GateState | None = None
    ) -> Session:
        """A session that never touches the disk."""
        return cls(
            config=config,
            config_path=config_path,
            history=History.start(config, initial),
            header=session_header(config, config_path),
        )

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

    def accept(
        self,
        result: ParseResult,
        payload: Any,
        actor: Actor,
        *,
        origin: str | None = None,
        call: int | None = None,
    ) -> Transition:
        """Make an ``ok`` parse result the current state; journaled and saved before returning.
        ``call``: the seq of the model call whose reply this is."""
        with self._mutex:
            transition = self.history.accept(result, payload, actor)
            self._record_transition(transition, origin, call, result.grounding)
            return transition

    def reject(
        self,
        result: ParseResult,
        payload: Any,
        actor: Actor,
        *,
        origin: str | None = None,
        call: int | None = None,
    ) -> None:
        """Journal a payload that was refused; the state does not change."""
        with self._mutex:
            in_call = self._in_call(payload, call)
            kept = None if in_call else payload
            record = rec.rejected_record(self._next_seq(), result, kept, actor, origin, call)
            self._journal(rec.payload_in_call(record) if in_call else record)

    def record_model_call(self, **fields: Any) -> int:
        """Journal one request to a model (see :func:`records.model_call_record`); its seq."""
        with self._mutex:
            seq = self._next_seq()
            self._journal(rec.model_call_record(seq, **fields))
            return seq

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
        is journaled as rejected); the message says why. A file holding the current state
        records nothing.
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
        if result.canonical_state == self.state:
            return None  # the same state: nothing to record (the timeline does not grow)
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

    def report_markdown(self, fmt: str = "markdown") -> str:
        """The review report of this session (see :mod:`gate_tui.session.report`), in ``fmt``.

        A session with a journal on disk reports from the journal, streamed: it has every
        record (``records`` keeps only this session's rejected attempts and what happened
        since it was opened). A session in memory reports from ``records``."""
        if self.journal_path is not None and (self.persistent or self.read_only):
            text = journal_report(self.journal_path, self.name, fmt, self.config, self.notices)
            if text is not None:
                return text
        return render_report(
            self.header,
            self.records,
            name=self.name,
            notices=self.notices,
            fmt=fmt,
            config=self.config,
        )

    def export_report(self, path: Path) -> str | None:
        """Write the review report to ``path``, in the format its extension names (Markdown by
        default)."""
        with self._mutex:
            error = atomic_write_text(Path(path), self.report_markdown(format_for_path(path)))
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

    def _record_transition(
        self,
        transition: Transition | None,
        origin: str | None = None,
        call: int | None = None,
        grounding: Any = None,
    ) -> Transition | None:
        if transition is not None:
            record = rec.transition_record(self._next_seq(), transition, origin, call, grounding)
            if self._in_call(transition.payload, call):
                record = rec.payload_in_call(record)
            self._journal(record)
            self._write_state()
        return transition

    def _in_call(self, payload: Any, call: int | None) -> bool:
        """Whether ``payload`` is exactly the reply journaled by model call ``call``: then the
        record points at it instead of holding the (possibly 4 MiB) text a second time."""
        if call is None or not isinstance(payload, str) or not payload:
            return False
        for record in reversed(self.records[-64:]):  # the call was journaled just before
            if record.get("seq") == call and record.get("kind") == "model_call":
                return record.get("reply") == payload
        return False

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
        error = write_state_file(self.state_file, self._document(), confined=True)
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
        return state_document(
            self.state,
            self.decision,
            config_fingerprint(self.config),
            path,
            config_title(self.config, self.config_path),
        )

    def _config_label(self) -> str:
        return str(self.config_path) if self.config_path is not None else "this config"

    def _discardable(self) -> bool:
        return (
            self._created_here
            and self.directory is not None
            and all(r.get("kind") == "export" for r in self.records)
        )

    def _remove_files(self) -> None:
        assert self.directory is not None
        remove_session_files(folder_paths(self.directory))


def session_header(config: GateConfig, config_path: Path | None) -> dict[str, Any]:
    """The journal header of a new session of ``config``."""
    path = resolved(config_path) if config_path is not None else None
    return rec.header_record(path, config_fingerprint(config), config_title(config, config_path))
