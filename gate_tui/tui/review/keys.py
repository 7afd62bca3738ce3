"""The review screen's keys: one table for its bindings, its footer, its help and its palette."""

from __future__ import annotations

ACTIONS: tuple[tuple[str, str, str, str], ...] = (
    ("a", "verdict('accepted')", "Accept", "Mark the reply under the cursor accepted"),
    ("r", "verdict('rejected')", "Reject", "Mark it rejected"),
    ("n", "verdict('needs-fix')", "Needs fix", "Mark it needs-fix"),
    ("x", "verdict('cleared')", "Clear verdict", "Take its verdict back"),
    ("m", "note", "Note", "Write a note for its verdict"),
    (
        "slash",
        "search",
        "Search",
        "Search ids, reasons, gates and error codes (from the table; in the box / is typed)",
    ),
    ("s", "pick('#filter-status')", "Status filter", "Pick a status to show"),
    (
        "f",
        "pick('#filter-flag')",
        "Flag filter",
        "Show claims overruled, several states, cut-offs, disagreements",
    ),
    ("c", "clear_filters", "Clear filters", "Show every row again"),
    (
        "p",
        "toggle_panel",
        "Summary",
        "Show or hide the run's summary with bars per gate and status",
    ),
    ("f1", "help", "Help", "Show these keys"),
)
"""The review keys: (keys, action, name, help) - the bindings, the footer and the palette."""
QUIET = {"verdict('cleared')", "pick('#filter-flag')", "toggle_panel", "pick('#filter-status')"}
"""Actions left out of the footer (it has room for the common ones; the help lists all)."""
FOOTER_ACTIONS = (
    *(
        (keys, action, None if action in QUIET else name, help_)
        for keys, action, name, help_ in ACTIONS
    ),
    ("escape", "back_to_table", None, "Back to the table"),
    ("q", "app.quit", "Quit", "Leave review"),
)
