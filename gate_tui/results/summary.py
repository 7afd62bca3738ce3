"""The summary columns of one checked reply, from its result: one source for the batch
function's output columns and for anything else that writes results (the review scenes).

Besides the decision's columns, four say what a reviewer and ``gate-tui stats`` hunt first:
``claimed`` (the status the model claimed, ``PASS`` / ``NO PASS``, null when it claimed
none), ``cut_off`` (the reply was cut off: by its text, or by the provider's
``finish_reason: length``), ``several_states`` (the reply held several different states)
and ``repair_codes`` (the code of each repair applied).
"""

from __future__ import annotations

from typing import Any

from gate_tui.warning_codes import DIFFERENT_STATES, TRUNCATED_REPLY, is_repair

SUMMARY_COLUMNS = (
    "ok", "pass", "reason", "next_gate", "error_codes", "repairs", "guessed", "warnings",
    "claimed", "cut_off", "several_states", "repair_codes", "grounding",
)
CUT_REASONS = ("length", "max_tokens")
"""The finish reasons that mean the provider cut the reply (OpenAI's, Anthropic's)."""
CUT_OFF_WORDS = "cut off"
"""Every refusal of a cut-off reply says so (the parser's and the provider's alike)."""


def summary(result: Any) -> tuple[Any, ...]:
    """The :data:`SUMMARY_COLUMNS` of a gate or contract result (a contract result has no
    decision: its pass, reason and gate are null); ``grounding`` is ``grounded`` / ``near`` /
    ``ungrounded`` (``unchecked`` under ``grounding: off``), null when no conversation came
    with the reply."""
    decision = getattr(result, "decision", None) if result.ok else None
    repairs = result.repairs
    warnings = getattr(result, "warnings", None) or []
    claim = getattr(result, "claimed_status", None)
    return (
        result.ok,
        None if decision is None else decision.pass_,
        None if decision is None else decision.reason,
        None if decision is None else decision.next_gate,
        [error.code for error in result.errors],
        len(repairs),
        any(repair.certainty == "guess" for repair in repairs),
        sum(1 for warning in warnings if not is_repair(warning.code)),
        None if claim is None else claim_word(claim.pass_),
        is_cut_off(result.errors, warnings),
        any(warning.code == DIFFERENT_STATES for warning in warnings),
        [repair.code for repair in repairs],
        None if getattr(result, "grounding", None) is None else result.grounding.get("summary"),
    )


CLAIM_WORDS = {True: "PASS", False: "NO PASS"}
"""The ``claimed`` column's words for the model's claimed ``pass``."""


def claim_word(claimed_pass: Any) -> str | None:
    """``PASS`` / ``NO PASS`` for a claimed ``pass`` (None when it is not a boolean)."""
    return CLAIM_WORDS.get(claimed_pass) if isinstance(claimed_pass, bool) else None


def is_cut_off(errors: Any, warnings: Any) -> bool:
    """Whether a result says its reply was cut off (refused, or accepted with the warning)."""
    if any(warning.code == TRUNCATED_REPLY for warning in warnings):
        return True
    return any(CUT_OFF_WORDS in (getattr(error, "message", "") or "") for error in errors)


def reply_fingerprint(text: str | None) -> str | None:
    """A short fingerprint of a reply (or any text): what a verdict is keyed by, with the
    row's id, so it never lands on a different reply (:mod:`gate_tui.results.verdicts`)."""
    if text is None:
        return None
    import hashlib

    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=8).hexdigest()


def fingerprint_column(replies: Any) -> Any:
    """The fingerprints of an Arrow column of replies (text; anything else by its JSON)."""
    import json

    import pyarrow as pa

    out = []
    for value in replies.to_pylist():
        text = (
            value
            if value is None or isinstance(value, str)
            else json.dumps(value, ensure_ascii=False, default=str)
        )
        out.append(reply_fingerprint(text))
    return pa.array(out, pa.string())
