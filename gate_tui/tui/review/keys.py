"""The review screen's keys: one table for its bindings, its footer and its palette."""

from __future__ import annotations

ACTIONS: tuple[tuple[str, str, str, str], ...] = (
    ("a", "verdict('accepted')", "Accept", "Mark the reply under the cursor accepted"),
    ("r", "verdict('rejected')", "Reject", "Mark it rejected"),
    ("n", "verdict('needs-fix')", "Needs fix", "Mark it needs-fix"),
    ("x", "verdict('cleared')", "Clear verdict", "Take its verdict back"),
    ("m", "note", "Note", "Write a note for its verdict"),
    ("slash", "search", "Search", "Search ids, reasons, gates and error codes"),
)
"""The review keys: (keys, action, name, help) - the bindings, the footer and the palette."""
FOOTER_ACTIONS = (
    *((keys, action, None if action == "verdict('cleared')" else name, help_) for keys, action, name, help_ in ACTIONS),
    ("escape", "back_to_table", None, "Back to the table"),
    ("q", "app.quit", "Quit", "Leave review"),
)
