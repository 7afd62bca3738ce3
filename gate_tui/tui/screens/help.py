"""The help screen (F1): the keys as bound now, the reply pane's rules, the decision rule,
and user vs assistant. Laid out as two-column grids so that a wrapped line keeps its
indent; the scrollable body has the focus, so the scroll keys work as soon as it opens."""

from __future__ import annotations

from collections.abc import Mapping

from rich.console import Group, RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.content import Content
from textual.widgets import Static

from gate_tui.decision_rules import DECISION_RULES, DECISION_RULES_LEAD
from gate_tui.tui.help_render import grid, heading, key_rows
from gate_tui.tui.keymap import ACTIONS, FIELD_ACTIONS, KeyHints
from gate_tui.tui.screens.modal import CenteredModal
from gate_tui.tui.text import visible

EXTRA_KEYS = (
    ("Tab / Shift+Tab", "move between panes and fields"),
    ("Enter (gate list)", "edit the selected gate"),
    ("Enter (gate field)", "record the edit now (in Raw too; {raw_newline} starts a new line)"),
    ("Enter (timeline)", "restore the state after that row (undoable)"),
    (
        "o / Space (timeline)",
        "open the row in full without restoring it: every field before and after; a rejected"
        " attempt (✗) with its errors; a model call (↗) with its message and reply",
    ),
    (
        "Ctrl+A (reply pane, Raw)",
        "select all the text (then type or paste over it, or Delete); Home: line start",
    ),
    ("Ctrl+X / C / V", "cut, copy, paste in a text field"),
    ("Esc (category list)", "close the list without choosing"),
)
ACTORS = (
    (
        "user",
        "you. Each edit of a field becomes a patch that the parser checks against the config; it "
        "is recorded when you pause, press Enter or leave the field.",
    ),
    (
        "assistant",
        "a model reply you paste into the reply pane. It must be a full state (summary, gates, "
        "status); the preview shows the outcome before {apply_reply} applies it.",
    ),
    (
        "",
        "Only a reply or an edit the parser accepts changes the state; a rejected one changes "
        "nothing and shows its errors. Undo/redo move over both kinds.",
    ),
)
REPLY_PANE = (
    "Pasting into a pane that holds an earlier paste, unchanged since, replaces it; {undo} brings "
    "the earlier text back.",
    "{undo} / {redo} in the reply pane undo and redo its own text edits first; with none left (as "
    "right after {apply_reply} applied a reply) they undo and redo the last transition.",
)


def _filled(text: str, keys: KeyHints) -> str:
    """``text`` with ``{binding_id}`` replaced by that binding's key as bound now."""
    return text.format_map({action.id: keys[action.id] for action in ACTIONS + FIELD_ACTIONS})


def help_renderable(keymap: Mapping[str, str]) -> RenderableType:
    """The whole help text, with the keys as the config's keymap bound them. Every piece is
    a ``rich.text.Text`` (literal, never markup): key strings come from a config file."""
    keys = KeyHints(keymap)
    rows = key_rows(
        ACTIONS + FIELD_ACTIONS, lambda action: visible(keys.all_keys(action.id), one_line=True)
    )
    for key_text, what in EXTRA_KEYS:
        rows.append((Text(key_text, style="bold"), Text(_filled(what, keys))))
    bullets = [(Text(" •"), Text(_filled(text, keys))) for text in REPLY_PANE]
    rules = [
        (Text(f" {number}."), Text(rule)) for number, rule in enumerate(DECISION_RULES, start=1)
    ]
    actors = [(Text(f" {who}", style="bold"), Text(_filled(what, keys))) for who, what in ACTORS]
    return Group(
        heading("Keys"), grid(rows), Text(""),
        heading("The reply pane"), grid(bullets, 4), Text(""),
        heading("Decision rules"), Text(DECISION_RULES_LEAD), grid(rules, 4), Text(""),
        heading("user vs assistant"), grid(actors, 12), Text(""),
        Text("Esc or q closes this screen.", style="dim"),
    )


class HelpScreen(CenteredModal[None]):
    """Keys, rules and actors; dismissed with Esc, F1 or q."""

    # The editor's rules for this screen, unscoped as they were in styles.tcss; kept here
    # so that Textual parses them when the screen first mounts, after the first frame.
    SCOPED_CSS = False
    DEFAULT_CSS = """

        #help-title {
            margin-bottom: 1;
        }
    """

    BINDINGS = [Binding("escape,f1,q", "dismiss", "Close", id="help_close")]

    def __init__(self, keymap: Mapping[str, str]) -> None:
        super().__init__()
        self.keymap = dict(keymap)

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-body", classes="modal-box -tall"):
            yield Static(Content.styled("gate-tui help", "bold"), id="help-title")
            yield Static(help_renderable(self.keymap), id="help-text")

    def on_mount(self) -> None:
        # The scrollable body takes the focus: PageDown, Down and End scroll it at once.
        self.query_one("#help-body").focus()

