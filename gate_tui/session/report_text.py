"""The review report as plain text, for a terminal (``gate-tui report --format text``).

Nothing a terminal or a Markdown viewer would act on: no escapes to read around, every
control character shown as a picture (:func:`gate_tui.safe_text.visible`). A value with
line breaks is shown in full below its label, each line behind a ``│`` so where a value
starts and ends is never in doubt; a one-line value is in quotes.
"""

from __future__ import annotations

from gate_tui.safe_text import visible
from gate_tui.session.report_doc import EMPTY, Entry, Item, Section, Top, is_empty, lines_of


def one(text: str) -> str:
    return visible(text, one_line=True)


class TextRenderer:
    """Plain text; see :class:`gate_tui.session.report_doc.Renderer`."""

    def begin(self, top: Top) -> str:
        title = one(top.title)
        lines = [title, "=" * len(title), ""]
        width = max(len(label) for label, _ in top.overview) + 2
        lines += [f"  {label:<{width}}{one(value)}" for label, value in top.overview]
        lines.append("")
        for section in top.sections:
            lines += self.section(section)
        return "\n".join(lines) + "\n"

    def section(self, section: Section) -> list[str]:
        lines = [section.heading, "-" * len(section.heading)]
        if section.intro:
            lines.append(one(section.intro))
        for item in section.items:
            lines += item_lines(item, "")
        return [*lines, ""]

    def timeline(self) -> str:
        return "Timeline\n--------\n\n"

    def entry(self, entry: Entry) -> str:
        if entry.style == "event":
            return f"{one(entry.at)}: {one(entry.title)}.\n\n"
        by = f" · by {one(entry.who)}" if entry.who else ""
        lines = [f"{one(entry.title)} · {one(entry.at)}{by}"]
        for item in entry.items:
            lines += item_lines(item, "  ")
        return "\n".join(lines) + "\n\n"

    def empty(self) -> str:
        return "Nothing has happened in this session yet.\n"

    def end(self) -> str:
        return ""


def item_lines(item: Item, indent: str) -> list[str]:
    """``- label: value`` and the item's children, one level deeper."""
    label = one(item.label)
    head = f"{indent}- " + (f"{one(item.tag)} " if item.tag else "") + label
    rest: list[str] = []
    if item.quoted:
        if is_empty(item.text):
            head += f": {EMPTY}" if label else EMPTY
        else:
            value_lines = lines_of(item.text or "")
            if len(value_lines) == 1:
                head += (": " if label else "") + f"“{visible(value_lines[0])}”"
            else:
                head += ":" if label else ""
                rest = [f"{indent}    │ {visible(line)}" for line in value_lines]
    elif item.text is not None:
        head += (": " if label else "") + one(item.text)
    lines = [head, *rest]
    for child in item.children:
        lines += item_lines(child, indent + "  ")
    return lines
