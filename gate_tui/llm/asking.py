"""One round trip to the model on a session, parsed by the system and journaled.

The flow is the same for ``gate-tui ask`` and the editor's F6, which is why it lives
here and not in either: build the messages (:mod:`conversation`), stream the reply
(:mod:`client`), parse it with ``actor="assistant"`` against the session's current state
(the model's claimed ``pass`` is overruled as for any pasted reply), and journal a
``model_call`` record. Applying is a separate step (:meth:`Asker.apply`): the editor waits
for Ctrl+J, ``gate-tui ask`` applies a valid reply at once; either way the accepted
transition carries the call's seq, which is how "applied or not" is journaled.

"Ask again with the errors" (:meth:`Asker.ask_again`) sends the parser's errors back;
:meth:`Asker.ask_with_retries` does that automatically at most ``retries`` times, and only
for a reply that arrived but was not valid — never to paper over a network fault.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from gate_tui.llm.client import LiveReply, Outcome, stream_chat
from gate_tui.llm.conversation import build_messages, errors_message, grounding_findings, turns_of
from gate_tui.llm.endpoint import endpoint_host
from gate_tui.llm.settings import ModelSettings
from gate_tui.models import ParseResult


class Target(Protocol):
    """What is being asked about: a gate session (or a contract document)."""

    what: str

    def system_prompt(self) -> str: ...
    def schema(self) -> dict[str, Any]: ...
    def state_json(self) -> str: ...
    def parse(self, text: str) -> ParseResult: ...
    def records(self) -> list[dict[str, Any]]: ...
    def record_model_call(self, **fields: Any) -> int: ...
    def apply(self, result: ParseResult, text: str, call: int) -> None: ...
    def reject(self, result: ParseResult, text: str, call: int) -> None: ...


@dataclass
class Call:
    """One request and what came of it."""

    message: str
    kind: str  # "ask" or "retry"
    outcome: Outcome
    result: ParseResult | None = None
    seq: int = 0
    applied: bool = False
    notices: list[str] = field(default_factory=list)

    @property
    def status(self) -> str:
        """ok, invalid, incomplete, cancelled or error."""
        if self.outcome.cancelled:
            return "cancelled"
        if self.result is None:
            return "error"
        if self.outcome.incomplete:
            return "incomplete"
        return "ok" if self.result.ok else "invalid"

    @property
    def journal_outcome(self) -> str:
        """The status, except that a dead endpoint is named by how it died (``server_gone``,
        ``no_reply``, ``dropped``) so a journal tells it apart from a refused connection."""
        failure = self.outcome.failure
        if failure is not None and failure.dead_endpoint and not self.outcome.cancelled:
            return failure.kind
        return self.status

    @property
    def retryable(self) -> bool:
        """A reply arrived and was not accepted: asking again with its errors can help."""
        if self.result is None or self.outcome.cancelled:
            return False
        required = (self.result.grounding or {}).get("policy") == "require"
        return not self.result.ok or (required and self.ungrounded)

    @property
    def ungrounded(self) -> bool:
        """The reply holds values the user never said (sent back by "ask again")."""
        return bool(grounding_findings(self.result)) and not self.outcome.cancelled


class Asker:
    """Asks the model about ``target`` with ``settings``; one instance per session."""

    def __init__(self, target: Target, settings: ModelSettings) -> None:
        self.target = target
        self.settings = settings
        self.last: Call | None = None

    def messages(self, message: str) -> tuple[list[dict[str, str]], dict[str, int]]:
        turns = turns_of(self.target.records())
        return build_messages(
            self.target.system_prompt(),
            turns,
            self.target.state_json(),
            message,
            what=self.target.what,
        )

    async def ask(self, message: str, kind: str = "ask", live: LiveReply | None = None) -> Call:
        """Send ``message``, stream into ``live``, parse and journal; nothing is applied."""
        messages, chars = self.messages(message)
        schema = self.target.schema() if self.settings.structured else None
        outcome = await stream_chat(self.settings, messages, schema, live)
        return self.finish(message, kind, outcome, chars)

    def finish(self, message: str, kind: str, outcome: Outcome, chars: dict[str, int]) -> Call:
        """Parse what arrived (even cut off) and journal the call."""
        call = Call(message, kind, outcome, notices=list(outcome.notices))
        if outcome.text:
            call.result = self.target.parse(outcome.text)
            ground = getattr(self.target, "ground", None)
            if ground is not None:  # the user's own messages so far are the conversation
                said = [t.message for t in turns_of(self.target.records()) if t.call_kind == "ask"]
                call.result = ground(
                    call.result, outcome.text, [*said, message] if kind == "ask" else said
                )
        call.seq = self.target.record_model_call(
            call_kind=kind,
            model=self.settings.model,
            endpoint=endpoint_host(self.settings.base_url),
            message=message,
            chars=chars,
            reply=outcome.text,
            finish_reason=outcome.finish_reason,
            usage=outcome.usage,
            ttft_s=_rounded(outcome.ttft_s),
            total_s=_rounded(outcome.total_s),
            outcome=call.journal_outcome,
            error=outcome.error,
            structured=outcome.form if self.settings.structured else None,
        )
        self.last = call
        return call

    def apply(self, call: Call) -> bool:
        """Make a valid reply the state (journaled with the call's seq); False when it is not
        valid."""
        if call.result is None or not call.result.ok or call.outcome.cancelled or call.applied:
            return False
        self.target.apply(call.result, call.outcome.text, call.seq)
        call.applied = True
        return True

    def reject(self, call: Call) -> None:
        """Journal an invalid reply as rejected (``gate-tui ask``), linked to its call."""
        if call.result is not None and not call.result.ok:
            self.target.reject(call.result, call.outcome.text, call.seq)

    def again_message(self, call: Call | None = None) -> str | None:
        """The "ask again with the errors" message for ``call`` (the last one), or None."""
        call = call or self.last
        if call is None or not (call.retryable or call.ungrounded):
            return None
        return errors_message(call.result, call.outcome.finish_reason, self.target.what)

    async def ask_again(self, live: LiveReply | None = None) -> Call | None:
        message = self.again_message()
        return None if message is None else await self.ask(message, "retry", live)

    async def ask_with_retries(
        self, message: str, retries: int, live_factory: Any = LiveReply
    ) -> list[Call]:
        """``message``, then at most ``retries`` rounds of "ask again with the errors"."""
        calls = [await self.ask(message, "ask", live_factory())]
        while len(calls) <= retries and calls[-1].retryable:
            again = self.again_message(calls[-1])
            if again is None:
                break
            calls.append(await self.ask(again, "retry", live_factory()))
        return calls


def _rounded(seconds: float | None) -> float | None:
    return None if seconds is None else round(seconds, 3)
