"""What a transition changed: the previous canonical state against the new one.

The first state of a session has no previous state, and then everything counts as
added and changed, so the history of a session always starts from a complete record.
"""

from __future__ import annotations

from typing import Any

from gate_tui.models import Actor, FieldChange, GateDiff, GateState, GateValue

_EMPTY = GateValue()


def diff_states(previous: GateState | None, new: GateState, actor: Actor) -> GateDiff:
    """Every changed field from ``previous`` to ``new``, in a stable order."""
    if previous is None:
        return _first_state_diff(new, actor)
    changes: list[FieldChange] = []
    _note(changes, "summary", previous.summary, new.summary)
    added = [key for key in new.gates if key not in previous.gates]
    removed = [key for key in previous.gates if key not in new.gates]
    raw_changed: list[str] = []
    classified_changed: list[str] = []
    for key in _union(previous.gates, new.gates):
        before = previous.gates.get(key, _EMPTY)
        after = new.gates.get(key, _EMPTY)
        if _note(changes, f"gates.{key}.raw", before.raw, after.raw):
            raw_changed.append(key)
        if _note(changes, f"gates.{key}.classified", before.classified, after.classified):
            classified_changed.append(key)
    _note_status(changes, previous, new)
    return GateDiff(
        actor=actor,
        summary_changed=previous.summary != new.summary,
        gates_added=added,
        gates_removed=removed,
        gates_raw_changed=raw_changed,
        gates_classified_changed=classified_changed,
        changes=changes,
    )


def _first_state_diff(new: GateState, actor: Actor) -> GateDiff:
    changes = [FieldChange(path="summary", before=None, after=new.summary)]
    for key, value in new.gates.items():
        changes.append(FieldChange(path=f"gates.{key}.raw", before=None, after=value.raw))
        changes.append(FieldChange(path=f"gates.{key}.classified", before=None, after=value.classified))
    status = new.status
    changes.append(FieldChange(path="status.pass", before=None, after=status.pass_))
    changes.append(FieldChange(path="status.next_gate", before=None, after=status.next_gate))
    changes.append(FieldChange(path="status.next_query", before=None, after=status.next_query))
    keys = list(new.gates)
    return GateDiff(
        actor=actor,
        summary_changed=True,
        gates_added=keys,
        gates_raw_changed=keys,
        gates_classified_changed=keys,
        changes=changes,
    )


def _note_status(changes: list[FieldChange], previous: GateState, new: GateState) -> None:
    before, after = previous.status, new.status
    _note(changes, "status.pass", before.pass_, after.pass_)
    _note(changes, "status.next_gate", before.next_gate, after.next_gate)
    _note(changes, "status.next_query", before.next_query, after.next_query)


def _note(changes: list[FieldChange], path: str, before: Any, after: Any) -> bool:
    if before == after:
        return False
    changes.append(FieldChange(path=path, before=before, after=after))
    return True


def _union(first: dict[str, Any], second: dict[str, Any]) -> list[str]:
    return list(dict.fromkeys([*first, *second]))
