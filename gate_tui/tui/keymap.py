"""The editor's key bindings: one table with an id per binding, rebindable from the config.

Every binding has an ``id`` so a config's ``keymap:`` section (binding id → key string,
e.g. ``apply_reply: ctrl+r``) can move it with :meth:`textual.app.App.set_keymap`.
The same table feeds the footer, the help screen and the command palette, so the
three never disagree about what a key does.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from textual.binding import Binding


class KeyAction(NamedTuple):  # a named tuple: created at import before the first frame, ~8x cheaper than a frozen dataclass
    """One user-visible action: its binding id, default keys, action name and wording."""

    id: str
    keys: str
    action: str
    footer: str
    name: str
    help: str
    show: bool = True
    priority: bool = False


ACTIONS: tuple[KeyAction, ...] = (
    KeyAction("help", "f1", "help", "Help", "Help", "Keys, the decision rules, user vs assistant"),
    KeyAction("focus_reply", "f2", "focus_reply", "Reply", "Focus reply pane", "Paste a model reply there"),
    KeyAction("apply_reply", "ctrl+j,ctrl+enter", "apply_reply", "Apply", "Apply reply", "Run the reply through the parser; only an ok result changes the state", priority=True),
    KeyAction("next_gate", "f3", "next_gate", "Next", "Jump to next gate", "Select the gate the system asks for next"),
    KeyAction("history", "f4", "show_history", "History", "Show history", "The last change and the timeline of this session", show=False),
    KeyAction("gates", "f5", "focus_gates", "Gates", "Focus gate list", "Move to the list of gates", show=False),
    KeyAction("undo", "ctrl+z", "undo_transition", "Undo", "Undo", "Undo the last state transition (in the reply pane it undoes typing)"),
    KeyAction("redo", "ctrl+y", "redo_transition", "Redo", "Redo", "Redo the transition undone last", show=False),
    KeyAction("save", "ctrl+s", "save_state", "Save", "Save state", "Write the current state to the session's state file"),
    KeyAction("command_palette", "ctrl+p", "command_palette", "Commands", "Command palette", "Every action by name", show=False, priority=True),
    KeyAction("quit", "ctrl+q", "quit", "Quit", "Quit", "Leave the editor (a pending edit is recorded first)", priority=True),
)
BINDING_IDS: frozenset[str] = frozenset(action.id for action in ACTIONS)


def bindings() -> list[Binding]:
    """The app's ``BINDINGS``, each with its id."""
    return [
        Binding(a.keys, a.action, a.footer, show=a.show, priority=a.priority, id=a.id, tooltip=a.help)
        for a in ACTIONS
    ]


def split_keymap(keymap: Mapping[str, str]) -> tuple[dict[str, str], list[str]]:
    """The config's keymap split into entries the editor knows and the unknown ids."""
    known = {key: value for key, value in keymap.items() if key in BINDING_IDS}
    unknown = sorted(key for key in keymap if key not in BINDING_IDS)
    return known, unknown


def key_display(keys: str) -> str:
    """``ctrl+j,ctrl+enter`` → ``Ctrl+J / Ctrl+Enter`` for the help screen."""
    return " / ".join(_one_key(key) for key in keys.split(","))


def _one_key(key: str) -> str:
    parts = key.strip().split("+")
    return "+".join(part.upper() if len(part) == 1 or part.startswith("f") and part[1:].isdigit() else part.capitalize() for part in parts)


def effective_keys(action: KeyAction, keymap: Mapping[str, str]) -> str:
    """The keys an action is bound to after the config's keymap."""
    return keymap.get(action.id, action.keys)
