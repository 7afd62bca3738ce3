"""The editor's key bindings: one table with an id per binding, rebindable from the config.

Every binding has an ``id`` so a config's ``keymap:`` section (binding id → key string,
e.g. ``apply_reply: ctrl+r``) can move it with :meth:`textual.app.App.set_keymap`.
The same table feeds the footer, the help screen, the command palette and every key
hint written on screen (:class:`KeyHints`: "F9 apply" after ``apply_reply: f9``), so
none of them disagree about what a key does.

Two kinds of binding live here: :data:`ACTIONS` are the app's own; :data:`FIELD_ACTIONS`
are bound by widgets (the Raw field's line break, the undo/redo keys that the text
fields take over from ``TextArea``) under the same ids, so one keymap entry moves both.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import NamedTuple

from textual.binding import Binding


class KeyAction(
    NamedTuple
):  # a named tuple: created at import before the first frame, ~8x cheaper than a frozen dataclass
    """One user-visible action: its binding id, default keys, action name and wording."""

    id: str
    keys: str
    action: str
    footer: str
    name: str
    help: str
    show: bool = True
    priority: bool = False


_COMMON: dict[str, tuple[str, str, str, str, bool]] = {
    # id: (keys, action, footer, name, priority) - the rows every editor has.
    "apply_reply": ("ctrl+j,ctrl+enter", "workbench('apply')", "Apply", "Apply reply", True),
    "undo": ("ctrl+z", "undo_transition", "Undo", "Undo", False),
    "redo": ("ctrl+y", "redo_transition", "Redo", "Redo", False),
    "help": ("f1", "help", "Help", "Help", False),
    "quit": ("ctrl+q", "quit", "Quit", "Quit", True),
}


def common_action(action_id: str, help_: str, *, show: bool = True) -> KeyAction:
    """A row every editor has (apply, undo, redo, help, quit): the same id, keys, action
    and names everywhere; each editor words what it does there."""
    keys, action, footer, name, priority = _COMMON[action_id]
    return KeyAction(action_id, keys, action, footer, name, help_, show=show, priority=priority)


CLEAR_REPLY = KeyAction(
    "clear_reply",
    "ctrl+l",
    "workbench('clear')",
    "Clear",
    "Clear reply",
    "Empty the reply pane (Undo in the pane brings the text back)",
    show=False,
)
PALETTE = KeyAction(
    "command_palette",
    "ctrl+p",
    "app.command_palette",
    "Commands",
    "Command palette",
    "Every action by name",
    show=False,
    priority=True,
)


def ask_actions(ask: str, again: str, cancel: str) -> tuple[KeyAction, ...]:
    """The reply workbench's model keys, the same in every editor (F6 ask, F7 ask again,
    F8 auto-retry, Esc cancel); each editor words what its ask and its errors send.
    F6/F7 are TextArea's select-line / select-all: priority, so they ask from the reply
    pane too."""
    retry = "Send an invalid reply's errors back automatically, at most 2 rounds (off by default)"
    return (
        KeyAction(
            "ask_model", "f6", "workbench('ask')", "Ask", "Ask the model", ask, priority=True
        ),
        KeyAction(
            "ask_again",
            "f7",
            "workbench('again')",
            "Again",
            "Ask again with the errors",
            again,
            show=False,
            priority=True,
        ),
        KeyAction(
            "toggle_auto_retry",
            "f8",
            "workbench('auto_retry')",
            "Auto-retry",
            "Toggle auto-retry",
            retry,
            show=False,
        ),
        KeyAction(
            "cancel_ask",
            "escape",
            "workbench('cancel')",
            "Cancel",
            "Cancel the model request",
            cancel,
            show=False,
        ),
    )


ACTIONS: tuple[KeyAction, ...] = (
    common_action("help", "Keys, the decision rules, user vs assistant"),
    KeyAction(
        "focus_reply",
        "f2",
        "page('reply')",
        "Reply",
        "Focus reply pane",
        "Paste a model reply there",
    ),
    common_action(
        "apply_reply",
        "Run the reply through the parser; only an ok result changes the state",
    ),
    KeyAction(
        "next_gate",
        "f3",
        "next_gate",
        "Next",
        "Jump to next gate",
        "Select the gate the system asks for next",
    ),
    KeyAction(
        "history",
        "f4",
        "page('history')",
        "History",
        "Show history",
        "The last change and the timeline of this session",
        show=False,
    ),
    KeyAction(
        "gates",
        "f5",
        "page('gates')",
        "Gates",
        "Focus gate list",
        "Move to the list of gates",
        show=False,
    ),
    common_action(
        "undo",
        "Undo the last state transition, from any pane (in the reply pane: its own text edits "
            "first, then the transition)",
    ),
    common_action(
        "redo",
        "Redo the transition undone last (in the reply pane: an undone text edit first)",
        show=False,
    ),
    CLEAR_REPLY,
    KeyAction(
        "save",
        "ctrl+s",
        "file('save')",
        "Save",
        "Save state",
        "Write the current state to the session's state file",
    ),
    KeyAction(
        "next_candidate",
        "f9",
        "workbench('next')",
        "Object",
        "Use the reply's next object",
        "When a reply holds several JSON objects (a draft and a correction): preview and apply the "
        "next one",
    ),
    # After Save: on a 60-column footer the essential keys stay.
    *ask_actions(
        "Type a message; the model's reply streams into the reply pane"
        " (endpoint: settings, OPENAI_BASE_URL, GATE_TUI_MODEL)",
        "Send the last reply's errors (field path, expected, found) back to the model"
        " for a corrected state",
        "Stop a running request: the partial reply stays in the pane, nothing is applied",
    ),
    PALETTE,
    common_action("quit", "Leave the editor (a pending edit is recorded first)"),
)
FIELD_ACTIONS: tuple[KeyAction, ...] = (
    KeyAction(
        "raw_newline",
        "ctrl+n,shift+enter",
        "newline",
        "Newline",
        "Line break in Raw",
        "Start a new line in a Raw answer (Enter records the answer)",
    ),
)
"""Bindings that widgets hold (see the module docstring); listed in help, not in the app's
BINDINGS."""
BINDING_IDS: frozenset[str] = frozenset(action.id for action in ACTIONS + FIELD_ACTIONS)
BY_ID: dict[str, KeyAction] = {action.id: action for action in ACTIONS + FIELD_ACTIONS}
PAGES: tuple[tuple[str, str, str], ...] = (
    ("gates", "Gates", "gates"),
    ("reply", "Reply", "focus_reply"),
    ("history", "History", "history"),
)
"""The panes of a narrow terminal: page name, its label on the page bar, the binding that shows
it."""


class KeyTable(NamedTuple):
    """One editor's key table (the gate editor's, contract mode's): its actions and the
    prefix of their binding ids. Both editors make their ``BINDINGS``, hints and help from
    their table the same way, so a footer, a help screen and a palette never disagree."""

    actions: tuple[KeyAction, ...]
    prefix: str = ""
    quit_first: bool = True

    def bindings(self) -> list[Binding]:
        """The ``BINDINGS`` of the table's screen (or widget), each with its id, in table
        order; with ``quit_first``, Quit comes first, where the gate editor's footer has always
        shown it (Textual's own app binding put it there)."""
        ordered = (
            sorted(self.actions, key=lambda a: a.id != "quit")
            if self.quit_first
            else list(self.actions)
        )
        return [
            Binding(
                a.keys,
                a.action,
                a.footer,
                show=a.show,
                priority=a.priority,
                id=f"{self.prefix}{a.id}",
                tooltip=a.help,
            )
            for a in ordered
        ]

    def find(self, action_id: str) -> KeyAction:
        """The action of ``action_id`` (KeyError when the table has none)."""
        for action in self.actions:
            if action.id == action_id:
                return action
        raise KeyError(action_id)


GATE_KEYS = KeyTable(ACTIONS)
"""The gate editor's table (its screen's bindings; the fields' own are :data:`FIELD_ACTIONS`)."""


def bindings() -> list[Binding]:
    """The gate editor screen's ``BINDINGS``, each with its id."""
    return GATE_KEYS.bindings()


def field_binding(binding_id: str, action: str | None = None, *, show: bool = True) -> Binding:
    """A widget's binding under one of the ids above (same keys, wording and id as the
    app's, so the footer says the same and a keymap entry moves it too)."""
    a = BY_ID[binding_id]
    return Binding(a.keys, action or a.action, a.footer, show=show, id=a.id, tooltip=a.help)


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
    return "+".join(
        part.upper()
        if len(part) == 1 or part.startswith("f") and part[1:].isdigit()
        else part.capitalize()
        for part in parts
    )


def effective_keys(action: KeyAction, keymap: Mapping[str, str]) -> str:
    """The keys an action is bound to after the config's keymap."""
    return keymap.get(action.id, action.keys)


def first_key(keys: str) -> str:
    """``ctrl+j,ctrl+enter`` → ``Ctrl+J``: the key a hint names (the first one bound)."""
    return _one_key(keys.split(",")[0])


BROWSER_KEYS = frozenset(
    {"ctrl+n", "ctrl+t", "ctrl+w", "ctrl+shift+n", "ctrl+shift+t", "ctrl+shift+w", "ctrl+tab"}
)
"""Keys a web browser keeps for itself (new window, tab, close): they never reach a served
editor."""


def served() -> bool:
    """Whether this editor runs behind ``gate-tui serve`` (textual-serve picks the web driver)."""
    return "web_driver" in os.environ.get("TEXTUAL_DRIVER", "")


class KeyHints:
    """The key of each binding id as the config's keymap bound it, for text on screen:
    ``hints["apply_reply"]`` is ``Ctrl+J``, or ``F9`` after ``keymap: {apply_reply: f9}``.
    With ``web=True`` (a served editor) a hint names the first key a browser lets through:
    the Raw answer's line break is Shift+Enter there, not Ctrl+N (a new browser window)."""

    def __init__(self, keymap: Mapping[str, str] | None = None, *, web: bool = False) -> None:
        self.keymap = split_keymap(keymap or {})[0]
        self.web = web

    def __getitem__(self, binding_id: str) -> str:
        keys = effective_keys(BY_ID[binding_id], self.keymap)
        if self.web:
            reachable = [key for key in keys.split(",") if key.strip().lower() not in BROWSER_KEYS]
            keys = ",".join(reachable) or keys
        return first_key(keys)

    def all_keys(self, binding_id: str) -> str:
        """Every key of a binding (``Ctrl+J / Ctrl+Enter``), for the help screen."""
        return key_display(effective_keys(BY_ID[binding_id], self.keymap))


DEFAULT_HINTS = KeyHints()
"""The hints of the default keymap (for pure functions called without an app)."""


def hints_of(app: object) -> KeyHints:
    """The app's :class:`KeyHints` (the default ones for an app that has none)."""
    hints = getattr(app, "key_hints", None)
    return hints if isinstance(hints, KeyHints) else DEFAULT_HINTS
