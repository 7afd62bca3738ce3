"""Contract mode's file commands, as the gate editor's: Export value JSON… / Save value as…,
Export report…, Open value…, all through the shared path prompt
(:func:`gate_tui.tui.file_commands.ask_path`: ``~`` expanded, asks before replacing a
file, keeps the prompt open with the error when writing or reading fails).

The contract screen holds it (``screen.files``) and is known to it only through
:class:`ContractFilesHost`; the writing and reading themselves are the editor session's
(:mod:`gate_tui.editing`, no Textual there).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from gate_tui.tui.file_commands import ask_before_quitting, ask_path

if TYPE_CHECKING:
    from textual.app import App

    from gate_tui.editing.contract_editor import ContractEditor


class ContractFilesHost(Protocol):
    """What the file commands need of the contract screen (named here: no screen import)."""

    editor: ContractEditor

    @property
    def app(self) -> App[Any]: ...

    def notify(
        self, message: str, *, title: str = "", severity: Any = "information", markup: bool = True
    ) -> None: ...

    def close_editor(self) -> None: ...

    def refresh_value(self) -> None: ...


class ContractFiles:
    """The file commands of the contract screen."""

    def __init__(self, screen: ContractFilesHost) -> None:
        self.screen = screen

    def _file_stem(self) -> str:
        return Path(self.screen.editor.contract.path).stem or "contract"

    def export_value(self, then: Callable[[], None] | None = None) -> None:
        editor = self.screen.editor
        if editor.value is None:
            self.screen.notify(
                "Nothing to export yet: paste and apply a reply first.",
                severity="warning",
                markup=False,
            )
            return

        def export(path: Path) -> str | None:
            _written, problem = editor.export(path)
            return problem

        result = editor.result
        warning = None
        if result is not None and not result.ok:
            count = len(result.errors)
            warning = (
                f"This value is INVALID ({count} error{'s' * (count != 1)}): it does not pass the "
                "contract. Enter exports it anyway; Esc cancels."
            )
        title = "Export value JSON to" if warning is None else "Export the INVALID value JSON to"
        ask_path(
            self.screen,
            title,
            f"{self._file_stem()}-value.json",
            export,
            "Value written to {path}." if warning is None else "INVALID value written to {path}.",
            then=then,
            warning=warning,
        )

    def quit_or_ask(self) -> None:
        """Quit, unless changes would be lost (the journal could not be written): then ask."""
        editor = self.screen.editor
        lost = len(editor.steps) - 1 if self.screen.app.use_journal and not editor.journaling else 0  # type: ignore[attr-defined]
        keep = "Save as… writes the value as JSON (Open value… reads it back)."
        ask_before_quitting(
            self.screen,
            "the session's journal could not be written",
            max(lost, 0),
            self.export_value,
            keep,
        )

    def export_report(self) -> None:
        def report(path: Path) -> str | None:
            _written, problem = self.screen.editor.write_report(path)
            return problem

        ask_path(
            self.screen,
            "Write contract report to",
            f"{self._file_stem()}-report.md",
            report,
            "Report written to {path}.",
        )

    def open_value(self) -> None:
        screen = self.screen
        changed: list[
            str | None
        ] = []  # one entry once the value changed: the journal's problem, if any

        def open_value(path: Path) -> str | None:
            did, problem = screen.editor.open_value(path)
            if did:
                changed.append(problem)
                return None  # taken: the value changed, even if the journal could not record it
            return problem

        def opened(path: str) -> str:
            if not changed:
                return f"{path} holds the current value: no change, nothing recorded."
            screen.close_editor()
            screen.refresh_value()
            result = screen.editor.result
            verdict = (
                ""
                if result is None
                else (
                    ": VALID"
                    if result.ok
                    else f": INVALID ({len(result.errors)} error{'s' * (len(result.errors) != 1)})"
                )
            )
            return f"Opened {path}{verdict}." + (f" {changed[0]}" if changed[0] else "")

        ask_path(
            screen,
            "Open value from",
            f"{self._file_stem()}-value.json",
            open_value,
            opened,
            replaces=False,
        )
