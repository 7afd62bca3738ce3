"""The in-memory history of a session: every transition, and undo/redo over them.

Nothing is ever erased. The *timeline* is append-only: accepted edits and replies,
undo, redo and jumps are all transitions with the state and decision after them.
Undo/redo move a cursor over the *state-producing* transitions (edits, replies,
jumps); a new edit after an undo drops only the redo branch from the cursor's reach,
never from the timeline. The states and decisions stored here are the ones ``parse``
produced (or the empty state's), so undo never recomputes a decision of its own.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any, Literal

from gate_tui.decision import decide
from gate_tui.models import (
    Actor,
    GateConfig,
    GateDecision,
    GateDiff,
    GateState,
    ParseResult,
    ParseWarning,
    Repair,
    StatusInfo,
)
from gate_tui.parsing.diff import diff_states
from gate_tui.parsing.pipeline import canonical_base
from gate_tui.session.undo import START, UndoJournal

TransitionKind = Literal["edit", "reply", "undo", "redo", "jump"]
KIND_FOR_ACTOR: dict[str, TransitionKind] = {"user": "edit", "assistant": "reply"}


def now_iso() -> str:
    """UTC time with milliseconds, the timestamp format of the timeline and journal."""
    return datetime.now(UTC).isoformat(timespec="milliseconds")


@dataclass(frozen=True)
class Transition:
    """One entry of the timeline: what happened and the state and decision after it."""

    index: int
    kind: TransitionKind
    actor: Actor
    at: str
    state: GateState
    decision: GateDecision
    diff: GateDiff
    # What was pasted or typed. Not part of a transition's identity: a session replayed
    # from its journal leaves payloads in the journal (memory holds states, not replies).
    payload: Any = field(default=None, compare=False)
    warnings: tuple[ParseWarning, ...] = ()
    repairs: tuple[Repair, ...] = ()
    claimed_status: StatusInfo | None = None
    target: int | None = None  # for undo/redo/jump: the timeline index whose state was restored


@dataclass
class History:
    """Timeline plus the undo cursor, kept in the editors' one :class:`UndoJournal`.
    Pure data: persistence lives in :mod:`gate_tui.session`."""

    config: GateConfig
    initial: GateState
    journal: UndoJournal[Transition] = field(default_factory=UndoJournal)

    @classmethod
    def start(cls, config: GateConfig, initial: GateState | None = None) -> History:
        return cls(config=config, initial=canonical_base(initial, config))

    @property
    def timeline(self) -> list[Transition]:
        """Every transition, oldest first (undo, redo and jumps included)."""
        return self.journal.entries

    @property
    def state(self) -> GateState:
        current = self.journal.current
        return self.initial if current == START else self.timeline[current].state

    @property
    def decision(self) -> GateDecision:
        current = self.journal.current
        if current == START:
            return decide(self.config, self.initial.gates)
        return self.timeline[current].decision

    @property
    def can_undo(self) -> bool:
        return self.journal.can_undo

    @property
    def can_redo(self) -> bool:
        return self.journal.can_redo

    def accept(
        self, result: ParseResult, payload: Any, actor: Actor, at: str | None = None
    ) -> Transition:
        """Record an ``ok`` parse result as the new current state."""
        if not result.ok or result.canonical_state is None or result.decision is None:
            raise ValueError("only an ok ParseResult can be accepted")
        transition = Transition(
            index=len(self.timeline),
            kind=KIND_FOR_ACTOR[actor],
            actor=actor,
            at=at or now_iso(),
            state=result.canonical_state,
            decision=result.decision,
            diff=diff_states(self.state, result.canonical_state, actor),
            payload=payload,
            warnings=tuple(result.warnings),
            repairs=tuple(result.repairs),
            claimed_status=result.claimed_status,
        )
        self.journal.push(transition)
        return transition

    def restore(self, transition: Transition) -> Transition:
        """Append a recorded edit or reply as it was (its recorded diff kept), e.g. when a
        journal is replayed; ``index`` is renumbered to its place in this timeline."""
        if transition.kind not in ("edit", "reply"):
            raise ValueError("only edits and replies are restored; undo/redo/jump are replayed")
        restored = replace(transition, index=len(self.timeline))
        self.journal.push(restored)
        return restored

    def undo(self, at: str | None = None) -> Transition | None:
        before = self._last_state()
        target = self.journal.undo()
        return None if target is None else self._move("undo", target, before, at)

    def redo(self, at: str | None = None) -> Transition | None:
        before = self._last_state()
        target = self.journal.redo()
        return None if target is None else self._move("redo", target, before, at)

    def jump_to(self, index: int, at: str | None = None) -> Transition | None:
        """Restore the state after timeline entry ``index`` (-1: the initial state) as a new
        transition."""

        def jump(target: int) -> Transition:
            state = self.initial if target == START else self.timeline[target].state
            decision = (
                decide(self.config, self.initial.gates)
                if target == START
                else self.timeline[target].decision
            )
            return Transition(
                index=len(self.timeline),
                kind="jump",
                actor="user",
                at=at or now_iso(),
                state=state,
                decision=decision,
                diff=diff_states(self.state, state, "user"),
                claimed_status=self._claim_of(target),
                target=target,
            )

        return self.journal.jump_to(index, jump)

    def _last_state(self) -> GateState:
        return self.timeline[-1].state if self.timeline else self.initial

    def _move(
        self, kind: TransitionKind, target: int, before: GateState, at: str | None
    ) -> Transition:
        """The timeline's record of an undo or redo that made ``target``'s state current."""
        transition = Transition(
            index=len(self.timeline),
            kind=kind,
            actor="user",
            at=at or now_iso(),
            state=self.state,
            decision=self.decision,
            diff=diff_states(before, self.state, "user"),
            claimed_status=self._claim_of(target),
            target=target,
        )
        self.journal.note(transition)
        return transition

    def _claim_of(self, index: int) -> StatusInfo | None:
        """The model's claimed status behind the state after entry ``index``, so that a
        restored lying reply is still shown as overruled (undo, redo and jumps carry it)."""
        if index < 0:
            return None
        restored = self.timeline[index]
        return None if restored.kind == "edit" else restored.claimed_status
