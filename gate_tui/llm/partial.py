"""The "so far" preview of a reply that is still streaming: throttled, linear in total.

Re-parsing the whole reply on every chunk would cost O(n) per chunk and O(n²) over a
stream. :class:`PartialPreview` parses only when the text has grown by at least
:data:`MIN_GROWTH` characters *and* by :data:`GROWTH` of what was last parsed, so the
lengths parsed form a geometric series and the total parse work over a stream stays a
constant times the reply's length (:attr:`PartialPreview.parsed_chars` counts it; the
bench checks the ratio). The result is shown as "so far: path → value", read from the
parser's recovered value of a cut-off reply, and never as a decision: a reply that has
not ended decides nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gate_tui.models import ParseResult

MIN_GROWTH = 256  # characters: small replies still update often
GROWTH = 0.25  # and large ones once per quarter more text
MAX_LINES = 12


class PartialPreview:
    """Decides when a growing reply is worth parsing again, and counts the work."""

    def __init__(self, parse: Callable[[str], ParseResult]) -> None:
        self._parse = parse
        self.last_len = 0
        self.parsed_chars = 0  # total characters handed to the parser over the stream
        self.parses = 0
        self.result: ParseResult | None = None

    def due(self, length: int) -> bool:
        """Whether a reply of ``length`` characters should be parsed now."""
        grown = length - self.last_len
        return grown >= MIN_GROWTH and grown >= GROWTH * self.last_len

    def update(self, text: str) -> ParseResult | None:
        """Parse ``text`` if due; the new result, or None when nothing changed."""
        if not self.due(len(text)):
            return None
        return self.force(text)

    def force(self, text: str) -> ParseResult:
        self.last_len = len(text)
        self.parsed_chars += len(text)
        self.parses += 1
        self.result = self._parse(text)
        return self.result


def so_far_lines(result: ParseResult | Any, limit: int = MAX_LINES) -> list[str]:
    """``path → value`` lines of what can already be read from a partial reply."""
    if result is None:
        return []
    value: Any = getattr(result, "recovered", None)  # a contract result has none: its ``value``
    state = getattr(result, "canonical_state", None)
    if value is None and state is not None:
        value = state.model_dump(mode="json", exclude={"status"})
    if value is None:
        value = getattr(result, "value", None)
    if not isinstance(value, dict):
        return []
    lines: list[str] = []
    _walk(value, "", lines, limit)
    return lines


def _walk(value: Any, path: str, lines: list[str], limit: int) -> None:
    if len(lines) >= limit:
        return
    if isinstance(value, dict):
        for key, inner in value.items():
            if path == "" and key == "status":
                continue  # the model's claimed status is never shown as if it decided
            _walk(inner, f"{path}.{key}" if path else str(key), lines, limit)
        return
    if value is None or value == "":
        return
    shown = value if isinstance(value, str) else repr(value)
    if len(shown) > 60:
        shown = shown[:59] + "…"
    lines.append(f"{path} → {shown}")
