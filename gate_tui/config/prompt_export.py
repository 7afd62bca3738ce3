"""The system-prompt block for one config (``gate-tui prompt``).

Plain text to paste into a model's system prompt: what the gates are, in order, with
their questions and categories; the exact JSON shape to answer with, shown as an
example object for that config (the state before anything is known, which is also
what :func:`gate_tui.empty_state` returns); and the decision rule in the words every
surface uses (:mod:`gate_tui.decision_rules`), blocking categories included. The wording matches
what :func:`gate_tui.parse` checks, so a model that follows it produces replies that parse without
errors.
"""

from __future__ import annotations

import json

from gate_tui.decision_rules import decision_rules_text
from gate_tui.limits import SUMMARY_MAX_CHARS
from gate_tui.models import GateConfig, GateDef
from gate_tui.parsing.pipeline import empty_state


def prompt_text(config: GateConfig) -> str:
    """The whole block, ending with a newline."""
    sections = [_intro(config), _gate_list(config), _shape(config), _rules(config)]
    return "\n\n".join(sections) + "\n"


def example_state(config: GateConfig) -> str:
    """The example JSON object: every gate, nothing known yet, the system's status."""
    return json.dumps(empty_state(config).model_dump(mode="json"), indent=2, ensure_ascii=False)


def _intro(config: GateConfig) -> str:
    name = f' "{config.name}"' if config.name else ""
    lines = [
        f"You keep the gate state{name}: the questions that must be answered before work may start."
    ]
    if config.description:
        lines.append(config.description.strip())
    lines.append(
        "Ask the user about the first unanswered required gate, one question at a time, "
        "and after every message reply with the updated gate state as JSON."
    )
    return "\n".join(lines)


def _gate_list(config: GateConfig) -> str:
    lines = ["Gates, in order:"]
    for number, key in enumerate(config.gate_order, start=1):
        lines.extend(_gate_lines(number, key, config.gates[key]))
    return "\n".join(lines)


def _gate_lines(number: int, key: str, gate: GateDef) -> list[str]:
    label = f" ({gate.label})" if gate.label else ""
    need = "required" if gate.required else "optional"
    lines = [f"{number}. {key}{label}, {need}", f"   Question: {gate.question}"]
    if gate.description:
        lines.append(f"   Note: {gate.description.strip()}")
    if gate.categorical:
        choices = ", ".join(gate.expected_categories)
        lines.append(f'   "classified": exactly one of {choices}, or null while unknown.')
        if gate.blocking_categories:
            blocking = ", ".join(gate.blocking_categories)
            lines.append(
                f"   Blocking: {blocking}. Classify honestly: a blocking answer is complete, "
                "and the decision is NO PASS at this gate."
            )
    else:
        lines.append('   "classified": always null (free-text gate).')
    return lines


def _shape(config: GateConfig) -> str:
    return (
        "Answer with exactly one JSON object of this shape (here: nothing known yet), "
        "in a fenced json code block:\n\n```json\n" + example_state(config) + "\n```"
    )


def _rules(config: GateConfig) -> str:
    keys = ", ".join(config.gate_order)
    rules = [
        "Rules:",
        f"- Include every gate key ({keys}), each with both \"raw\" and \"classified\".",
        "- \"raw\" is the user's answer in their own words; use null for anything not known yet.",
        "- Use only the categories listed; never invent a category or a gate key.",
        f"- \"summary\" is plain text of at most {SUMMARY_MAX_CHARS} characters.",
        "- No other keys at the top level, in a gate, or in \"status\".",
    ]
    return "\n".join(rules) + "\n\n" + decision_rules_text()
