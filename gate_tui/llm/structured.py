"""Structured outputs: which ``response_format`` an endpoint takes, tried in order, remembered.

Endpoints disagree. OpenAI and vLLM accept OpenAI's form
``{"type": "json_schema", "json_schema": {"name", "schema", "strict"}}``; llama-cpp-python's
server answers it with HTTP 500 ("Input should be 'text' or 'json_object'") and takes the
schema as ``{"type": "json_object", "schema": …}`` instead. So a structured request tries
OpenAI's form, then llama.cpp's, then none, each step after an error that names
``response_format``; what worked is remembered per endpoint (for this process), so only
the first request to an endpoint pays for the dance, and the user sees one message.

The schema sent is :func:`grammar_schema` of ``gate-tui schema``: grammar-based engines
(llama.cpp's schema-to-grammar conversion) follow ``type`` and drop ``enum`` when a node
has both, so a category enum would not be enforced; ``enum`` alone (its values already
include ``null``) means the same to a validator and is enforced by the grammar.
"""

from __future__ import annotations

import threading
from typing import Any

FORMS = ("json_schema", "json_object_schema", "none")
FORM_NAMES = {
    "json_schema": "response_format json_schema (OpenAI's form)",
    "json_object_schema": "response_format json_object + schema (llama.cpp's form)",
    "none": "no response_format",
}
_remembered: dict[str, str] = {}
_lock = threading.Lock()


def grammar_schema(schema: Any) -> Any:
    """``schema`` with ``type`` dropped wherever ``enum`` already lists the allowed values."""
    if isinstance(schema, list):
        return [grammar_schema(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out = {key: grammar_schema(value) for key, value in schema.items() if key != "$schema"}
    if "enum" in out and "type" in out:
        del out["type"]
    return out


def response_format(
    form: str, schema: dict[str, Any], name: str = "gate_state"
) -> dict[str, Any] | None:
    """The ``response_format`` body of ``form`` for ``schema`` (None: send none)."""
    if form == "json_schema":
        return {
            "type": "json_schema",
            "json_schema": {"name": name, "schema": schema, "strict": True},
        }
    if form == "json_object_schema":
        return {"type": "json_object", "schema": schema}
    return None


def forms_for(endpoint: str) -> tuple[str, ...]:
    """The forms to try for ``endpoint``, the remembered one (and those after it) only."""
    with _lock:
        known = _remembered.get(endpoint)
    return FORMS[FORMS.index(known) :] if known in FORMS else FORMS


def remember(endpoint: str, form: str) -> None:
    with _lock:
        _remembered[endpoint] = form


def forget_all() -> None:
    """Forget every endpoint (tests start from a clean slate)."""
    with _lock:
        _remembered.clear()


def names_response_format(status: int | None, body: str) -> bool:
    """Whether an error answer is the endpoint refusing the ``response_format`` we sent."""
    if status is None or status < 400:
        return False
    lowered = body.lower()
    return any(
        word in lowered for word in ("response_format", "json_schema", "json_object", "'text' or")
    )
