"""Provider signals beside a reply: ``finish_reason`` and token usage.

Batch files from eval pipelines carry, beside each reply, why the provider stopped
(``finish_reason``) and what the call used (``usage``: ``{"prompt_tokens",
"completion_tokens", "total_tokens"}``, or the ``input_tokens`` / ``output_tokens`` of
other APIs, or a plain number of tokens in all). A reply stopped at the token limit
(``finish_reason: length``) can still parse as complete: the text cannot show the cut, so
the provider's word is taken and the reply is refused as any cut-off reply is (unless the
config's ``accept_truncated_replies`` says otherwise). Every value is outside data: a
wrong type is ignored, never an error of the row.
"""

from __future__ import annotations

import json
from typing import Any

from gate_tui.models import ParseError, ParseResult
from gate_tui.results.summary import CUT_REASONS

NO_SIGNALS: tuple[Any, ...] = (None, None, None, None)
MAX_TOKENS = 1 << 53


def signals_of(finish: Any, usage: Any) -> tuple[Any, ...]:
    """``finish_reason, prompt_tokens, completion_tokens, total_tokens`` from raw values."""
    reason = finish[:64] if isinstance(finish, str) else None
    prompt = completion = total = None
    if isinstance(usage, str) and usage[:1] == "{" and len(usage) < 4096:
        try:
            usage = json.loads(usage)
        except ValueError:
            usage = None
    if isinstance(usage, dict):
        prompt = _count(usage.get("prompt_tokens", usage.get("input_tokens")))
        completion = _count(usage.get("completion_tokens", usage.get("output_tokens")))
        total = _count(usage.get("total_tokens"))
        if total is None and prompt is not None and completion is not None:
            total = prompt + completion
    else:
        total = _count(usage)
    return reason, prompt, completion, total


def _count(value: Any) -> int | None:
    if type(value) is int and 0 <= value < MAX_TOKENS:
        return value
    if type(value) is float and value.is_integer() and 0 <= value < MAX_TOKENS:
        return int(value)
    return None


def cut_by_provider(result: Any, reason: str | None, accept_truncated: bool) -> Any:
    """``result``, refused when the provider cut the reply and the text still parsed."""
    if (
        reason not in CUT_REASONS
        or not isinstance(result, ParseResult)
        or not result.ok
        or accept_truncated
    ):
        return result
    message = (
        f"the reply is cut off: the provider stopped it at the token limit (finish_reason: "
        f"{reason}); "
        "its text parses, but what the model meant to write after the cut is unknown"
    )
    recovered = (
        None
        if result.canonical_state is None
        else result.canonical_state.model_dump(mode="json", by_alias=True)
    )
    return ParseResult(
        ok=False,
        errors=[ParseError(code="invalid_json", message=message)],
        warnings=result.warnings,
        repairs=result.repairs,
        claimed_status=result.claimed_status,
        source=result.source,
        recovered=recovered,
        candidates=result.candidates,
    )
