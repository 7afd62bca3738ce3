"""The review screen's command palette: every action of its key table, by name.

The names and keys come from :data:`gate_tui.tui.review.keys.ACTIONS`, the same rows as
the screen's bindings and footer, so the palette never disagrees with the keys.
"""

from __future__ import annotations

from collections.abc import Callable

from textual.command import DiscoveryHit, Hit, Hits, Provider

from gate_tui.tui.review.keys import ACTIONS


class ReviewCommands(Provider):
    """Lists the review actions and runs the chosen one on the review screen."""

    def _entries(self) -> list[tuple[str, str, str]]:
        return [(name, f"{help_} ({keys})", action) for keys, action, name, help_ in ACTIONS]

    def _runner(self, action: str) -> Callable[[], object]:
        async def run() -> None:
            await self.app.run_action(action, self.screen)

        return run

    async def discover(self) -> Hits:
        for name, help_, action in self._entries():
            yield DiscoveryHit(name, self._runner(action), help=help_)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name, help_, action in self._entries():
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, matcher.highlight(name), self._runner(action), help=help_)
