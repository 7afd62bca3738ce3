"""The user's words known for a reply: OpenAI-format chat messages, reduced to user turns.

A conversation is outside input: any shape that is not a list of messages with a role
gives no turns plus a problem, never an exception.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, overload

from gate_tui.grounding.normalise import SEPARATOR, loose_form, normal_form, normalise_mapped

MAX_TURN_CHARS = 4_000_000
"""A turn longer than this is cut: the check stays bounded in time and memory."""


class UserTurn:
    """One user message: its 1-based number, its text, and the text's normal form."""

    __slots__ = ("number", "text", "_normal", "_where")

    def __init__(self, number: int, text: str) -> None:
        self.number = number
        self.text = text[:MAX_TURN_CHARS]
        self._normal: str | None = None
        self._where: list[int] | None = None

    @property
    def normal(self) -> str:
        """The turn's normal form (built when first needed: most values are found by
        the look-up over all turns at once without it)."""
        if self._normal is None:
            self._normal = normal_form(self.text)
        return self._normal

    @property
    def where(self) -> list[int]:
        """For each character of :attr:`normal`, the index of the original it came from
        (built once, when a finding first needs the user's own characters)."""
        if self._where is None:
            normal, self._where = normalise_mapped(self.text)
            if normal != self.normal:  # never expected; the span is then shown in normal form
                self._where = []
        return self._where

    def original(self, start: int, end: int) -> tuple[int, str]:
        """The original characters behind ``normal[start:end]`` (and their offset).

        Fast path, at C speed: the span's normal text found in the turn folded without
        collapsing whitespace (one character for one while the fold keeps the length); the
        character map is built only when the user's spacing differs inside the span."""
        snippet = self.normal[start:end]
        loose = loose_form(self.text)
        if len(loose) == len(self.text):
            at = loose.find(snippet)
            if at >= 0:
                return at, self.text[at : at + len(snippet)]
        if not self.where:
            return start, self.normal[start:end]
        if start >= end:
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


class Turns(Sequence[UserTurn]):
    """The user turns, with a fast exact look-up over all of them at once.

    ``loose``: every turn's text, quotes straightened and case folded but spacing kept,
    joined by :data:`SEPARATOR` (a few C calls per conversation). A normalised value found
    there is in that turn's normal form too (it has no edge spaces, so the spacing around
    it cannot differ), and the user's own characters are the same offsets of the turn.
    Only a value not found so literally needs the turns themselves (:class:`UserTurn`,
    with their normal forms): they are built on first use, as most replies never need
    them (this runs for every reply of a batch)."""

    __slots__ = ("texts", "loose", "_turns")

    def __init__(self, texts: Sequence[str] = ()) -> None:
        self.texts = texts if type(texts) is list else list(texts)
        self._turns: list[UserTurn] | None = None
        joined = SEPARATOR.join(self.texts)
        loose = loose_form(joined)
        # Offsets map one to one only when the fold kept the length and no turn holds the
        # separator itself.
        literal = len(loose) == len(joined) and joined.count(SEPARATOR) == len(self.texts) - 1
        self.loose = loose if literal and self.texts else ""

    @property
    def turns(self) -> list[UserTurn]:
        if self._turns is None:
            self._turns = [UserTurn(number, text) for number, text in enumerate(self.texts, 1)]
        return self._turns

    def __len__(self) -> int:
        return len(self.texts)

    @overload
    def __getitem__(self, index: int) -> UserTurn: ...
    @overload
    def __getitem__(self, index: slice) -> list[UserTurn]: ...
    def __getitem__(self, index: int | slice) -> UserTurn | list[UserTurn]:
        return self.turns[index]

    def __iter__(self) -> Iterator[UserTurn]:
        return iter(self.turns)


def _user_texts(messages: Sequence[Any]) -> tuple[list[str], str | None]:
    """The user messages' texts, up to the first message without a role (the problem)."""
    # The common case in a few C-speed passes (this runs for every reply of a batch):
    # every message a dict with a string role, user contents plain strings.
    if type(messages) is list and set(map(type, messages)) <= {dict}:
        try:  # a message without a role or a user message without content: the slow path
            roles = [m["role"] for m in messages]
            users = [m["content"] for m, role in zip(messages, roles) if role == "user"]  # noqa: B905
        except KeyError:
            roles = users = [None]
        if set(map(type, roles)) <= {str} and set(map(type, users)) <= {str}:
            if users and max(map(len, users)) > MAX_TURN_CHARS:
                users = [text[:MAX_TURN_CHARS] for text in users]
            return users, None
    texts: list[str] = []
    for message in messages:
        if not isinstance(message, dict) or not isinstance(message.get("role"), str):
            return texts, "every message of the conversation needs a role"
        if message["role"] != "user":
            continue
        text = message_text(message.get("content"))
        if text is not None:
            texts.append(text[:MAX_TURN_CHARS])
    return texts, None


def user_turns(messages: Any) -> tuple[Turns, str | None]:
    """The user's messages in order, and a problem when ``messages`` is not a chat list."""
    if type(messages) is not list and (
        not isinstance(messages, Sequence) or isinstance(messages, (str, bytes))
    ):
        return Turns(), "the conversation is not a JSON list of chat messages"
    texts, problem = _user_texts(messages)
    return Turns(texts), problem


def as_messages(user_texts: Sequence[str]) -> list[dict[str, str]]:
    """The user's own texts (``ask`` prompts, user edits) as chat messages."""
    return [{"role": "user", "content": text} for text in user_texts]
