"""Reading one scalar the way a model meant it: strings, numbers and bare words.

Where a string ends is decided in :mod:`~gate_tui.parsing.repair.lexing` (the one notion
of a string, shared with the candidate scan); this module turns what it found into a
JSON token with its fixes: quote styles, escapes, raw control characters, inner quotes,
a missing quote, a cut. Every search is a possessive pattern or ``str.find``: linear.
"""

from __future__ import annotations

import re

from gate_tui.parsing.repair.lexing import CLOSED, CUT, MISSING_QUOTE, finite_float, locate_string
from gate_tui.parsing.repair.vocabulary import (
    GUESS_FIX_MESSAGES,
    LITERALS,
    PYTHON_LITERALS,
    BadValue,
    Cut,
    Fail,
    Fix,
    python_literal,
)

_WORD = re.compile(r"[A-Za-z_$][A-Za-z0-9_$\-]*+")
_CODES = {
    '"': None,
    "'": "single_quotes",
    "\u201c": "smart_quotes",
    "\u201d": "smart_quotes",
    "\u2018": "smart_quotes",
    "\u2019": "smart_quotes",
}
# Inside a body: an escape (valid or not), a double quote to escape, a lone backslash.
_SPECIAL = re.compile(r'\\(?:u[0-9a-fA-F]{4}|[\s\S])?|"')
_VALID_ESCAPES = frozenset('"\\/bfnrtu')
_CONTROL = re.compile(r"[\x00-\x1f]")
_CONTROL_ESCAPES = {code: f"\\u{code:04x}" for code in range(32)}
_CONTROL_ESCAPES.update({10: "\\n", 9: "\\t", 13: "\\r", 8: "\\b", 12: "\\f"})
NUMBER = re.compile(r"-?(?:[0-9.][0-9._eE+\-]*+|Infinity)")
# Python's digit grouping (`82_461_110`, `1_234.5`): one underscore between two digits.
_GROUPED_NUMBER = re.compile(
    r"-?[0-9]++(?:_[0-9]++)*+(?:\.[0-9]++(?:_[0-9]++)*+)?(?:[eE][+-]?[0-9]++(?:_[0-9]++)*+)?"
)
JSON_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*+)(?:\.[0-9]++)?(?:[eE][+-]?[0-9]++)?")
_SLOPPY_NUMBER = re.compile(r"(-?)(0|[1-9][0-9]*+)?(\.)?([0-9]*+)((?:[eE][+-]?[0-9]++)?)")
MAX_INT_DIGITS = 4300  # Python refuses to read longer integers; we say "number too long"
_FLOAT_DIGITS = 308  # a fraction without an exponent needs more digits than this to overflow
_VALUE_RUN = re.compile(r"[^,}\]\n]*+")
# What an unquoted value or a string missing its opening quote must not take in: a
# `"key":` or an opener followed by a quote (`["db"`, `{"k"`). Possessive: linear.
_STRUCTURE = re.compile(r'"[^"\n]*+"[ \t]*+:|[\[{][ \t]*+["\']')
_NON_FINITE = frozenset({"NaN", "Infinity", "nan", "inf", "Inf", "NAN", "INFINITY"})


# A key's colon ahead (blanks first); a key whose closing quote is missing before its colon.
COLON_NEXT = re.compile(r"[ \t]*+:")
KEY_UNCLOSED = re.compile(r'"([\w$][\w$\-]*+)[ \t]*+:')


def unclosed_key(text: str, pos: int, limit: int) -> tuple[str, int, int] | None:
    """``"description:"Check"`` or ``"b: 2`` (a key whose closing quote is missing before its
    colon): ``(name, end of the name, offset past the colon)``, a ``missing_quote`` guess; None
    when the key string reads as one (its closing quote then followed by a colon)."""
    found = KEY_UNCLOSED.match(text, pos, limit)
    if found is None:
        return None
    how, _end, after, _inner = locate_string(text, pos, limit, key=True)
    if how == CLOSED and COLON_NEXT.match(text, after, limit):
        return None  # `"a:b": 1`: a key holding a colon, read as written
    return found.group(1), found.end(1), found.end()


def read_string(
    text: str,
    pos: int,
    limit: int,
    fixes: list[Fix],
    *,
    key: bool = False,
    kinds: list[str] | None = None,
) -> tuple[str, int, bool]:
    """The string opening at ``text[pos]`` as a JSON string token: (token, end, cut).

    Where the string ends is :func:`~gate_tui.parsing.repair.lexing.locate_string`'s
    answer (the candidate scan asks it too); this adds the fixes and the encoding.
    Appends its fixes to ``fixes``; ``cut`` when the text ended inside it.
    """
    how, end, after, inner = locate_string(text, pos, limit, key=key)
    quote, start = text[pos], pos + 1
    if how == MISSING_QUOTE:
        fixes.append(Fix("missing_quote", "closed a string whose closing quote is missing", end))
        return encode(text, start, end, quote, fixes), end, False
    if how == CUT:
        if kinds:  # a value string: its quote may have been forgotten before the last closers
            closers = "".join(
                ")" if kind == "(" else "}" if kind == "{" else "]" for kind in reversed(kinds)
            )
            end = quote_missing_before_closers(text, pos, limit, closers)
            if end >= 0:
                fixes.append(
                    Fix(
                        "missing_quote",
                        "closed a string whose closing quote is missing before the closers",
                        end,
                    )
                )
                return encode(text, start, end, quote, fixes), end, False
        return _cut(text, pos, limit, fixes, inner), limit, True
    code = _CODES[quote]
    if code is not None:
        fixes.append(Fix(code, GUESS_FIX_MESSAGES[code], pos))
    if inner >= 0:
        fixes.append(Fix("inner_quote", GUESS_FIX_MESSAGES["inner_quote"], inner))
    return encode(text, start, end, quote, fixes), after, False


def quote_missing_before_closers(text: str, pos: int, limit: int, closers: str) -> int:
    """Where the closing quote of the string at ``pos`` (one the text ends inside) was
    forgotten, or -1.

    A string the text ends inside was cut off — unless it holds, exactly, the closers
    that balance every open bracket (``closers``, innermost first, blanks between) followed
    by the end of the text, a fence or a new line of prose: ``"endMinSec": "00:23}`` ends
    a complete reply whose quote was forgotten. Only then (a ``missing_quote`` guess) is
    the string closed before them; the offset returned is where the quote belongs.
    """
    if not closers:
        return -1
    pattern = (
        "[ \t\r\n]*+".join(re.escape(closer) for closer in closers)
        + r"(?=[ \t\r]*+(?:\n|```|~~~|\Z))"
    )
    found = re.compile(pattern).search(text, pos + 1, limit)
    if found is None:
        return -1
    end = found.start()  # blanks before the closers stay in the string: they may be its end,
    kept = end  # unless they break the line: the closers' own indentation (`"text⏎  }⏎}`)
    while kept > pos + 1 and text[kept - 1] in " \t\r\n":
        kept -= 1
    return kept if "\n" in text[kept:end] else end


def _cut(text: str, pos: int, limit: int, fixes: list[Fix], inner: int) -> str:
    """The token of a string the text ends inside (what the cut left of it)."""
    if inner >= 0:
        fixes.append(Fix("inner_quote", GUESS_FIX_MESSAGES["inner_quote"], inner))
    end = limit
    if text[end - 1] == "\\" and (end - pos - 1 - len(text[pos + 1 : end].rstrip("\\"))) % 2:
        end -= 1  # a lone backslash the cut left
    token = encode(text, pos + 1, end, text[pos], fixes)
    if (
        token.endswith('"')
        and _PARTIAL_U.search(token, max(0, len(token) - 6))
        and not token.endswith('\\\\u"')
    ):
        token = token[: token.rindex("\\u")] + '"'  # a \u escape the cut left incomplete
    return token


# A `\u` escape the cut left incomplete, just before the closing quote: at most six
# characters, so only the token's last six are searched (a cut-off string can be long).
_PARTIAL_U = re.compile(r'\\u[0-9a-fA-F]{0,3}"$')


def encode(text: str, start: int, end: int, quote: str, fixes: list[Fix]) -> str:
    """``text[start:end]`` as the body of a JSON string, with quotes: escapes checked, raw
    control characters escaped, inner double quotes escaped."""
    content = text[start:end]
    if "\\" in content or '"' in content:
        content = _SPECIAL.sub(_Escaper(start, quote, fixes), content)
    control = _CONTROL.search(content)
    if control is not None:
        fixes.append(
            Fix(
                "control_character",
                "escaped raw control characters (line breaks, tabs) inside a string",
                start + control.start(),
            )
        )
        content = content.translate(_CONTROL_ESCAPES)
    return '"' + content + '"'


class _Escaper:
    """The callback of :func:`encode`: one escape or quote at a time."""

    __slots__ = ("start", "quote", "fixes", "reported")

    def __init__(self, start: int, quote: str, fixes: list[Fix]) -> None:
        self.start, self.quote, self.fixes, self.reported = start, quote, fixes, False

    def __call__(self, found: re.Match[str]) -> str:
        token = found.group()
        if token == '"':
            return '\\"'
        if len(token) > 2 or token[1:] in _VALID_ESCAPES:
            return token
        if token == "\\'" and self.quote != '"':
            return "'"  # single-quoted string: `\'` is its quote
        if not self.reported:
            self.reported = True
            what = "\\'" if token == "\\'" else "an unknown escape"
            self.fixes.append(
                Fix(
                    "invalid_escape",
                    f"{what} inside a string → its text",
                    self.start + found.start(),
                )
            )
        if token == "\\'":
            return "'"
        if len(token) > 1 and not token[1].isascii():
            return token[1:]  # `\„`: a non-ASCII character escaped for no reason keeps only itself
        return "\\\\" + token[1:]  # keep the backslash as text (a lone one too)


def read_number(text: str, pos: int, limit: int, fixes: list[Fix]) -> tuple[str, int]:
    """A number at ``pos``: (token, end). ``.25`` and ``1.`` are repaired; NaN and the
    infinities are refused as values (:class:`BadValue`)."""
    found = NUMBER.match(text, pos, limit)
    if found is None:
        if pos + 1 >= limit:
            raise Cut
        raise Fail(pos)
    token = found.group()
    if token.lstrip("-") == "Infinity":
        raise BadValue(pos, f"{token} is not a number JSON allows")
    if "_" in token:
        if _GROUPED_NUMBER.fullmatch(token) is None:
            raise Fail(pos)
        fixed = token.replace("_", "")
        fixes.append(Fix("number_format", f"{token} → {fixed}", pos))
        token = fixed
    if JSON_NUMBER.fullmatch(token) is None:
        if found.end() >= limit:
            raise Cut  # `1.` or `2e` cut off: drop it rather than guess digits
        token = _sloppy(token, pos, fixes)
    digits = len(token) - (token[0] == "-")
    integer = "." not in token and "e" not in token and "E" not in token
    if integer:
        if digits > MAX_INT_DIGITS:
            raise Fail(pos, "number too long")
    elif "e" in token or "E" in token or digits > _FLOAT_DIGITS:
        try:
            finite_float(token)
        except ValueError as refused:
            raise BadValue(pos, str(refused)) from None
    return token, found.end()


def _sloppy(token: str, pos: int, fixes: list[Fix]) -> str:
    parts = _SLOPPY_NUMBER.fullmatch(token)
    if parts is None or not (parts.group(2) or parts.group(4)) or not parts.group(3):
        raise Fail(pos)
    sign, whole, _, fraction, exponent = parts.groups()
    if whole is None and len(fraction) and not fraction.isdigit():
        raise Fail(pos)
    fixed = f"{sign}{whole or '0'}.{fraction or '0'}{exponent}"
    if JSON_NUMBER.fullmatch(fixed) is None:
        raise Fail(pos)
    fixes.append(Fix("number_format", f"{token} → {fixed}", pos))
    return fixed


def read_word(text: str, pos: int, limit: int, fixes: list[Fix]) -> tuple[str, int]:
    """A bare word in a value's place: a literal, a Python or case variant, or an unquoted
    string value (a guess) up to the next ``,`` ``}`` ``]`` or line end."""
    found = _WORD.match(text, pos, limit)
    if found is None:
        raise Fail(pos)
    word = found.group()
    if word in LITERALS:
        return word, found.end()
    if word in PYTHON_LITERALS:
        fixes.append(python_literal(word, pos))
        return PYTHON_LITERALS[word], found.end()
    if word in _NON_FINITE:
        raise BadValue(pos, f"{word} is not a number JSON allows")
    lowered = word.lower()
    if lowered in LITERALS and found.end() < limit:
        fixes.append(Fix("literal_case", f"{word} → {lowered}", pos))
        return lowered, found.end()
    run_end = _VALUE_RUN.match(text, pos, limit).end()
    structure = _STRUCTURE.search(text, pos, run_end)
    if structure is not None:
        # A guess never swallows what is clearly JSON: `FAST "next": 1` or `FAST ["db"` is a
        # reply that lost its punctuation, not a value; fail where the structure starts.
        taken = text[pos : structure.start()].rstrip()
        raise Fail(structure.start(), f"the unquoted value {taken[:40]!r} runs into JSON structure")
    if run_end >= limit:
        raise Cut  # a word the text stops in: an incomplete value, never a guessed one
    value_end = len(text[pos:run_end].rstrip()) + pos
    if value_end > pos and text[value_end - 1] == '"':
        fixes.append(Fix("missing_quote", "opened a string whose opening quote is missing", pos))
        return encode(text, pos, value_end - 1, '"', fixes), value_end
    fixes.append(
        Fix(
            "unquoted_value",
            f"took the unquoted text {text[pos:value_end][:40]!r} as a string",
            pos,
        )
    )
    return encode(text, pos, value_end, '"', fixes), value_end


def skip_comment(text: str, pos: int, limit: int) -> tuple[int, str]:
    """The end of the comment at ``pos`` (``#``, ``//`` or ``/* */``) and its kind."""
    nxt = text[pos + 1 : pos + 2]
    if text[pos] == "#" or nxt == "/":
        end = text.find("\n", pos, limit)
        return (limit if end < 0 else end + 1), ("#" if text[pos] == "#" else "//")
    if nxt == "*":
        end = text.find("*/", pos + 2, limit)
        return (limit if end < 0 else end + 2), "/* */"
    if pos + 1 >= limit:
        raise Cut
    raise Fail(pos)
