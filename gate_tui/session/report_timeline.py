"""The review report's timeline: one :class:`~gate_tui.session.report_doc.Entry` per record.

Each kind of journal record has a builder in :data:`ENTRY_BUILDERS`; a new kind of record
(a model call, say) is one builder and one row there, and every format renders it. The
builders say who (the user, or the model, by name when the record has one) changed what
and when, with every value in full.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime
from typing import Any

from pydantic import ValidationError

from gate_tui.decision import describe_decision
from gate_tui.models import GateDecision
from gate_tui.session.records import ACCEPT_KINDS, MOVE_KINDS, Record
from gate_tui.session.report_doc import Entry, Item, as_text
from gate_tui.warning_codes import shown_elsewhere

_TITLES = {
    ("reply", "assistant"): "Model reply",
    ("edit", "user"): "Edit by the user",
    ("undo", "user"): "Undo",
    ("redo", "user"): "Redo",
    ("jump", "user"): "Jump on the timeline",
}


class Timeline:
    """Turns records into entries, in order; remembers the decision before each."""

    def __init__(self) -> None:
        self.previous_decision: Any = None

    def entry(self, record: Record) -> Entry | None:
        builder = ENTRY_BUILDERS.get(str(record.get("kind")))
        return builder(record, self) if builder is not None else None


def transition_entry(record: Record, timeline: Timeline) -> Entry:
    kind = record.get("kind")
    title = _TITLES.get((kind, record.get("actor")), f"{kind} by {record.get('actor')}")
    items: list[Item] = []
    if record.get("origin"):
        items.append(Item("Source", str(record["origin"])))
    if kind in MOVE_KINDS:
        verb = {"undo": "Back to", "redo": "Forward again to", "jump": "Restored"}[str(kind)]
        items.append(Item(text=f"{verb} {_target(record.get('target'))}"))
    items += _changes(record.get("diff"))
    items += repair_items(record.get("repairs"))
    items += _warnings(record.get("warnings"))
    if kind == "reply" or (kind in MOVE_KINDS and isinstance(record.get("claimed_status"), dict)):
        items.append(_claimed(record.get("claimed_status"), record.get("decision")))
    if kind == "reply" and record.get("payload") not in (None, ""):
        payload = record["payload"]  # the evidence: the reply as the model wrote it
        items.append(
            Item(
                "The reply as received",
                payload if isinstance(payload, str) else _json(payload),
                quoted=True,
            )
        )
    elif kind == "reply" and record.get("payload_in_call"):
        items.append(_in_call(record))
    decision = record.get("decision")
    was = timeline.previous_decision
    change = "" if was is None or was == decision else f" (was {decision_text(was)})"
    items.append(Item("Decision after", decision_text(decision) + change, strong=True))
    timeline.previous_decision = decision
    return Entry(f"{_number(record)} · {title}", when(record.get("at")), who(record), tuple(items))


def rejected_entry(record: Record, timeline: Timeline) -> Entry:
    what = "model reply" if record.get("actor") == "assistant" else "edit by the user"
    items: list[Item] = []
    if record.get("origin"):
        items.append(Item("Source", str(record["origin"])))
    errors = []
    for error in [e for e in record.get("errors") or [] if isinstance(e, dict)]:
        extra = ""
        if error.get("expected") or error.get("actual"):
            extra = f" (expected {error.get('expected') or '?'}, got {error.get('actual') or '?'})"
        errors.append(
            Item(
                str(error.get("field_path") or ""), f"{error.get('message', '')}{extra}", code=True
            )
        )
    items.append(Item(text="The state did not change. Errors:", children=tuple(errors)))
    items += repair_items(record.get("repairs"))
    claimed = record.get("claimed_status")
    if record.get("actor") == "assistant" and isinstance(claimed, dict):
        items.append(
            Item(
                text=(
                    f"The model claimed {'PASS' if claimed.get('pass') else 'NO PASS'}; nothing "
                    "was accepted"
                )
            )
        )
    payload = record.get("payload")
    if payload not in (None, ""):
        shown = payload if isinstance(payload, str) else _json(payload)
        items.append(Item("Payload", shown, quoted=True))
    elif record.get("payload_in_call"):
        items.append(_in_call(record))
    return Entry(
        f"✗ Rejected {what}", when(record.get("at")), who(record), tuple(items), style="rejected"
    )


def _in_call(record: Record) -> Item:
    """A reply stored once, in its model call's record (shown in full in that entry)."""
    where = f"shown in full under call {record.get('call', '?')} above"
    return Item("The reply as received", where)


def event_entry(record: Record, timeline: Timeline) -> Entry:
    kind = record.get("kind")
    if kind == "open":
        title = "Session resumed"
    elif kind == "close":
        title = "Session closed"
    else:
        title = f"{record.get('what') or 'file'} written to {record.get('path') or '?'}"
    return Entry(title, when(record.get("at")), style="event")


def model_call_entry(record: Record, timeline: Timeline) -> Entry:
    """A request to the model: what was asked, how it went, what came back (in full).
    Whether the reply was applied shows in the next entries: the reply (or rejection)
    that carries this call's number."""
    retry = record.get("call_kind") == "retry"
    title = "Asked the model again with the errors" if retry else "Asked the model"
    model = record.get("model") or "the model"
    items = [Item("Model", f"{model} at {record.get('endpoint') or '?'}")]
    items.append(
        Item("Sent" if retry else "The user's message", as_text(record.get("message")), quoted=True)
    )
    outcome = str(record.get("outcome") or "?")
    words = {
        "ok": "a valid reply",
        "invalid": "a reply that is not valid",
        "incomplete": "a cut-off reply (the stream stopped)",
        "cancelled": "cancelled by the user",
        "error": "no reply",
        "server_gone": (
            "no reply: the server closed the connection unanswered (it exited or crashed)"
        ),
        "no_reply": "no reply: the stream ended before its first chunk",
        "dropped": "a cut-off reply (the server closed the connection mid-reply)",
    }
    items.append(
        Item(
            "Outcome",
            words.get(outcome, outcome) + (f": {record['error']}" if record.get("error") else ""),
            strong=outcome != "ok",
        )
    )
    usage = record.get("usage") if isinstance(record.get("usage"), dict) else {}
    timing = [
        f"first token after {record['ttft_s']} s"
        if isinstance(record.get("ttft_s"), int | float)
        else "no token",
        f"{record.get('total_s')} s in all",
        f"finish_reason {record.get('finish_reason') or 'none'}",
    ]
    if usage.get("completion_tokens") is not None:
        timing.append(f"{usage['completion_tokens']} tokens")
    items.append(Item("Timing", ", ".join(timing)))
    if record.get("reply") not in (None, ""):
        items.append(Item("The reply as received", str(record["reply"]), quoted=True))
    by = f"the user, to the model {model}" if record.get("model") else "the user, to the model"
    return Entry(
        f"Call {record.get('seq', '?')} · {title}", when(record.get("at")), by, tuple(items)
    )


ENTRY_BUILDERS: dict[str, Callable[[Record, Timeline], Entry]] = {
    **dict.fromkeys((*ACCEPT_KINDS, *MOVE_KINDS), transition_entry),
    "rejected": rejected_entry,
    **dict.fromkeys(("open", "close", "export"), event_entry),
    "model_call": model_call_entry,
}
"""Which records the timeline tells, and how: a new kind of record is one row here."""


def who(record: Record) -> str:
    """``the user`` or ``the model`` (with its name when the record has one)."""
    actor = record.get("actor")
    if actor == "user":
        return "the user"
    if actor == "assistant":
        model = record.get("model")
        return f"the model {model}" if isinstance(model, str) and model else "the model"
    return str(actor) if actor else ""


def when(at: Any) -> str:
    """``2024-05-01 12:00:03 UTC`` from a journal timestamp (raw text if unparseable)."""
    if not isinstance(at, str):
        return "unknown time"
    try:
        moment = datetime.fromisoformat(at)
    except ValueError:
        return at
    offset = moment.utcoffset()
    zone = "" if offset is None else (" UTC" if not offset else moment.strftime(" %z"))
    return moment.strftime("%Y-%m-%d %H:%M:%S") + zone


def decision_text(data: Any) -> str:
    """``PASS`` / ``NO PASS: 2_use_case missing`` from a recorded decision."""
    try:
        return describe_decision(GateDecision.model_validate(data))
    except (ValidationError, TypeError, ValueError):
        return "unknown"


def _number(record: Record) -> str:
    index = record.get("index")
    return f"#{index + 1}" if isinstance(index, int) and not isinstance(index, bool) else "#?"


def _target(target: Any) -> str:
    if not isinstance(target, int) or isinstance(target, bool):
        return "an unknown point"
    return "the start (empty state)" if target < 0 else f"the state after #{target + 1}"


def _changes(diff: Any) -> list[Item]:
    changes = diff.get("changes") if isinstance(diff, dict) else None
    fields = [
        c
        for c in changes or []
        if isinstance(c, dict) and not str(c.get("path", "")).startswith("status.")
    ]
    if not fields:
        return [Item(text="No field changed")]
    children = tuple(
        Item(
            str(c.get("path", "?")),
            code=True,
            children=(
                Item("before", as_text(c.get("before")), quoted=True),
                Item("after", as_text(c.get("after")), quoted=True),
            ),
        )
        for c in fields
    )
    return [Item(text="Changed:", children=children)]


def repair_items(repairs: Any) -> list[Item]:
    items = [r for r in repairs or [] if isinstance(r, dict)]
    if not items:
        return []
    children = tuple(
        # A guess is a judgment call: it says so first, so a reviewer checks it.
        Item(
            text=f"line {r.get('line', '?')}:{r.get('column', '?')}: {r.get('message', '')}",
            tag="GUESS" if r.get("certainty") == "guess" else "",
        )
        for r in items
    )
    return [Item(text="Repairs applied to the model's JSON:", children=children)]


def _warnings(warnings: Any) -> list[Item]:
    items = [
        w
        for w in warnings or []
        if isinstance(w, dict) and not shown_elsewhere(str(w.get("code", "")))
    ]
    if not items:
        return []
    children = tuple(
        Item(str(w.get("field_path") or ""), str(w.get("message", "")), code=True) for w in items
    )
    return [Item(text="Warnings:", children=children)]


def _claimed(claimed: Any, decision: Any) -> Item:
    if not isinstance(claimed, dict) or "pass" not in claimed:
        return Item(text="The model claimed no status")
    said = "PASS" if claimed.get("pass") else "NO PASS"
    if not claimed.get("pass") and claimed.get("next_gate"):
        said += f" (next: {claimed['next_gate']})"
    decided = decision if isinstance(decision, dict) else {}
    agrees = claimed.get("pass") == decided.get("pass") and (
        bool(decided.get("pass")) or claimed.get("next_gate") == decided.get("next_gate")
    )
    if agrees:
        return Item("The model claimed", f"{said}; the system agrees")
    return Item("The model claimed", f"{said} — overruled: {decision_text(decision)}", strong=True)


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2)
