"""The summary columns of one checked reply, from its result: one source for the batch
function's output columns and for anything else that writes results (the review scenes)."""

from __future__ import annotations

from typing import Any

from gate_tui.warning_codes import is_repair

SUMMARY_COLUMNS = ("ok", "pass", "reason", "next_gate", "error_codes", "repairs", "guessed", "warnings", "grounding")


def summary(result: Any) -> tuple[Any, ...]:
    """``ok, pass, reason, next_gate, error_codes, repairs, guessed, warnings`` of a gate or
    contract result (a contract result has no decision: its pass, reason and gate are null),
    and ``grounding``: ``grounded`` / ``near`` / ``ungrounded`` (``unchecked`` under
    ``grounding: off``), null when no conversation came with the reply."""
    decision = getattr(result, "decision", None) if result.ok else None
    repairs = result.repairs
    return (
        result.ok,
        None if decision is None else decision.pass_,
        None if decision is None else decision.reason,
        None if decision is None else decision.next_gate,
        [error.code for error in result.errors],
        len(repairs),
        any(repair.certainty == "guess" for repair in repairs),
        sum(1 for warning in result.warnings if not is_repair(warning.code)),
        None if getattr(result, "grounding", None) is None else result.grounding.get("summary"),
    )
