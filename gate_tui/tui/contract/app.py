"""The editor in contract mode: a thin app that opens the contract's session and shows
the contract screen (:mod:`gate_tui.tui.contract.screen`), which owns the keys, actions,
commands and panes; the rules live in :mod:`gate_tui.editing.contract_editor`.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import ClassVar

from textual.app import App
from textual.binding import Binding

from gate_tui.contracts.loading import Contract
from gate_tui.editing.contract_editor import ContractEditor
from gate_tui.tui.contract.screen import ContractScreen

CSS = """
#contract-title { height: 1; background: $panel; padding: 0 1; }
#contract-main { height: 1fr; }
#contract-left, #contract-right { width: 1fr; }
#contract-left ReplyPane { height: 1fr; border: round $panel-lighten-2; }
#value-tree { height: 1fr; border: round $panel-lighten-2; }
#contract-decision { height: auto; max-height: 6; border: round $panel-lighten-2; padding: 0 1; }
#edit-bar { height: auto; max-height: 12; display: none; border: round $accent; padding: 0 1; }
#edit-bar.-open { display: block; }
#edit-hint { height: auto; }
#edit-choices { height: auto; max-height: 8; }
#edit-text { height: 8; }
Screen.-cramped Footer FooterKey.-command-palette { display: none; }  /* Apply, Tree, Undo, Export stay */
"""


class ContractApp(App[int], inherit_bindings=False):
    """Contract mode; ``journal=False`` keeps the session in memory (tests, screenshots)."""

    CSS = CSS
    TITLE = "gate-tui contract"
    BINDINGS: ClassVar[list[Binding]] = [Binding("ctrl+c", "help_quit", show=False, system=True)]  # the rest are the screen's

    def __init__(self, contract: Contract, *, journal: bool = True, new: bool = False, blink: bool | None = None, files: Path | None = None) -> None:
        super().__init__()
        self.files_folder = files  # the one folder the file commands may use (serve), or None
        self.contract = contract
        self.editor = ContractEditor(contract)
        self.use_journal = journal
        self.new = new
        self.blink = os.environ.get("GATE_TUI_NO_BLINK") != "1" if blink is None else blink
        self.contract_screen = ContractScreen(contract, self.editor, blink=self.blink, start=self._start)

    def get_default_screen(self) -> ContractScreen:
        return self.contract_screen

    def _start(self) -> None:
        """Open the contract's session (resumed unless ``new``), once the screen is mounted."""
        if self.use_journal:
            from gate_tui.editing.contract_sessions import open_session

            notice = open_session(self.editor, new=self.new)
            if notice is not None:
                self.notify(notice, severity="information" if notice.startswith("resumed") else "warning", markup=False)

    async def action_quit(self) -> None:
        """Textual's own "Quit" command: the editor's quit (it may ask first)."""
        self.contract_screen.action_quit()

    def on_unmount(self) -> None:
        self.editor.close()


def run_contract_app(contract: Contract, new: bool = False, files: Path | None = None) -> int:
    """Open the contract editor (resuming the contract's last session unless ``new``); the exit status."""
    app = ContractApp(contract, new=new, files=files)
    result = app.run()
    return result if isinstance(result, int) else (app.return_code or 0)
