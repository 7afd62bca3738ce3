"""The Session object the editor talks to (INTERFACE; persistence is being filled in).

Contract used by the editor (keep it stable):

* ``open_session(config, config_path, *, state_file=None, new=False, resume=True, root=None) -> Session``
  never raises; problems (unwritable directory, torn journal line, foreign fingerprint,
  locked by another instance) end up in ``session.notices`` and, when the session cannot
  be written, ``session.read_only`` / ``session.persistent`` say so.
* ``find_resumable(config, config_path, root=None) -> SessionInfo | None``: the
  unfinished session the editor should offer to resume.
* ``Session.in_memory(config, config_path)``: no files at all (tests, demos).
* ``session.state`` / ``session.decision`` / ``session.timeline`` / ``can_undo`` / ``can_redo``.
* ``session.accept(result, payload, actor) -> Transition``: journal (fsync) first,
  then the atomic state file; only then may the editor show the new state.
* ``session.reject(result, payload, actor)``: journal a rejected payload (no state change).
* ``session.undo()`` / ``redo()`` / ``jump_to(index)`` -> ``Transition | None``.
* ``session.save(path=None) -> str | None`` (error message or None), ``export_state_json(path)``,
  ``report_markdown() -> str``, ``close()``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gate_tui.history import History, Transition
from gate_tui.models import Actor, GateConfig, GateDecision, GateState, ParseResult


@dataclass(frozen=True)
class SessionInfo:
    """A session on disk, as ``gate-tui sessions`` lists it."""

    name: str
    directory: Path
    config_path: str
    started: str
    transitions: int
    decision: str


@dataclass
class Session:
    """One editing session: a :class:`History` plus where (and whether) it is persisted."""

    config: GateConfig
    config_path: Path | None
    history: History
    name: str = "in-memory"
    directory: Path | None = None
    read_only: bool = False
    notices: list[str] = field(default_factory=list)

    @classmethod
    def in_memory(cls, config: GateConfig, config_path: Path | None = None, initial: GateState | None = None) -> Session:
        return cls(config=config, config_path=config_path, history=History.start(config, initial))

    @property
    def persistent(self) -> bool:
        return self.directory is not None and not self.read_only

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

    def accept(self, result: ParseResult, payload: Any, actor: Actor) -> Transition:
        return self.history.accept(result, payload, actor)

    def reject(self, result: ParseResult, payload: Any, actor: Actor) -> None:
        return None

    def undo(self) -> Transition | None:
        return self.history.undo()

    def redo(self) -> Transition | None:
        return self.history.redo()

    def jump_to(self, index: int) -> Transition | None:
        return self.history.jump_to(index)

    def save(self, path: Path | None = None) -> str | None:
        return None if path is None else "saving is not implemented yet"

    def export_state_json(self, path: Path) -> str | None:
        return "export is not implemented yet"

    def report_markdown(self) -> str:
        return "# Review report\n"

    def close(self) -> None:
        return None


def open_session(
    config: GateConfig,
    config_path: Path | None,
    *,
    state_file: Path | None = None,
    new: bool = False,
    resume: bool = True,
    root: Path | None = None,
) -> Session:
    return Session.in_memory(config, config_path)


def find_resumable(config: GateConfig, config_path: Path | None, root: Path | None = None) -> SessionInfo | None:
    return None


def list_sessions(root: Path | None = None, config_path: Path | None = None) -> list[SessionInfo]:
    return []
