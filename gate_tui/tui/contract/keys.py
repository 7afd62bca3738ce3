"""Contract mode's key bindings: one table (the gate editor's :class:`KeyAction` rows) that
feeds the app's bindings, the tree's bindings and the footer, so they never disagree."""

from __future__ import annotations

from textual.binding import Binding

from gate_tui.tui.keymap import KeyAction

ACTIONS: tuple[KeyAction, ...] = (
    KeyAction("help", "f1", "help", "Help", "Help", "Keys and who decides validity"),
    KeyAction("focus_reply", "f2", "focus_reply", "Reply", "Focus reply pane", "Paste a model reply there"),
    KeyAction("apply_reply", "ctrl+j,ctrl+enter", "apply_reply", "Apply", "Apply reply", "Take the reply's JSON as the current value; the contract says VALID or INVALID", priority=True),
    KeyAction("focus_tree", "f3", "focus_tree", "Tree", "Focus value tree", "Move to the tree; Enter edits the selected leaf"),
    KeyAction("undo", "ctrl+z", "undo", "Undo", "Undo", "Undo the last change (in the reply pane it undoes typing)"),
    KeyAction("redo", "ctrl+y", "redo", "Redo", "Redo", "Redo the change undone last"),
    KeyAction("export", "ctrl+e", "export", "Export", "Export value and report", "Write value.json and report.md to the session folder"),
    KeyAction("quit", "ctrl+q", "quit", "Quit", "Quit", "Leave the editor (every change is already in the journal)", priority=True),
)
TREE_ACTIONS: tuple[KeyAction, ...] = (
    KeyAction("edit_json", "e", "edit_json", "JSON", "Edit as JSON", "Edit the selected node as JSON text (objects and lists too: add items, fill a missing object)"),
    KeyAction("help", "f1", "help", "Help", "Help", "Keys and who decides validity"),
    KeyAction("remove_node", "delete", "remove_node", "Remove", "Remove key", "Remove the selected key or item (an extra key, say)"),
)


def bindings(actions: tuple[KeyAction, ...] = ACTIONS) -> list[Binding]:
    return [Binding(a.keys, a.action, a.footer, show=a.show, priority=a.priority, id=f"contract_{a.id}", tooltip=a.help) for a in actions]
