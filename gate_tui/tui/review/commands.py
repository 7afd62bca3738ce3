"""The review screen's command palette: every action of its key table, by name.

The names and keys come from :data:`gate_tui.tui.review.keys.ACTIONS`, the same rows as
the screen's bindings and footer, so the palette never disagrees with the keys.
"""

from __future__ import annotations

from gate_tui.tui.keymap import key_display
from gate_tui.tui.palette import ActionPalette, PaletteEntry
from gate_tui.tui.review.keys import ACTIONS


class ReviewCommands(ActionPalette):
    """Lists the review actions and runs the chosen one on the review screen."""

    def entries(self) -> list[PaletteEntry]:
        return [
            PaletteEntry(a.name, f"{a.help} ({key_display(a.keys)})", a.action) for a in ACTIONS
        ]
