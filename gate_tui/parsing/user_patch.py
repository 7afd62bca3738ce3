"""A user's edit: a patch applied over the previous state, checked field by field.

The user's rules differ from the assistant's (:mod:`gate_tui.parsing.validation`): a
patch names only what changes, ``null`` or ``""`` clears a value (unless the policy forbids
clearing), a gate set to ``null`` is a deletion request, ``status`` is ignored with a
warning unless the policy allows an override, and an unknown gate may be a warning
(``allow_user_extra_gate_keys``). The shared checks (summary, text, categories, gate
fields) come from :mod:`gate_tui.parsing.validation`, so both actors agree on them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gate_tui import warning_codes as codes
from gate_tui.models import (
    GateConfig,
    GateDef,
)
from gate_tui.parsing.validation import (
    ABSENT,
    GATE_FIELDS,
    Proposal,
    check_envelope,
    check_gate_fields,
    check_summary,
    check_text,
    resolve_category,
    unknown_gate,
)


def apply_user_patch(
    data: Mapping[Any, Any], base: Mapping[str, Any], config: GateConfig
) -> Proposal:
    """Apply a user's patch over ``base``: a state dict already canonical for ``config``."""
    out = Proposal(summary=base["summary"])
    out.gates = {key: dict(value) for key, value in base["gates"].items()}
    check_envelope(data, config, out)
    if "summary" in data:
        _user_summary(data["summary"], base["summary"], config, out)
    gates = data.get("gates", ABSENT)
    if gates is not ABSENT:
        if isinstance(gates, dict):
            _user_gates(gates, config, out)
        else:
            out.error(
                "invalid_type", "gates must be an object", "gates", expected="object", actual=gates
            )
    if "status" in data:
        _user_status(data["status"], config, out)
    return out


def _user_summary(value: Any, previous: str, config: GateConfig, out: Proposal) -> None:
    summary = check_summary(value, out, null_clears=True)
    if summary is None:
        return
    if not summary and previous and not config.policy.allow_user_clear_values:
        out.error(
            "deletion_not_allowed",
            "clearing the summary is not allowed by this config's policy",
            "summary",
            expected="non-empty string",
            actual=value,
        )
        return
    out.summary = summary


def _user_gates(gates: Mapping[Any, Any], config: GateConfig, out: Proposal) -> None:
    policy = config.policy
    for key, value in gates.items():
        gate = config.gates.get(key) if isinstance(key, str) else None
        if gate is None:
            unknown_gate(key, "user", config, out)
            continue
        path = f"gates.{key}"
        current = out.gates[key]
        if value is None:
            allowed = (
                policy.allow_user_delete_gate_keys
                if gate.required
                else policy.allow_user_clear_values
            )
            if not allowed and (
                current["raw"] is not None or current["classified"] is not None or gate.required
            ):
                why = "deleting a required gate" if gate.required else "clearing values"
                out.error(
                    "deletion_not_allowed",
                    f"{why} is not allowed by this config's policy",
                    path,
                    expected="object",
                    actual=None,
                )
            else:
                out.gates[key] = {"raw": None, "classified": None}
            continue
        if not isinstance(value, dict):
            out.error(
                "invalid_type",
                f"gate {key!r} must be an object with raw and/or classified",
                path,
                expected="object or null",
                actual=value,
            )
            continue
        check_gate_fields(value, path, out)
        _user_gate_values(gate, value, path, current, config, out)


def _user_gate_values(
    gate: GateDef,
    value: Mapping[Any, Any],
    path: str,
    current: dict[str, str | None],
    config: GateConfig,
    out: Proposal,
) -> None:
    updated = dict(current)
    for name in GATE_FIELDS:
        if name not in value:
            continue
        field_path = f"{path}.{name}"
        ok, text = check_text(value[name], field_path, out)
        if ok and name == "classified":
            ok, text = resolve_category(gate, text, field_path, config, out)
        if not ok:
            continue
        if text is None and current[name] is not None and not config.policy.allow_user_clear_values:
            out.error(
                "deletion_not_allowed",
                "clearing values is not allowed by this config's policy",
                field_path,
                expected="non-empty string",
                actual=value[name],
            )
            continue
        updated[name] = text
    current.update(updated)


def _user_status(status: Any, config: GateConfig, out: Proposal) -> None:
    if not config.policy.allow_user_override:
        out.warn(
            codes.STATUS_IGNORED,
            "status is decided by the system; the user's status was ignored",
            "status",
        )
        return
    if not isinstance(status, dict):
        out.error(
            "invalid_type", "status must be an object", "status", expected="object", actual=status
        )
        return
    claimed = status.get("pass", ABSENT)
    if claimed is ABSENT or claimed is None:
        return
    if not isinstance(claimed, bool):
        out.error(
            "invalid_type",
            "status.pass must be true or false",
            "status.pass",
            expected="boolean",
            actual=claimed,
        )
        return
    out.override = claimed
