"""Network faults and endpoint refusals as one-line values, never tracebacks, never the key.

Every message names the endpoint (:func:`gate_tui.llm.endpoint.endpoint_label`) and says
what to do. :func:`classify` turns whatever the SDK or the HTTP layer raised into a
:class:`Failure`; :func:`redact` is the last guard that a key echoed by a server (some
gateways repeat the Authorization header in their error text) never reaches the user.
"""

from __future__ import annotations

import email.utils
import math
import time
from dataclasses import dataclass
from typing import Any

from gate_tui.llm.secrets import Redactor
from gate_tui.llm.transport import BodyTooLarge

MAX_RETRY_AFTER_S = 30.0  # a longer wait is reported instead of slept through
SNIPPET = 160


@dataclass(frozen=True)
class Failure:
    """What went wrong: ``kind`` for code, ``message`` (one line) for people."""

    # connect (nothing listening), server_gone (a connection taken, then closed unanswered: the
    # server process exited or crashed), no_reply (a stream that ended before its first chunk),
    # dropped (closed mid-reply), timeout, auth, not_found, rate_limit, server, bad_request,
    # refused_format, garbage
    kind: str
    message: str
    status: int | None = None
    retry_after: float | None = None
    body: str = ""

    @property
    def retryable_once(self) -> bool:
        return self.kind == "server"

    @property
    def dead_endpoint(self) -> bool:
        """The endpoint stopped answering part-way: its journal outcome is the kind itself."""
        return self.kind in DEAD_KINDS


DEAD_KINDS = ("server_gone", "no_reply", "dropped")
# What a client sees when the peer closes a connection it had accepted (httpx/httpcore and
# the socket layer name it in these words), as opposed to a refused or unroutable connect.
_CLOSED_WORDS = (
    "RemoteProtocol",
    "ReadError",
    "Closed",
    "Incomplete",
    "ConnectionReset",
    "BrokenPipe",
)
_CLOSED_TEXT = (
    "disconnected without sending",
    "peer closed connection",
    "connection reset",
    "broken pipe",
)


def closed_by_peer(exc: BaseException) -> bool:
    """Whether ``exc`` (or what caused it) is a connection the server closed, not one refused."""
    seen: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and len(seen) < 8:
        seen.append(current)
        current = current.__cause__ or current.__context__
    for item in seen:
        name, text = type(item).__name__, str(item).lower()
        if any(word in name for word in _CLOSED_WORDS) or any(
            word in text for word in _CLOSED_TEXT
        ):
            return True
    return False


def no_reply_failure(endpoint: str) -> Failure:
    return Failure("no_reply", f"{endpoint} ended the stream without sending a single chunk: "
                   "the server took the request and produced nothing (a crashed or stuck model "
                   "server; its own log says why)")


def dropped_failure(endpoint: str, chars: int) -> Failure:
    return Failure(
        "dropped",
        f"{endpoint} closed the connection mid-reply after {chars:,} characters: "
        "the reply is cut off (kept, never taken as whole); the server may have stopped",
    )


def redact(text: str, secret: str | None) -> str:
    """``text`` with every shape of ``secret`` replaced (:mod:`gate_tui.llm.secrets`), on one
    line: redacted before the whitespace is folded (a spaced-out echo) and after (a form the
    folding joined)."""
    redactor = Redactor(secret)
    return redactor(" ".join(redactor(str(text)).split()))


def retry_after(headers: Any) -> float | None:
    """Seconds from a ``Retry-After`` header (seconds or an HTTP date), or None."""
    try:
        value = headers.get("retry-after") if headers is not None else None
    except Exception:  # noqa: BLE001 - a header object of an unexpected kind
        return None
    if not value:
        return None
    try:
        seconds = float(value)
    except ValueError:
        parsed = email.utils.parsedate_to_datetime(value) if value else None
        if parsed is None:
            return None
        seconds = parsed.timestamp() - time.time()
    return max(0.0, seconds) if math.isfinite(seconds) else None


def _body_text(exc: Any) -> str:
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        inner = body.get("error", body)
        text = inner.get("message") if isinstance(inner, dict) else None
        return str(text if text is not None else body)
    if body is not None:
        return str(body)
    return str(getattr(exc, "message", "") or exc)


def status_failure(
    exc: Any, endpoint: str, model: str, key_env: str, secret: str | None
) -> Failure:
    """An HTTP error answer (``openai.APIStatusError``) as a Failure."""
    status = getattr(exc, "status_code", None)
    body = redact(_body_text(exc), secret)
    snippet = body if len(body) <= SNIPPET else body[: SNIPPET - 1] + "…"
    if status is not None and 300 <= status < 400:
        headers = getattr(getattr(exc, "response", None), "headers", None)
        target = redact(str(headers.get("location") or "?"), secret) if headers is not None else "?"
        return Failure(
            "redirect",
            f"{endpoint} redirected the request (HTTP {status}) to {target}: not "
            "followed, so the conversation went nowhere else; set the base URL to that "
            "address if you trust it",
            status,
            body=body,
        )
    if status in (401, 403):
        return Failure(
            "auth",
            f"{endpoint} refused the API key (HTTP {status}): set {key_env} to a valid key",
            status,
            body=body,
        )
    if status == 404:
        return Failure(
            "not_found",
            f"{endpoint} answered 404 for model {model!r}: no such model, or the base URL lacks "
            f"/v1{f' ({snippet})' if snippet else ''}",
            status,
            body=body,
        )
    if status == 429:
        wait = retry_after(getattr(getattr(exc, "response", None), "headers", None))
        return Failure(
            "rate_limit", f"{endpoint} is rate-limiting (HTTP 429): {snippet}", status, wait, body
        )
    if status is not None and status >= 500:
        return Failure("server", f"{endpoint} failed (HTTP {status}): {snippet}", status, body=body)
    return Failure(
        "bad_request",
        f"{endpoint} refused the request (HTTP {status}): {snippet}",
        status,
        body=body,
    )


def classify(exc: BaseException, endpoint: str, model: str, key_env: str, secret: str | None,
             timeout_s: float, streaming: bool, chars: int = 0) -> Failure:
    """Anything raised while requesting or reading the stream, as a Failure. ``streaming``:
    text had arrived (``chars`` of it) when it was raised."""
    import openai

    if isinstance(exc, openai.APIStatusError):
        return status_failure(exc, endpoint, model, key_env, secret)
    name = type(exc).__name__
    detail = redact(str(exc) or name, secret)
    if isinstance(exc, openai.APITimeoutError) or "Timeout" in name:
        where = "stopped sending mid-reply for" if streaming else "did not answer within"
        return Failure("timeout", f"{endpoint} {where} {timeout_s:g} s (timeout_s)")
    if streaming and (isinstance(exc, openai.APIConnectionError) or closed_by_peer(exc)):
        return dropped_failure(endpoint, chars)
    if closed_by_peer(exc):
        return Failure("server_gone", f"{endpoint} took the connection, then closed it without "
                       "answering: the server process exited or crashed (its own log says why)")
    if isinstance(exc, openai.APIConnectionError):
        cause = exc.__cause__ or exc.__context__
        reason = (
            redact(str(cause), secret) if cause is not None and str(cause) else "connection failed"
        )
        return Failure("connect", f"cannot reach {endpoint} (nothing answers there): {reason}")
    if name == "BodyTooLarge" or isinstance(exc.__cause__ or exc.__context__, BodyTooLarge):
        return Failure("too_big", f"{endpoint} sent too much: {detail[:SNIPPET]}; reading stopped")
    if isinstance(exc, ValueError | openai.APIError | KeyError | TypeError | AttributeError):
        return Failure(
            "garbage",
            f"{endpoint} sent something that is not a chat-completions stream ({detail[:SNIPPET]})",
        )
    return Failure("connect", f"talking to {endpoint} failed: {name}: {detail[:SNIPPET]}")


def local_text_problem(messages: list[dict[str, str]]) -> str | None:
    """Why the text to send cannot be sent as UTF-8 (bytes the user's own shell or terminal
    passed in another encoding, kept by Python as lone surrogates), or None. This is the
    local input's fault and is said so: the endpoint was never asked."""
    for message in messages:
        text = message.get("content")
        if not isinstance(text, str):
            continue
        try:
            text.encode("utf-8")
        except UnicodeEncodeError as exc:
            bad = text[exc.start : exc.end]
            shown = " ".join(_byte_name(c) for c in bad[:4])
            role = message.get("role", "text")
            who = "your message" if role == "user" else f"the {role} text"
            return (f"{who} is not valid UTF-8 (bytes {shown} at character {exc.start + 1}): "
                    "the text came from your shell or terminal in another encoding, nothing was "
                    "sent to the endpoint; set a UTF-8 locale (e.g. LANG=C.UTF-8) or retype it")
    return None


def _byte_name(char: str) -> str:
    """A lone surrogate as the byte it stands for (Python's surrogateescape), else U+XXXX."""
    code = ord(char)
    return f"0x{code - 0xDC00:02x}" if 0xDC80 <= code <= 0xDCFF else f"U+{code:04X}"
