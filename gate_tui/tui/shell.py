"""The one app shell: what the three apps (the gate editor, contract mode, review) share.

Thin apps: each screen owns its keys, actions and panes. The shell holds the no-blink
switch (``GATE_TUI_NO_BLINK=1`` or ``blink=False``: stable frames for tests and
screenshots), the one folder the file commands may use when served, and Ctrl+C (which
says how to quit instead of quitting: the editors' Ctrl+Q asks first when work would
be lost).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import ClassVar, TypeVar

from textual.app import App
from textual.binding import Binding, BindingType

ReturnType = TypeVar("ReturnType")

SHELL_BINDINGS: list[BindingType] = [Binding("ctrl+c", "help_quit", show=False, system=True)]
"""An editor's own app bindings (the rest are its screen's)."""


def blink_wanted(blink: bool | None) -> bool:
    """Whether cursors blink: ``blink`` when given, else unless ``GATE_TUI_NO_BLINK=1``."""
    return os.environ.get("GATE_TUI_NO_BLINK") != "1" if blink is None else blink


class AppShell(App[ReturnType]):
    """The base of every gate-tui app."""

    BINDINGS: ClassVar[list[BindingType]] = SHELL_BINDINGS

    def __init__(self, *, blink: bool | None = None, files: Path | None = None) -> None:
        super().__init__()
        self.blink = blink_wanted(blink)
        self.files_folder = files  # the one folder the file commands may use (serve), or None
