"""One streamed chat completion from an OpenAI-compatible endpoint, faults as values.

:func:`stream_chat` sends the messages with ``stream=True`` through the official SDK's
``AsyncOpenAI`` and appends every piece of text to a :class:`LiveReply` as it arrives, so
a caller that cancels (Esc in the editor: :meth:`LiveReply.cancel`, from any thread, stops
the read at once and closes the connection) still holds everything received. It
never raises for the endpoint's sake; the :class:`Outcome` says what happened:

* before any text: 429 is retried after ``Retry-After`` (at most :data:`RATE_LIMIT_TRIES`
  times, each wait capped), a 5xx once, and an error naming ``response_format`` moves to
  the next structured form (:mod:`gate_tui.llm.structured`);
* after text has arrived nothing is retried (that would duplicate text): a dropped
  connection, a stall past the read timeout or a stream that ends without
  ``finish_reason`` keeps the partial text and marks the outcome ``incomplete``.

The SDK's own retries are off (``max_retries=0``): the policy above is ours, bounded
and visible.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from gate_tui.limits import DEFAULT_MAX_CHARS
from gate_tui.llm import structured
from gate_tui.llm.endpoint import endpoint_label
from gate_tui.llm.failures import (
    MAX_RETRY_AFTER_S,
    Failure,
    classify,
    dropped_failure,
    local_text_problem,
    no_reply_failure,
)
from gate_tui.llm.reply_parts import OtherParts, usage_counts
from gate_tui.llm.secrets import Redactor
from gate_tui.llm.settings import ModelSettings
from gate_tui.llm.transport import http_client

RATE_LIMIT_TRIES = 3
MAX_REPLY_CHARS = DEFAULT_MAX_CHARS  # counted while streaming, never read past
SERVER_RETRY_WAIT_S = 0.5


@dataclass
class LiveReply:
    """The reply as it streams in; shared with the UI, which reads it while it grows."""

    parts: list[str] = field(default_factory=list)
    chars: int = 0
    chunks: int = 0
    started: float = field(default_factory=time.monotonic)
    first_at: float | None = None
    on_piece: Callable[[str], None] | None = None  # e.g. echo to a terminal as it arrives
    # The key's redactor (set by stream_chat): what is read or echoed never holds the key,
    # even when an endpoint echoes the Authorization header into its reply.
    redact: Redactor | None = None
    _pending: str = ""  # echo held back: the tail that may still be the start of a key
    # cancel() may come from another thread (the UI's Esc): an Event, and the running task's
    # loop so the wait for the next chunk is interrupted too, not only checked per chunk.
    _stop: threading.Event = field(default_factory=threading.Event)
    _task: Any = None
    _loop: Any = None

    def cancel(self) -> None:
        """Stop the stream now, from any thread: the read stops at once (the wait for the next
        chunk is cancelled, the connection closed), what came is kept, the outcome is
        ``cancelled``. Calling it before or after the stream is harmless."""
        self._stop.set()
        task, loop = self._task, self._loop
        if task is not None and loop is not None and not task.done():
            try:
                loop.call_soon_threadsafe(task.cancel)
            except RuntimeError:  # the loop has closed: the stream is over anyway
                pass

    @property
    def cancelled(self) -> bool:
        return self._stop.is_set()

    def add(self, piece: str) -> None:
        if self.first_at is None:
            self.first_at = time.monotonic()
        self.parts.append(piece)
        self.chars += len(piece)
        self.chunks += 1
        if self.on_piece is not None:
            self._echo(piece, self.on_piece)

    def _echo(self, piece: str, show: Callable[[str], None]) -> None:
        if self.redact is None or self.redact.longest == 0:
            show(piece)
            return
        self._pending += piece
        cut = len(self._pending) - self.redact.longest
        if cut <= 0:
            return
        for match in self.redact.matches(self._pending):
            if match.start() < cut < match.end():
                cut = match.start()  # never split a key between what is shown and what waits
        if cut > 0:
            shown, self._pending = self._pending[:cut], self._pending[cut:]
            show(self.redact(shown))

    def flush_echo(self) -> None:
        """Show what was held back (redacted) once the stream has ended."""
        if self._pending and self.on_piece is not None:
            pending, self._pending = self._pending, ""
            self.on_piece(self.redact(pending) if self.redact is not None else pending)

    @property
    def text(self) -> str:
        if len(self.parts) > 1:  # join once, keep one part: reading stays linear overall
            self.parts[:] = ["".join(self.parts)]
        text = self.parts[0] if self.parts else ""
        return self.redact(text) if self.redact is not None else text


@dataclass
class Outcome:
    """What one request came to."""

    text: str = ""
    finish_reason: str | None = None
    usage: dict[str, Any] | None = None
    ttft_s: float | None = None
    total_s: float = 0.0
    chunks: int = 0
    failure: Failure | None = None
    incomplete: bool = False  # text stopped before the model finished (dropped, stalled, cancelled)
    cancelled: bool = False
    form: str = "none"
    notices: list[str] = field(default_factory=list)

    @property
    def error(self) -> str | None:
        return self.failure.message if self.failure is not None else None


Sleep = Callable[[float], Awaitable[None]]


def make_client(settings: ModelSettings) -> Any:
    import openai

    timeout = openai.Timeout(settings.timeout_s, connect=settings.connect_timeout_s)
    return openai.AsyncOpenAI(
        api_key=settings.api_key(),
        base_url=settings.base_url or None,
        timeout=timeout,
        max_retries=0,
        http_client=http_client(timeout),
    )


async def stream_chat(
    settings: ModelSettings,
    messages: list[dict[str, str]],
    schema: dict[str, Any] | None = None,
    live: LiveReply | None = None,
    sleep: Sleep = asyncio.sleep,
) -> Outcome:
    """Send ``messages`` and stream the reply into ``live``; see the module docstring."""
    live = live if live is not None else LiveReply()
    live.redact = Redactor(settings.raw_api_key())
    endpoint = endpoint_label(settings.base_url)
    out = Outcome()
    local = local_text_problem(messages)
    if local is not None:  # the user's own text, not the endpoint: nothing is sent
        out.failure = Failure("local_input", local)
        return out
    inner = asyncio.ensure_future(_bounded(settings, messages, schema, live, sleep, endpoint, out))
    live._task, live._loop = inner, asyncio.get_running_loop()
    if live.cancelled:
        inner.cancel()
    try:
        await inner
    except asyncio.CancelledError:  # Esc (live.cancel) or the caller's task was cancelled
        out.cancelled = out.incomplete = True
        if not inner.done():
            inner.cancel()
            await asyncio.wait([inner], timeout=2)  # let the connection close
    finally:
        live._task = live._loop = None
    live.flush_echo()
    out.text = live.text
    out.chunks = live.chunks
    out.total_s = time.monotonic() - live.started
    out.ttft_s = None if live.first_at is None else live.first_at - live.started
    return out


async def _bounded(
    settings: ModelSettings,
    messages: list[dict[str, str]],
    schema: dict[str, Any] | None,
    live: LiveReply,
    sleep: Sleep,
    endpoint: str,
    out: Outcome,
) -> None:
    """:func:`_run` inside the whole-request deadline; faults become ``out.failure``."""
    try:
        # timeout_s bounds the whole call, not each read: a server that sends a valid chunk
        # every 0.2 s forever, or trickles its status line a byte at a time, still ends.
        async with asyncio.timeout(settings.timeout_s):
            await _run(settings, messages, schema, live, sleep, endpoint, out)
    except TimeoutError:
        out.failure = Failure(
            "timeout",
            f"{endpoint} did not finish within {settings.timeout_s:g} s "
            "(timeout_s bounds the whole request; what came is kept)",
        )
        out.incomplete = live.chars > 0
    except Exception as exc:  # noqa: BLE001 - the last net: a fault is a value, never a traceback
        out.failure = classify(
            exc,
            endpoint,
            settings.model or "",
            settings.api_key_env,
            settings.raw_api_key(),
            settings.timeout_s,
            live.chars > 0,
            live.chars,
        )
        out.incomplete = live.chars > 0


async def _run(
    settings: ModelSettings,
    messages: list[dict[str, str]],
    schema: dict[str, Any] | None,
    live: LiveReply,
    sleep: Sleep,
    endpoint: str,
    out: Outcome,
) -> None:
    import openai

    client = make_client(settings)
    forms = (
        structured.forms_for(endpoint) if schema is not None and settings.structured else ("none",)
    )
    form_index, rate_limited, server_retried = 0, 0, False
    try:
        while True:
            out.form = forms[form_index]
            body: dict[str, Any] = {"model": settings.model, "messages": messages, "stream": True}
            if settings.temperature is not None:
                body["temperature"] = settings.temperature
            if schema is not None and out.form != "none":
                body["response_format"] = structured.response_format(
                    out.form, structured.grammar_schema(schema)
                )
            try:
                stream = await client.chat.completions.create(**body)
            except openai.APIStatusError as exc:
                failure = classify(exc, endpoint, settings.model or "", settings.api_key_env,
                                   settings.raw_api_key(), settings.timeout_s, False)
                if out.form != "none" and structured.names_response_format(
                    failure.status, failure.body
                ):
                    form_index += 1
                    continue
                if failure.kind == "rate_limit" and rate_limited + 1 < RATE_LIMIT_TRIES:
                    wait = failure.retry_after if failure.retry_after is not None else 1.0
                    if wait <= MAX_RETRY_AFTER_S:
                        rate_limited += 1
                        out.notices.append(
                            f"{endpoint} asked to wait {wait:g} s (HTTP 429); retrying"
                        )
                        await sleep(wait)
                        continue
                if failure.retryable_once and not server_retried:
                    server_retried = True
                    out.notices.append(f"{failure.message}; retrying once")
                    await sleep(SERVER_RETRY_WAIT_S)
                    continue
                out.failure = failure
                return
            _note_form(out, forms, endpoint, schema is not None and settings.structured)
            await _read(stream, live, out, endpoint)
            return
    finally:
        try:
            await asyncio.shield(client.close())
        except BaseException:  # noqa: BLE001 - closing a dead client must not mask the outcome
            pass


def _note_form(out: Outcome, forms: tuple[str, ...], endpoint: str, wanted: bool) -> None:
    if not wanted:
        return
    if out.form != forms[0]:
        refused = ", ".join(structured.FORM_NAMES[f] for f in forms[: forms.index(out.form)])
        out.notices.append(
            f"{endpoint} does not take {refused}; sent {structured.FORM_NAMES[out.form]} "
            "(remembered for this endpoint)"
        )
    structured.remember(endpoint, out.form)


async def _read(stream: Any, live: LiveReply, out: Outcome, endpoint: str) -> None:
    other = OtherParts()  # what came that is not reply text: reasoning, tool calls
    try:
        async for chunk in stream:
            if live.cancelled:  # Esc: stop at this chunk; the finally below closes the connection
                raise asyncio.CancelledError
            usage = getattr(chunk, "usage", None)
            if usage is not None:
                out.usage = usage_counts(usage)
            for choice in chunk.choices or ():
                delta = choice.delta
                piece = delta.content if delta is not None else None
                other.note(delta)
                if piece:
                    live.add(piece)
                    if live.chars > MAX_REPLY_CHARS:  # stop reading; keep what came, cut off
                        out.failure = Failure(
                            "too_big",
                            f"{endpoint} sent more than {MAX_REPLY_CHARS:,} "
                            "characters (the parser's limit): reading stopped, the "
                            "reply is kept cut off",
                        )
                        out.incomplete = True
                        return
                if choice.finish_reason:
                    out.finish_reason = choice.finish_reason
    finally:
        try:
            await asyncio.shield(stream.close())
        except BaseException:  # noqa: BLE001
            pass
    if out.finish_reason is None and live.chars == 0 and other.any:
        out.failure = other.failure(endpoint, None)
    elif out.finish_reason is None:
        out.incomplete = True
        out.failure = (
            no_reply_failure(endpoint) if live.chars == 0 else dropped_failure(endpoint, live.chars)
        )
    elif live.chars == 0:
        out.failure = other.failure(endpoint, out.finish_reason)
