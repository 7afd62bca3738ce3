"""What the history pane tells its screen, in a module of its own: the screen handles
them with ``@on`` before the pane's module (and ``DataTable``) is loaded, which happens
after the first frame."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from textual.message import Message


@dataclass
class HistoryReady(Message):
    """The pane is mounted with its columns (it mounts lazily, after the first frame)."""

    pane: Any
    """The :class:`~gate_tui.tui.widgets.history_pane.HistoryPane` (its module loads later)."""


@dataclass
class TimelineRowChosen(Message):
    """Enter on a timeline row: restore the state after transition ``index``."""

    index: int
