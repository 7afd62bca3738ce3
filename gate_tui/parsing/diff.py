"""What a transition changed: the previous canonical state against the new one.

The first state of a session has no previous state, and then everything counts as
added and changed, so the history of a session always starts from a complete record.

The work happens on plain JSON-shaped dicts (:func:`diff_dicts`): ``parse`` builds its
whole result in one pydantic validation, which is several times faster than building
one model per changed field.
"""

from __future__ import annotations

from typing import Any

from gate_tui.models import Actor, GateDiff, GateState

_EMPTY: dict[str, Any] = {"raw": None, "classified": None}
STATUS_FIELDS = ("pass", "next_gate", "next_query")
_STATUS_PATHS = tuple((name, f"status.{name}") for name in STATUS_FIELDS)


def diff_states(previous: GateState | None, new: GateState, actor: Actor) -> GateDiff:
    """Every changed field from ``previous`` to ``new``, in a stable order."""
    before = None if previous is None else previous.model_dump(mode="json")
    return GateDiff.model_validate(diff_dicts(before, new.model_dump(mode="json"), actor))


def diff_dicts(previous: dict[str, Any] | None, new: dict[str, Any], actor: str) -> dict[str, Any]:
    """:func:`diff_states` on states given as ``model_dump(mode="json")``-shaped dicts."""
    if previous is None:
        return _first_state_diff(new, actor)
    changes: list[dict[str, Any]] = []
    _note(changes, "summary", previous["summary"], new["summary"])
    old_gates, new_gates = previous["gates"], new["gates"]
    raw_changed: list[str] = []
    classified_changed: list[str] = []
    for key in dict.fromkeys([*old_gates, *new_gates]):
        before = old_gates.get(key, _EMPTY)
        after = new_gates.get(key, _EMPTY)
        if _note(changes, f"gates.{key}.raw", before["raw"], after["raw"]):
            raw_changed.append(key)
        if _note(changes, f"gates.{key}.classified", before["classified"], after["classified"]):
            classified_changed.append(key)
    old_status, new_status = previous["status"], new["status"]
    for name in STATUS_FIELDS:
        _note(changes, f"status.{name}", old_status.get(name), new_status.get(name))
    return {
        "actor": actor,
        "summary_changed": previous["summary"] != new["summary"],
        "gates_added": [key for key in new_gates if key not in old_gates],
        "gates_removed": [key for key in old_gates if key not in new_gates],
        "gates_raw_changed": raw_changed,
        "gates_classified_changed": classified_changed,
        "changes": changes,
    }


def _first_state_diff(new: dict[str, Any], actor: str) -> dict[str, Any]:
    # One change per field, built with as little around it as possible: every parse
    # without a previous state (every `check` without --previous) pays for this.
    gates, status = new["gates"], new["status"]
    changes = [{"path": "summary", "before": None, "after": new["summary"]}]
    add = changes.append
    for key, value in gates.items():
        add({"path": f"gates.{key}.raw", "before": None, "after": value["raw"]})
        add({"path": f"gates.{key}.classified", "before": None, "after": value["classified"]})
    for name, path in _STATUS_PATHS:
        add({"path": path, "before": None, "after": status.get(name)})
    keys = list(gates)
    return {
        "actor": actor,
        "summary_changed": True,
        "gates_added": keys,
        "gates_removed": [],
        "gates_raw_changed": keys,
        "gates_classified_changed": keys,  # one list three times: validation copies each
        "changes": changes,
    }


def _note(changes: list[dict[str, Any]], path: str, before: Any, after: Any) -> bool:
    if before == after:
        return False
    changes.append({"path": path, "before": before, "after": after})
    return True
