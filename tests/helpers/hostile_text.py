"""Text that must never reach a terminal raw (clear screen, clipboard write, hyperlink,
bidi and zero-width characters) and how to find it in what a widget draws."""

from __future__ import annotations

from typing import Any

from textual.geometry import Region

CLEAR = "\x1b[2J"
CLIPBOARD = "\x1b]52;c;cHduZWQ=\x07"
LINK = "\x1b]8;;http://evil.example/\x1b\\here\x1b]8;;\x1b\\"
HOSTILE = f"a{CLEAR}b{CLIPBOARD}c{LINK}d\u202eevil\u202c\u200be\x85f\x7f"
FORBIDDEN = {
    *range(0x00, 0x09),
    *range(0x0B, 0x20),
    *range(0x7F, 0xA0),
    *range(0x202A, 0x202F),
    *range(0x2066, 0x206A),
    0x200B,
}


def rendered(widget: Any) -> str:
    """Every character the widget hands the compositor for the terminal."""
    width, height = widget.size
    strips = widget.render_lines(Region(0, 0, width, height))
    return "".join(segment.text for strip in strips for segment in strip)


def forbidden_in(text: str) -> list[str]:
    return sorted({f"U+{ord(ch):04X}" for ch in text if ord(ch) in FORBIDDEN})
