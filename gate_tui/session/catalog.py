"""The sessions on disk: summaries for ``gate-tui sessions`` and the one to resume.

A session folder is summarised from its journal alone (header, transitions, last
decision, whether its last writer closed it) plus a probe of its lock. *Unfinished*
means it has at least one transition and either its decision is NO PASS or it was not
closed cleanly; :func:`find_resumable` offers only unfinished sessions of the same
config file whose fingerprint still matches and that no other gate-tui holds.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from gate_tui.config.loading import config_fingerprint
from gate_tui.decision import describe_decision
from gate_tui.models import GateConfig, GateDecision
from gate_tui.session.journal import read_header
from gate_tui.session.journal_stream import JournalStream
from gate_tui.session.lock import is_locked
from gate_tui.session.paths import folder_paths, same_config_path, sessions_dir
from gate_tui.session.records import STATE_KINDS
from gate_tui.session.undo import START, UndoJournal

NO_DECISION = "—"


@dataclass(frozen=True)
class SessionInfo:
    """A session on disk, as ``gate-tui sessions`` lists it."""

    name: str
    directory: Path
    config_path: str
    started: str
    transitions: int
    decision: str
    fingerprint: str = ""
    config_title: str = ""
    last_at: str = ""
    passed: bool | None = None
    closed: bool = False
    locked: bool = False
    foreign: bool = False
    damaged: str | None = None
    rejected: int = 0

    @property
    def finished(self) -> bool:
        return self.transitions > 0 and bool(self.passed) and self.closed

    @property
    def unfinished(self) -> bool:
        return self.transitions > 0 and not self.finished and self.damaged is None

    @property
    def status(self) -> str:
        """One word for the table: damaged, foreign, locked, empty, finished or open."""
        if self.damaged is not None:
            return "damaged"
        if self.foreign:
            return "foreign"
        if self.locked:
            return "locked"
        if self.transitions == 0:
            return "empty"
        return "finished" if self.finished else "open"


def summarize(directory: Path, fingerprint: str | None = None) -> SessionInfo | None:
    """The summary of the session in ``directory`` (None when it has no journal).

    Streams the journal (nothing is kept per record but a contract change's one flag), so
    listing sessions stays cheap in memory however long their journals are.
    """
    paths = folder_paths(directory)
    stream = JournalStream(paths.journal)
    transitions = rejected = 0
    last_move: dict[str, Any] | None = None
    last: dict[str, Any] | None = None
    closed = False
    contract = ContractHistory()
    for record in stream.records():
        kind = record.get("kind")
        last = record
        contract.take(record)
        if kind in (
            *STATE_KINDS,
            "change",
        ):  # "change": a contract session's (gates write edit / reply)
            transitions += 1
            last_move = record
        elif kind == "rejected":
            rejected += 1
        if kind in (*STATE_KINDS, "change", "open", "close"):
            closed = kind == "close"
    if not stream.exists:
        return None
    header = stream.header or {}
    damaged = stream.error or (None if stream.header else "journal has no readable header")
    found = str(header.get("fingerprint") or "")
    passed, decision = (
        contract.decision() if header.get("mode") == "contract" else _decision(last_move)
    )
    return SessionInfo(
        name=directory.name,
        directory=directory,
        config_path=str(header.get("config_path") or ""),
        started=str(header.get("started") or ""),
        transitions=transitions,
        decision=decision,
        fingerprint=found,
        config_title=str(header.get("config_title") or ""),
        last_at=str((last or header).get("at") or ""),
        passed=passed,
        closed=closed,
        locked=is_locked(paths.lock),
        foreign=fingerprint is not None and found != fingerprint,
        damaged=damaged,
        rejected=rejected,
    )


def list_sessions(
    root: Path | None = None, config_path: Path | None = None, config: GateConfig | None = None
) -> list[SessionInfo]:
    """Every session under the state directory, newest first.

    ``config_path`` keeps only the sessions of that config file; ``config`` marks the
    sessions whose fingerprint differs from it as ``foreign``.
    """
    base = sessions_dir(root)
    try:
        folders = [entry for entry in base.iterdir() if entry.is_dir()]
    except OSError:
        return []
    if config_path is not None:
        folders = [folder for folder in folders if _header_matches(folder, config_path)]
    fingerprint = config_fingerprint(config) if config is not None else None
    infos = [
        info for info in (summarize(folder, fingerprint) for folder in folders) if info is not None
    ]
    if config_path is not None:
        infos = [info for info in infos if same_config_path(info.config_path or None, config_path)]
    return sorted(infos, key=lambda info: (info.started, info.name), reverse=True)


def _header_matches(folder: Path, config_path: Path) -> bool:
    """Whether a session folder belongs to ``config_path``, from its journal's first line only."""
    header = read_header(folder_paths(folder).journal)
    return header is not None and same_config_path(header.get("config_path") or None, config_path)


def find_resumable(
    config: GateConfig, config_path: Path | None, root: Path | None = None
) -> SessionInfo | None:
    """The newest unfinished session of this config file that can be resumed, if any."""
    for info in (
        list_sessions(root, config_path, config)
        if config_path is not None
        else _without_path(root, config)
    ):
        if info.unfinished and not info.foreign and not info.locked:
            return info
    return None


def find_session(name: str, root: Path | None = None) -> Path | None:
    """The folder of the session called ``name`` (as ``gate-tui sessions`` prints it)."""
    if not name or "/" in name or name in (".", ".."):
        return None
    folder = sessions_dir(root) / name
    return folder if folder_paths(folder).journal.is_file() else None


def _without_path(root: Path | None, config: GateConfig) -> list[SessionInfo]:
    """Sessions started without a config file (the bundled default) match by fingerprint."""
    return [info for info in list_sessions(root, None, config) if not info.config_path]


class ContractHistory:
    """A contract session's VALID / INVALID, followed through its changes, undos and redos.

    Contract journals carry each change's ``ok`` and move by step index on undo / redo, so
    the current step's verdict is known only by following the history (one flag per change)
    in the editors' one undo journal, as the contract editor's replay follows it.
    """

    def __init__(self) -> None:
        self.oks: UndoJournal[bool | None] = UndoJournal()

    def take(self, record: dict[str, Any]) -> None:
        kind, index = record.get("kind"), record.get("index")
        if kind == "change" and isinstance(record.get("value"), dict):
            ok = record.get("ok")
            self.oks.push(ok if isinstance(ok, bool) else None)
        elif kind in ("undo", "redo") and type(index) is int:
            self.oks.seek(index)  # an index off the stack moves nothing

    def decision(self) -> tuple[bool | None, str]:
        current = self.oks.current
        ok = None if current == START else self.oks.entries[current]
        return ok, NO_DECISION if ok is None else ("VALID" if ok else "INVALID")


def _decision(record: dict[str, Any] | None) -> tuple[bool | None, str]:
    if record is None:
        return None, NO_DECISION
    try:
        decision = GateDecision.model_validate(record.get("decision"))
    except ValidationError:
        return None, NO_DECISION
    return decision.pass_, describe_decision(decision)
