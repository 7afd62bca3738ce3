"""The review report as plain data, before any format: what is said, not how it looks.

:mod:`gate_tui.session.report` turns journal records into these; each format
(:mod:`~gate_tui.session.report_text`, :mod:`~gate_tui.session.report_markdown`,
:mod:`~gate_tui.session.report_html`) renders them. Every string here is *plain text*,
possibly hostile (it came from a model, a user or a journal file): a renderer escapes it
for its format, and a ``quoted`` value keeps its line breaks in full.

A new kind of timeline entry (a model call, say) is one function from a record to an
:class:`Entry`: every format renders it with no change of its own.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

VALUE_CHARS = 100_000
"""Characters of one value (an answer, a summary, a payload) a report shows: an answer a
person writes is whole, and a 48 MB reply cannot make a 48 MB report."""
LABEL_CHARS = 300
"""Characters of a label, a heading or an overview value (a gate key, a config path)."""


def bounded(text: str | None, limit: int = VALUE_CHARS) -> str | None:
    """``text`` cut to ``limit`` characters with a marker saying how much was left out.
    The marker is plain text: every format shows it as it shows the value."""
    if text is None or len(text) <= limit:
        return text
    left = len(text) - limit
    return f"{text[:limit]} … [cut: {left:,} more character{'s' * (left != 1)} not shown]"


def _bound(instance: Any, **limits: int) -> None:
    """Bound the named text fields of a frozen dataclass in place (in ``__post_init__``)."""
    for name, limit in limits.items():
        value = getattr(instance, name)
        if isinstance(value, str) and len(value) > limit:
            object.__setattr__(instance, name, bounded(value, limit))


@dataclass(frozen=True)
class Item:
    """One line of a list, possibly with a value and nested items.

    ``text`` is our prose or a short value; with ``quoted`` it is data (an answer, a
    summary, a payload): shown in full with its line breaks, ``None`` / ``""`` shown as
    "(empty)". ``code`` marks ``label`` as an identifier (a field path, a gate key);
    ``strong`` marks ``text`` as the point of the line (a verdict); ``tag`` is a short
    word that comes first and stands out (``GUESS``).
    """

    label: str = ""
    text: str | None = None
    quoted: bool = False
    code: bool = False
    strong: bool = False
    children: tuple[Item, ...] = ()
    tag: str = ""

    def __post_init__(self) -> None:
        _bound(self, label=LABEL_CHARS, text=VALUE_CHARS, tag=LABEL_CHARS)


@dataclass(frozen=True)
class Entry:
    """One row of the timeline: a heading (what, when, who) and its items."""

    title: str
    at: str
    who: str = ""
    items: tuple[Item, ...] = ()
    style: str = "transition"  # transition | rejected | event: how prominent it looks

    def __post_init__(self) -> None:
        _bound(self, title=LABEL_CHARS, at=LABEL_CHARS, who=LABEL_CHARS)


@dataclass(frozen=True)
class Section:
    """A titled list at the top of the report (notes, outstanding gates, final state)."""

    heading: str
    items: tuple[Item, ...] = ()
    intro: str = ""

    def __post_init__(self) -> None:
        _bound(self, heading=LABEL_CHARS, intro=VALUE_CHARS)


@dataclass(frozen=True)
class Top:
    """Everything before the timeline."""

    title: str
    overview: tuple[tuple[str, str], ...]
    sections: tuple[Section, ...] = field(default_factory=tuple)

    def __post_init__(self) -> None:
        _bound(self, title=LABEL_CHARS)
        overview = tuple(
            (label, bounded(value, LABEL_CHARS) or "") for label, value in self.overview
        )
        object.__setattr__(self, "overview", overview)


class Renderer(Protocol):
    """One output format: pieces of text, in order, for a report written piece by piece."""

    def begin(self, top: Top) -> str: ...

    def timeline(self) -> str: ...

    def entry(self, entry: Entry) -> str: ...

    def empty(self) -> str: ...

    def end(self) -> str: ...


EMPTY = "(empty)"


def is_empty(text: str | None) -> bool:
    return text is None or text == ""


def lines_of(text: str) -> list[str]:
    """A value's lines (``\\r\\n`` counts as one line break; a lone ``\\r`` is shown as ``␍``)."""
    return text.replace("\r\n", "\n").split("\n")


def as_text(value: Any) -> str | None:
    """A recorded value as text for the report (None stays None: shown as "(empty)")."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
