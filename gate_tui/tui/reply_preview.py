"""The reply preview: what applying a reply would do, before it is applied.

The verdict after it (with every required gate still outstanding), what the reviewer must
see first (answers the reply clears, the reply's candidate objects: passed in as rows),
the parser's repairs and warnings, the fields that would change; or, for a reply that
cannot apply, every error and what the parser could read. Built from the pieces of
:mod:`gate_tui.tui.render`, as literal :class:`~textual.content.Content`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from textual.content import Content

from gate_tui.decision import outstanding
from gate_tui.grounding.display import grounding_first
from gate_tui.tui.history_render import change_row, decision_change, field_changes
from gate_tui.tui.keymap import DEFAULT_HINTS, KeyHints
from gate_tui.tui.render import (
    BAD_STYLE,
    DIM,
    OK_STYLE,
    error_rows,
    overrule_line,
    repair_rows,
    short_reason,
    verdict,
    warning_rows,
)
from gate_tui.tui.text import line, lines, plain, shown, visible
from gate_tui.warning_codes import DIFFERENT_STATES, SEVERAL_CANDIDATES

if TYPE_CHECKING:
    from gate_tui.models import ParseResult
    from gate_tui.views import ConfigView, ValueView

PICKER_CODES = frozenset({DIFFERENT_STATES, SEVERAL_CANDIDATES})
"""Warnings the candidate picker says itself (left out of the warnings list when it is shown)."""


def preview(
    result: ParseResult,
    keys: KeyHints = DEFAULT_HINTS,
    config: ConfigView | None = None,
    picker: Sequence[Content] = (),
    notes: Sequence[Content] = (),
    *,
    advice: bool = True,
) -> Content:
    """What applying a reply would do: decision after (every required gate outstanding,
    given the ``config``), repairs, changes, or the errors. ``notes`` and the ``picker`` (the
    reply's objects: :mod:`gate_tui.tui.candidates_view`) come right after the verdict.
    ``advice=False`` leaves out the closing line on what to do (review has no reply to apply)."""
    skip = PICKER_CODES if picker else frozenset()
    rows = _preview_ok(result, config, skip) if result.ok else _preview_failed(result, skip)
    rows[1:1] = [*notes, *picker]
    if advice:
        rows.append(
            plain(
                f"{keys['apply_reply']} applies it."
                if result.ok
                else "Fix the reply (or ask the model again); nothing was changed.",
                DIM,
            )
        )
    return lines(rows)


def _preview_notes(result: ParseResult, skip: frozenset[str] = frozenset()) -> list[Content]:
    rows: list[Content] = []
    if result.repairs:
        rows.append(plain(f"Repairs the parser applied ({len(result.repairs)}):", "bold"))
        rows.extend(repair_rows(result.repairs))
    warned = warning_rows(w for w in grounding_first(result.warnings) if w.code not in skip)
    if warned:
        rows.append(plain("Warnings:", "bold"))
        rows.extend(warned)
    return rows


def outstanding_rows(config: ConfigView, gates: Mapping[str, ValueView]) -> list[Content]:
    """Every required gate still missing or blocked, when there is more than the one the
    decision names: so that one more reply (or one round of edits) can fix them all."""
    still = outstanding(config, gates)
    if still.count <= 1:
        return []
    rows = [line(("  missing ", BAD_STYLE), ", ".join(still.missing))] if still.missing else []
    if still.blocked:
        rows.append(line(("  blocked ", BAD_STYLE), ", ".join(still.blocked_names())))
    return [plain(f"Required gates still outstanding ({still.count}):", "bold"), *rows]


def _preview_ok(
    result: ParseResult, config: ConfigView | None = None, skip: frozenset[str] = frozenset()
) -> list[Content]:
    decision = result.decision
    assert decision is not None
    style = OK_STYLE if decision.pass_ else BAD_STYLE
    rows = [
        line(
            ("If applied: ", "bold"),
            (verdict(decision), style),
            (" · ", DIM),
            short_reason(decision),
        )
    ]
    if config is not None and not decision.pass_ and result.canonical_state is not None:
        rows.extend(outstanding_rows(config, result.canonical_state.gates))
    overruled = overrule_line(result.claimed_status, decision)
    if overruled is not None:
        rows.append(overruled)
    rows.extend(_preview_notes(result, skip))
    changes = field_changes(result.diff)
    rows.append(
        plain(
            f"Fields that would change ({len(changes)}):" if changes else "No field would change.",
            "bold",
        )
    )
    rows.extend(change_row(change) for change in changes)
    verdict_row = decision_change(result.diff)
    if verdict_row is not None:
        rows.append(verdict_row)
    return rows


def _preview_failed(result: ParseResult, skip: frozenset[str] = frozenset()) -> list[Content]:
    count = len(result.errors)
    rows = [
        line(
            (f"Cannot apply: {count} error{'s' * (count != 1)}", BAD_STYLE),
            (" — the state would not change", DIM),
        )
    ]
    rows.extend(error_rows(result.errors))
    if result.recovered is not None:
        rows.append(plain("What the parser could read (not applied):", "bold"))
        rows.extend(recovered_rows(result.recovered))
    return rows + _preview_notes(result, skip)


def recovered_rows(value: dict[str, Any], limit: int = 16) -> list[Content]:
    """The leaves of an object a policy refused (a cut-off reply), ``path: value`` each,
    so the reviewer sees how far the reply got; at most ``limit`` rows, then a count."""
    leaves: list[tuple[str, Any]] = []
    pending: list[tuple[str, Any]] = [("", value)]
    while pending:
        path, item = pending.pop()
        if isinstance(item, dict) and item:
            pending.extend(
                reversed(
                    [(f"{path}.{key}" if path else str(key), child) for key, child in item.items()]
                )
            )
        elif isinstance(item, list) and item:
            pending.extend(
                reversed([(f"{path}.{index}", child) for index, child in enumerate(item)])
            )
        else:
            leaves.append((path, item))
    rows = [
        line(("  " + visible(path, one_line=True), "bold"), (" " + shown(item), OK_STYLE))
        for path, item in leaves[:limit]
    ]
    if len(leaves) > limit:
        rows.append(plain(f"  … and {len(leaves) - limit} more", DIM))
    return rows


