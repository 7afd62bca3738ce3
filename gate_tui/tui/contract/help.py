"""Contract mode's help (F1): its keys from the key table, and who decides what."""

from __future__ import annotations

import io

from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static

from gate_tui.tui.contract import keys
from gate_tui.tui.contract.keys import FILE_COMMANDS, hint, shown_keys
from gate_tui.tui.render import DIM

KEY_WIDTH = 22
EXTRA_KEYS = (
    ("Enter (tree)", "edit the selected leaf: type text or a number, pick an enum value or true/false"),
    ("Escape (editing)", "cancel the edit"),
)
RULES = (  # bullets under "The contract decides, never the model and never the editor:"
    "a reply is extracted and repaired as a gate reply is, then checked against the JSON Schema; every error is listed at its JSON Pointer;",
    "each leaf edit (and a value file opened) is a patch checked the same way: the decision panel shows VALID or INVALID as check_contract says;",
    "an invalid value is still kept (the editor is there to fix it); a reply with no JSON object changes nothing.",
)


def _grid(rows: list[tuple[Text, Text]]) -> Table:
    """Two columns, as the gate editor's help: a long text wraps inside its column, so wrapped
    lines keep their indent at 80 columns too."""
    grid = Table.grid(padding=(0, 1), pad_edge=True)
    grid.add_column(width=KEY_WIDTH, min_width=KEY_WIDTH, no_wrap=True)
    grid.add_column(ratio=1)
    for left, right in rows:
        grid.add_row(left, right)
    return grid


def _bullets(texts: tuple[str, ...]) -> Table:
    grid = Table.grid(padding=(0, 1), pad_edge=True)
    grid.add_column(width=3, no_wrap=True)
    grid.add_column(ratio=1)
    for text in texts:
        grid.add_row(Text("•"), Text(text))
    return grid


def help_renderable() -> RenderableType:
    """Keys (from the key table, read at call time), the palette's file commands, the rules.
    Every piece is a literal ``rich.text.Text``, never markup."""
    rows: list[tuple[Text, Text]] = []
    seen: set[str] = set()
    for action in (*keys.ACTIONS, *keys.TREE_ACTIONS, *keys.ASK_ACTIONS):
        if action.id in seen:
            continue  # F1 is bound in the tree too; list it once
        seen.add(action.id)
        rows.append((Text(shown_keys(action.keys), style="bold"), Text(action.name)))
        rows.append((Text(""), Text(action.help, style=DIM)))
    rows += [(Text(key, style="bold"), Text(what)) for key, what in EXTRA_KEYS]
    palette = [(Text(name, style="bold"), Text(what, style=DIM)) for name, what, _action in FILE_COMMANDS]
    return Group(
        Text("Keys", style="bold underline"),
        _grid(rows),
        Text(""),
        Text(f"In the command palette ({hint('command_palette')}) too", style="bold underline"),
        _grid(palette),
        Text(""),
        Text("Validity", style="bold underline"),
        Text("The contract decides, never the model and never the editor:"),
        _bullets(RULES),
        Text(""),
        Text("Esc or F1 closes this screen.", style=DIM),
    )


def help_text(width: int = 100) -> str:
    """The help as plain text at ``width`` columns (what the screen shows, without styles)."""
    console = Console(width=width, record=True, file=io.StringIO(), color_system=None)
    console.print(help_renderable())
    return console.export_text(styles=False)


class ContractHelp(ModalScreen[None]):
    """Keys and rules; dismissed with Esc, F1 or q."""

    DEFAULT_CSS = """
        ContractHelp { align: center middle; }
        #contract-help { width: 90%; max-width: 100; height: 90%; border: round $accent; padding: 0 1; background: $surface; }
    """
    BINDINGS = [Binding("escape,f1,q", "dismiss", "Close", id="contract_help_close")]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="contract-help"):
            yield Static(Content.styled("gate-tui contract mode", "bold"))
            yield Static(help_renderable(), id="contract-help-text")

    def action_dismiss(self) -> None:  # type: ignore[override]
        self.dismiss(None)
