"""Untrusted text made safe to show: every string a model or a user wrote passes through here.

Textual parses plain strings as markup in many places (``Static``, ``notify``, option
prompts), and terminals act on escape sequences. The editor therefore never hands a
raw string to a widget: it builds :class:`~textual.content.Content` from text that
:func:`visible` has already cleaned, so ``[@click=app.quit]x[/]`` and ``\\x1b[31m``
show up literally instead of running or colouring anything.
"""

from __future__ import annotations

from typing import Any

from textual.content import Content

ESCAPE_PICTURE = "␛"
_CONTROL_PICTURES = {code: chr(0x2400 + code) for code in range(0x20)}
_CONTROL_PICTURES[0x1B] = ord(ESCAPE_PICTURE)
_CONTROL_PICTURES[0x7F] = 0x2421  # ␡
_KEEP_LINES = {0x0A: "\n", 0x09: "    "}
_CONTROL_TABLE = {**_CONTROL_PICTURES, **{code: text for code, text in _KEEP_LINES.items()}}
_ONE_LINE_TABLE = {**_CONTROL_PICTURES, 0x09: " "}
_C1_TABLE = {code: 0xFFFD for code in range(0x80, 0xA0)}


def visible(text: str, *, one_line: bool = False) -> str:
    """``text`` with every control character replaced by a visible picture (ESC → ␛).

    Newlines survive unless ``one_line`` is set (then they show as ␊).
    """
    table = _ONE_LINE_TABLE if one_line else _CONTROL_TABLE
    return text.translate(table).translate(_C1_TABLE)


def shown(value: Any, limit: int = 48) -> str:
    """A field value for the diff and timeline: quoted text, ``—`` for empty, bounded length."""
    if value is None or value == "":
        return "—"
    if isinstance(value, bool):
        return "true" if value else "false"
    text = visible(str(value), one_line=True)
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return f"“{text}”" if isinstance(value, str) else text


def plain(text: str, style: str = "", *, one_line: bool = False) -> Content:
    """Literal content: never parsed as markup, control characters made visible."""
    return Content.styled(visible(text, one_line=one_line), style)


def line(*parts: str | tuple[str, str] | Content) -> Content:
    """One line assembled from literal pieces, ``(text, style)`` pairs and Content."""
    cleaned: list[str | tuple[str, str] | Content] = []
    for part in parts:
        if isinstance(part, str):
            cleaned.append(visible(part, one_line=True))
        elif isinstance(part, tuple):
            cleaned.append((visible(part[0], one_line=True), part[1]))
        else:
            cleaned.append(part)
    return Content.assemble(*cleaned)


def lines(rows: list[Content]) -> Content:
    """Content rows joined with newlines."""
    return Content("\n").join(rows)
