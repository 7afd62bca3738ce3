"""How ``parse()`` builds its result: a validated proposal becomes the canonical state, the
system's decision (the model's claim kept only to say where it disagreed), the diff and
the warnings; a failure becomes a result with every error and no state.

One pydantic validation per result, at the end (:func:`result_of`): the happy path works
on plain dicts until then.
"""

from __future__ import annotations

from typing import Any

from gate_tui import warning_codes as codes
from gate_tui.decision import decision_dict, status_dict, verdict_text
from gate_tui.models import GateConfig, ParseError, ParseResult, ParseWarning
from gate_tui.parsing.diff import diff_dicts
from gate_tui.parsing.repair.vocabulary import RepairRecord
from gate_tui.parsing.validation import Proposal, describe

StateDict = dict[str, Any]

def finish(
    proposal: Proposal,
    config: GateConfig,
    previous: StateDict | None,
    actor: str,
    repairs: list[RepairRecord],
    source: str | None,
    extraction_warnings: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    warnings: list[Any] = proposal.warnings  # the proposal is ours: its list can grow here
    if repairs or extraction_warnings:
        warnings = [repair_warning(r) for r in repairs] + (extraction_warnings or []) + warnings
    claimed = claimed_of(proposal.claimed_status)
    if proposal.errors:
        return failed(
            proposal.errors, warnings=warnings, repairs=repairs, source=source, claimed=claimed
        )
    gates = proposal.gates  # without errors: every gate of the config, in gate_order
    decision = apply_override(decision_dict(config, gates), proposal.override)
    state = {"summary": proposal.summary, "gates": gates, "status": status_dict(decision)}
    if claimed is not None:
        warnings.extend(disagreement(claimed, decision))
    return {
        "ok": True,
        "canonical_state": state,
        "decision": decision,
        "diff": diff_dicts(previous, state, actor),
        "warnings": warnings,
        "repairs": repairs,
        "claimed_status": claimed,
        "source": source,
    }


def apply_override(decision: dict[str, Any], override: bool | None) -> dict[str, Any]:
    if override is None or override == decision["pass"]:
        return decision
    if override:
        return {"pass": True, "reason": "user_override", "next_gate": None, "next_question": None}
    return {**decision, "pass": False, "reason": "user_override"}


def claimed_of(claimed: dict[str, Any] | None) -> dict[str, Any] | None:
    if not claimed or "pass" not in claimed:
        return None
    if len(claimed) == 3:  # every field was valid: already in StatusInfo's shape
        return claimed
    return {
        "pass": claimed["pass"],
        "next_gate": claimed.get("next_gate"),
        "next_query": claimed.get("next_query"),
    }


def disagreement(claimed: dict[str, Any], decision: dict[str, Any]) -> list[dict[str, Any]]:
    """A ``ParseWarning``-shaped dict when the model's claimed status differs from the decision."""
    if claimed["pass"] == decision["pass"] and claimed["next_gate"] == decision["next_gate"]:
        return []
    verdict = verdict_text(
        decision["pass"], decision["reason"], decision["next_gate"], decision.get("blocked_value")
    )
    if claimed["pass"] != decision["pass"]:
        said = "true" if claimed["pass"] else "false"
        return [
            {
                "code": codes.CLAIMED_STATUS_OVERRULED,
                "message": f"assistant claimed pass={said}; system decided {verdict}",
                "field_path": "status.pass",
            }
        ]
    said = claimed["next_gate"] or "null"
    return [
        {
            "code": codes.CLAIMED_STATUS_OVERRULED,
            "message": f"assistant claimed next_gate={said}; system decided {verdict}",
            "field_path": "status.next_gate",
        }
    ]


def repair_warning(repair: RepairRecord) -> dict[str, Any]:
    """A repair as a ``ParseWarning``-shaped dict (validated with the whole result)."""
    line, column = repair["line"], repair["column"]
    return {
        "code": codes.repaired(repair["code"]),
        "message": f"{'guessed' if repair.get('certainty') == 'guess' else 'repaired'}"
        f" at line {line}:{column}: {repair['message']}",
        "line": line,
        "column": column,
    }


def failed(
    errors: list[ParseError],
    *,
    warnings: list[ParseWarning] | None = None,
    repairs: list[RepairRecord] | None = None,
    source: str | None = None,
    claimed: dict[str, Any] | None = None,
    recovered: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The fields of a failed result (validated by :func:`result_of`)."""
    fields = {
        "ok": False,
        "errors": errors,
        "warnings": warnings or [],
        "repairs": repairs or [],
        "source": source,
        "claimed_status": claimed,
    }
    if recovered is not None:
        fields["recovered"] = recovered
    return fields


def result_of(fields: dict[str, Any]) -> ParseResult:
    """The one validation that builds a result and every model in it.

    ``extra="ignore"`` skips the models' check for unknown keys, about a sixth of the
    validation's cost. It cannot hide anything: every dict validated here is built in
    this package with exactly the fields of its model (nothing from the payload is
    passed through as a dict), so there are never extra keys to reject.
    """
    return ParseResult.model_validate(fields, extra="ignore")


def error_of(
    code: Any, message: str, path: str, expected: str | None = None, actual: Any = None
) -> ParseError:
    return ParseError(
        code=code,
        message=message,
        field_path=path,
        expected=expected,
        actual=None if actual is None else describe(actual),
    )
