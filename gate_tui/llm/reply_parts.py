"""What a streamed chunk holds besides reply text: reasoning, tool calls, token counts.

A reasoning model can spend its whole answer in ``reasoning_content`` (llama.cpp, vLLM,
DeepSeek) or ``reasoning`` (Ollama, OpenRouter), and a model tuned for tools can answer
with ``tool_calls`` only. Either way no reply text came, and "no reply" would send the user
looking at the network; :class:`OtherParts` counts them so the message says what came
instead. Their text is never kept: it is not the reply, and it is not what the user asked
the system to judge.

``usage`` arrives as the SDK's pydantic model, which holds whatever the server sent: a
string ``total_tokens`` would make ``model_dump`` print a serializer warning (with Python
source) on the user's terminal. :func:`usage_counts` reads the fields without serializing
and keeps whole numbers only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from gate_tui.llm.failures import Failure

REASONING_FIELDS = ("reasoning_content", "reasoning")
MAX_USAGE_FIELDS = 16  # a server's usage object is small; a flood of fields is not kept


@dataclass
class OtherParts:
    """Counts of what a stream sent that is not reply text."""

    reasoning_chars: int = 0
    tool_calls: int = 0
    tool_names: list[str] = field(default_factory=list)

    @property
    def any(self) -> bool:
        return self.reasoning_chars > 0 or self.tool_calls > 0

    def note(self, delta: Any) -> None:
        if delta is None:
            return
        for name in REASONING_FIELDS:
            value = _field(delta, name)
            if isinstance(value, str):
                self.reasoning_chars += len(value)
        calls = _field(delta, "tool_calls")
        for call in calls if isinstance(calls, list) else ():
            function = _field(call, "function")
            name = _field(function, "name") if function is not None else None
            if isinstance(name, str) and name:  # the first chunk of a call names it
                self.tool_calls += 1
                if len(self.tool_names) < 3:
                    self.tool_names.append(name[:60])
            elif self.tool_calls == 0:
                self.tool_calls = 1

    def failure(self, endpoint: str, finish_reason: str | None) -> Failure:
        """The message for a stream that held no reply text."""
        ended = (
            f" (finish_reason {finish_reason})"
            if finish_reason
            else " (the stream ended unfinished)"
        )
        if self.tool_calls:
            names = ", ".join(repr(n) for n in self.tool_names) or "unnamed"
            return Failure(
                "tool_calls_only",
                f"{endpoint} answered with {self.tool_calls} tool call(s) "
                f"({names}) and no reply text{ended}: gate-tui offers no tools; ask for the "
                "gate state as text, or use a model or template without tool calling",
            )
        if self.reasoning_chars:
            return Failure(
                "reasoning_only",
                f"{endpoint} sent only reasoning "
                f"({self.reasoning_chars:,} characters of reasoning_content) and no reply "
                f"text{ended}: the model spent its answer thinking; allow it more tokens, "
                "turn reasoning off for this model, or use a model without it",
            )
        return Failure(
            "empty",
            f"{endpoint} finished without any reply text{ended}: the model "
            "answered with nothing; ask again, or try another model",
        )


def usage_counts(usage: Any) -> dict[str, int]:
    """The whole-number token counts of a chunk's ``usage`` ("12" read as 12), never a warning."""
    raw: Any = usage if isinstance(usage, dict) else getattr(usage, "__dict__", {})
    extra = getattr(usage, "model_extra", None)
    items = list(raw.items()) + (list(extra.items()) if isinstance(extra, dict) else [])
    counts: dict[str, int] = {}
    for name, value in items[:MAX_USAGE_FIELDS]:
        if isinstance(value, bool) or not isinstance(name, str):
            continue
        if isinstance(value, str) and value.strip().isdigit() and len(value) < 20:
            value = int(value)
        if isinstance(value, int):
            counts[name] = value
    return counts


def _field(obj: Any, name: str) -> Any:
    """A field of an SDK model or a dict; extra fields a server added included."""
    if isinstance(obj, dict):
        return obj.get(name)
    value = getattr(obj, name, None)
    if value is None:
        extra = getattr(obj, "model_extra", None)
        value = extra.get(name) if isinstance(extra, dict) else None
    return value
