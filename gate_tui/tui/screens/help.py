"""The help screen (F1): the keys as bound now, the decision rule, and user vs assistant."""

from __future__ import annotations

from collections.abc import Mapping

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static

from gate_tui.tui.keymap import ACTIONS, effective_keys, key_display
from gate_tui.tui.render import DIM
from gate_tui.tui.text import line, lines, plain

EXTRA_KEYS = (
    ("Tab / Shift+Tab", "move between panes and fields"),
    ("Enter (gate list)", "edit the selected gate"),
    ("Enter (gate field)", "record the edit now"),
    ("Enter (timeline)", "restore the state after that row (undoable)"),
)
RULES = (
    "The system decides, never the model and never the editor:",
    "  • walk the gates in gate_order; the first required gate that is not complete",
    "    is the next gate, and the decision is NO PASS;",
    "  • when every required gate is complete the decision is PASS;",
    "  • a gate with categories is complete when 'classified' is set,",
    "    a free-text gate when 'raw' is set;",
    "  • a status the model writes is only a claim: when it differs, the decision",
    "    panel says so (\"model claimed PASS — overruled: …\").",
)
ACTORS = (
    "user: you. Each edit of a field becomes a patch that the parser checks against",
    "  the config; it is recorded when you pause, press Enter or leave the field.",
    "assistant: a model reply you paste into the reply pane. It must be a full state",
    "  (summary, gates, status); the preview shows the outcome before Ctrl+J applies it.",
    "Only a reply or an edit the parser accepts changes the state; a rejected one",
    "  changes nothing and shows its errors. Undo/redo move over both kinds.",
)


def help_content(keymap: Mapping[str, str]) -> Content:
    """The whole help text, with the keys as the config's keymap bound them."""
    rows = [plain("Keys", "bold underline")]
    for action in ACTIONS:
        keys = key_display(effective_keys(action, keymap))
        rows.append(line((f"  {keys:<22}", "bold"), action.name))
        rows.append(line(f"  {'':<22}", (action.help, DIM)))
    for keys, what in EXTRA_KEYS:
        rows.append(line((f"  {keys:<22}", "bold"), what))
    rows += [Content(""), plain("Decision rules", "bold underline")] + [plain(text) for text in RULES]
    rows += [Content(""), plain("user vs assistant", "bold underline")] + [plain(text) for text in ACTORS]
    rows += [Content(""), plain("Esc or F1 closes this screen.", DIM)]
    return lines(rows)


class HelpScreen(ModalScreen[None]):
    """Keys, rules and actors; dismissed with Esc, F1 or q."""

    # The editor's rules for this screen, unscoped as they were in styles.tcss; kept here
    # so that Textual parses them when the screen first mounts, after the first frame.
    SCOPED_CSS = False
    DEFAULT_CSS = """
        HelpScreen {
            align: center middle;
        }

        #help-body {
            width: 90%;
            max-width: 100;
            height: 90%;
            border: round $accent;
            padding: 0 1;
            background: $surface;
        }

        #help-title {
            margin-bottom: 1;
        }
    """

    BINDINGS = [Binding("escape,f1,q", "dismiss", "Close", id="help_close")]

    def __init__(self, keymap: Mapping[str, str]) -> None:
        super().__init__()
        self.keymap = dict(keymap)

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-body"):
            yield Static(Content.styled("gate-tui help", "bold"), id="help-title")
            yield Static(help_content(self.keymap), id="help-text")

    def action_dismiss(self) -> None:  # type: ignore[override]
        self.dismiss(None)
