"""``parse()``: model text or a user's edit in, canonical state + system decision + diff out.

The pipeline is extraction (text only) → validation (per actor) → canonicalisation →
decision → diff. It is pure and deterministic: inputs are never mutated, nothing is
read from the clock or the environment, and the same inputs give a byte-identical
``model_dump_json()``. It never raises for bad input: every problem comes back as a
:class:`ParseError` in a result with ``ok=False``, and then no state is returned, so
the caller keeps the state it had.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from gate_tui.decision import decide, describe_decision, status_for
from gate_tui.diff import diff_states
from gate_tui.extraction import DEFAULT_MAX_CHARS, extract_json
from gate_tui.models import (
    GateConfig,
    GateDecision,
    GateState,
    GateValue,
    ParseError,
    ParseResult,
    ParseWarning,
    Repair,
    StatusInfo,
)
from gate_tui.validation import Proposal, apply_user_patch, describe, validate_assistant

ACTORS = ("assistant", "user")


class GateJsonParser:
    """A parser with its own limits; :func:`parse` uses one with the defaults."""

    def __init__(self, max_chars: int = DEFAULT_MAX_CHARS) -> None:
        self.max_chars = max_chars

    def parse(
        self,
        payload: Any,
        gate_config: GateConfig,
        previous_state: GateState | Mapping[str, Any] | None = None,
        actor: str = "assistant",
    ) -> ParseResult:
        if not isinstance(gate_config, GateConfig):
            raise TypeError("gate_config must be a GateConfig (use load_config to read one)")
        if actor not in ACTORS:
            return _failed([_error("invalid_value", f"actor must be 'assistant' or 'user', not {describe(actor)}", "actor")])
        previous, problem = _coerce_previous(previous_state)
        if problem is not None:
            return _failed([problem])
        data, repairs, source, problem = self._decode(payload)
        if problem is not None:
            return _failed([problem], repairs=repairs, source=source)
        assert data is not None
        if actor == "assistant":
            proposal = validate_assistant(data, gate_config)
        else:
            proposal = apply_user_patch(data, canonical_base(previous, gate_config), gate_config)
        return _finish(proposal, gate_config, previous, actor, repairs, source)

    def _decode(self, payload: Any) -> tuple[Mapping[Any, Any] | None, list[Repair], str | None, ParseError | None]:
        if isinstance(payload, Mapping):
            return payload, [], "object", None
        if not isinstance(payload, str):
            message = f"payload must be text or a JSON object, not {_kind(payload)}"
            return None, [], None, _error("invalid_json", message, "", expected="string or object", actual=payload)
        found = extract_json(payload, max_chars=self.max_chars)
        if found.value is None:
            return None, list(found.repairs), found.source, _error("invalid_json", found.error or "No JSON object found in text", "")
        return found.value, list(found.repairs), found.source, None


_DEFAULT_PARSER = GateJsonParser()


def parse(
    payload: Any,
    gate_config: GateConfig,
    previous_state: GateState | Mapping[str, Any] | None = None,
    actor: str = "assistant",
) -> ParseResult:
    """Parse a model reply (``actor="assistant"``) or a user's patch (``actor="user"``)."""
    return _DEFAULT_PARSER.parse(payload, gate_config, previous_state, actor)


def canonical_base(previous: GateState | None, config: GateConfig) -> GateState:
    """``previous`` reshaped to ``config``: every gate, in order, trimmed, empty → None."""
    gates: dict[str, GateValue] = {}
    old = previous.gates if previous is not None else {}
    for key in config.gate_order:
        value = old.get(key)
        gates[key] = GateValue() if value is None else GateValue(raw=_clean(value.raw), classified=_clean(value.classified))
    summary = previous.summary.strip() if previous is not None else ""
    return GateState(summary=summary, gates=gates, status=status_for(decide(config, gates)))


def empty_state(config: GateConfig) -> GateState:
    """The state of a session before anyone said anything."""
    return canonical_base(None, config)


def _finish(
    proposal: Proposal,
    config: GateConfig,
    previous: GateState | None,
    actor: str,
    repairs: list[Repair],
    source: str | None,
) -> ParseResult:
    warnings = [_repair_warning(r) for r in repairs] + proposal.warnings
    claimed = _claimed(proposal.claimed_status)
    if proposal.errors:
        return _failed(proposal.errors, warnings=warnings, repairs=repairs, source=source, claimed=claimed)
    gates = {key: _gate_value(proposal.gates.get(key)) for key in config.gate_order}
    decision = _apply_override(decide(config, gates), proposal.override)
    state = GateState.model_validate(
        {"summary": proposal.summary, "gates": gates, "status": status_for(decision)}
    )
    if claimed is not None:
        warnings.extend(_disagreement(claimed, decision))
    return ParseResult(
        ok=True,
        canonical_state=state,
        decision=decision,
        diff=diff_states(previous, state, actor),  # type: ignore[arg-type]
        warnings=warnings,
        repairs=repairs,
        claimed_status=claimed,
        source=source,
    )


def _gate_value(values: dict[str, str | None] | None) -> GateValue:
    if values is None:
        return GateValue()
    return GateValue(raw=values["raw"], classified=values["classified"])


def _apply_override(decision: GateDecision, override: bool | None) -> GateDecision:
    if override is None or override == decision.pass_:
        return decision
    if override:
        return GateDecision(pass_=True, reason="user_override")
    return GateDecision(pass_=False, reason="user_override", next_gate=decision.next_gate, next_question=decision.next_question)


def _claimed(claimed: dict[str, Any] | None) -> StatusInfo | None:
    if not claimed or "pass" not in claimed:
        return None
    return StatusInfo(pass_=claimed["pass"], next_gate=claimed.get("next_gate"), next_query=claimed.get("next_query"))


def _disagreement(claimed: StatusInfo, decision: GateDecision) -> list[ParseWarning]:
    verdict = describe_decision(decision)
    if claimed.pass_ != decision.pass_:
        said = "true" if claimed.pass_ else "false"
        return [ParseWarning(code="claimed_status_overruled", message=f"assistant claimed pass={said}; system decided {verdict}", field_path="status.pass")]
    if claimed.next_gate != decision.next_gate:
        said = claimed.next_gate or "null"
        return [ParseWarning(code="claimed_status_overruled", message=f"assistant claimed next_gate={said}; system decided {verdict}", field_path="status.next_gate")]
    return []


def _repair_warning(repair: Repair) -> ParseWarning:
    return ParseWarning(
        code=f"repaired_{repair.code}",
        message=f"repaired at line {repair.line}:{repair.column}: {repair.message}",
        line=repair.line,
        column=repair.column,
    )


def _coerce_previous(previous: Any) -> tuple[GateState | None, ParseError | None]:
    if previous is None or isinstance(previous, GateState):
        return previous, None
    if not isinstance(previous, Mapping):
        return None, _error("invalid_value", f"previous_state must be a state object, not {_kind(previous)}", "previous_state")
    try:
        return GateState.model_validate(previous), None
    except (ValidationError, ValueError, TypeError, RecursionError):
        return None, _error("invalid_value", "previous_state is not a valid gate state", "previous_state")


def _failed(
    errors: list[ParseError],
    *,
    warnings: list[ParseWarning] | None = None,
    repairs: list[Repair] | None = None,
    source: str | None = None,
    claimed: StatusInfo | None = None,
) -> ParseResult:
    return ParseResult(ok=False, errors=errors, warnings=warnings or [], repairs=repairs or [], source=source, claimed_status=claimed)


def _error(code: Any, message: str, path: str, expected: str | None = None, actual: Any = None) -> ParseError:
    return ParseError(code=code, message=message, field_path=path, expected=expected, actual=None if actual is None else describe(actual))


def _clean(value: str | None) -> str | None:
    if value is None:
        return None
    text = value.strip()
    return text or None


def _kind(value: Any) -> str:
    return {list: "an array", tuple: "an array", type(None): "null"}.get(type(value), type(value).__name__)
