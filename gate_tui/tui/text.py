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

from gate_tui.safe_text import ESCAPE_PICTURE
from gate_tui.safe_text import visible as safe_visible

__all__ = ["ESCAPE_PICTURE", "apart", "line", "lines", "middle", "plain", "shown", "visible"]


def visible(text: str, *, one_line: bool = False) -> str:
    """``text`` made safe to show (:func:`gate_tui.safe_text.visible`), tabs as spaces.

    Newlines survive unless ``one_line`` is set (then they show as ␊).
    """
    if one_line:
        return safe_visible(text.replace("\t", " "), one_line=True)
    return safe_visible(text).replace("\t", "    ")


def shown(value: Any, limit: int = 48) -> str:
    """A field value for the diff and preview: quoted text, ``—`` for empty, at most
    ``limit`` cells (quotes included), shortened in the middle."""
    if value is None or value == "":
        return "—"
    if isinstance(value, bool):
        return "true" if value else "false"
    text = visible(str(value), one_line=True)
    if not isinstance(value, str):
        return middle(text, limit)
    return f"“{middle(text, max(limit - 2, 1))}”"


def middle(text: str, limit: int) -> str:
    """``text`` shortened to ``limit`` cells by cutting out its middle (one ``…``).

    Both ends stay visible: for an answer that changed, the start and the end are what
    tell two long values apart.
    """
    if len(text) <= limit:
        return text
    if limit <= 1:
        return "…"
    head = (limit - 1 + 1) // 2
    tail = limit - 1 - head
    return text[:head].rstrip() + "…" + (text[-tail:].lstrip() if tail else "")


def apart(before: str, after: str, room_before: int, room_after: int) -> tuple[str, str]:
    """Two different texts, each in its room, cut so that where they differ shows.

    :func:`middle` keeps both ends; when the texts differ only in the middle it cut out,
    ``Lift@10%…nt rules`` → ``Lift@10%…nt rules`` told nothing. Here both keep the same
    window, from a little before the first differing character (``…``
    marking what is cut), so the first difference is in view on both sides. Linear in the
    texts' lengths.
    """
    first = 0
    end = min(len(before), len(after))
    while first < end and before[first] == after[first]:
        first += 1
    room = min(room_before, room_after)
    # Some context before the difference, but never so much that the difference itself
    # falls out of a window cut at both ends (an ``…`` each side: room - 2 characters).
    context = min(first, max(room // 3, 1), max(room - 3, 0))
    start = first - context
    return _window(before, start, room_before), _window(after, start, room_after)


def _window(text: str, start: int, room: int) -> str:
    """``text`` from ``start`` in ``room`` cells, an ``…`` at each end cut off."""
    if len(text) <= room:
        return text
    start = max(min(start, len(text) - room + 1), 0)  # no room left empty at the end
    lead = "…" if start > 0 else ""
    body = room - len(lead)
    if start + body < len(text):
        return lead + text[start : start + max(body - 1, 0)] + "…"
    return lead + text[start:]


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
