"""A gate :class:`~gate_tui.session.live.Session` as something the model is asked about."""

from __future__ import annotations

from functools import cached_property
from typing import Any

from gate_tui.config.prompt_export import prompt_text
from gate_tui.config.schema_export import state_schema
from gate_tui.models import ParseResult
from gate_tui.parsing.pipeline import parse
from gate_tui.session.live import Session


class GateTarget:
    """System prompt = ``gate-tui prompt``; schema = ``gate-tui schema``; parse as the assistant."""

    what = "gate state"

    def __init__(self, session: Session) -> None:
        self.session = session

    @cached_property
    def _prompt(self) -> str:
        return prompt_text(self.session.config)

    def system_prompt(self) -> str:
        return self._prompt

    def schema(self) -> dict[str, Any]:
        return state_schema(self.session.config)

    def state_json(self) -> str:
        return self.session.state_json()

    def parse(self, text: str) -> ParseResult:
        return parse(
            text, self.session.config, previous_state=self.session.state, actor="assistant"
        )

    def ground(self, result: ParseResult, text: str, user_messages: list[str]) -> ParseResult:
        """``result`` checked against the user's own messages (docs/grounding.md)."""
        from gate_tui.grounding.apply import ground
        from gate_tui.grounding.conversation import as_messages

        return ground(
            result, self.session.config, as_messages(user_messages), text, self.session.state
        )

    def records(self) -> list[dict[str, Any]]:
        return self.session.records

    def record_model_call(self, **fields: Any) -> int:
        return self.session.record_model_call(**fields)

    def apply(self, result: ParseResult, text: str, call: int) -> None:
        self.session.accept(
            result, text, "assistant", origin=f"model reply (call {call})", call=call
        )

    def reject(self, result: ParseResult, text: str, call: int) -> None:
        self.session.reject(
            result, text, "assistant", origin=f"model reply (call {call})", call=call
        )
