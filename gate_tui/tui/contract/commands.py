"""Contract mode's command palette provider: every contract action by name, from the key
table (:mod:`gate_tui.tui.contract.keys`), plus its palette-only file commands.

Tree actions ("Edit as JSON", "Remove key") act on the tree's selected node, as their keys
do; they run in the tree's namespace. "Quit" is left to Textual's own system provider,
which lists it already (as in the gate editor's palette).
"""

from __future__ import annotations

from gate_tui.tui.contract.keys import ACTIONS, ASK_ACTIONS, FILE_COMMANDS, TREE_ACTIONS
from gate_tui.tui.palette import ActionPalette, PaletteEntry

SKIPPED = {"command_palette", "quit"}


def contract_commands() -> list[PaletteEntry]:
    """Every named contract action once (a tree action the app also has is the app's)."""
    commands = [
        PaletteEntry(a.name, a.help, a.action) for a in ACTIONS + ASK_ACTIONS if a.id not in SKIPPED
    ]
    known = {command.action for command in commands}
    commands += [
        PaletteEntry(a.name, a.help, a.action, on_tree=True)
        for a in TREE_ACTIONS
        if a.action not in known
    ]
    commands += [PaletteEntry(name, help_, action) for name, help_, action in FILE_COMMANDS]
    return commands


class ContractCommands(ActionPalette):
    """Lists :func:`contract_commands`; a tree key runs on the value tree."""

    def entries(self) -> list[PaletteEntry]:
        return contract_commands()

    async def run_entry(self, entry: PaletteEntry) -> None:
        if not entry.on_tree:
            await super().run_entry(entry)
            return
        from gate_tui.tui.contract.tree import ValueTree

        tree = self.app.query_one(ValueTree)
        tree.focus()
        await self.app.run_action(entry.action, default_namespace=tree)
