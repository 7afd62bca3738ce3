"""Where sessions live on disk, and the names of the files that make up one session.

Sessions go under the platform's user state directory (``platformdirs``), or under
``$GATE_TUI_STATE_DIR`` when that is set (tests, users who want them elsewhere), in
``<state dir>/sessions/<config-stem>-<YYYYmmdd-HHMMSS>[-N]/``. A session started with
``--state FILE`` keeps its files beside FILE instead. Nothing here writes a file except
:func:`create_session_dir`, which makes the folder of a new session, and
:func:`remove_session_files`, which removes one again that was never used.
"""

from __future__ import annotations

import contextlib
import os
import re
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import platformdirs

APP_NAME = "gate-tui"
ENV_STATE_DIR = "GATE_TUI_STATE_DIR"
SESSIONS = "sessions"
JOURNAL_NAME = "journal.jsonl"
STATE_NAME = "state.json"
LOCK_NAME = "lock"
JOURNAL_SUFFIX = ".journal.jsonl"
LOCK_SUFFIX = ".lock"
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
_MAX_SUFFIX = 1000


@dataclass(frozen=True)
class SessionPaths:
    """The three files of one session; ``directory`` is None for a ``--state`` session."""

    name: str
    journal: Path
    state: Path
    lock: Path
    directory: Path | None = None


def state_dir(root: Path | None = None) -> Path:
    """The base directory: ``root``, else ``$GATE_TUI_STATE_DIR``, else the platform's."""
    if root is not None:
        return Path(root)
    override = os.environ.get(ENV_STATE_DIR, "").strip()
    if override:
        return Path(override).expanduser()
    return Path(platformdirs.user_state_dir(APP_NAME, appauthor=False))


def sessions_dir(root: Path | None = None) -> Path:
    """The folder that holds one sub-folder per session."""
    return state_dir(root) / SESSIONS


def folder_paths(directory: Path) -> SessionPaths:
    """The files of the session stored in ``directory``."""
    return SessionPaths(
        name=directory.name,
        journal=directory / JOURNAL_NAME,
        state=directory / STATE_NAME,
        lock=directory / LOCK_NAME,
        directory=directory,
    )


def state_file_paths(state_file: Path) -> SessionPaths:
    """The files of a ``--state FILE`` session: FILE, ``FILE.journal.jsonl``, ``FILE.lock``.

    The suffixes are appended to the whole name (``review.json.journal.jsonl``) so two
    state files that differ only in their extension never share a journal.
    """
    file = Path(state_file)
    return SessionPaths(
        name=str(file),
        journal=file.with_name(file.name + JOURNAL_SUFFIX),
        state=file,
        lock=file.with_name(file.name + LOCK_SUFFIX),
    )


def session_stem(config_path: Path | None, title: str | None = None) -> str:
    """A file-name-safe stem for a session folder: the config's stem, else its title."""
    raw = Path(config_path).stem if config_path is not None else (title or "session")
    stem = _UNSAFE.sub("-", raw).strip("-.")
    return stem[:60] or "session"


def create_session_dir(base: Path, stem: str, when: datetime | None = None) -> Path:
    """Make ``base/<stem>-<YYYYmmdd-HHMMSS>[-N]`` exclusively and return it.

    ``os.mkdir`` fails if the folder exists, so two instances started in the same
    second get different folders. Raises OSError when ``base`` is not writable.
    """
    base.mkdir(parents=True, exist_ok=True)
    stamp = (when or datetime.now()).strftime("%Y%m%d-%H%M%S")
    for number in range(1, _MAX_SUFFIX):
        name = f"{stem}-{stamp}" if number == 1 else f"{stem}-{stamp}-{number}"
        candidate = base / name
        try:
            os.mkdir(candidate)
        except FileExistsError:
            continue
        return candidate
    raise FileExistsError(f"too many sessions named {stem}-{stamp} in {base}")


def same_config_path(first: str | Path | None, second: str | Path | None) -> bool:
    """Whether two config paths name the same file (both resolved; None matches None)."""
    if first is None or second is None:
        return first is None and second is None
    return resolved(first) == resolved(second)


def resolved(path: str | Path) -> str:
    """An absolute, normalised spelling of ``path`` for storing and comparing."""
    try:
        return str(Path(path).expanduser().resolve())
    except (OSError, RuntimeError):
        return str(Path(path).absolute())


def remove_session_files(paths: SessionPaths) -> None:
    """Delete a session's own files and, for a folder session, the folder if now empty."""
    for file in (paths.journal, paths.state, paths.lock):
        with contextlib.suppress(OSError):
            file.unlink()
    if paths.directory is not None:
        with contextlib.suppress(OSError):
            paths.directory.rmdir()
