"""The editor in contract mode: a thin app that opens the contract's session and shows
the contract screen (:mod:`gate_tui.tui.contract.screen`), which owns the keys, actions,
commands and panes; the rules live in :mod:`gate_tui.editing.contract_editor`.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from textual.binding import BindingType

from gate_tui.contracts.loading import Contract
from gate_tui.editing.contract_editor import ContractEditor
from gate_tui.tui.contract.screen import ContractScreen
from gate_tui.tui.shell import SHELL_BINDINGS, AppShell


class ContractApp(AppShell[int], inherit_bindings=False):
    """Contract mode; ``journal=False`` keeps the session in memory (tests, screenshots)."""

    CSS_PATH = "app.tcss"
    TITLE = "gate-tui contract"
    BINDINGS: ClassVar[list[BindingType]] = SHELL_BINDINGS  # the rest are the screen's

    def __init__(
        self,
        contract: Contract,
        *,
        journal: bool = True,
        new: bool = False,
        blink: bool | None = None,
        files: Path | None = None,
    ) -> None:
        super().__init__(blink=blink, files=files)
        self.contract = contract
        self.editor = ContractEditor(contract)
        self.use_journal = journal
        self.new = new
        self.contract_screen = ContractScreen(
            contract, self.editor, blink=self.blink, start=self._start, journaled=journal
        )

    def get_default_screen(self) -> ContractScreen:
        return self.contract_screen

    def _start(self) -> None:
        """Open the contract's session (resumed unless ``new``), once the screen is mounted."""
        if self.use_journal:
            from gate_tui.editing.contract_sessions import open_session

            notice = open_session(self.editor, new=self.new)
            if notice is not None:
                self.notify(
                    notice,
                    severity="information" if notice.startswith("resumed") else "warning",
                    markup=False,
                )

    async def action_quit(self) -> None:
        """Textual's own "Quit" command: the editor's quit (it may ask first)."""
        self.contract_screen.action_quit()

    def on_unmount(self) -> None:
        self.editor.close()


def run_contract_app(contract: Contract, new: bool = False, files: Path | None = None) -> int:
    """Open the contract editor (resuming the contract's last session unless ``new``); the
    exit status."""
    app = ContractApp(contract, new=new, files=files)
    result = app.run()
    return result if isinstance(result, int) else (app.return_code or 0)
