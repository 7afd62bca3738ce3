"""The ``assistant`` actor's rule: a reply is a *full state* — ``summary``, ``gates`` and
``status`` must all be there, every required gate must be present, and the claimed
``status`` is kept only to tell the user when the model disagreed with the system.

A plain state (the common case: every gate a ``{"raw": str|null, "classified": ...}``
object, nothing unknown) takes a fast path; anything else is checked field by field with
every problem collected (:mod:`gate_tui.parsing.validation` holds the shared checks).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gate_tui.limits import SUMMARY_MAX_CHARS
from gate_tui.models import SUPPORTED_SCHEMA_VERSIONS, GateConfig, GateDef
from gate_tui.parsing.validation import (
    ABSENT,
    GATE_FIELD_SET,
    STATUS_FIELD_SET,
    STATUS_FIELDS,
    TOP_LEVEL_SET,
    Proposal,
    check_envelope,
    check_gate_fields,
    check_summary,
    check_text,
    describe,
    resolve_category,
    unknown_gate,
)


def validate_assistant(
    data: Mapping[Any, Any], config: GateConfig, *, status_cut: bool = False
) -> Proposal:
    """Check a full state sent by a model. ``status_cut``: the reply was cut before (or inside)
    its ``status`` block and the caller accepts cut replies: the system writes the status."""
    plain = _plain_assistant_state(data, config)
    return (
        plain if plain is not None else check_assistant_fully(data, config, status_cut=status_cut)
    )


def check_assistant_fully(
    data: Mapping[Any, Any], config: GateConfig, *, status_cut: bool = False
) -> Proposal:
    """:func:`validate_assistant` without its one-pass shortcut: every check, every message."""
    out = Proposal()
    check_envelope(data, config, out)
    if "summary" in data:
        out.summary = check_summary(data["summary"], out) or ""
    else:
        out.error("missing_key", "summary is missing", "summary", expected="string")
    gates = data.get("gates", ABSENT)
    if gates is ABSENT:
        out.error("missing_key", "gates is missing", "gates", expected="object")
    elif not isinstance(gates, dict):
        out.error(
            "invalid_type", "gates must be an object", "gates", expected="object", actual=gates
        )
    else:
        _assistant_gates(gates, config, out)
    status = data.get("status", ABSENT)
    if status is ABSENT and not status_cut:
        out.error("missing_key", "status is missing", "status", expected="object")
    elif status is ABSENT:
        out.claimed_status = {}  # nothing claimed: the decision writes the status
    else:
        _assistant_status(status, config, out)
    if not out.errors:
        out.gates = {
            key: out.gates.get(key) or {"raw": None, "classified": None}
            for key in config.gate_order
        }
    return out


def _plain_assistant_state(data: Mapping[Any, Any], config: GateConfig) -> Proposal | None:
    """The whole check of a model's state in one pass, when nothing about it needs words.

    Most replies are a state exactly as asked for: known top-level keys, a string
    summary, every gate object plain (see :func:`_plain_gate_value`) and a gate of the
    config, every required gate present, a status with a boolean ``pass``. The full
    check finds no error and no warning in such a state, after walking it in several
    passes and building the gates in reply order before putting them in config order;
    this builds the canonical gates directly. Anything else, however harmless, returns
    None and the full check decides (and words the errors). Tests check the two agree.
    """
    if not data.keys() <= TOP_LEVEL_SET:
        return None
    version = data.get("schema_version", ABSENT)
    if version is not ABSENT and version not in SUPPORTED_SCHEMA_VERSIONS:
        return None
    summary = data.get("summary", ABSENT)
    if type(summary) is not str:
        return None  # absent, null or not a string: errors
    else:
        summary = summary.strip()
        if len(summary) > SUMMARY_MAX_CHARS:
            return None
    gates, status = data.get("gates"), data.get("status")
    if (
        type(gates) is not dict
        or type(status) is not dict
        or not status.keys() <= STATUS_FIELD_SET
    ):
        return None
    passed, next_gate, next_query = (
        status.get("pass"),
        status.get("next_gate"),
        status.get("next_query"),
    )
    if type(passed) is not bool or (next_query is not None and type(next_query) is not str):
        return None
    defs = config.gates
    if next_gate is not None and (type(next_gate) is not str or next_gate not in defs):
        return None
    canonical: dict[str, dict[str, str | None]] = {}
    matched = 0
    for key in config.gate_order:
        value = gates.get(key)
        if value is None:
            if key in gates or defs[key].required:
                return None  # a null gate, or a required gate missing: errors
            canonical[key] = {"raw": None, "classified": None}
            continue
        # _plain_gate_value, inlined: this runs for every gate of every reply.
        if type(value) is not dict or not GATE_FIELD_SET.issuperset(value):
            return None
        raw, classified = value.get("raw"), value.get("classified")
        if raw is not None and type(raw) is not str:
            return None
        categories = defs[key].expected_categories
        if classified is not None and (
            type(classified) is not str or (categories and classified not in categories)
        ):
            return None
        canonical[key] = {
            "raw": (raw.strip() or None) if raw else None,
            "classified": classified or None,
        }
        matched += 1
    if matched != len(gates):
        return None  # a key that is not a gate of this config
    claimed = {"pass": passed, "next_gate": next_gate, "next_query": next_query}
    return Proposal(summary=summary, gates=canonical, claimed_status=claimed)


def _assistant_gates(gates: dict[Any, Any], config: GateConfig, out: Proposal) -> None:
    known = config.gates
    for key, value in gates.items():
        gate = known.get(key) if isinstance(key, str) else None
        if gate is None:
            unknown_gate(key, "assistant", config, out)
        elif type(value) is dict and _plain_gate_value(value, gate):
            # The common case, checked cheaply: only raw/classified, strings or null,
            # a category spelled exactly as configured.
            raw, classified = value.get("raw"), value.get("classified")
            out.gates[key] = {
                "raw": (raw.strip() or None) if raw else None,
                "classified": classified or None,
            }
        else:
            _assistant_gate(key, gate, value, config, out)
    for key in config.gate_order:
        if known[key].required and key not in gates:
            out.error(
                "missing_required_gate",
                f"required gate {key!r} is missing",
                f"gates.{key}",
                expected="object",
            )


def _plain_gate_value(value: dict[Any, Any], gate: GateDef) -> bool:
    """True when a gate object needs no work beyond trimming ``raw``."""
    if not value.keys() <= GATE_FIELD_SET:
        return False
    raw, classified = value.get("raw"), value.get("classified")
    if raw is not None and type(raw) is not str:
        return False
    return classified is None or (
        type(classified) is str
        and (not gate.expected_categories or classified in gate.expected_categories)
    )


def _assistant_gate(key: str, gate: GateDef, value: Any, config: GateConfig, out: Proposal) -> None:
    """The full check of one gate object, with an error or warning for each problem."""
    path = f"gates.{key}"
    if not isinstance(value, dict):
        out.error(
            "invalid_type",
            f"gate {key!r} must be an object with raw and classified",
            path,
            expected="object",
            actual=value,
        )
        return
    check_gate_fields(value, path, out)
    raw_ok, raw = check_text(value.get("raw"), f"{path}.raw", out)
    cls_ok, classified = check_text(value.get("classified"), f"{path}.classified", out)
    if cls_ok:
        cls_ok, classified = resolve_category(gate, classified, f"{path}.classified", config, out)
    if raw_ok and cls_ok:
        out.gates[key] = {"raw": raw, "classified": classified}


def _assistant_status(status: Any, config: GateConfig, out: Proposal) -> None:
    if not isinstance(status, dict):
        out.error(
            "invalid_type", "status must be an object", "status", expected="object", actual=status
        )
        return
    for name in status:
        if name not in STATUS_FIELDS:
            shown = name if isinstance(name, str) else describe(name)
            out.error(
                "invalid_key",
                f"unknown field {shown!r} in status",
                f"status.{shown}",
                expected="pass, next_gate or next_query",
                actual=name,
            )
    claimed: dict[str, Any] = {}
    if "pass" not in status:
        out.error("missing_key", "status.pass is missing", "status.pass", expected="boolean")
    elif not isinstance(status["pass"], bool):
        out.error(
            "invalid_type",
            "status.pass must be true or false",
            "status.pass",
            expected="boolean",
            actual=status["pass"],
        )
    else:
        claimed["pass"] = status["pass"]
    next_gate = status.get("next_gate")
    if next_gate is not None and not isinstance(next_gate, str):
        out.error(
            "invalid_type",
            "status.next_gate must be a gate key or null",
            "status.next_gate",
            expected="string or null",
            actual=next_gate,
        )
    elif isinstance(next_gate, str) and next_gate not in config.gates:
        out.error(
            "invalid_gate_key",
            f"status.next_gate {next_gate!r} is not a gate of this config",
            "status.next_gate",
            expected="one of " + ", ".join(config.gate_order),
            actual=next_gate,
        )
    else:
        claimed["next_gate"] = next_gate
    next_query = status.get("next_query")
    if next_query is not None and not isinstance(next_query, str):
        out.error(
            "invalid_type",
            "status.next_query must be a string or null",
            "status.next_query",
            expected="string or null",
            actual=next_query,
        )
    else:
        claimed["next_query"] = next_query
    out.claimed_status = claimed


