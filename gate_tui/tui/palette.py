"""The one command palette provider: a screen's actions by name, run on that screen.

Each editor lists its entries (:class:`PaletteEntry`: name, help line, action string,
from its key table and its file commands) in a subclass of :class:`ActionPalette`; the
listing, the fuzzy search and the running are here once. A subclass may add hits of its
own (the gate editor's "Go to gate") or run an entry elsewhere (the contract's tree keys).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.fuzzy import Matcher


@dataclass(frozen=True)
class PaletteEntry:
    """One palette entry: its name, help line and the action it runs."""

    name: str
    help: str
    action: str
    on_tree: bool = False
    """Run on the screen's focused tree widget, not on the screen (contract mode)."""


ProviderSource = Callable[[], type[Provider]]
"""How a screen names its palette provider in ``COMMANDS``: a function that imports it
when the palette first opens."""


class ActionPalette(Provider):
    """Lists :meth:`entries` and runs the chosen one on the screen."""

    def entries(self) -> list[PaletteEntry]:
        raise NotImplementedError

    def extra_hits(self, matcher: Matcher) -> Iterator[Hit]:
        """Hits beyond the entries (none by default)."""
        return iter(())

    async def run_entry(self, entry: PaletteEntry) -> None:
        await self.app.run_action(entry.action, self.screen)

    def _runner(self, entry: PaletteEntry) -> Callable[[], object]:
        async def run() -> None:
            await self.run_entry(entry)

        return run

    async def discover(self) -> Hits:
        for entry in self.entries():
            yield DiscoveryHit(entry.name, self._runner(entry), help=entry.help)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for entry in self.entries():
            score = matcher.match(entry.name)
            if score > 0:
                yield Hit(
                    score, matcher.highlight(entry.name), self._runner(entry), help=entry.help
                )
        for hit in self.extra_hits(matcher):
            yield hit
