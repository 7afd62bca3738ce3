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

MAX_RETRY_AFTER_S = 30.0  # a longer wait is reported instead of slept through
SNIPPET = 160


@dataclass(frozen=True)
class Failure:
    """What went wrong: ``kind`` for code, ``message`` (one line) for people."""

    kind: str  # connect, timeout, auth, not_found, rate_limit, server, bad_request, refused_format, dropped, garbage
    message: str
    status: int | None = None
    retry_after: float | None = None
    body: str = ""

    @property
    def retryable_once(self) -> bool:
        return self.kind == "server"


def redact(text: str, secret: str | None) -> str:
    """``text`` with ``secret`` (when it is a real key) replaced, on one line."""
    flat = " ".join(str(text).split())
    if secret and len(secret) >= 4:
        flat = flat.replace(secret, "***")
    return flat


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


def status_failure(exc: Any, endpoint: str, model: str, key_env: str, secret: str | None) -> Failure:
    """An HTTP error answer (``openai.APIStatusError``) as a Failure."""
    status = getattr(exc, "status_code", None)
    body = redact(_body_text(exc), secret)
    snippet = body if len(body) <= SNIPPET else body[: SNIPPET - 1] + "…"
    if status in (401, 403):
        return Failure("auth", f"{endpoint} refused the API key (HTTP {status}): set {key_env} to a valid key", status, body=body)
    if status == 404:
        return Failure("not_found", f"{endpoint} answered 404 for model {model!r}: no such model, or the base URL lacks /v1{f' ({snippet})' if snippet else ''}", status, body=body)
    if status == 429:
        wait = retry_after(getattr(getattr(exc, "response", None), "headers", None))
        return Failure("rate_limit", f"{endpoint} is rate-limiting (HTTP 429): {snippet}", status, wait, body)
    if status is not None and status >= 500:
        return Failure("server", f"{endpoint} failed (HTTP {status}): {snippet}", status, body=body)
    return Failure("bad_request", f"{endpoint} refused the request (HTTP {status}): {snippet}", status, body=body)


def classify(exc: BaseException, endpoint: str, model: str, key_env: str, secret: str | None, timeout_s: float, streaming: bool) -> Failure:
    """Anything raised while requesting or reading the stream, as a Failure."""
    import openai

    if isinstance(exc, openai.APIStatusError):
        return status_failure(exc, endpoint, model, key_env, secret)
    name = type(exc).__name__
    detail = redact(str(exc) or name, secret)
    if isinstance(exc, openai.APITimeoutError) or "Timeout" in name:
        where = "stopped sending mid-reply for" if streaming else "did not answer within"
        return Failure("timeout", f"{endpoint} {where} {timeout_s:g} s (timeout_s)")
    if isinstance(exc, openai.APIConnectionError) and not streaming:
        cause = exc.__cause__ or exc.__context__
        reason = redact(str(cause), secret) if cause is not None and str(cause) else "connection failed"
        return Failure("connect", f"cannot reach {endpoint}: {reason}")
    if streaming and (isinstance(exc, openai.APIConnectionError) or any(w in name for w in ("Protocol", "ReadError", "Closed", "Incomplete"))):
        return Failure("dropped", f"{endpoint} dropped the connection mid-reply ({detail})")
    if isinstance(exc, ValueError | openai.APIError | KeyError | TypeError | AttributeError):
        return Failure("garbage", f"{endpoint} sent something that is not a chat-completions stream ({detail[:SNIPPET]})")
    return Failure("connect", f"talking to {endpoint} failed: {name}: {detail[:SNIPPET]}")
