"""What contract mode's panes show, as :class:`~textual.content.Content` built from literal
text (a model's keys and values are data: never markup, escapes made visible)."""

from __future__ import annotations

import json
from typing import Any

from rich.text import Text
from textual.content import Content

from gate_tui.contracts.loading import Contract
from gate_tui.contracts.results import ContractError, ContractResult
from gate_tui.tui.contract.keys import hint
from gate_tui.tui.render import BAD_STYLE, DIM, OK_STYLE, WARN_STYLE, jump_style
from gate_tui.tui.text import line, lines, plain, visible

MAX_ERRORS_SHOWN = 50


def verdict_word(result: ContractResult | None) -> tuple[str, str]:
    if result is None:
        return "NO VALUE YET", DIM
    if result.ok:
        return "VALID", OK_STYLE
    count = len(result.errors)
    return f"INVALID ({count} error{'s' * (count != 1)})", BAD_STYLE


def preview(result: ContractResult, *, advice: bool = True) -> Content:
    """The reply pane's preview: the verdict, every error at its path, every repair
    (``advice=False``: without the closing hint on applying it; review has nothing to apply)."""
    word, style = verdict_word(result)
    rows = [
        line(
            ("Preview: ", DIM),
            (word, style),
            (f"  (from {result.source})" if result.source else "", DIM),
        )
    ]
    rows += [error_line(error) for error in result.errors[:MAX_ERRORS_SHOWN]]
    if len(result.errors) > MAX_ERRORS_SHOWN:
        rows.append(plain(f"… and {len(result.errors) - MAX_ERRORS_SHOWN} more", DIM))
    for repair in result.repairs:
        sure = ("GUESS ", WARN_STYLE) if repair.certainty == "guess" else ("exact ", DIM)
        where = (f"line {repair.line}:{repair.column}", jump_style(repair.line, repair.column))
        rows.append(line(("repaired ", DIM), sure, where, (": ", DIM), repair.message))
    if advice and result.ok and not result.repairs:
        rows.append(plain(f"{hint('apply_reply')} takes this value.", DIM))
    return lines(rows)


def current_errors(result: ContractResult) -> Content:
    """The current value's errors in full, for the reply pane when it is empty."""
    word, style = verdict_word(result)
    rows = [line(("Current value: ", DIM), (word, style))]
    rows += [error_line(error) for error in result.errors[:MAX_ERRORS_SHOWN]]
    if len(result.errors) > MAX_ERRORS_SHOWN:
        rows.append(plain(f"… and {len(result.errors) - MAX_ERRORS_SHOWN} more", DIM))
    rows.append(
        plain(
            f"{hint('focus_tree')} then Enter edits a leaf; {hint('focus_reply')} pastes another "
            "reply.",
            DIM,
        )
    )
    return lines(rows)


def error_line(error: ContractError) -> Content:
    """One error as ``check`` prints it: path, message, what was expected (an enum's
    allowed values, say), code."""
    return line(
        (f"{error.path or '/'} ", "bold"),
        error.message + error.expected_detail(),
        (f" [{error.code}]", DIM),
    )


def decision(
    contract: Contract, result: ContractResult | None, position: tuple[int, int]
) -> Content:
    """The decision panel: VALID / INVALID as the system says, the value's verdict field
    marked as the reply's claim, the history."""
    word, style = verdict_word(result)
    rows = [line((word, style))]
    name = contract.verdict_field
    if name and result is not None and isinstance(result.value, dict) and name in result.value:
        # The value's own verdict field is the model's claim, not the decision: said as such.
        claim = visible(json.dumps(result.value[name], ensure_ascii=False), one_line=True)
        rows.append(
            line(
                ("the reply claims ", DIM),
                (f"{name}: {claim}", ""),
                (" (its claim, not the decision)", DIM),
            )
        )
    if result is not None:
        rows.append(plain(f"{len(result.repairs)} repairs · {len(result.warnings)} warnings", DIM))
    index, total = position
    rows.append(plain(f"change {index} of {total - 1}", DIM))
    return lines(rows)


def node_label(key: str, value: Any, errors: list[ContractError], missing: bool = False) -> Text:
    """A tree node: ``key: value`` for a leaf, ``key {n}`` / ``key [n]`` for a container,
    then the errors that sit on it.

    A rich :class:`~rich.text.Text` assembled from literal pieces (``Tree`` parses plain
    strings as markup), each piece made visible first.
    """
    name = visible(key, one_line=True)
    if missing:
        parts: list[tuple[str, str]] = [(name, "bold"), (": (missing)", "italic")]
    elif isinstance(value, dict):
        parts = [(name, "bold"), (f" {{{len(value)}}}", "dim")]
    elif isinstance(value, list):
        parts = [(name, "bold"), (f" [{len(value)}]", "dim")]
    else:
        parts = [(name, "bold"), (": ", ""), (visible(_leaf(value), one_line=True), "")]
    for error in errors:
        parts += [
            ("  ✗ ", "bold red"),
            (f"{error.code}: ", "bold red"),
            (visible(error.message, one_line=True), "red"),
        ]
    return Text.assemble(*parts)


def _leaf(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 80 else text[:79] + "…"
