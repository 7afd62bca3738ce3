"""What the reply workbench tells its screen: every message it posts, in one module.

Each is a dataclass (Textual's messages are): the fields are the message's content, and
the screen handles them with ``@on(ReplyApplied)`` (they bubble from the workbench).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from textual.message import Message

if TYPE_CHECKING:
    from gate_tui.llm.asking import Call


@dataclass
class ReplyApplied(Message):
    """The host took the reply (Ctrl+J): the pane is empty again, the state changed."""

    text: str
    result: Any
    """The host's result for ``text`` (a ``ParseResult``, a ``ContractResult``)."""


@dataclass
class ReplyRejected(Message):
    """The host refused the reply: it stays in the pane with its errors in the preview."""

    text: str
    result: Any


@dataclass
class ChoiceChanged(Message):
    """Whether the previewed reply holds several candidates changed (the footer names
    the next-candidate key only while it does)."""

    has_choice: bool


@dataclass
class AskStarted(Message):
    """A request to the model went out (``kind``: "ask" or "retry"; ``round`` of auto-retry)."""

    kind: str
    round: int


@dataclass
class AskFinished(Message):
    """A request ended: ``call`` is None when it failed before the model answered."""

    call: Call | None
    gave_up: bool = False
    """Auto-retry was on, the reply is still invalid and no round is left."""
