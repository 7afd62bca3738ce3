"""The review screen's keys: one table, in the shape of the editors' tables
(:class:`~gate_tui.tui.keymap.KeyAction` rows in a :class:`~gate_tui.tui.keymap.KeyTable`),
for its bindings, its footer, its help and its palette."""

from __future__ import annotations

from gate_tui.tui.keymap import KeyAction, KeyTable


def _key(
    id_: str, keys: str, action: str, name: str, help_: str, *, show: bool = True
) -> KeyAction:
    return KeyAction(id_, keys, action, name if show else "", name, help_, show=show)


ACTIONS: tuple[KeyAction, ...] = (
    _key("accept", "a", "verdict('accepted')", "Accept", "Mark the reply under cursor accepted"),
    _key("reject", "r", "verdict('rejected')", "Reject", "Mark it rejected"),
    _key("needs_fix", "n", "verdict('needs-fix')", "Needs fix", "Mark it needs-fix"),
    _key("clear", "x", "verdict('cleared')", "Clear verdict", "Take its verdict back", show=False),
    _key("note", "m", "note", "Note", "Write a note for its verdict"),
    _key(
        "search",
        "slash",
        "search",
        "Search",
        "Search ids, reasons, gates and error codes (from the table; in the box / is typed)",
    ),
    _key(
        "status_filter",
        "s",
        "pick('#filter-status')",
        "Status filter",
        "Pick a status to show",
        show=False,
    ),
    _key(
        "flag_filter",
        "f",
        "pick('#filter-flag')",
        "Flag filter",
        "Show claims overruled, several states, cut-offs, disagreements",
        show=False,
    ),
    _key("clear_filters", "c", "clear_filters", "Clear filters", "Show every row again"),
    _key(
        "summary",
        "p",
        "toggle_panel",
        "Summary",
        "Show or hide the run's summary with bars per gate and status",
        show=False,
    ),
    _key("help", "f1", "help", "Help", "Show these keys"),
)
"""The review actions, also in the palette (the footer has room for the common ones)."""
SCREEN_ACTIONS = (
    *ACTIONS,
    _key("back", "escape", "back_to_table", "Back", "Back to the table", show=False),
    _key("quit", "q", "app.quit", "Quit", "Leave review"),
)
KEYS = KeyTable(SCREEN_ACTIONS, prefix="review_", quit_first=False)
"""The review screen's table: its ``BINDINGS`` and its help."""
