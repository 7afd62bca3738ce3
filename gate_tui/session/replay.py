"""Rebuild a :class:`History` from journal records, exactly as it was.

Replay never parses a payload again: each accepted record carries the canonical state
and decision the parser produced, so it is fed back through :meth:`History.accept`
with its recorded time, and undo / redo / jump records go through the same History
methods. The timeline and the undo position therefore come out equal to the original.
Moves are checked against the state they recorded; a record that cannot be used is
skipped with a notice rather than stopping the replay.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from gate_tui.history import KIND_FOR_ACTOR, History, Transition
from gate_tui.models import (
    GateConfig,
    GateDecision,
    GateState,
    ParseResult,
    ParseWarning,
    Repair,
    StatusInfo,
)
from gate_tui.session.records import ACCEPT_KINDS, MOVE_KINDS, Record


@dataclass
class Replay:
    """The rebuilt history, the rejected payloads, and what went wrong on the way."""

    history: History
    rejected: list[Record] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)
    closed_cleanly: bool = False
    diverged_at: int | None = None  # seq of the first record whose state did not match


def replay(config: GateConfig, records: list[Record]) -> Replay:
    """Apply ``records`` (the journal after its header) to a fresh history."""
    out = Replay(history=History.start(config))
    skipped: list[str] = []
    for record in records:
        kind = record.get("kind")
        if kind in ACCEPT_KINDS:
            ok = _accept(out, record)
        elif kind in MOVE_KINDS:
            ok = _move(out, record)
        else:
            ok = True
            if kind == "rejected":
                out.rejected.append(record)
        if not ok:
            skipped.append(str(record.get("seq", "?")))
        if kind in ("open", "close") or kind in ACCEPT_KINDS or kind in MOVE_KINDS:
            out.closed_cleanly = kind == "close"
    if skipped:
        out.notices.append(f"journal records that could not be replayed were skipped (seq {', '.join(skipped[:10])})")
    if out.diverged_at is not None:
        out.notices.append(
            f"replaying the journal gave a different state than recorded from seq {out.diverged_at} on; "
            "the replayed state is shown"
        )
    return out


def _accept(out: Replay, record: Record) -> bool:
    actor = record.get("actor")
    at = record.get("at")
    if actor not in KIND_FOR_ACTOR or KIND_FOR_ACTOR[actor] != record.get("kind") or not isinstance(at, str):
        return False
    result = _result(record)
    if result is None:
        return False
    out.history.accept(result, record.get("payload"), actor, at=at)
    return True


def _move(out: Replay, record: Record) -> bool:
    at = record.get("at")
    if not isinstance(at, str):
        return False
    history = out.history
    kind = record["kind"]
    moved: Transition | None
    if kind == "undo":
        moved = history.undo(at=at)
    elif kind == "redo":
        moved = history.redo(at=at)
    else:
        target = record.get("target")
        moved = history.jump_to(target, at=at) if isinstance(target, int) and not isinstance(target, bool) else None
    if moved is None:
        return False
    _check(out, record, moved)
    return True


def _check(out: Replay, record: Record, moved: Transition) -> None:
    if out.diverged_at is not None:
        return
    try:
        expected = GateState.model_validate(record.get("state"))
    except ValidationError:
        expected = None
    if expected != moved.state or record.get("target") != moved.target:
        seq = record.get("seq")
        out.diverged_at = seq if isinstance(seq, int) else -1


def _result(record: Record) -> ParseResult | None:
    """The ok ParseResult the parser gave when this record was accepted."""
    try:
        claimed = record.get("claimed_status")
        return ParseResult(
            ok=True,
            canonical_state=GateState.model_validate(record.get("state")),
            decision=GateDecision.model_validate(record.get("decision")),
            warnings=[ParseWarning.model_validate(w) for w in _list(record.get("warnings"))],
            repairs=[Repair.model_validate(r) for r in _list(record.get("repairs"))],
            claimed_status=None if claimed is None else StatusInfo.model_validate(claimed),
        )
    except (ValidationError, TypeError, ValueError):
        return None


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []
