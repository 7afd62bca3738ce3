"""The one help renderer: both editors' F1 screens are built from these pieces.

Every piece is a literal ``rich.text.Text`` (never markup): key strings come from a
config's keymap. Two columns, the first a fixed width; a long text wraps inside its
column, so wrapped lines keep their indent at 80 columns too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from rich.table import Table
from rich.text import Text

from gate_tui.tui.keymap import KeyAction

KEY_WIDTH = 22


def grid(rows: Iterable[tuple[Text, Text]], width: int = KEY_WIDTH) -> Table:
    """Two columns, the first ``width`` cells wide (padding included)."""
    table = Table.grid(padding=(0, 1), pad_edge=True)
    table.add_column(width=width, min_width=width, no_wrap=True)
    table.add_column(ratio=1)
    for left, right in rows:
        table.add_row(left, right)
    return table


def heading(text: str) -> Text:
    return Text(text, style="bold underline")


def key_rows(
    actions: Iterable[KeyAction], keys_of: Callable[[KeyAction], str]
) -> list[tuple[Text, Text]]:
    """Two rows an action: its keys (as bound now) and name, then its help line, dimmed.
    An action listed twice (bound in two places) is listed once."""
    rows: list[tuple[Text, Text]] = []
    seen: set[str] = set()
    for action in actions:
        if action.id in seen:
            continue
        seen.add(action.id)
        rows.append((Text(keys_of(action), style="bold"), Text(action.name)))
        rows.append((Text(""), Text(action.help, style="dim")))
    return rows
