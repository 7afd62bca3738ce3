"""Rebuild a :class:`History` from journal records, exactly as it was.

Replay never parses a payload again: each accepted record carries the canonical state,
decision and diff that were shown, so it is validated once (one pydantic call) and
pushed onto the history as the very :class:`Transition` it was — without computing
the diff again, which keeps a 10,000-line journal well under a second. Undo / redo /
jump records go through History's own methods with their recorded times, so the
timeline and the undo position come out equal to the original; moves are checked
against the state they recorded. A record that cannot be used is skipped with a
notice rather than stopping the replay.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from gate_tui.models import (
    Actor,
    GateConfig,
    GateDecision,
    GateDiff,
    GateState,
    ParseWarning,
    Repair,
    StatusInfo,
)
from gate_tui.session.history import KIND_FOR_ACTOR, History, Transition
from gate_tui.session.records import ACCEPT_KINDS, MOVE_KINDS, Record


@dataclass
class Replay:
    """The rebuilt history, the rejected payloads, and what went wrong on the way."""

    history: History
    rejected: list[Record] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)
    closed_cleanly: bool = False
    diverged_at: int | None = None  # seq of the first record whose state did not match
    model_calls: list[Record] = field(default_factory=list)  # the conversation (gate_tui.llm)


def replay(config: GateConfig, records: Iterable[Record]) -> Replay:
    """Apply ``records`` (the journal after its header) to a fresh history."""
    replayer = Replayer(config)
    for record in records:
        replayer.add(record)
    return replayer.finish()


class Replayer:
    """:func:`replay` one record at a time, so a journal is never held whole
    (:func:`gate_tui.session.journal.read_journal` hands each record to :meth:`add`).

    The history keeps what the editor shows (states, decisions, diffs), not the payloads:
    an accepted record's payload (a model's whole reply) stays in the journal, where the
    report reads it."""

    def __init__(self, config: GateConfig) -> None:
        self.out = Replay(history=History.start(config))
        self.skipped: list[str] = []
        self.applied_calls: set[int] = set()

    def add(self, record: Record) -> None:
        out = self.out
        kind = record.get("kind")
        if kind in ACCEPT_KINDS:
            ok = _accept(out, record)
        elif kind in MOVE_KINDS:
            ok = _move(out, record)
        else:
            ok = True
            if kind == "rejected":
                out.rejected.append(record)
            elif kind == "model_call":
                out.model_calls.append(record)
        if kind in ACCEPT_KINDS and ok and isinstance(record.get("call"), int):
            self.applied_calls.add(record["call"])
        if not ok:
            self.skipped.append(str(record.get("seq", "?")))
        if kind in ("open", "close") or kind in ACCEPT_KINDS or kind in MOVE_KINDS:
            out.closed_cleanly = kind == "close"

    def finish(self) -> Replay:
        out = self.out
        for (
            call
        ) in out.model_calls:  # "applied" is journaled by the reply's link back; said here once
            if call.get("seq") in self.applied_calls:
                call["applied"] = True
        if self.skipped:
            out.notices.append(
                "journal records that could not be replayed were skipped (seq "
                f"{', '.join(self.skipped[:10])})"
            )
        if out.diverged_at is not None:
            out.notices.append(
                "replaying the journal gave a different state than recorded from seq "
                f"{out.diverged_at} on; the replayed state is shown"
            )
        return out


class AcceptedRecord(BaseModel):
    """The part of an accepted record a Transition is made of (validated in one call).
    Not the payload: it stays in the journal (see :class:`Replayer`)."""

    model_config = ConfigDict(extra="ignore")

    at: str
    actor: Actor
    state: GateState
    decision: GateDecision
    diff: GateDiff
    warnings: list[ParseWarning] = Field(default_factory=list)
    repairs: list[Repair] = Field(default_factory=list)
    claimed_status: StatusInfo | None = None


def _accept(out: Replay, record: Record) -> bool:
    try:
        data = AcceptedRecord.model_validate(record)
    except ValidationError:
        return False
    if KIND_FOR_ACTOR[data.actor] != record.get("kind"):
        return False
    _share(out.history, data)
    restore(out.history, data)
    return True


def _share(history: History, data: AcceptedRecord) -> None:
    """Let what did not change share one object with the state before it.

    A step usually changes one answer; every record still carries the whole state, and
    decoding it gives each step its own copy of every answer. Sharing the equal ones
    (nothing changes a state's values in place) keeps a long history's memory about the
    size of what changed, not of every state in full."""
    previous = history.state
    gates, before = data.state.gates, previous.gates
    for key, value in gates.items():
        old = before.get(key)
        if old is not None and old is not value and old == value:
            gates[key] = old
    if data.state.summary == previous.summary:
        data.state.summary = previous.summary
    if data.decision == history.decision:
        data.decision = history.decision


def restore(history: History, data: AcceptedRecord) -> Transition:
    """Push an accepted transition exactly as recorded (what ``History.accept`` would build).

    Uses ``History.restore`` so the recorded diff is kept instead of being recomputed;
    ``tests/unit/test_session_resume.py`` checks the result equals a replay through
    ``History.accept``.
    """
    transition = Transition(
        index=len(history.timeline),
        kind=KIND_FOR_ACTOR[data.actor],
        actor=data.actor,
        at=data.at,
        state=data.state,
        decision=data.decision,
        diff=data.diff,
        warnings=tuple(data.warnings),
        repairs=tuple(data.repairs),
        claimed_status=data.claimed_status,
    )
    return history.restore(transition)


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
        moved = (
            history.jump_to(target, at=at)
            if isinstance(target, int) and not isinstance(target, bool)
            else None
        )
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
