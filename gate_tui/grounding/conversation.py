"""The user's words known for a reply: OpenAI-format chat messages, reduced to user turns.

A conversation is outside input: any shape that is not a list of messages with a role
gives no turns plus a problem, never an exception.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gate_tui.grounding.normalise import normalise_mapped

MAX_TURN_CHARS = 4_000_000
"""A turn longer than this is cut: the check stays bounded in time and memory."""


class UserTurn:
    """One user message: its 1-based number, its text, and the text's normal form."""

    __slots__ = ("number", "text", "normal", "where")

    def __init__(self, number: int, text: str) -> None:
        self.number = number
        self.text = text[:MAX_TURN_CHARS]
        self.normal, self.where = normalise_mapped(self.text)

    def original(self, start: int, end: int) -> tuple[int, str]:
        """The original characters behind ``normal[start:end]`` (and their offset)."""
        if start >= end or not self.where:
            return 0, ""
        first = self.where[min(start, len(self.where) - 1)]
        last = self.where[min(end, len(self.where)) - 1]
        return first, self.text[first : last + 1]


def message_text(content: Any) -> str | None:
    """A message's text: a string, or the text parts of an OpenAI content list."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [p.get("text") for p in content if isinstance(p, dict) and p.get("type") == "text"]
        return "\n".join(p for p in parts if isinstance(p, str))
    return None


def user_turns(messages: Any) -> tuple[list[UserTurn], str | None]:
    """The user's messages in order, and a problem when ``messages`` is not a chat list."""
    if not isinstance(messages, Sequence) or isinstance(messages, (str, bytes)):
        return [], "the conversation is not a JSON list of chat messages"
    turns: list[UserTurn] = []
    for message in messages:
        if not isinstance(message, dict) or not isinstance(message.get("role"), str):
            return turns, "every message of the conversation needs a role"
        if message["role"] != "user":
            continue
        text = message_text(message.get("content"))
        if text is not None:
            turns.append(UserTurn(len(turns) + 1, text))
    return turns, None


def as_messages(user_texts: Sequence[str]) -> list[dict[str, str]]:
    """The user's own texts (``ask`` prompts, user edits) as chat messages."""
    return [{"role": "user", "content": text} for text in user_texts]
