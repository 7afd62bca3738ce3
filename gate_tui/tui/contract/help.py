"""Contract mode's help (F1): its keys from the key table, and who decides what."""

from __future__ import annotations

import io

from rich.console import Console, Group, RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.content import Content
from textual.widgets import Static

from gate_tui.tui.contract import keys
from gate_tui.tui.contract.keys import FILE_COMMANDS, hint, shown_keys
from gate_tui.tui.help_render import grid, heading, key_rows
from gate_tui.tui.render import DIM
from gate_tui.tui.screens.modal import CenteredModal

EXTRA_KEYS = (
    (
        "Enter (tree)",
        "edit the selected leaf: type text or a number, pick an enum value or true/false",
    ),
    ("Escape (editing)", "cancel the edit"),
)
RULES = (  # bullets under "The contract decides, never the model and never the editor:"
    "a reply is extracted and repaired as a gate reply is, then checked against the JSON Schema; "
    "every error is listed at its JSON Pointer;",
    "each leaf edit (and a value file opened) is a patch checked the same way: the decision panel "
    "shows VALID or INVALID as check_contract says;",
    "an invalid value is still kept (the editor is there to fix it); a reply with no JSON object "
    "changes nothing.",
)


def help_renderable() -> RenderableType:
    """Keys (from the key table, read at call time), the palette's file commands, the rules.
    Every piece is a literal ``rich.text.Text``, never markup."""
    rows = key_rows(
        (*keys.ACTIONS, *keys.TREE_ACTIONS, *keys.ASK_ACTIONS),
        lambda action: shown_keys(action.keys),
    )
    rows += [(Text(key, style="bold"), Text(what)) for key, what in EXTRA_KEYS]
    palette = [
        (Text(name, style="bold"), Text(what, style=DIM)) for name, what, _action in FILE_COMMANDS
    ]
    return Group(
        heading("Keys"),
        grid(rows),
        Text(""),
        heading(f"In the command palette ({hint('command_palette')}) too"),
        grid(palette),
        Text(""),
        heading("Validity"),
        Text("The contract decides, never the model and never the editor:"),
        grid([(Text(" •"), Text(rule)) for rule in RULES], 4),
        Text(""),
        Text("Esc or F1 closes this screen.", style=DIM),
    )


def help_text(width: int = 100) -> str:
    """The help as plain text at ``width`` columns (what the screen shows, without styles)."""
    console = Console(width=width, record=True, file=io.StringIO(), color_system=None)
    console.print(help_renderable())
    return console.export_text(styles=False)


class ContractHelp(CenteredModal[None]):
    """Keys and rules; dismissed with Esc, F1 or q."""

    BINDINGS = [Binding("escape,f1,q", "dismiss", "Close", id="contract_help_close")]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="contract-help", classes="modal-box -tall"):
            yield Static(Content.styled("gate-tui contract mode", "bold"))
            yield Static(help_renderable(), id="contract-help-text")

