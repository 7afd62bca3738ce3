"""The system's PASS / NO PASS rule. Only this module decides; models and users only propose.

The rule: walk ``gate_order``; the first required gate that is not complete is the
next gate (NO PASS, ``required_missing``, with its question), and so is the first
required gate classified as one of its ``blocking_categories`` (NO PASS,
``required_blocked``, with the blocking value). When every required gate is complete
and none is blocked the decision is PASS (``all_required_complete``). A categorical gate
is complete when ``classified`` is set, a free-text gate when ``raw`` is set (a
``classified`` value on a free-text gate is kept but does not complete it).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    # Types only: the editor draws its first frame from this module before pydantic
    # (and so gate_tui.models) is imported.
    from gate_tui.models import GateDecision
    from gate_tui.views import ConfigView, DecisionView, GateView, ValueView


def answered(gate: GateView, raw: str | None, classified: str | None) -> bool:
    """Whether a gate's answer is enough for it to count as complete."""
    return bool(classified) if gate.expected_categories else bool(raw)


def gate_complete(gate: GateView, value: ValueView | None) -> bool:
    """:func:`answered` for a model value (None: the gate has no value at all)."""
    return value is not None and answered(gate, value.raw, value.classified)


def gate_blocked(gate: GateView, value: ValueView | None) -> bool:
    """Whether a *required* gate is classified as one of its blocking categories (an
    optional gate never blocks): complete, yet it keeps the decision at NO PASS."""
    return (
        gate.required
        and value is not None
        and value.classified is not None
        and value.classified in (gate.blocking_categories or ())
    )


def decision_dict(
    config: ConfigView,
    gates: Mapping[str, Mapping[str, Any]],
    ungrounded: frozenset[str] = frozenset(),
) -> dict[str, Any]:
    """The decision for JSON-shaped gate values, as a ``GateDecision``-shaped dict.

    ``parse`` uses this form so that it can build its whole result in one validation.
    ``ungrounded``: gates whose answer does not count under ``grounding: require`` (the
    user never said it); a required one among them is next (``required_ungrounded``).
    """
    defs = config.gates
    for key in config.gate_order:
        gate = defs[key]
        if not gate.required:
            continue
        value = gates.get(key)
        # answered(), inlined: this runs for every gate on every parse.
        if value is None or not (value["classified"] if gate.expected_categories else value["raw"]):
            return {
                "pass": False,
                "reason": "required_missing",
                "next_gate": key,
                "next_question": gate.question.strip(),
            }
        if key in ungrounded:
            return {
                "pass": False,
                "reason": "required_ungrounded",
                "next_gate": key,
                "next_question": gate.question.strip(),
            }
        if gate.blocking_categories and value["classified"] in gate.blocking_categories:
            return {
                "pass": False,
                "reason": "required_blocked",
                "next_gate": key,
                "next_question": gate.question.strip(),
                "blocked_value": value["classified"],
            }
    return {
        "pass": True,
        "reason": "all_required_complete",
        "next_gate": None,
        "next_question": None,
    }


def decide(config: ConfigView, gates: Mapping[str, ValueView]) -> GateDecision:
    """The decision for a set of gate values under ``config``."""
    from gate_tui.models import GateDecision

    plain = {
        key: {"raw": value.raw, "classified": value.classified} for key, value in gates.items()
    }
    return GateDecision.model_validate(decision_dict(config, plain))


class DecisionParts(NamedTuple):
    """A decision as plain values, for the editor's first frame (drawn before pydantic loads).

    A named tuple: cheaper to create at import than a frozen dataclass (see config_spec)."""

    pass_: bool
    reason: str
    next_gate: str | None
    next_question: str | None
    blocked_value: str | None = None


def decision_parts(config: ConfigView, gates: Mapping[str, Mapping[str, Any]]) -> DecisionParts:
    """:func:`decision_dict` as :class:`DecisionParts` (the same rule, no model)."""
    decided = decision_dict(config, gates)
    return DecisionParts(
        decided["pass"],
        decided["reason"],
        decided["next_gate"],
        decided["next_question"],
        decided.get("blocked_value"),
    )


class Outstanding(NamedTuple):
    """Every required gate that keeps the decision at NO PASS, in gate order: the ones not
    answered, and the ones classified as blocking (with that value). The decision names the
    first of them as its next gate; these lists let one round trip fix them all."""

    missing: tuple[str, ...]
    blocked: tuple[tuple[str, str], ...]

    @property
    def count(self) -> int:
        return len(self.missing) + len(self.blocked)

    def blocked_names(self) -> list[str]:
        """``4_data_privacy (not_approved)``: a blocked gate as every surface names it."""
        return [f"{key} ({value})" for key, value in self.blocked]


def outstanding(config: ConfigView, gates: Mapping[str, ValueView]) -> Outstanding:
    """The required gates that are missing or blocked (by the rule of :func:`decision_dict`)."""
    missing: list[str] = []
    blocked: list[tuple[str, str]] = []
    for key in config.gate_order:
        gate = config.gates[key]
        if not gate.required:
            continue
        value = gates.get(key)
        if not gate_complete(gate, value):
            missing.append(key)
        elif gate_blocked(gate, value):
            blocked.append((key, value.classified))  # type: ignore[union-attr]
    return Outstanding(tuple(missing), tuple(blocked))


def status_dict(decision: Mapping[str, Any]) -> dict[str, Any]:
    """The status block of a canonical state for a ``GateDecision``-shaped dict."""
    return {
        "pass": decision["pass"],
        "next_gate": decision["next_gate"],
        "next_query": decision["next_question"],
    }


def describe_decision(decision: DecisionView) -> str:
    """One line for people: ``PASS`` or ``NO PASS: 2_use_case missing``."""
    return verdict_text(decision.pass_, decision.reason, decision.next_gate, decision.blocked_value)


def verdict_text(
    passed: bool, reason: str, next_gate: str | None, blocked_value: str | None = None
) -> str:
    """:func:`describe_decision` from the decision's parts."""
    verdict = "PASS" if passed else "NO PASS"
    if reason == "user_override":
        return f"{verdict} (user override)"
    if passed:
        return verdict
    if reason == "required_blocked":
        return f"{verdict}: {next_gate} is blocked ({blocked_value})"
    if reason == "required_ungrounded":
        return f"{verdict}: {next_gate} is not the user's words"
    return f"{verdict}: {next_gate} missing"
