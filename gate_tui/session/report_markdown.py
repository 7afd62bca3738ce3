"""The review report as Markdown (``gate-tui report --format markdown``, the editor's export).

What a Markdown or HTML viewer would act on is escaped: raw HTML such as ``<script>``
becomes entities, ``[x](javascript:…)`` links, emphasis, code spans and a ``|`` that would
break a table row are backslash-escaped, and a line of a value that would start a block
(``# heading``, ``- item``, ``1. item``, ``---``) has that mark escaped. A value keeps its
line breaks (Markdown hard breaks inside the quotes) and its leading spaces.
"""

from __future__ import annotations

import re

from gate_tui.safe_text import visible
from gate_tui.session.report_doc import EMPTY, Entry, Item, Section, Top, is_empty, lines_of

# Backslash-escaped: enough to stop emphasis, links, entities and table breaks (with the
# brackets escaped, only "](" could still look like a link to a naive reader, so only that
# parenthesis is escaped and "(M. Okafor)" stays as it is). Angle
# brackets become entities instead, so no ``<tag`` is left in the text. One translate
# table: a regex substitution with a group template was a fifth of a long report's time.
_MARKDOWN = str.maketrans(
    {**{char: "\\" + char for char in "\\`*_[]|~&"}, "<": "&lt;", ">": "&gt;"}
)
# Runs of blanks and line breaks become one space; control characters that Python also
# counts as whitespace (CR, VT, FF, FS…US, NEL) are left for visible() to show.
_SPACE = re.compile(r"[^\S\r\x0b\x0c\x1c-\x1f\x85]+")
_PLAIN = re.compile(
    r"[\w.:/+=@#%,;!?'\"$ -]*"
)  # nothing Markdown or HTML acts on inside a code span
_BLOCK_START = re.compile(
    r"^([#=+-]|\d{1,9}(?=[.)]))"
)  # what would start a block at a line's start
_NBSP = "\u00a0"


def flat(text: str) -> str:
    """``text`` on one line, every control, bidi and zero-width character made visible."""
    return _SPACE.sub(" ", visible(text)).strip()


def md(text: str) -> str:
    """``text`` on one line, made visible, with every Markdown-special character escaped."""
    return flat(text).translate(_MARKDOWN).replace("](", "]\\(")


def md_line(line: str) -> str:
    """One line of a value, kept as it is: escaped, leading spaces kept (as no-break
    spaces), a block mark at its start escaped, an empty line kept."""
    shown = visible(line).translate(_MARKDOWN).replace("](", "]\\(")
    stripped = shown.lstrip(" ")
    lead = _NBSP * (len(shown) - len(stripped))
    match = _BLOCK_START.match(stripped)
    if match:
        end = match.end()
        stripped = (
            stripped[:end] + "\\" + stripped[end:]
            if match.group(1)[0].isdigit()
            else "\\" + stripped
        )
    return (lead + stripped) or _NBSP


def code(text: str) -> str:
    """``text`` as an inline code span when it is plain (a field path, a fingerprint).

    Anything else (backticks, ``<``, ``|``, brackets…) is written as escaped text instead:
    inside a code span a backslash cannot escape, and some viewers still act on a raw
    ``<tag>`` or a ``|`` in a table row there.
    """
    shown = flat(text)
    return f"`{shown}`" if _PLAIN.fullmatch(shown) else md(shown)


class MarkdownRenderer:
    """Markdown; see :class:`gate_tui.session.report_doc.Renderer`."""

    def begin(self, top: Top) -> str:
        lines = [f"# {md(top.title)}", "", "| | |", "|---|---|"]
        for label, value in top.overview:
            shown = f"**{md(value)}**" if label == "Final decision" else md(value)
            lines.append(f"| {label} | {shown} |")
        lines.append("")
        for section in top.sections:
            lines += self.section(section)
        return "\n".join(lines) + "\n"

    def section(self, section: Section) -> list[str]:
        lines = [f"## {md(section.heading)}", ""]
        if section.intro:
            lines += [md(section.intro), ""]
        for item in section.items:
            lines += item_lines(item, "")
        return [*lines, ""] if section.items else lines

    def timeline(self) -> str:
        return "## Timeline\n\n"

    def entry(self, entry: Entry) -> str:
        if entry.style == "event":
            return f"*{md(entry.at)}: {md(entry.title)}.*\n\n"
        by = f" · by {md(entry.who)}" if entry.who else ""
        lines = [f"### {md(entry.title)} · {md(entry.at)}{by}", ""]
        for item in entry.items:
            lines += item_lines(item, "")
        return "\n".join(lines) + "\n\n"

    def empty(self) -> str:
        return "Nothing has happened in this session yet.\n"

    def end(self) -> str:
        return ""


def item_lines(item: Item, indent: str) -> list[str]:
    """``- label: value`` (a value in full, hard line breaks inside its quotes), then the
    item's children as a nested list."""
    line = f"{indent}- " + (f"**{md(item.tag)}** " if item.tag else "")
    if item.label:
        line += code(item.label) if item.code else md(item.label)
    value = None
    if item.quoted:
        value = _value(item.text, indent + "  ")
    elif item.text is not None:
        value = f"**{md(item.text)}**" if item.strong else md(item.text)
    if value is not None:
        line += (": " if item.label else "") + value
    lines = [line]
    for child in item.children:
        lines += item_lines(child, indent + "  ")
    return lines


def _value(text: str | None, indent: str) -> str:
    if is_empty(text):
        return f"*{EMPTY}*"
    shown = [md_line(line) for line in lines_of(text or "")]
    return "“" + ("\\\n" + indent).join(shown) + "”"
