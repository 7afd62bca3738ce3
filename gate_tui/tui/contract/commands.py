"""Contract mode's command palette provider: every contract action by name, from the key
table (:mod:`gate_tui.tui.contract.keys`), plus its palette-only file commands.

Tree actions ("Edit as JSON", "Remove key") act on the tree's selected node, as their keys
do; they run in the tree's namespace. "Quit" is left to Textual's own system provider,
which lists it already (as in the gate editor's palette).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from textual.command import DiscoveryHit, Hit, Hits, Provider

from gate_tui.tui.contract.keys import ACTIONS, ASK_ACTIONS, FILE_COMMANDS, TREE_ACTIONS

SKIPPED = {"command_palette", "quit"}


@dataclass(frozen=True)
class ContractCommand:
    """One palette entry: its name, help line, the action it runs and where (app or tree)."""

    name: str
    help: str
    action: str
    on_tree: bool = False


def contract_commands() -> list[ContractCommand]:
    """Every named contract action once (a tree action the app also has is the app's)."""
    commands = [ContractCommand(a.name, a.help, a.action) for a in ACTIONS + ASK_ACTIONS if a.id not in SKIPPED]
    known = {command.action for command in commands}
    commands += [ContractCommand(a.name, a.help, a.action, on_tree=True) for a in TREE_ACTIONS if a.action not in known]
    commands += [ContractCommand(name, help_, action) for name, help_, action in FILE_COMMANDS]
    return commands


class ContractCommands(Provider):
    """Lists :func:`contract_commands` and runs the chosen one."""

    def _runner(self, command: ContractCommand) -> Callable[[], object]:
        async def run() -> None:
            if command.on_tree:
                from gate_tui.tui.contract.tree import ValueTree

                tree = self.app.query_one(ValueTree)
                tree.focus()
                await self.app.run_action(command.action, default_namespace=tree)
            else:
                await self.app.run_action(command.action, self.screen)

        return run

    async def discover(self) -> Hits:
        for command in contract_commands():
            yield DiscoveryHit(command.name, self._runner(command), help=command.help)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for command in contract_commands():
            score = matcher.match(command.name)
            if score > 0:
                yield Hit(score, matcher.highlight(command.name), self._runner(command), help=command.help)
