"""Contract mode's key bindings: one table (a :class:`~gate_tui.tui.keymap.KeyTable` of the
gate editor's :class:`KeyAction` rows) that feeds the screen's bindings, the tree's
bindings, the footer, the help screen, the pane titles and the command palette, so they
never disagree. ``FILE_COMMANDS`` are the file commands without a key of their own
(palette only); every file command runs as the gate editor's do, ``file('save_as')``."""

from __future__ import annotations

from gate_tui.tui.keymap import (
    CLEAR_REPLY,
    PALETTE,
    KeyAction,
    KeyTable,
    ask_actions,
    common_action,
    key_display,
)

ACTIONS: tuple[KeyAction, ...] = (  # in footer order: what a 60-column footer must keep comes first
    common_action(
        "apply_reply",
        "Take the reply's JSON as the current value; the contract says VALID or INVALID",
    ),
    KeyAction(
        "focus_reply", "f2", "focus_reply", "Reply", "Focus reply pane", "Paste a model reply there"
    ),
    KeyAction(
        "focus_tree",
        "f3",
        "focus_tree",
        "Tree",
        "Focus value tree",
        "Move to the tree; Enter edits the selected leaf",
    ),
    common_action(
        "undo",
        "Undo the last change, from any pane (in the reply pane or a text edit: its own"
            " typing first)",
    ),
    KeyAction(
        "export",
        "ctrl+e",
        "file('save_as')",
        "Export",
        "Export value JSON…",
        "Write the current value as JSON to a file you name (asks before replacing one)",
        priority=True,
    ),  # a text area's Ctrl+E (line end) would hide it; End does that
    common_action(
        "redo",
        "Redo the change undone last (in the reply pane: an undone text edit first)",
    ),
    common_action("help", "Keys and who decides validity"),
    CLEAR_REPLY,
    PALETTE,
    common_action(
        "quit",
        "Leave the editor (every change is already in the journal; asks first if the journal"
            " could not be written)",
    ),
)
ASK_ACTIONS = ask_actions(  # asking the model (F6); listed last in help
    "Type a message; the reply streams into the reply pane, asked with the contract's"
    " prompt and schema",
    "Send the last reply's contract errors (path, expected, found) back to the model",
    "Stop a running request: the partial reply stays in the pane",
)
FILE_COMMANDS: tuple[tuple[str, str, str], ...] = (  # (name, help, action)
    (
        "Save value as…",
        "Write the current value as JSON to a file you name (Open value… reads it back)",
        "file('save_as')",
    ),
    (
        "Open value…",
        "Load a JSON file as the current value, a user edit the contract judges",
        "file('open_state')",
    ),
    (
        "Export report…",
        "Write a Markdown report of this session (decision, errors, timeline, value)",
        "file('export_report')",
    ),
    (
        "Copy value to clipboard",
        "Copy the current value as JSON (OSC 52)",
        "file('copy_state')",
    ),
)
TREE_ACTIONS: tuple[KeyAction, ...] = (
    # Not in the footer (the tree's title names them): there they pushed Apply, Tree, Undo and
    # Export off a 60-column footer.
    KeyAction(
        "edit_json",
        "e",
        "edit_json",
        "JSON",
        "Edit as JSON",
        "Edit the selected node as JSON text (objects and lists too: add items, fill a"
        " missing object)",
        show=False,
    ),
    KeyAction(
        "remove_node",
        "delete",
        "remove_node",
        "Remove",
        "Remove key",
        "Remove the selected key or item (an extra key, say)",
        show=False,
    ),
)


KEYS = KeyTable(ACTIONS + ASK_ACTIONS, prefix="contract_", quit_first=False)
"""The contract screen's table."""
TREE_KEYS = KeyTable(TREE_ACTIONS, prefix="contract_", quit_first=False)
"""The value tree's table (its own bindings, run on the selected node)."""


def hint(action_id: str) -> str:
    """The key of an action as the footer and titles show it (``Ctrl+J``), from the tables."""
    try:
        action = KEYS.find(action_id)
    except KeyError:
        action = TREE_KEYS.find(action_id)
    return shown_keys(action.keys.split(",")[0])


def shown_keys(keys: str) -> str:
    """``ctrl+j,ctrl+enter`` → ``Ctrl+J / Ctrl+Enter``; a letter stays as typed ("e", not
    "E", which reads as Shift+E)."""
    return " / ".join(key if len(key) == 1 else key_display(key) for key in keys.split(","))
