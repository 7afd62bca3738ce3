"""Find the JSON object in a model's reply (STUB: the full linear-time scanner replaces this).

Interface contract (kept stable for the rest of the package):
``extract_json(text, *, max_chars=DEFAULT_MAX_CHARS) -> Extraction`` never raises.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from gate_tui.models import Repair

DEFAULT_MAX_CHARS = 4 * 1024 * 1024


class Extraction(BaseModel):
    """The result of looking for one JSON object in free text."""

    model_config = ConfigDict(frozen=True)

    value: dict[str, Any] | None = None
    error: str | None = None
    source: str | None = None
    span: tuple[int, int] | None = None
    repairs: list[Repair] = Field(default_factory=list)


def extract_json(text: str, *, max_chars: int = DEFAULT_MAX_CHARS) -> Extraction:
    if not isinstance(text, str):
        return Extraction(error=f"expected text, got {type(text).__name__}")
    if len(text) > max_chars:
        return Extraction(error=f"reply is {len(text):,} characters; the limit is {max_chars:,}")
    start, end = text.find("{"), text.rfind("}")
    if start < 0 or end < start:
        return Extraction(error="No JSON object found in text")
    try:
        value = json.loads(text[start : end + 1])
    except (ValueError, RecursionError):
        return Extraction(error="No JSON object found in text")
    if not isinstance(value, dict):
        return Extraction(error="No JSON object found in text")
    return Extraction(value=value, source="scan", span=(start, end + 1))
