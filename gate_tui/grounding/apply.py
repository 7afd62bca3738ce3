"""Grounding applied to a parse result: a pure function run after ``parse``.

``parse`` stays pure and knows nothing of conversations; :func:`ground` takes the result,
the conversation and the policy as explicit inputs and returns a new result: findings in
``result.grounding``, a warning per value that does not trace to the user (and a note per
near match), and under ``require`` the decision recomputed with those gates not counting.
Deterministic; linear in the conversation's length for a given number of gates.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gate_tui.decision import decision_dict, status_dict
from gate_tui.grounding.conversation import user_turns
from gate_tui.grounding.matching import trace_many
from gate_tui.grounding.models import GroundingPolicy
from gate_tui.grounding.positions import value_position
from gate_tui.models import (
    GateConfig,
    GateDecision,
    GateState,
    ParseResult,
    ParseWarning,
    StatusInfo,
)

WARNING_CODES = {
    "ungrounded": "ungrounded_raw",
    "classified_ungrounded": "classified_ungrounded",
    "near": "near_grounded",
}


def effective_policy(config: GateConfig, conversation: Any) -> GroundingPolicy:
    """The config's ``grounding``, or its default: ``warn`` with a conversation, else ``off``."""
    chosen = config.policy.grounding
    if chosen is not None:
        return chosen
    return "warn" if conversation is not None else "off"


def find(
    state: GateState,
    conversation: Any,
    reply_text: str | None = None,
    previous: GateState | None = None,
) -> tuple[list[dict[str, Any]], int, str | None]:
    """Every checked value's finding (``GroundingFinding``-shaped dicts: built for every
    reply of a batch, so no model per finding), the number of user turns, and a
    conversation problem.

    Checked: each ``raw`` the reply set or changed (one equal to the previous state's was
    accepted before), and each ``classified`` whose gate has no grounded ``raw``."""
    turns, problem = user_turns(conversation if conversation is not None else [])
    before = previous.gates if previous is not None else {}
    gates = list(state.gates.items())
    # The raw answers the reply set or changed, traced together (one normalising pass).
    new = [
        bool(value.raw and value.raw.strip())
        and ((old := before.get(key)) is None or old.raw != value.raw)
        for key, value in gates
    ]
    asked = [value.raw or "" for (_, value), n in zip(gates, new, strict=True) if n]
    traced = iter(trace_many(asked, turns))
    findings: list[dict[str, Any]] = []
    for (key, value), raw_new in zip(gates, new, strict=True):
        raw_kind = "grounded"
        if raw_new:
            raw_kind, closest = next(traced)
            findings.append(_finding(key, "raw", raw_kind, value.raw or "", closest, reply_text))
        elif not (value.raw and value.raw.strip()):
            raw_kind = "absent"
        if value.classified is not None and raw_kind in ("absent", "ungrounded"):
            old = before.get(key)
            if old is None or old.classified != value.classified or raw_new:
                finding = _finding(
                    key, "classified", "classified_ungrounded", value.classified, None, reply_text
                )
                findings.append(finding)
    return findings, len(turns), problem


def _finding(
    key: str, field: str, kind: str, value: str, closest: Any, reply_text: str | None
) -> dict[str, Any]:
    line, column = value_position(reply_text, key, field, value) if reply_text else (None, None)
    return {
        "gate": key,
        "path": f"gates.{key}.{field}",
        "kind": kind,
        "value": value,
        "line": line,
        "column": column,
        "closest": closest,
    }


def summary(policy: str, findings: list[dict[str, Any]]) -> str:
    """One word for a results column: the worst finding (``unchecked`` when off)."""
    if policy == "off":
        return "unchecked"
    kinds = {f["kind"] for f in findings}
    if kinds & {"ungrounded", "classified_ungrounded"}:
        return "ungrounded"
    return "near" if "near" in kinds else "grounded"


def finding_message(finding: dict[str, Any]) -> str:
    """One line for people: what the value is and the closest thing the user said."""
    said = ""
    span = finding.get("closest")
    if span:
        said = (
            f"; closest: your message #{span['turn']}: {span['text'][:120]!r} (score "
            f"{span['score']:g})"
        )
    value = finding["value"]
    if finding["kind"] == "near":
        return f"{value[:120]!r} is near the user's words, not exact{said}"
    if finding["kind"] == "classified_ungrounded":
        return f"classified as {value[:80]!r} but the user never gave this gate's answer"
    if finding["kind"] == "grounded":
        return f"the user's words{said}"
    return f"{value[:120]!r} is not the user's words{said}"


def ground(
    result: ParseResult,
    config: GateConfig,
    conversation: Any,
    reply_text: str | None = None,
    previous: GateState | Mapping[str, Any] | None = None,
    policy: GroundingPolicy | None = None,
) -> ParseResult:
    """``result`` checked against the user's words in ``conversation`` (chat messages)."""
    chosen = policy or effective_policy(config, conversation)
    if chosen == "off" or not result.ok or result.canonical_state is None:
        return result
    if previous is not None and type(previous) is not GateState:  # a Mapping (not an ABC check)
        previous = GateState.model_validate(previous)
    if reply_text is None and isinstance(result.source, str):
        reply_text = result.source
    findings, count, problem = find(result.canonical_state, conversation, reply_text, previous)
    warnings = list(result.warnings)
    if problem is not None:
        warnings.append(ParseWarning(code="conversation_unreadable", message=problem))
    for finding in findings:
        code = WARNING_CODES.get(finding["kind"])
        if code is not None:
            where = {
                "field_path": finding["path"],
                "line": finding["line"],
                "column": finding["column"],
            }
            warnings.append(ParseWarning(code=code, message=finding_message(finding), **where))
    update: dict[str, Any] = {"warnings": warnings}
    decision = result.decision
    if chosen == "require" and decision is not None and decision.reason != "user_override":
        bad = frozenset(
            f["gate"] for f in findings if f["kind"] in ("ungrounded", "classified_ungrounded")
        )
        state = result.canonical_state
        plain = {k: {"raw": v.raw, "classified": v.classified} for k, v in state.gates.items()}
        decided = decision_dict(config, plain, bad)
        update["decision"] = GateDecision.model_validate(decided)
        # The state's status block is the system's: it states the decision it now has.
        status = StatusInfo.model_validate(status_dict(decided))
        update["canonical_state"] = state.model_copy(update={"status": status})
    # The shape of GroundingReport (GroundingReport.model_validate reads it), plus its summary.
    update["grounding"] = {
        "policy": chosen,
        "user_turns": count,
        "findings": findings,
        "summary": summary(chosen, findings),
    }
    return result.model_copy(update=update)


def summary_of(result: ParseResult) -> str | None:
    """The ``grounding`` results column: ``grounded`` / ``near`` / ``ungrounded`` /
    ``unchecked``."""
    return None if result.grounding is None else result.grounding.get("summary")
