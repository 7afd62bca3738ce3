"""The review report: a Markdown story of a session, built from its journal records.

It works from the records alone (no Session, no config needed), so ``gate-tui report``
can tell the story of any session on disk. For each transition it gives the time, the
kind and actor, the fields that changed, the repairs applied, the model's claimed
status against the system's decision, and every rejected attempt with its errors.
Everything taken from a payload or a journal is shown, never acted on: control, bidi and
zero-width characters become visible markers (:func:`gate_tui.safe_text.visible`, also
applied to the whole report as a last net), and what a Markdown or HTML viewer would act
on (raw HTML such as ``<script>``, ``[x](javascript:…)`` links, a ``|`` that would break a
table row, emphasis) is escaped. Values are shortened; the journal keeps the exact text.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from pydantic import ValidationError

from gate_tui.decision import describe_decision
from gate_tui.models import GateDecision
from gate_tui.safe_text import visible
from gate_tui.session.records import ACCEPT_KINDS, MOVE_KINDS, Record
from gate_tui.warning_codes import shown_elsewhere

VALUE_LIMIT = 120
PAYLOAD_LIMIT = 300
MAX_CHANGES = 40
# Backslash-escaped: enough to stop emphasis, links (``[x](javascript:…)``), entities and
# table breaks. Angle brackets become entities instead, so no ``<tag`` is left in the text.
# One translate table (a regex substitution with a group template was a fifth of a long
# report's time): each special character escaped, angle brackets as entities.
_MARKDOWN = str.maketrans({**{char: "\\" + char for char in "\\`*_[]()|~&"}, "<": "&lt;", ">": "&gt;"})
# Runs of blanks and line breaks become one space; control characters that Python also
# counts as whitespace (CR, VT, FF, FS…US, NEL) are left for visible() to show.
_SPACE = re.compile(r"[^\S\r\x0b\x0c\x1c-\x1f\x85]+")
_PLAIN = re.compile(r"[\w.:/+=@#%,;!?'\"$ -]*")  # nothing Markdown or HTML acts on inside a code span
_TITLES = {
    ("reply", "assistant"): "Model reply",
    ("edit", "user"): "Edit by the user",
    ("undo", "user"): "Undo",
    ("redo", "user"): "Redo",
    ("jump", "user"): "Jump on the timeline",
}


def render_report(
    header: Record | None,
    records: Sequence[Record],
    *,
    name: str = "",
    notices: Iterable[str] = (),
    state: dict[str, Any] | None = None,
) -> str:
    """The whole report. ``state`` stands in for the final state when no record has one."""
    facts = ReportFacts.of(header, records)
    return "".join(report_chunks(facts, records, name=name, notices=notices, state=state))


@dataclass
class ReportFacts:
    """What the report's top needs from all the records: one pass, nothing kept per record."""

    header: Record = field(default_factory=dict)
    moves: Counter[str] = field(default_factory=Counter)
    rejected: int = 0
    final: Record | None = None  # the last accepted/undo/redo/jump record

    @classmethod
    def of(cls, header: Record | None, records: Iterable[Record]) -> ReportFacts:
        facts = cls(header=header or {})
        for record in records:
            facts.add(record)
        return facts

    def add(self, record: Record) -> None:
        kind = record.get("kind")
        if kind in ACCEPT_KINDS or kind in MOVE_KINDS:
            self.moves[str(kind)] += 1
            self.final = record
        elif kind == "rejected":
            self.rejected += 1


def report_chunks(
    facts: ReportFacts,
    records: Iterable[Record],
    *,
    name: str = "",
    notices: Iterable[str] = (),
    state: dict[str, Any] | None = None,
) -> Iterator[str]:
    """The report as text pieces, in order: the top from ``facts``, then one piece per
    record of ``records`` (a second pass, so a long journal is never held whole)."""
    header = facts.header
    final = facts.final
    top = [f"# Review report: {md(str(header.get('config_title') or 'gate session'))}", ""]
    top += _overview(facts, name)
    top += _notices(list(notices))
    top += _final_state(final.get("state") if final else state)
    pieces = _story(records)
    previous = "\n".join(top)
    for piece in pieces:
        yield visible(previous + "\n")  # the whole text goes through visible(): a last net
        previous = "\n".join(piece)
    yield visible(previous.rstrip() + "\n")


def flat(text: str) -> str:
    """``text`` on one line, every control, bidi and zero-width character made visible."""
    return _SPACE.sub(" ", visible(text)).strip()


def md(text: str) -> str:
    """``text`` on one line, made visible, with every Markdown-special character escaped."""
    return flat(text).translate(_MARKDOWN)


def shorten(text: str, limit: int = VALUE_LIMIT) -> str:
    one_line = _SPACE.sub(" ", text).strip()
    return one_line if len(one_line) <= limit else one_line[: limit - 1].rstrip() + "…"


def value_text(value: Any, limit: int = VALUE_LIMIT) -> str:
    """A field value for people: ``(empty)``, ``true``, or the quoted, escaped, shortened text."""
    if value is None or value == "":
        return "*(empty)*"
    if isinstance(value, bool):
        return "true" if value else "false"
    return "“" + md(shorten(str(value), limit)) + "”"


def code(text: str) -> str:
    """``text`` as an inline code span when it is plain (a field path, a fingerprint).

    Anything else (backticks, ``<``, ``|``, brackets…) is written as escaped text instead:
    inside a code span a backslash cannot escape, and some viewers still act on a raw
    ``<tag>`` or a ``|`` in a table row there.
    """
    shown = flat(text)
    return f"`{shown}`" if _PLAIN.fullmatch(shown) else md(shown)


def when(at: Any) -> str:
    """``2024-05-01 12:00:03 UTC`` from a journal timestamp (raw text if unparseable)."""
    if not isinstance(at, str):
        return "unknown time"
    try:
        moment = datetime.fromisoformat(at)
    except ValueError:
        return md(at)
    offset = moment.utcoffset()
    zone = "" if offset is None else (" UTC" if not offset else moment.strftime(" %z"))
    return moment.strftime("%Y-%m-%d %H:%M:%S") + zone


def decision_text(data: Any) -> str:
    """``PASS`` / ``NO PASS: 2_use_case missing`` from a recorded decision."""
    try:
        return md(describe_decision(GateDecision.model_validate(data)))
    except (ValidationError, TypeError, ValueError):
        return "unknown"


def _overview(facts: ReportFacts, name: str) -> list[str]:
    header = facts.header
    rejected = facts.rejected
    total = sum(facts.moves.values())
    final = decision_text(facts.final.get("decision")) if facts.final else "no transitions yet"
    config = md(str(header.get("config_path") or "(none)"))
    fingerprint = header.get("fingerprint")
    rows = [
        ("Session", md(name) if name else "(unnamed)"),
        ("Config", config + (f" (fingerprint {code(str(fingerprint))})" if fingerprint else "")),
        ("Started", when(header.get("started"))),
        ("Transitions", f"{total}{_count_kinds(facts.moves)}, {rejected} rejected attempt{'s' * (rejected != 1)}"),
        ("Final decision", f"**{final}**"),
    ]
    return ["| | |", "|---|---|", *[f"| {key} | {value} |" for key, value in rows], ""]


def _count_kinds(moves: Counter[str]) -> str:
    order = ("reply", "edit", "undo", "redo", "jump")
    names = {"reply": "repl", "edit": "edit", "undo": "undo", "redo": "redo", "jump": "jump"}
    parts = []
    for kind in order:
        count = moves.get(kind, 0)
        if count:
            plural = ("ies" if count != 1 else "y") if kind == "reply" else ("s" if count != 1 else "")
            parts.append(f"{count} {names[kind]}{plural}")
    return f" ({', '.join(parts)})" if parts else ""


def _notices(notices: list[str]) -> list[str]:
    if not notices:
        return []
    return ["## Notes", "", *[f"- ⚠ {md(notice)}" for notice in notices], ""]


def _final_state(state: Any) -> list[str]:
    if not isinstance(state, dict):
        return []
    lines = ["## Final state", ""]
    summary = state.get("summary")
    if summary:
        lines += [f"Summary: {value_text(summary)}", ""]
    gates = state.get("gates")
    if isinstance(gates, dict) and gates:
        lines += ["| Gate | Answer | Category |", "|---|---|---|"]
        for key, value in gates.items():
            value = value if isinstance(value, dict) else {}
            lines.append(f"| {code(str(key))} | {value_text(value.get('raw'))} | {value_text(value.get('classified'))} |")
        lines.append("")
    return lines


def _story(records: Iterable[Record]) -> Iterator[list[str]]:
    yield ["## Timeline", ""]
    previous_decision: Any = None
    told = 0
    for record in records:
        kind = record.get("kind")
        if kind in ACCEPT_KINDS or kind in MOVE_KINDS:
            yield _transition(record, previous_decision)
            previous_decision = record.get("decision")
        elif kind == "rejected":
            yield _rejected(record)
        elif kind in ("open", "close", "export"):
            yield _event(record)
        else:
            continue
        told += 1
    if not told:
        yield ["Nothing has happened in this session yet.", ""]


def _number(record: Record) -> str:
    index = record.get("index")
    return f"#{index + 1}" if isinstance(index, int) and not isinstance(index, bool) else "#?"


def _target(target: Any) -> str:
    if not isinstance(target, int) or isinstance(target, bool):
        return "an unknown point"
    return "the start (empty state)" if target < 0 else f"the state after #{target + 1}"


def _transition(record: Record, previous_decision: Any) -> list[str]:
    kind = record.get("kind")
    title = _TITLES.get((kind, record.get("actor")), f"{md(str(kind))} by {md(str(record.get('actor')))}")
    lines = [f"### {_number(record)} · {title} · {when(record.get('at'))}", ""]
    if record.get("origin"):
        lines.append(f"- Source: {md(str(record['origin']))}")
    if kind in MOVE_KINDS:
        verb = {"undo": "Back to", "redo": "Forward again to", "jump": "Restored"}[str(kind)]
        lines.append(f"- {verb} {_target(record.get('target'))}")
    lines += _changes(record.get("diff"))
    lines += _repairs(record.get("repairs"))
    lines += _warnings(record.get("warnings"))
    if kind == "reply" or (kind in MOVE_KINDS and isinstance(record.get("claimed_status"), dict)):
        lines.append(f"- {_claimed(record.get('claimed_status'), record.get('decision'))}")
    lines.append(f"- Decision after: **{decision_text(record.get('decision'))}**{_decision_change(previous_decision, record.get('decision'))}")
    return [*lines, ""]


def _decision_change(before: Any, after: Any) -> str:
    if before is None or before == after:
        return ""
    return f" (was {decision_text(before)})"


def _changes(diff: Any) -> list[str]:
    changes = diff.get("changes") if isinstance(diff, dict) else None
    fields = [c for c in changes or [] if isinstance(c, dict) and not str(c.get("path", "")).startswith("status.")]
    if not fields:
        return ["- No field changed"]
    lines = ["- Changed:"]
    for change in fields[:MAX_CHANGES]:
        path = code(str(change.get("path", "?")))
        lines.append(f"  - {path}: {value_text(change.get('before'))} → {value_text(change.get('after'))}")
    if len(fields) > MAX_CHANGES:
        lines.append(f"  - … and {len(fields) - MAX_CHANGES} more")
    return lines


def _repairs(repairs: Any) -> list[str]:
    items = [r for r in repairs or [] if isinstance(r, dict)]
    if not items:
        return []
    lines = ["- Repairs applied to the model's JSON:"]
    for repair in items:
        guess = "**GUESS** " if repair.get("certainty") == "guess" else ""  # a judgment call: check it
        lines.append(f"  - {guess}line {md(str(repair.get('line', '?')))}:{md(str(repair.get('column', '?')))}: {md(shorten(str(repair.get('message', ''))))}")
    return lines


def _warnings(warnings: Any) -> list[str]:
    items = [
        w
        for w in warnings or []
        if isinstance(w, dict) and not shown_elsewhere(str(w.get("code", "")))
    ]
    if not items:
        return []
    lines = ["- Warnings:"]
    for warning in items:
        where = f"{code(str(warning['field_path']))}: " if warning.get("field_path") else ""
        lines.append(f"  - {where}{md(shorten(str(warning.get('message', ''))))}")
    return lines


def _claimed(claimed: Any, decision: Any) -> str:
    if not isinstance(claimed, dict) or "pass" not in claimed:
        return "The model claimed no status"
    said = "PASS" if claimed.get("pass") else "NO PASS"
    if not claimed.get("pass") and claimed.get("next_gate"):
        said += f" (next: {md(str(claimed['next_gate']))})"
    decided = decision if isinstance(decision, dict) else {}
    agrees = claimed.get("pass") == decided.get("pass") and (
        bool(decided.get("pass")) or claimed.get("next_gate") == decided.get("next_gate")
    )
    if agrees:
        return f"The model claimed **{said}**; the system agrees"
    return f"The model claimed **{said}** — overruled: **{decision_text(decision)}**"


def _rejected(record: Record) -> list[str]:
    who = "model reply" if record.get("actor") == "assistant" else "edit by the user"
    lines = [f"### ✗ Rejected {who} · {when(record.get('at'))}", ""]
    if record.get("origin"):
        lines.append(f"- Source: {md(str(record['origin']))}")
    lines.append("- The state did not change. Errors:")
    for error in [e for e in record.get("errors") or [] if isinstance(e, dict)]:
        where = f"{code(str(error['field_path']))}: " if error.get("field_path") else ""
        extra = ""
        if error.get("expected") or error.get("actual"):
            extra = f" (expected {md(shorten(str(error.get('expected') or '?')))}, got {md(shorten(str(error.get('actual') or '?')))})"
        lines.append(f"  - {where}{md(shorten(str(error.get('message', ''))))}{extra}")
    lines += _repairs(record.get("repairs"))
    if record.get("actor") == "assistant" and isinstance(record.get("claimed_status"), dict):
        said = "PASS" if record["claimed_status"].get("pass") else "NO PASS"
        lines.append(f"- The model claimed **{said}**; nothing was accepted")
    payload = record.get("payload")
    if payload not in (None, ""):
        lines.append(f"- Payload (start): {value_text(payload if isinstance(payload, str) else json.dumps(payload, ensure_ascii=False), PAYLOAD_LIMIT)}")
    return [*lines, ""]


def _event(record: Record) -> list[str]:
    kind = record.get("kind")
    at = when(record.get("at"))
    if kind == "open":
        return [f"*{at}: session resumed.*", ""]
    if kind == "close":
        return [f"*{at}: session closed.*", ""]
    what = md(str(record.get("what") or "file"))
    return [f"*{at}: {what} written to {md(str(record.get('path') or '?'))}.*", ""]
