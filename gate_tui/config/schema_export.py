"""The JSON Schema of a valid gate state for one config (``gate-tui schema``).

Two profiles, because model APIs and validators want different things:

* the default is usable as a *structured-output* schema: only ``type``, ``enum``,
  ``properties``, ``required``, ``additionalProperties``, ``maxLength`` and
  ``description``; every property is required (``null`` stands for "not known yet"),
  every object closes with ``additionalProperties: false``. Gate keys are properties
  of ``gates``; a categorical gate's ``classified`` is an enum of its categories plus
  ``null``, a free-text gate's ``classified`` is always ``null``; ``summary`` has
  ``maxLength`` 200; ``status.next_gate`` is a gate key or ``null``.
* ``decision_rules=True`` adds the system's PASS rule in words (the shared text of
  :mod:`gate_tui.decision_rules`, in ``description``) and as ``allOf`` / ``if`` / ``then``
  (which structured-output modes do not accept): ``status`` must then be exactly the
  status the system would decide, so a state that claims PASS with a required gate
  unanswered, or names the wrong next gate, is rejected.

Both validate every canonical state :func:`gate_tui.parse` produces for the config.
The schema is stricter than the parser in one respect on purpose: it asks for the
canonical spelling of a category, where the parser also accepts other letter cases.
"""

from __future__ import annotations

from typing import Any

from gate_tui.decision_rules import decision_rules_text
from gate_tui.limits import SUMMARY_MAX_CHARS
from gate_tui.models import GateConfig, GateDef

JSON_SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"


def state_schema(config: GateConfig, decision_rules: bool = False) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a gate state for ``config``."""
    title = config.name or "gate state"
    schema: dict[str, Any] = {
        "$schema": JSON_SCHEMA_DIALECT,
        "title": f"{title}: gate state",
        "description": (
            "A gate state: a short summary, one entry per gate with the answer in the user's "
            "words (raw) and its category (classified), and the status. The system, not the "
            "model, decides PASS."
        ),
        "type": "object",
        "properties": {
            "summary": {
                "type": "string",
                "maxLength": SUMMARY_MAX_CHARS,
                "description": f"What is known so far, at most {SUMMARY_MAX_CHARS} characters.",
            },
            "gates": _gates_schema(config),
            "status": _status_schema(config),
        },
        "required": ["summary", "gates", "status"],
        "additionalProperties": False,
    }
    if decision_rules:
        # The rule in words (the text every surface states) beside the rule as subschemas.
        schema["description"] += "\n\n" + decision_rules_text()
        schema["allOf"] = decision_rule_schemas(config)
    return schema


def gate_schema(gate: GateDef) -> dict[str, Any]:
    """``{raw, classified}`` for one gate, described by its question."""
    if gate.categorical:
        classified: dict[str, Any] = {
            "type": ["string", "null"],
            "enum": [*gate.expected_categories, None],
            "description": "One of " + ", ".join(gate.expected_categories) + "; null until known.",
        }
    else:
        classified = {
            "type": ["string", "null"],
            "description": (
                "This gate has no categories: leave null (a value is kept, but only raw answers "
                "the gate)."
            ),
        }
    label = f"{gate.label}: " if gate.label else ""
    required = "required" if gate.required else "optional"
    return {
        "type": "object",
        "description": f"{label}{gate.question} ({required})",
        "properties": {
            "raw": {
                "type": ["string", "null"],
                "description": "The answer in the user's words; null until known.",
            },
            "classified": classified,
        },
        "required": ["raw", "classified"],
        "additionalProperties": False,
    }


def decision_rule_schemas(config: GateConfig) -> list[dict[str, Any]]:
    """One ``if``/``then`` per outcome: the first unanswered or blocked required gate, or PASS."""
    required = [key for key in config.gate_order if config.gates[key].required]
    rules: list[dict[str, Any]] = []
    for index, key in enumerate(required):
        condition = [_gate_is(config, earlier, True) for earlier in required[:index]]
        condition.append(_gate_is(config, key, False))
        status = {"pass": False, "next_gate": key, "next_query": config.gates[key].question.strip()}
        rules.append({"if": _gates_match(condition), "then": _status_is(status)})
    everything = [_gate_is(config, key, True) for key in required]
    rules.append(
        {
            "if": _gates_match(everything),
            "then": _status_is({"pass": True, "next_gate": None, "next_query": None}),
        }
    )
    return rules


def _gates_schema(config: GateConfig) -> dict[str, Any]:
    return {
        "type": "object",
        "description": "Every gate of the config, in this order: "
        + ", ".join(config.gate_order)
        + ".",
        "properties": {key: gate_schema(config.gates[key]) for key in config.gate_order},
        "required": list(config.gate_order),
        "additionalProperties": False,
    }


def _status_schema(config: GateConfig) -> dict[str, Any]:
    return {
        "type": "object",
        "description": (
            "Your proposal only: the system recomputes it. pass is true only when every "
            "required gate is complete and none is classified as one of its blocking categories; "
            "otherwise next_gate and next_query name the first required gate that is unanswered "
            "or blocked, and its question."
        ),
        "properties": {
            "pass": {"type": "boolean"},
            "next_gate": {"type": ["string", "null"], "enum": [*config.gate_order, None]},
            "next_query": {"type": ["string", "null"]},
        },
        "required": ["pass", "next_gate", "next_query"],
        "additionalProperties": False,
    }


def _gate_is(config: GateConfig, key: str, complete: bool) -> tuple[str, dict[str, Any]]:
    """A subschema for one gate being answered (or not), as the decision rule counts it.

    A categorical gate classified as one of its ``blocking_categories`` counts as not
    answered: the decision stops there (``required_blocked``) with the same status.
    """
    gate = config.gates[key]
    if gate.categorical and gate.blocking_categories:
        blocking = list(gate.blocking_categories)
        field = "classified"
        answered = {"type": "string", "not": {"enum": blocking}}
        unanswered = {"anyOf": [{"type": "null"}, {"enum": blocking}]}
    elif gate.categorical:
        field, answered, unanswered = "classified", {"type": "string"}, {"type": "null"}
    else:
        answered = {"type": "string", "pattern": r"\S"}
        unanswered = {"anyOf": [{"type": "null"}, {"type": "string", "pattern": r"^\s*$"}]}
        field = "raw"
    return key, {"properties": {field: answered if complete else unanswered}}


def _gates_match(conditions: list[tuple[str, dict[str, Any]]]) -> dict[str, Any]:
    # Each gate appears once per condition list, so a dict keeps every condition.
    properties = dict(conditions)
    return {"properties": {"gates": {"properties": properties}}}


def _status_is(status: dict[str, Any]) -> dict[str, Any]:
    return {
        "properties": {
            "status": {"properties": {name: {"const": value} for name, value in status.items()}}
        }
    }
