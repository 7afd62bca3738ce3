"""The messages sent to the model: system prompt, the session's turns, state, new message.

* the system prompt is the text of ``gate-tui prompt`` (or ``prompt --contract``), so a
  model asked from the editor sees exactly what a model pasted into by hand would;
* the earlier turns of this session (user message, model reply) come from the journal's
  ``model_call`` records, so a resumed session continues the same conversation; the
  oldest are left out first when they would exceed :data:`HISTORY_BUDGET` characters
  (small local models have small context windows);
* the new user message carries the current canonical state as JSON: the state the
  system accepted, not what the model last said.

:func:`errors_message` is "ask again with the errors": every parser error with its
field path, what was expected and what was found, and a request for the full state.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gate_tui.models import ParseResult  # or a contract's result: both carry ``errors``

HISTORY_BUDGET = 12_000  # characters of earlier turns sent at most
MAX_LISTED_ERRORS = 20


@dataclass(frozen=True)
class Turn:
    """One earlier exchange, as the journal has it."""

    seq: int
    message: str
    reply: str
    outcome: str
    applied: bool
    call_kind: str = "ask"


def turns_of(records: list[dict[str, Any]]) -> list[Turn]:
    """The model calls in ``records`` in order; ``applied`` also when a later record links back."""
    linked = {
        r.get("call")
        for r in records
        if r.get("kind") in ("edit", "reply") and isinstance(r.get("call"), int)
    }
    turns = []
    for record in records:
        if record.get("kind") != "model_call":
            continue
        seq = record.get("seq") if isinstance(record.get("seq"), int) else -1
        turns.append(
            Turn(
                seq=seq,
                message=_text(record.get("message")),
                reply=_text(record.get("reply")),
                outcome=_text(record.get("outcome")) or "ok",
                applied=record.get("applied") is True or seq in linked,
                call_kind=_text(record.get("call_kind")) or "ask",
            )
        )
    return turns


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def state_message(message: str, state_json: str, what: str = "gate state") -> str:
    """The new user message with the current canonical state after it."""
    return (
        f"{message.strip()}\n\nThe current {what} (accepted by the system):\n"
        f"```json\n{state_json}\n```"
    )


def build_messages(
    system: str,
    turns: list[Turn],
    state_json: str,
    message: str,
    budget: int = HISTORY_BUDGET,
    what: str = "gate state",
) -> tuple[list[dict[str, str]], dict[str, int]]:
    """The chat messages and their character counts (``system``, ``history``, ``state``,
    ``message``)."""
    kept: list[Turn] = []
    used = 0
    for turn in reversed(turns):
        size = len(turn.message) + len(turn.reply)
        if not turn.message or used + size > budget:
            break
        kept.append(turn)
        used += size
    history: list[dict[str, str]] = []
    for turn in reversed(kept):
        history.append({"role": "user", "content": turn.message})
        if turn.reply:
            history.append({"role": "assistant", "content": turn.reply})
    last = state_message(message, state_json, what)
    messages = [{"role": "system", "content": system}, *history, {"role": "user", "content": last}]
    chars = {
        "system": len(system),
        "history": used,
        "state": len(state_json),
        "message": len(message),
    }
    return messages, chars


GROUNDING_CODES = ("ungrounded_raw", "classified_ungrounded")


def grounding_findings(result: ParseResult | Any) -> list[Any]:
    """The warnings of ``result`` that say a value is not the user's words."""
    warnings = getattr(result, "warnings", None) or []
    return [w for w in warnings if getattr(w, "code", None) in GROUNDING_CODES]


def errors_message(
    result: ParseResult | Any, finish_reason: str | None = None, what: str = "gate state"
) -> str:
    """"Ask again with the errors": what was wrong with the last reply, field by field,
    grounding findings included (a value the user never said is sent back like an error)."""
    errors = result.errors if result is not None else []
    ungrounded = grounding_findings(result) if result is not None else []
    if errors or not ungrounded:
        lines = [
            "Your last reply was not accepted by the system. Reply with the corrected, complete "
            f"{what} as one JSON object."
        ]
    else:
        lines = [
            "Your last reply put words in the user's mouth. Reply with the corrected, complete "
            f"{what} as one JSON object."
        ]
    if finish_reason == "length":
        lines.append(
            "The reply was cut off (it hit the length limit): answer shorter, only the JSON."
        )
    if errors:
        lines.append("Errors:")
    for error in errors[:MAX_LISTED_ERRORS]:
        where = (
            getattr(error, "field_path", None)
            or getattr(error, "path", None)
            or "(the whole reply)"
        )
        parts = [f"- {where}: {error.message}"]
        if error.expected is not None:
            parts.append(f"expected {error.expected}")
        if error.actual is not None:
            parts.append(f"got {error.actual}")
        lines.append("; ".join(parts))
    if len(errors) > MAX_LISTED_ERRORS:
        lines.append(f"- and {len(errors) - MAX_LISTED_ERRORS} more")
    if ungrounded:
        lines.append(
            "Not the user's words (copy the user's words into raw; leave a gate null until the "
            "user has answered it):"
        )
        lines += [f"- {w.field_path}: {w.message}" for w in ungrounded[:MAX_LISTED_ERRORS]]
    return "\n".join(lines)
