"""One model request as the editor shows it, without Textual: stream, preview, title.

The editor's worker streams into :attr:`AskRun.live` (a
:class:`~gate_tui.llm.client.LiveReply`); a timer on the screen calls :meth:`take` to
get only the text that arrived since its last call (appending is linear; re-setting
the whole pane on every chunk would not be), :meth:`so_far` for the throttled partial
preview, and :meth:`title` for the title bar. While streaming the preview never shows
a decision, only what can already be read; the normal preview takes over at the end.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from gate_tui.llm.client import LiveReply
from gate_tui.llm.partial import PartialPreview, so_far_lines

if TYPE_CHECKING:
    from gate_tui.llm.asking import Call

SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"


@dataclass
class AskRun:
    """The request in flight (or just ended) and what the screen has shown of it."""

    model: str
    message: str
    kind: str  # "ask" or "retry"
    preview: PartialPreview
    live: LiveReply = field(default_factory=LiveReply)
    shown: int = 0  # characters of live text already in the reply pane
    call: Call | None = None
    cancelled: bool = False
    started: float = field(default_factory=time.monotonic)
    ended: float | None = None

    @property
    def running(self) -> bool:
        return self.call is None and not self.cancelled

    def take(self) -> str:
        """The text that arrived since the last call (appended to the pane)."""
        if self.live.chars == self.shown:
            return ""
        text = self.live.text
        fresh = text[self.shown :]
        self.shown = len(text)
        return fresh

    def so_far(self) -> list[str] | None:
        """Lines of what the partial reply already says, when it was due for a re-parse
        (throttled: see :class:`PartialPreview`); None when nothing new was parsed."""
        result = self.preview.update(self.live.text)
        return None if result is None else so_far_lines(result)

    def elapsed(self, now: float | None = None) -> float:
        return (self.ended or now or time.monotonic()) - self.started

    def title(self, now: float | None = None) -> str:
        """``gemma3-270m ⠹ 3.2 s · 41 tokens`` while streaming; the outcome after."""
        seconds = self.elapsed(now)
        tokens = f"{self.live.chunks} token{'s' * (self.live.chunks != 1)}"
        if self.running:
            spin = SPINNER[int(seconds * 10) % len(SPINNER)]
            waiting = "waiting" if self.live.chunks == 0 else tokens
            return f"{self.model} {spin} {seconds:.1f} s · {waiting}"
        return f"{self.model} · {self.state_word()} · {seconds:.1f} s · {tokens}"

    def state_word(self) -> str:
        if self.cancelled:
            return "cancelled"
        if self.call is None:
            return "streaming"
        return {
            "ok": "reply ready",
            "invalid": "reply not valid",
            "incomplete": "incomplete",
            "error": "failed",
            "cancelled": "cancelled",
        }[self.call.status]

    def finish(self, call: Call) -> None:
        self.call = call
        self.ended = time.monotonic()
