"""Contract mode's help (F1): its keys from the key table, and who decides what."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static

from gate_tui.tui.contract import keys
from gate_tui.tui.contract.keys import FILE_COMMANDS, hint, shown_keys
from gate_tui.tui.render import DIM
from gate_tui.tui.text import line, lines, plain

EXTRA_KEYS = (
    ("Enter (tree)", "edit the selected leaf: type text or a number, pick an enum value or true/false"),
    ("Escape (editing)", "cancel the edit"),
)
RULES = (
    "The contract decides, never the model and never the editor:",
    "  • a reply is extracted and repaired as a gate reply is, then checked against",
    "    the JSON Schema; every error is listed at its JSON Pointer;",
    "  • each leaf edit is a patch checked the same way: the decision panel shows",
    "    VALID or INVALID as check_contract says;",
    "  • an invalid value is still kept (the editor is there to fix it); a reply with",
    "    no JSON object changes nothing.",
)


def help_content() -> Content:
    rows = [plain("Keys", "bold underline")]
    seen: set[str] = set()
    for action in (*keys.ACTIONS, *keys.TREE_ACTIONS):  # read at call time: the one table
        if action.id in seen:
            continue  # F1 is bound in the tree too; list it once
        seen.add(action.id)
        rows.append(line((f"  {shown_keys(action.keys):<22}", "bold"), action.name))
        rows.append(line(f"  {'':<22}", (action.help, DIM)))
    for key, what in EXTRA_KEYS:
        rows.append(line((f"  {key:<22}", "bold"), what))
    rows += [Content(""), plain(f"In the command palette ({hint('command_palette')}) too", "bold underline")]
    for name, what, _action in FILE_COMMANDS:
        rows.append(line((f"  {name:<22}", "bold"), (what, DIM)))
    rows += [Content(""), plain("Validity", "bold underline")] + [plain(text) for text in RULES]
    rows += [Content(""), plain("Esc or F1 closes this screen.", DIM)]
    return lines(rows)


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
            yield Static(help_content(), id="contract-help-text")

    def action_dismiss(self) -> None:  # type: ignore[override]
        self.dismiss(None)
