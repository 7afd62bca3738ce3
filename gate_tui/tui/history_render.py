"""The history pane's wording: the last change (before → after), its heading and the
timeline's cells, for transitions and for the journal's other records (rejected attempts,
model calls) that appear in the timeline but cannot be restored.

Pure functions from models to ``Content`` (and ``rich.text.Text`` for the table's cells:
``DataTable`` parses ``str`` as markup); every string from a model or a user goes through
:mod:`gate_tui.tui.text`.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from rich.text import Text
from textual.content import Content

from gate_tui.tui.keymap import DEFAULT_HINTS, KeyHints
from gate_tui.tui.render import BAD_STYLE, DIM, OK_STYLE, number, overrule_line, verdict
from gate_tui.tui.text import apart, line, lines, middle, plain, shown, visible

if TYPE_CHECKING:
    from gate_tui.models import FieldChange, GateDiff
    from gate_tui.session.history import Transition

VALUE_CELLS = 48
"""Longest a value is shown in a change row when the width is not known."""


def change_row(change: FieldChange, width: int | None = None) -> Content:
    """``2_use_case.raw  — → “Rank tickets”``, fitting ``width`` cells when given: long
    values lose their middle, so both ends of both sides and the arrow stay visible."""
    path = visible(change["path"].removeprefix("gates."), one_line=True)
    if width is None:
        pair = shown(change["before"], VALUE_CELLS), shown(change["after"], VALUE_CELLS)
        before, after = distinct(change["before"], change["after"], pair)
    else:  # 7 cells: the indent, the gap and " → "
        values = len(shown(change["before"], width)) + len(shown(change["after"], width))
        path = middle(
            path, max(width - 7 - values, width * 2 // 5, 12)
        )  # cut only when the values need the room
        before, after = fitted_values(
            change["before"], change["after"], max(width - len(path) - 7, 10)
        )
    return line(
        "  ", (path, "bold"), "  ", (before, "$text-error"), (" → ", DIM), (after, "$text-success")
    )


def fitted_values(before: object, after: object, room: int) -> tuple[str, str]:
    """Both values of a change in ``room`` cells: a short side keeps its full text and
    leaves the rest to the other; two long sides share it (each cut in the middle)."""
    full_before, full_after = shown(before, room), shown(after, room)
    if len(full_before) + len(full_after) <= room:
        return full_before, full_after
    half = room // 2
    if len(full_before) <= half:
        pair = full_before, shown(after, room - len(full_before))
    elif len(full_after) <= half:
        pair = shown(before, room - len(full_after)), full_after
    else:
        pair = shown(before, half), shown(after, room - half)
    return distinct(before, after, pair)


def distinct(before: object, after: object, pair: tuple[str, str]) -> tuple[str, str]:
    """``pair`` (the two values as cut), unless the cut took out their difference: then
    the same widths showing where the two texts differ (#28: "Lift@10%…nt rules" twice)."""
    if (
        pair[0] != pair[1]
        or not isinstance(before, str)
        or not isinstance(after, str)
        or before == after
    ):
        return pair
    cut = apart(
        visible(before, one_line=True),
        visible(after, one_line=True),
        len(pair[0]) - 2,
        len(pair[1]) - 2,
    )
    return f"“{cut[0]}”", f"“{cut[1]}”"  # quotes: 2 cells of each side


def field_changes(diff: GateDiff | None) -> list[FieldChange]:
    """The changed fields of a diff without the status block (shown as the decision instead)."""
    if diff is None:
        return []
    return [change for change in diff.changes if not change["path"].startswith("status.")]


def decision_change(diff: GateDiff | None) -> Content | None:
    """``decision  NO PASS → PASS`` when a transition changed the verdict."""
    if diff is None:
        return None
    for change in diff.changes:
        old, new = change["before"], change["after"]
        if change["path"] == "status.pass" and old is not None and old != new:
            before, after = ("PASS" if old else "NO PASS"), ("PASS" if new else "NO PASS")
            return line(
                "  ",
                ("decision", "bold"),
                "  ",
                before,
                (" → ", DIM),
                (after, OK_STYLE if new else BAD_STYLE),
            )
    return None


def clock(at: str) -> str:
    """``HH:MM:SS`` local time of an ISO timestamp (the raw text if it is not one)."""
    try:
        return datetime.fromisoformat(at).astimezone().strftime("%H:%M:%S")
    except ValueError:
        return visible(at[:19], one_line=True)


def transition_heading(transition: Transition) -> Content:
    """``#3 reply · assistant · 12:03:01`` (+ what an undo/redo/jump restored)."""
    parts: list[str | tuple[str, str]] = [
        (f"{number(transition.index)} {transition.kind}", "bold"),
        (" by ", DIM),
        (transition.actor, "bold $accent"),
    ]
    if transition.target is not None:
        restored = "the initial state" if transition.target < 0 else number(transition.target)
        parts.append((f" (restored {restored})", DIM))
    parts.append((f" · {clock(transition.at)}", DIM))
    return line(*parts)


def diff_view(
    transition: Transition | None, width: int | None = None, keys: KeyHints = DEFAULT_HINTS
) -> Content:
    """The diff pane: the last transition's actor and each changed field, before → after
    (each row fitting ``width`` cells when given)."""
    if transition is None:
        return lines(
            [
                plain("No changes yet.", "italic"),
                plain(f"Type in a gate or apply a reply ({keys['focus_reply']}).", DIM),
            ]
        )
    rows = [transition_heading(transition)]
    changed = [change_row(change, width) for change in field_changes(transition.diff)]
    rows.extend(changed or [plain("  no field changed", DIM)])
    verdict_row = decision_change(transition.diff)
    if verdict_row is not None:
        rows.append(verdict_row)
    overruled = overrule_line(transition.claimed_status, transition.decision)
    if overruled is not None:
        rows.append(overruled)
    return lines(rows)


CHANGED_CELLS = 22
"""Width of the timeline's "fields changed" column."""


def changed_summary(diff: GateDiff) -> str:
    """``summary, 2_use_case.raw`` for a timeline cell (at most :data:`CHANGED_CELLS` long)."""
    paths = [change["path"].removeprefix("gates.") for change in field_changes(diff)]
    if not paths:
        return "—"
    return cut(visible(", ".join(paths), one_line=True))


def timeline_cells(transition: Transition) -> tuple[Text, ...]:
    """The cells of one timeline row (in :data:`~gate_tui.tui.widgets.history_pane.COLUMNS`
    order): ``rich.text.Text`` (DataTable parses ``str`` as markup)."""
    word = verdict(transition.decision)
    return (
        Text(str(transition.index + 1), style="dim"),
        Text(word, style="bold green" if transition.decision.pass_ else "bold red"),
        Text(clock(transition.at)),
        Text(transition.actor, style="bold"),
        Text(transition.kind),
        Text(changed_summary(transition.diff)),
    )


ATTEMPT_MARKS = {"rejected": ("✗", "bold red"), "model_call": ("↗", "bold yellow")}
"""The number column of an attempt: it has no transition number (it cannot be restored)."""


def attempt_cells(record: dict[str, object]) -> tuple[Text, ...]:
    """The cells of a rejected attempt (``✗ rejected … reply  2 errors``) or a model call
    (``↗ call … model ask  invalid · …``), in the same columns as a transition's."""
    kind = str(record.get("kind"))
    mark, style = ATTEMPT_MARKS.get(kind, ("?", "dim"))
    at = str(record.get("at") or "")
    if kind == "model_call":
        retry = record.get("call_kind") == "retry"
        outcome = visible(str(record.get("outcome") or "?")[:40], one_line=True)
        message = visible(str(record.get("message") or "")[:200], one_line=True)
        summary = f"{outcome} · {message}" if message else outcome
        return (
            Text(mark, style=style),
            Text("call", style="yellow"),
            Text(clock(at)),
            Text("model", style="bold"),
            Text("retry" if retry else "ask"),
            Text(cut(summary), style="dim"),
        )
    errors = record.get("errors")
    count = len(errors) if isinstance(errors, list) else 0
    actor = "assistant" if record.get("actor") == "assistant" else "user"
    return (
        Text(mark, style=style),
        Text("rejected", style="bold red"),
        Text(clock(at)),
        Text(actor, style="bold"),
        Text("reply" if actor == "assistant" else "edit"),
        Text(f"{count} error{'' if count == 1 else 's'}", style="red"),
    )


def cut(text: str) -> str:
    """``text`` in at most :data:`CHANGED_CELLS` cells (the last column)."""
    return text if len(text) <= CHANGED_CELLS else text[: CHANGED_CELLS - 1] + "…"
