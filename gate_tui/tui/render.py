"""Pure functions from models to display Content: decision, preview rows, gate rows.

Kept apart from the widgets so each screen element's wording is defined once and can
be tested without running an app. Every string that came from a model or a user goes
through :mod:`gate_tui.tui.text`, so nothing here is ever parsed as markup.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from textual.content import Content

from gate_tui.decision import gate_blocked, gate_complete
from gate_tui.grounding.display import MARKS
from gate_tui.tui.keymap import DEFAULT_HINTS, KeyHints
from gate_tui.tui.text import line, lines, plain
from gate_tui.warning_codes import shown_elsewhere

if TYPE_CHECKING:
    # Types only: the first frame is drawn before pydantic (gate_tui.models) is loaded.
    from gate_tui.models import (
        ParseError,
        ParseWarning,
        Repair,
        StatusInfo,
    )
    from gate_tui.views import ConfigView, DecisionView, ValueView

_FONT = {
    "N": ("█▄ █", "█ ▀█"),
    "O": ("█▀█", "█▄█"),
    "P": ("█▀█", "█▀▀"),
    "A": ("▄▀█", "█▀█"),
    "S": ("█▀", "▄█"),
    " ": ("  ", "  "),
}
OK_STYLE = "bold $text-success"
BAD_STYLE = "bold $text-error"
WARN_STYLE = "bold $text-warning"
DIM = "dim"
BLOCKED_MARK = ("⊘", "$text-error")
"""A blocked required gate (one cell wide, so the list's columns stay aligned)."""


def verdict(decision: DecisionView | None) -> str:
    """``PASS`` / ``NO PASS``: the word, so the decision never depends on colour alone."""
    return "PASS" if decision is not None and decision.pass_ else "NO PASS"


def big_word(word: str) -> Content:
    """``word`` in a two-row block font (only the letters of PASS / NO PASS)."""
    rows = ["", ""]
    for char in word:
        glyph = _FONT.get(char, (char, " " * len(char)))
        rows = [rows[0] + glyph[0] + " ", rows[1] + glyph[1] + " "]
    return Content("\n".join(row.rstrip() for row in rows))


def reason_text(decision: DecisionView) -> str:
    """Why the system decided as it did, in words."""
    if decision.reason == "user_override":
        return "user override (this config's policy allows it)"
    if decision.pass_:
        return "every required gate is answered"
    if decision.reason == "required_blocked":
        return f"required gate {decision.next_gate} is blocked: {decision.blocked_value}"
    if decision.reason == "required_ungrounded":
        return (
            f"required gate {decision.next_gate}'s answer is not the user's words"
            " (grounding: require)"
        )
    return f"required gate {decision.next_gate} is missing"


def short_reason(decision: DecisionView) -> str:
    """``2_use_case missing`` / ``all required gates answered``: the tail of one-line verdicts."""
    if decision.reason == "user_override":
        return "user override"
    if decision.pass_:
        return "all required gates answered"
    if decision.reason == "required_blocked":
        return f"{decision.next_gate} blocked: {decision.blocked_value}"
    if decision.reason == "required_ungrounded":
        return f"{decision.next_gate} not the user's words"
    return f"{decision.next_gate} missing"


def gate_title(config: ConfigView, key: str) -> str:
    label = config.gates[key].label
    return f"{key} — {label}" if label else key


def overrule_line(claimed: StatusInfo | None, decision: DecisionView | None) -> Content | None:
    """``model claimed PASS — overruled: 2_use_case missing`` when the model disagreed."""
    if claimed is None or decision is None:
        return None
    if claimed.pass_ != decision.pass_:
        said = "PASS" if claimed.pass_ else "NO PASS"
        return line((f"model claimed {said} — overruled: {short_reason(decision)}", WARN_STYLE))
    if not decision.pass_ and claimed.next_gate != decision.next_gate:
        said = f"next gate {claimed.next_gate}" if claimed.next_gate else "no next gate"
        return line((f"model claimed {said} — overruled: {short_reason(decision)}", WARN_STYLE))
    return None


def decision_details(
    config: ConfigView,
    decision: DecisionView,
    extra: Sequence[Content] = (),
    keys: KeyHints = DEFAULT_HINTS,
    width: int | None = None,
) -> Content:
    """The text beside the big word: verdict, reason, next gate (and the key that jumps
    there), the ``extra`` lines and the next gate's question. In a narrow ``width`` the
    words shorten before the gate key is ever cut (``1_data_availability missing``: the
    big word says NO PASS)."""
    style = OK_STYLE if decision.pass_ else BAD_STYLE
    rows = [fitting(width, [
        line((verdict(decision), style), (" · ", DIM), reason_text(decision)),
        line((verdict(decision), style), (" · ", DIM), short_reason(decision)),
        line((short_reason(decision), style)),
    ])]
    if decision.next_gate is not None and decision.next_gate in config.gates:
        key, jump = decision.next_gate, keys["next_gate"]
        next_row = fitting(width, [
            line(("Next ▶ ", DIM), (gate_title(config, key), "bold"), (f"  {jump}", DIM)),
            line(("Next ▶ ", DIM), (key, "bold"), (f"  {jump}", DIM)),
            line(("▶ ", DIM), (key, "bold"), (f" {jump}", DIM)),
            line(("▶ ", DIM), (key, "bold")),
        ])
        rows.append(next_row)
    # The extra lines (a model's claim overruled, the live-edit marker) before the question:
    # the question is the one line a toast may cover (DecisionPanel.keep_clear), being shown
    # again in the gate's own form.
    rows.extend(extra)
    if decision.next_gate is not None and decision.next_gate in config.gates:
        rows.append(
            plain(decision.next_question or config.gates[decision.next_gate].question, "italic")
        )
    return lines(rows)


def status_rows(config: ConfigView, decision: DecisionView, extra: Sequence[Content]) -> int:
    """How many lines of :func:`decision_details` come before the question: the verdict,
    the next gate and the extra lines (what a toast must never cover)."""
    has_next = decision.next_gate is not None and decision.next_gate in config.gates
    return 1 + int(has_next) + len(extra)


def fitting(width: int | None, choices: list[Content]) -> Content:
    """The first of ``choices`` (longest first) that fits ``width``; the last one otherwise."""
    if width is None:
        return choices[0]
    return next((choice for choice in choices if choice.cell_length <= width), choices[-1])


def gate_row(
    config: ConfigView, key: str, value: ValueView | None, is_next: bool, said: str | None = None
) -> Content:
    """One row of the gate list: next marker, complete mark (⊘ for a blocked required gate:
    answered, yet it keeps the decision at NO PASS), required mark, key and label, and
    who said the answer (``said``: a provenance kind, see :mod:`gate_tui.session.provenance`)."""
    gate = config.gates[key]
    done = gate_complete(gate, value)
    if gate_blocked(gate, value):
        mark = BLOCKED_MARK
    else:
        mark = (
            ("✓", "$text-success")
            if done
            else (("✗", "$text-error") if gate.required else ("–", DIM))
        )
    pointer = ("▶", WARN_STYLE) if is_next else (" ", "")
    required = ("*", "bold") if gate.required else (" ", "")
    label = (f"  {gate.label}", DIM) if gate.label else ("", "")
    key_style = WARN_STYLE if is_next else ""
    word = MARKS.get(said or "") if value is not None and value.raw else None
    tag = (
        (f"  {word}", BAD_STYLE if said == "ungrounded" else WARN_STYLE if said == "near" else DIM)
        if word
        else ("", "")
    )
    return line(pointer, " ", mark, " ", required, " ", (key, key_style), label, tag)


def number(index: int) -> str:
    """``#3``: a transition's number as people (and the review report) count, from #1."""
    return f"#{index + 1}"


def jump_style(line_no: int, column: int) -> str:
    """A reply position (1-based) drawn as a link: a click puts the reply pane's cursor there
    with the span highlighted (the preview's ``goto`` action)."""
    return f"bold underline @click=goto({int(line_no)},{int(column)})"


def error_rows(errors: Iterable[ParseError]) -> list[Content]:
    """Each error with its ``field_path``, code, message, ``expected`` and ``actual``."""
    rows: list[Content] = []
    for error in errors:
        rows.append(
            line(
                ("✗ ", BAD_STYLE),
                (error.field_path or "(whole reply)", "bold"),
                (f"  [{error.code}]", DIM),
            )
        )
        rows.append(line("    ", error.message))
        if error.expected is not None or error.actual is not None:
            rows.append(
                line(
                    ("    expected ", DIM),
                    error.expected or "—",
                    ("  actual ", DIM),
                    error.actual or "—",
                )
            )
    return rows


def repair_rows(repairs: Iterable[Repair]) -> list[Content]:
    """One row per repair, labelled: a guess GUESS (the reviewer checks it before applying),
    any other exact."""
    return [
        line(
            ("  ", ""),
            (f"{repair.line}:{repair.column}", jump_style(repair.line, repair.column)),
            "  ",
            ("GUESS ", WARN_STYLE) if repair.certainty == "guess" else ("exact ", DIM),
            repair.message,
        )
        for repair in repairs
    ]


def warning_rows(warnings: Iterable[ParseWarning]) -> list[Content]:
    """Warnings that are not repairs (those are listed with their positions already), with
    the warning's line:column when it has one (e.g. the candidate the parser used)."""
    rows: list[Content] = []
    for warning in warnings:
        if shown_elsewhere(warning.code):
            continue
        where = (
            f"{warning.line}:{warning.column}  "
            if warning.line is not None and warning.column is not None
            else ""
        )
        rows.append(line(("  ! ", WARN_STYLE), (where, "bold"), warning.message))
    return rows


def field_messages(
    errors: Iterable[ParseError], warnings: Iterable[ParseWarning], path: str
) -> Content:
    """The errors (and warnings) of one form field, for the line under it."""
    rows = [
        line(("✗ ", BAD_STYLE), error.message)
        for error in errors
        if _concerns(error.field_path, path)
    ]
    rows += [
        line(("! ", WARN_STYLE), warning.message)
        for warning in warnings
        if _concerns(warning.field_path, path)
    ]
    return lines(rows)


def _concerns(field_path: str, path: str) -> bool:
    return field_path == path or field_path.startswith(path + ".")
