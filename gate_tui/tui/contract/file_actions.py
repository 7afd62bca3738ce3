"""Contract mode's file commands, as data for the shared runner
(:mod:`gate_tui.tui.file_commands`), under the gate editor's names: Save value as…
(``save_as``, also ``export_state``), Export report… (``export_report``), Open value…
(``open_state``), Copy value (``copy_state``), and what a quit would lose.

Pure functions of what they need (the editor session, a callback): nothing here holds
the screen; the writing and reading themselves are the session's (:mod:`gate_tui.editing`,
no Textual there). The screen runs them from its ``action_file`` and ``action_quit``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from gate_tui.tui.file_commands import Copy, FileCommand, Said, open_request, write_request

if TYPE_CHECKING:
    from gate_tui.contracts.results import ContractResult
    from gate_tui.editing.contract_editor import ContractEditor

NOTHING_YET = Said("Nothing to export yet: paste and apply a reply first.", severity="warning")
QUIT_WHY = "the session's journal could not be written"
KEEP = "Save as… writes the value as JSON (Open value… reads it back)."


def contract_file(
    command: str, editor: ContractEditor, *, reload: Callable[[], None]
) -> FileCommand | None:
    """The file command ``command`` of ``editor`` (None: no such command); ``reload`` runs
    once an opened file changed the value."""
    stem = Path(editor.contract.path).stem or "contract"
    if command in ("save_as", "export_state"):
        return NOTHING_YET if editor.value is None else save_value(editor, stem)
    if command == "export_report":
        return write_request(
            "Write contract report to",
            f"{stem}-report.md",
            lambda path: editor.write_report(path)[1],
            "Report written to {path}.",
        )
    if command == "open_state":
        return open_value(editor, stem, reload)
    if command == "copy_state":
        if editor.value is None:
            return NOTHING_YET
        text = json.dumps(editor.value, indent=2, ensure_ascii=False) + "\n"
        return Copy(text, "Value JSON copied to the clipboard.")
    return None


def save_value(editor: ContractEditor, stem: str) -> FileCommand:
    """Write the current value as JSON; an INVALID value is said so before it is written."""
    count = invalid_count(editor.result)
    warning = None
    if count is not None:
        warning = (
            f"This value is {_invalid(count)}: it does not pass the contract. Enter exports"
            " it anyway; Esc cancels."
        )
    return write_request(
        "Export value JSON to" if warning is None else "Export the INVALID value JSON to",
        f"{stem}-value.json",
        lambda path: editor.export(path)[1],
        "Value written to {path}." if warning is None else "INVALID value written to {path}.",
        warning=warning,
    )


def open_value(editor: ContractEditor, stem: str, reload: Callable[[], None]) -> FileCommand:
    """Open value…: a JSON file made the current value, a user edit the contract judges."""

    def opened(path: str, problem: str | None) -> str:
        reload()
        result = editor.result
        count = invalid_count(result)
        verdict = "" if result is None else ": VALID" if count is None else f": {_invalid(count)}"
        return f"Opened {path}{verdict}." + (f" {problem}" if problem else "")

    return open_request("Open value from", f"{stem}-value.json", editor.open_value, "value", opened)


def invalid_count(result: ContractResult | None) -> int | None:
    """How many errors make ``result`` INVALID (None: no result, or VALID)."""
    return None if result is None or result.ok else len(result.errors)


def _invalid(count: int) -> str:
    return f"INVALID ({count} error{'s' * (count != 1)})"


def unsaved_changes(editor: ContractEditor, journaled: bool) -> int:
    """Changes a quit would lose: all of them when the journal was wanted but not written."""
    return max(len(editor.steps) - 1, 0) if journaled and not editor.journaling else 0
