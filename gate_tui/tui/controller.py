"""The editor's edit rules, without Textual: what an edit, a reply, an override or an undo does.

The app (:mod:`gate_tui.tui.app`) renders; this module decides *how the editor uses the
parser and the session*, never a gate decision of its own:

* a user edit is a patch parsed with ``actor="user"`` against the current state and kept
  as the *pending edit* (shown live) until it is committed — then ``session.accept`` for an
  ok result that changes something, ``session.reject`` for a failed one;
* a pending edit always commits to the field it was typed in, and is re-parsed against
  the current state if that moved on meanwhile;
* a reply is parsed with ``actor="assistant"``; only an ok result is accepted;
* undo, redo and a jump back in the timeline commit the pending edit first.

Every method returns an *outcome* (a small named tuple) that says what happened, so the
app only has to show it, and tests can drive the rules without a terminal
(``tests/unit/test_tui_controller.py``). Like the app's first frame, importing this module
loads neither pydantic nor the parser: they are imported on first use.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from gate_tui.tui.form import FieldRef, form_to_patch

if TYPE_CHECKING:
    from gate_tui.models import GateConfig, GateState, ParseResult
    from gate_tui.session.history import Transition
    from gate_tui.session.live import Session

CommitKind = Literal["none", "accepted", "unchanged", "rejected", "error"]
ReplyKind = Literal["empty", "accepted", "rejected", "error"]
OVERRIDES: dict[str, bool | None] = {"pass": True, "no_pass": False, "clear": None}


class PendingEdit(NamedTuple):
    """A parsed user edit shown live but not yet recorded as a transition."""

    field: FieldRef
    patch: dict[str, Any]
    result: ParseResult
    base: GateState


class Commit(NamedTuple):
    """What committing the pending edit did (``error`` holds the session's message)."""

    kind: CommitKind
    field: FieldRef | None = None
    result: ParseResult | None = None
    transition: Transition | None = None
    error: str | None = None


class ReplyOutcome(NamedTuple):
    """What applying a reply did."""

    kind: ReplyKind
    result: ParseResult | None = None
    transition: Transition | None = None
    error: str | None = None


def parse(
    payload: Any,
    config: GateConfig,
    previous_state: GateState | None,
    actor: str,
    candidate: int | None = None,
) -> ParseResult:
    """:func:`gate_tui.parsing.pipeline.parse`, imported on first use (it loads pydantic)."""
    from gate_tui.parsing.pipeline import parse as parse_now

    return parse_now(
        payload, config, previous_state=previous_state, actor=actor, candidate=candidate
    )  # type: ignore[arg-type]


class EditController:
    """The edit rules over one session. ``session`` may be replaced (:meth:`attach`)."""

    def __init__(self, config: GateConfig, session: Session) -> None:
        self.config = config
        self.session = session
        self.pending: PendingEdit | None = None
        self._said: tuple[int, list[str]] = (0, [])  # records read, the user's F6 messages

    def attach(self, session: Session) -> None:
        """Work on ``session`` from now on; a pending edit of the old one is dropped."""
        self.session = session
        self.pending = None
        self._said = (0, [])

    # ------------------------------------------------------------- user edits

    def edit(self, field: FieldRef, value: str | None) -> tuple[Commit, PendingEdit]:
        """Parse a field's new value as a user patch; it becomes the pending edit.

        A pending edit of *another* field is committed first (returned as the Commit), so
        text typed into one gate never lands in another.
        """
        committed = (
            self.commit()
            if self.pending is not None and self.pending.field != field
            else Commit("none")
        )
        patch = form_to_patch(field, value)
        result = parse(patch, self.config, self.session.state, "user")
        self.pending = PendingEdit(field, patch, result, self.session.state)
        return committed, self.pending

    def commit(self) -> Commit:
        """Record the pending edit: accept an ok result, reject a failed one."""
        pending, self.pending = self.pending, None
        if pending is None:
            return Commit("none")
        result = pending.result
        if pending.base != self.session.state:  # the state moved on (undo, a reply): judge again
            result = parse(pending.patch, self.config, self.session.state, "user")
        if not result.ok:
            self.session.reject(result, pending.patch, "user")
            return Commit("rejected", pending.field, result)
        if result.canonical_state == self.session.state:
            return Commit("unchanged", pending.field, result)
        transition, error = self._accept(result, pending.patch, "user")
        if transition is None:
            return Commit("error", pending.field, result, error=error)
        return Commit("accepted", pending.field, result, transition)

    # ----------------------------------------------------------------- replies

    def preview(self, text: str, candidate: int | None = None) -> ParseResult | None:
        """What applying ``text`` would do (None for a blank pane); nothing is recorded.
        ``candidate`` picks one of the reply's objects (``ParseResult.candidates``)."""
        if not text.strip():
            return None
        return self.grounded(
            parse(text, self.config, self.session.state, "assistant", candidate), text
        )

    def grounded(self, result: ParseResult, text: str) -> ParseResult:
        """``result`` checked against the user's own messages to the model (F6) in this
        session (docs/grounding.md); unchecked while there are none and the config's
        ``grounding`` is unset."""
        from gate_tui.grounding.apply import ground
        from gate_tui.grounding.conversation import as_messages
        from gate_tui.llm.conversation import turns_of

        records = self.session.records
        seen, said = self._said
        if len(records) < seen:  # not the records read before: all of them anew
            seen, said = 0, []
        # Records only grow: each preview reads the new ones alone (a long session's
        # preview costs what a short one's does).
        said = said + [turn.message for turn in turns_of(records[seen:]) if turn.call_kind == "ask"]
        self._said = (len(records), said)
        conversation = (
            as_messages(said) if said or self.config.policy.grounding is not None else None
        )
        return ground(result, self.config, conversation, text, self.session.state)

    def apply_reply(
        self,
        text: str,
        candidate: int | None = None,
        call: int | None = None,
        parsed: ParseResult | None = None,
    ) -> ReplyOutcome:
        """Parse ``text`` as the assistant's reply (its ``candidate``-th object when given);
        accept it when ok, else journal the rejection. ``call``: the seq of the model call
        that streamed this very text (F6), journaled with it. ``parsed``: the preview's
        result for this text against the state it was previewed on; used (not parsed
        again) while that is still the current state."""
        state = self.session.state
        self.commit()
        if not text.strip():
            return ReplyOutcome("empty")
        fresh = parsed is None or self.session.state is not state
        result = (
            self.grounded(
                parse(text, self.config, self.session.state, "assistant", candidate), text
            )
            if fresh
            else parsed
        )
        origin = None if call is None else f"model reply (call {call})"
        if not result.ok:
            self.session.reject(result, text, "assistant", origin=origin, call=call)
            return ReplyOutcome("rejected", result)
        transition, error = self._accept(result, text, "assistant", origin, call)
        if transition is None:
            return ReplyOutcome("error", result, error=error)
        return ReplyOutcome("accepted", result, transition)

    def cleared_typed_answers(self, result: ParseResult) -> list[str]:
        """The answers the user typed that applying ``result`` would empty, as field paths
        (``gates.2_use_case.raw``): a field whose value the newest change to it came from a
        user edit, and that the reply sets to nothing."""
        if result.diff is None:
            return []
        cleared = [
            c["path"]
            for c in result.diff.changes
            if c["after"] in (None, "")
            and c["before"] not in (None, "")
            and not c["path"].startswith("status.")
        ]
        typed = []
        for path in cleared:
            last = next(
                (
                    t
                    for t in reversed(self.session.timeline)
                    if any(c["path"] == path for c in t.diff.changes)
                ),
                None,
            )
            if last is not None and last.kind == "edit" and last.actor == "user":
                typed.append(path)
        return typed

    # ---------------------------------------------------------------- override

    def override(self, choice: str) -> Commit:
        """A user override of the decision: a ``status`` patch that the parser judges."""
        self.commit()
        patch = {"status": {"pass": OVERRIDES[choice]}}
        result = parse(patch, self.config, self.session.state, "user")
        if not result.ok:
            self.session.reject(result, patch, "user")
            return Commit("rejected", None, result)
        transition, error = self._accept(result, patch, "user")
        if transition is None:
            return Commit("error", None, result, error=error)
        return Commit("accepted", None, result, transition)

    # ---------------------------------------------------------------- timeline

    def undo(self) -> Transition | None:
        """Commit the pending edit, then step back (None: nothing to undo)."""
        return self._step(self.session.undo)

    def redo(self) -> Transition | None:
        """Commit the pending edit, then step forward (None: nothing to redo)."""
        return self._step(self.session.redo)

    def jump_to(self, index: int) -> Transition | None:
        """Commit the pending edit, then restore the state after transition ``index``."""
        self.commit()
        return self.session.jump_to(index)

    @property
    def can_undo(self) -> bool:
        """Undo has something to do: a transition behind the cursor, or a pending edit."""
        return self.session.can_undo or self.pending is not None

    @property
    def can_redo(self) -> bool:
        return self.session.can_redo

    def _step(self, move: Callable[[], Transition | None]) -> Transition | None:
        self.commit()
        return move()

    def _accept(
        self,
        result: ParseResult,
        payload: Any,
        actor: str,
        origin: str | None = None,
        call: int | None = None,
    ) -> tuple[Transition | None, str | None]:
        try:
            return self.session.accept(result, payload, actor, origin=origin, call=call), None  # type: ignore[arg-type]
        except Exception as exc:  # noqa: BLE001 - the session reports, the editor must survive
            return None, f"Not recorded: {exc}"
