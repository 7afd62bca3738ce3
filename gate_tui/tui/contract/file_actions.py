"""Contract mode's file commands, as the gate editor's: Export value JSON… / Save value as…,
Export report…, Open value…, all through the shared path prompt
(:class:`~gate_tui.tui.screens.path_prompt.PathScreen`: ``~`` expanded, asks before
replacing a file, keeps the prompt open with the error when writing or reading fails).

A mixin for :class:`~gate_tui.tui.contract.app.ContractApp`; the writing and reading
themselves are the controller's (no Textual there).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from textual.app import App

from gate_tui.tui.text import visible

if TYPE_CHECKING:
    from gate_tui.tui.contract.controller import ContractEditor


class ContractFileActions(App[int]):
    """The file commands; the app provides ``editor``, ``refresh_value`` and ``close_editor``."""

    editor: ContractEditor

    def refresh_value(self) -> None:  # provided by the app
        raise NotImplementedError

    def close_editor(self) -> None:  # provided by the app
        raise NotImplementedError

    def _file_stem(self) -> str:
        return Path(self.editor.contract.path).stem or "contract"

    def action_export_value(self) -> None:
        if self.editor.value is None:
            self.notify("Nothing to export yet: paste and apply a reply first.", severity="warning", markup=False)
            return

        def export(path: Path) -> str | None:
            _written, problem = self.editor.export(path)
            return problem

        self._ask("Export value JSON to", f"{self._file_stem()}-value.json", export, "Value written to {path}.")

    def action_export_report(self) -> None:
        def report(path: Path) -> str | None:
            _written, problem = self.editor.write_report(path)
            return problem

        self._ask("Write contract report to", f"{self._file_stem()}-report.md", report, "Report written to {path}.")

    def action_open_value(self) -> None:
        changed: list[str | None] = []  # one entry once the value changed: the journal's problem, if any

        def open_value(path: Path) -> str | None:
            did, problem = self.editor.open_value(path)
            if did:
                changed.append(problem)
                return None  # taken: the value changed, even if the journal could not record it
            return problem

        def opened(path: str) -> str:
            if not changed:
                return f"{path} holds the current value: no change, nothing recorded."
            self.close_editor()
            self.refresh_value()
            result = self.editor.result
            verdict = "" if result is None else (": VALID" if result.ok else f": INVALID ({len(result.errors)} error{'s' * (len(result.errors) != 1)})")
            return f"Opened {path}{verdict}." + (f" {changed[0]}" if changed[0] else "")

        self._ask("Open value from", f"{self._file_stem()}-value.json", open_value, opened, replaces=False)

    def _ask(self, title: str, default: str, run: Callable[[Path], str | None], done: str | Callable[[str], str], *, replaces: bool = True) -> None:
        """Ask for a path, run the command there, then say what happened (a toast)."""
        from gate_tui.tui.screens.path_prompt import PathScreen

        def chosen(path: str | None) -> None:
            if path is None:
                return
            self.notify(visible(done(path) if callable(done) else done.format(path=path)), markup=False)

        self.push_screen(PathScreen(title, default, run, replaces=replaces), callback=chosen)
