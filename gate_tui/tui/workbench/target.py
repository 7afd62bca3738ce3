"""What the reply workbench needs from its screen: the target protocol.

A screen that mounts a :class:`~gate_tui.tui.workbench.widget.Workbench` hands itself as
its ``host``; the workbench knows the screen only through this protocol (no import of
any screen, so no import circle). The host previews and applies a reply with its own
rules (``parse`` for gates, the contract check for contracts, the stored result in
review); the workbench decides when, keeps the preview's result and hands it back on
apply, so a text is parsed once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol

if TYPE_CHECKING:
    from textual.content import Content

    from gate_tui.llm.asking import Target


@dataclass(frozen=True)
class Previewed:
    """One preview: the text it is of, the candidate picked in it, what the host read
    (``result``: reused by apply while the text and the host's ``basis`` are the same),
    what the pane shows and whether it is ok."""

    text: str
    candidate: int | None
    result: Any
    content: Content | None
    ok: bool | None
    basis: object = None
    """What the result was computed against (the gate state): a changed basis parses again."""
    next_choice: int | None = None
    """The candidate after the one used (None: the reply holds one object at most)."""


ApplyKind = Literal["accepted", "rejected", "empty", "error", "refused"]


@dataclass(frozen=True)
class Applied:
    """What applying did: ``accepted`` empties the pane; ``rejected`` keeps the reply and
    shows ``shown`` (its errors); the others leave the pane as it is."""

    kind: ApplyKind
    result: Any = None
    shown: Previewed | None = None
    error: str = ""
    """Why the host could not record it (``kind`` "error": said in a toast)."""
    problems: int = 0
    """How many errors a rejected reply has (the toast says the count; the preview lists them)."""


class ReplyHost(Protocol):
    """The screen the workbench sits on."""

    def preview_reply(self, text: str, candidate: int | None, parsed: Any = None) -> Previewed:
        """What applying ``text`` would do (``parsed``: a result already read for it, as at
        the end of a model stream, shown without parsing again)."""
        ...

    def apply_reply(
        self, text: str, candidate: int | None, previewed: Previewed | None, call: int | None
    ) -> Applied:
        """Apply ``text`` (``previewed``: the preview of this very text, to reuse)."""
        ...

    def ask_target(self) -> Target | None:
        """What the model is asked about (None: asking is not offered here)."""
        ...

    def key_hint(self, action_id: str) -> str:
        """An action's key as the screen binds it, for messages ("Ctrl+J")."""
        ...

    def commit_pending(self) -> None:
        """Record a half-typed edit before the model sees the state."""
        ...
