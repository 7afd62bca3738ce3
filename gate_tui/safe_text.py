"""Untrusted text made safe to print: the one rule every surface uses.

Model replies, user answers, config text and journal lines handed over by someone else
are data. A terminal acts on control bytes (``ESC[2J`` clears the screen, ``ESC]52;…``
writes the clipboard, ``ESC]8;;…`` plants a hyperlink) and a reader is misled by
bidirectional overrides ("Trojan Source") and zero-width characters. So before any
such text reaches a terminal, a report or a message, :func:`visible` turns

* C0 controls (except line feed and tab), DEL and C1 controls into visible pictures
  (``ESC`` → ``␛``, ``\\x07`` → ``␇``, C1 → ``⟨U+0085⟩``),
* bidi controls (U+202A–U+202E, U+2066–U+2069, U+200E/U+200F, U+061C) and zero-width
  characters (U+200B–U+200D, U+2060, U+FEFF) into ``⟨U+202E⟩``-style markers,
* lone surrogates (not Unicode, cannot be encoded) into ``⟨U+D800⟩`` markers.

Stored values are never changed: this is for showing text, not for keeping it. The module
imports nothing heavy, so the editor's start-up path and the CLI can both use it.
"""

from __future__ import annotations

import re

ESCAPE_PICTURE = "␛"

_BIDI = [0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)]
_ZERO_WIDTH = [0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF]
# Unicode TAG characters: invisible, and used to hide instructions inside ordinary text.
_TAGS = list(range(0xE0000, 0xE0080))


def _marker(code: int) -> str:
    return f"⟨U+{code:04X}⟩"


_PICTURES: dict[int, str] = {code: chr(0x2400 + code) for code in range(0x20)}
_PICTURES[0x1B] = ESCAPE_PICTURE
_PICTURES[0x7F] = "␡"
_MARKERS: dict[int, str] = {
    code: _marker(code) for code in (*range(0x80, 0xA0), *_BIDI, *_ZERO_WIDTH, *_TAGS)
}
_SURROGATES: dict[int, str] = {code: _marker(code) for code in range(0xD800, 0xE000)}

_OTHERS = (
    "\x7f-\x9f\u061c\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff"
    "\ud800-\udfff\U000e0000-\U000e007f"
)
_NEEDS_MULTI_LINE = re.compile(f"[\x00-\x08\x0b-\x1f{_OTHERS}]")
_NEEDS_ONE_LINE = re.compile(f"[\x00-\x1f{_OTHERS}]")
_MULTI_LINE = str.maketrans({**_PICTURES, **_MARKERS, **_SURROGATES, 0x0A: "\n", 0x09: "\t"})
_ONE_LINE = str.maketrans({**_PICTURES, **_MARKERS, **_SURROGATES})
_ONE_LINE_SPACED = str.maketrans({**_PICTURES, **_MARKERS, **_SURROGATES, 0x09: " "})


def visible(text: str, *, one_line: bool = False) -> str:
    """``text`` with every control, bidi, zero-width and surrogate code point made visible.

    Line feeds and tabs survive unless ``one_line`` is set (then a line feed shows as
    ``␊`` and a tab as ``␉``). Runs in one ``str.translate`` pass: linear in the text.
    """
    if (_NEEDS_ONE_LINE if one_line else _NEEDS_MULTI_LINE).search(text) is None:
        return text  # the usual case: one C-speed scan instead of a per-character translate
    return text.translate(_ONE_LINE if one_line else _MULTI_LINE)


_UNPRINTABLE = "\ufffd"
_ONE_CELL = str.maketrans(
    {
        **{code: _PICTURES[code] for code in range(0x20) if code not in (0x09, 0x0A)},
        0x7F: "␡",
        **dict.fromkeys((*_MARKERS, *_SURROGATES), _UNPRINTABLE),
    }
)


def one_for_one(text: str) -> str:
    """``text`` with each character :func:`visible` would change replaced by ONE visible
    character (a control picture, else U+FFFD), so positions in the text stay positions
    on screen: for a text editor drawing untrusted text it keeps exactly."""
    if _NEEDS_MULTI_LINE.search(text) is None:
        return text
    return text.translate(_ONE_CELL)


def is_safe(text: str, *, one_line: bool = False) -> bool:
    """True when :func:`visible` would leave ``text`` unchanged."""
    return visible(text, one_line=one_line) == text


_JSON_ESCAPES = str.maketrans(
    {
        **{code: f"\\u{code:04x}" for code in (*range(0x7F, 0xA0), *_BIDI, *_ZERO_WIDTH)},
        **{
            code: f"\\udb40\\u{0xDC00 + code - 0xE0000:04x}" for code in _TAGS
        },  # as a surrogate pair
    }
)


def json_visible(json_text: str) -> str:
    """JSON text with DEL, C1, bidi and zero-width characters written as ``\\uXXXX`` escapes.

    JSON already escapes C0 controls; these others it may write raw, and a terminal or
    a reader acts on them. Outside strings JSON is ASCII, so escaping them changes no
    value: ``json.loads`` gives the same data back.
    """
    return json_text.translate(_JSON_ESCAPES)


# UTF-8 of DEL, C1 (U+0080–U+009F), U+061C, U+200B–U+200F, U+202A–U+202E, U+2060, U+2066–U+2069,
# U+FEFF.
_JSON_UNSAFE_UTF8 = re.compile(
    rb"\x7f|\xc2[\x80-\x9f]|\xd8\x9c|\xe2\x80[\x8b-\x8f\xaa-\xae]|\xe2\x81[\xa0\xa6-\xa9]|\xef\xbb\xbf|\xf3\xa0[\x80\x81][\x80-\xbf]"
)


def json_visible_bytes(data: bytes) -> bytes:
    """:func:`json_visible` for UTF-8 JSON bytes; a C-speed scan when there is nothing to do."""
    if data.isascii() or _JSON_UNSAFE_UTF8.search(data) is None:  # isascii: GB/s, the usual case
        return data
    return json_visible(data.decode("utf-8")).encode("utf-8")
