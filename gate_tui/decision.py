"""The system's PASS / NO PASS rule. Only this module decides; models and users only propose.

The rule: walk ``gate_order``; the first required gate that is not complete is the
next gate (NO PASS, ``required_missing``, with its question). When every required gate
is complete the decision is PASS (``all_required_complete``). A categorical gate is
complete when ``classified`` is set, a free-text gate when ``raw`` is set.
"""

from __future__ import annotations

from collections.abc import Mapping

from gate_tui.models import GateConfig, GateDecision, GateDef, GateValue, StatusInfo


def gate_complete(gate: GateDef, value: GateValue | None) -> bool:
    """Whether a gate's answer is enough for it to count as answered."""
    if value is None:
        return False
    return bool(value.classified) if gate.categorical else bool(value.raw)


def first_missing_gate(config: GateConfig, gates: Mapping[str, GateValue]) -> str | None:
    """The first required gate in ``gate_order`` that is not complete, if any."""
    for key in config.gate_order:
        gate = config.gates[key]
        if gate.required and not gate_complete(gate, gates.get(key)):
            return key
    return None


def decide(config: GateConfig, gates: Mapping[str, GateValue]) -> GateDecision:
    """The decision for a set of gate values under ``config``."""
    missing = first_missing_gate(config, gates)
    if missing is None:
        return GateDecision(pass_=True, reason="all_required_complete")
    return GateDecision(
        pass_=False,
        reason="required_missing",
        next_gate=missing,
        next_question=config.gates[missing].question,
    )


def status_for(decision: GateDecision) -> StatusInfo:
    """The status block a canonical state carries for a decision."""
    return StatusInfo(pass_=decision.pass_, next_gate=decision.next_gate, next_query=decision.next_question)


def describe_decision(decision: GateDecision) -> str:
    """One line for people: ``PASS`` or ``NO PASS: 2_use_case missing``."""
    if decision.reason == "user_override":
        return f"{'PASS' if decision.pass_ else 'NO PASS'} (user override)"
    if decision.pass_:
        return "PASS"
    return f"NO PASS: {decision.next_gate} missing"
