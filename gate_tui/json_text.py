"""JSON text that can always be written: lone surrogates never make a writer raise.

``"\\ud800"`` is a valid JSON escape but not Unicode, so a value holding one cannot be
encoded as UTF-8: ``json.dumps(..., ensure_ascii=False).encode()`` and pydantic's
``model_dump_json`` both raise. Whatever the parser decides about such values, no
writer (journal, state file, ``check`` output, batch records) may crash on one after a
transition is already on screen, so these helpers fall back to ASCII-escaped JSON
(``\\ud800`` written as those six characters): valid JSON that reads back to the very
same string. Text without surrogates is written exactly as before (UTF-8, unescaped).
"""

from __future__ import annotations

import json
from typing import Any


def json_bytes(
    value: Any, *, indent: int | None = None, compact: bool = False, default: Any = None
) -> bytes:
    """``value`` as UTF-8 JSON; ASCII-escaped only when it holds a lone surrogate."""
    separators = (",", ":") if compact else None
    text = json.dumps(
        value, ensure_ascii=False, indent=indent, separators=separators, default=default
    )
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(
            value, ensure_ascii=True, indent=indent, separators=separators, default=default
        ).encode("ascii")


def json_str(
    value: Any, *, indent: int | None = None, compact: bool = False, default: Any = None
) -> str:
    """Like :func:`json_bytes`, as text that is always encodable as UTF-8."""
    return json_bytes(value, indent=indent, compact=compact, default=default).decode("utf-8")


def model_json_bytes(model: Any) -> bytes:
    """A pydantic model as compact JSON bytes (``model_dump_json``), surrogate-proof."""
    try:
        return model.__pydantic_serializer__.to_json(model)
    except (
        ValueError
    ):  # PydanticSerializationError: a lone surrogate, or a value nested past pydantic's 255 levels
        return json_bytes(_fields(model), compact=True)


def _fields(model: Any) -> dict[str, Any]:
    """A model's serialised fields, taken one by one: nested models through pydantic (they are
    shallow), plain data (a decoded reply, any depth the parser accepts) left to ``json``."""
    from pydantic import BaseModel

    def plain(value: Any) -> Any:
        if isinstance(value, BaseModel):
            return value.model_dump(mode="json")
        if isinstance(value, list) and value and isinstance(value[0], BaseModel):
            return [plain(item) for item in value]
        return value

    return {
        name: plain(getattr(model, name))
        for name, info in type(model).model_fields.items()
        if not info.exclude
    }
