"""The quick repair path: let the C decoder find each defect and fix it in place.

Each failed decode of the candidate points at the first defect; if it is one the
tokenizer (:mod:`~gate_tui.parsing.repair.tokenizer`) would fix the same way (trailing
comma, comment, unquoted key, Python literal, curly quotes) it is fixed in place and
decoding retried, for a bounded number of rounds. Anything else returns None so that the
tokenizer decides. For a reply with a few defects this is several times faster than
tokenizing in Python. Tests check that the two paths agree.
"""

from __future__ import annotations

import json
import re
from typing import NamedTuple

from gate_tui.parsing.repair.edits import Edits
from gate_tui.parsing.repair.fixlog import as_runs
from gate_tui.parsing.repair.innerquote import inner_quote_edit
from gate_tui.parsing.repair.lexing import (
    BARE_KEY,
    BLANK,
    QUOTES,
    SCAN_ONCE,
    WORD,
    read_quoted,
)
from gate_tui.parsing.repair.literals import (
    LiteralSpots,
    habit_within,
    literals_between_strings,
)
from gate_tui.parsing.repair.onepass import ONE_PASS_MAX, one_pass, one_pass_fixes
from gate_tui.parsing.repair.quick_bulk import python_literals_all, requote_all
from gate_tui.parsing.repair.quotestyle import requote_decoded
from gate_tui.parsing.repair.vocabulary import (
    PER_STRING_CODES,
    PYTHON_LITERALS,
    SINGLE_QUOTES_MESSAGE,
    Fail,
    Fix,
    comment,
    python_literal,
    trailing_comma,
    unquoted_key,
)


class QuickRepair(NamedTuple):
    """A value decoded by :func:`quick_repair`, its end offset and the fixes it needed."""

    value: object
    end: int
    fixes: tuple[Fix, ...]


QUICK_MAX_FIXES = 12
_LITERAL_STARTS = ("True", "False", "None")


def quick_repair(text: str, start: int, *, max_fixes: int = QUICK_MAX_FIXES) -> QuickRepair | None:
    """Decode the value opening at ``text[start]``, letting the C decoder find the defects.

    Each failed decode points at the first defect; one the tokenizer would fix the same
    way is fixed in place and decoding retried; anything else (a cut, prose) returns None
    so the caller runs :func:`repair_json`. Quote styles and Python literals are fixed in
    bulk. At most ``max_fixes + 1`` decodes: linear. Text after the value is ignored.
    """
    found = quick_repair_parts(text, start, max_fixes)
    return None if found is None else QuickRepair(*found)


def quick_repair_parts(
    text: str, start: int, max_fixes: int = QUICK_MAX_FIXES
) -> tuple[object, int, tuple[Fix, ...]] | None:
    """:func:`quick_repair` as a plain tuple, for the extraction fast path (a named tuple
    is built by a Python-level call, a measurable share of parsing a typical reply)."""
    # The first decode reads the original text at `start`: nearly every reply needs no
    # repair, and then the candidate is never copied out of the text. The C scanner reads
    # nothing before its index, so its positions are the slice's plus `start`. A failure
    # counts lines from 0 to build its error (O(start), once); the rounds that edit work
    # on the slice, and the first of them reuses this failure instead of decoding again.
    try:
        value, end = SCAN_ONCE(text, start)
    except StopIteration as missing:  # what raw_decode reports as "Expecting value"
        at, message = missing.value - start, "Expecting value"
    except json.JSONDecodeError as error:
        at, message = error.pos - start, error.msg
    except (ValueError, RecursionError, MemoryError):
        return None
    else:
        return value, end, ()
    first = one_pass_fixes(text, start + at, message) if len(text) - start <= ONE_PASS_MAX else None
    if first is not None:
        done = one_pass(text, start, first == "controls", first=first)  # all common defects at once
        if done is not None:
            return done
    current = text[start:]
    fixes: list[Fix] = []
    edits = Edits()
    removed: list[tuple[int, int]] = []  # original spans of comments taken out
    literals_done = recount = quote_bulk = False
    positions: LiteralSpots | None = (
        None  # where the literals rewritten in bulk are (see habit_within)
    )
    last = -1
    for round_ in range(max_fixes + 1):
        if round_:
            try:
                value, end = SCAN_ONCE(current, 0)
            except StopIteration as missing:
                at, message = missing.value, "Expecting value"
            except json.JSONDecodeError as error:
                at, message = error.pos, error.msg
            except (ValueError, RecursionError, MemoryError):
                return None
            else:
                stop = start + edits.original(end)
                if recount:
                    fixes[0] = _quote_habit(text, start, stop)
                if removed:
                    fixes = [fix for fix in fixes if not _inside_any(removed, fix)]
                if positions is not None:
                    fixes = [
                        habit_within(fix, positions, start, stop)
                        if fix.code == "python_literal"
                        else fix
                        for fix in fixes
                    ]
                    fixes = [fix for fix in fixes if fix is not None]
                fixes = [fix for fix in fixes if fix.offset < stop]
                habits = [fix.code for fix in fixes if fix.code in PER_STRING_CODES]
                return (
                    value,
                    stop,
                    as_runs(fixes) if len(habits) > len(set(habits)) else tuple(fixes),
                )
        if at <= last:
            return None  # no progress: the defect is not a local one
        if current.startswith("'", at) and not fixes and _PLAIN_QUOTES.search(current) is None:
            # Only single quotes, no escapes, no comments (a Python repr): every `'` is a
            # delimiter, swapped at C speed; the habit's count is settled once the end is known.
            current = current.replace("'", '"')
            fixes.append(Fix("single_quotes", SINGLE_QUOTES_MESSAGE, start + at))
            recount = True
            last = at
            if "None" in current or "True" in current or "False" in current:  # a repr: its literals
                fast = literals_between_strings(current, start)  # now, not after a failed decode
                if fast is not None:
                    literals_done = True
                    current, habit, positions = fast
                    fixes.extend([] if habit is None else [habit])
            continue
        if current.startswith("'", at) and not fixes and "/*" not in current:
            whole = requote_decoded(current, start)  # only quote styles mixed: at C speed
            if whole is not None:
                return whole[0], start + whole[1], (whole[2],)
            requoted = requote_all(current, start)
            if requoted is None:
                return None
            current, quote_fixes, spans = requoted
            quote_bulk = True
            fixes.extend(quote_fixes)
            edits.spans.extend(spans)
            last = at
            continue
        if not literals_done and current.startswith(_LITERAL_STARTS, at) and "/*" not in current:
            literals_done = True  # a reply written with Python literals: all of them at once
            fast = (
                None if edits.spans or "'" in current else literals_between_strings(current, start)
            )
            if fast is not None:  # one habit record, trimmed to the value at the end
                current, habit, positions = fast
                literal_fixes = [] if habit is None else [habit]
            else:
                current, literal_fixes = python_literals_all(current, start, edits)
            if literal_fixes:
                fixes.extend(literal_fixes)
                last = at - 1  # the defect at `at` was one of them: decoding may now pass it
                continue
        # Not in strings the bulk requoting made (`''x''` is the wrapped reader's to judge).
        inner = None if recount or quote_bulk else inner_quote_edit(current, at, message, last)
        if inner is not None:  # re-read as the tokenizer would: its token and its fixes
            begin, stop, token, string_fixes = inner
            fixes.extend(
                Fix(fix.code, fix.message, start + edits.original(fix.offset))
                for fix in string_fixes
            )
            edits.add(begin, stop, len(token))
            current = current[:begin] + token + current[stop:]
            last = at
            continue
        edit = _local_edit(current, at, message)
        if edit is None:
            return None
        begin, stop, replacement, fix = edit
        fixes.append(Fix(fix.code, fix.message, start + edits.original(fix.offset)))
        if fix.code == "comment":  # quotes the bulk pass "fixed" inside it were never strings
            removed.append((start + edits.original(begin), start + edits.original(stop)))
        if len(replacement) != stop - begin:  # `None` → `null` moves nothing
            edits.add(begin, stop, len(replacement))
        current = current[:begin] + replacement + current[stop:]
        last = at
    return None


_PLAIN_QUOTES = re.compile(r'["\\/#]')  # what makes a `'` possibly not a delimiter


def _quote_habit(text: str, start: int, stop: int) -> Fix:
    """The single-quotes record of a value whose every `'` was a delimiter, in ``[start, stop)``."""
    closing = text.rfind("'", start, stop)
    count = text.count("'", start, stop) // 2
    return Fix(
        "single_quotes",
        SINGLE_QUOTES_MESSAGE,
        text.find("'", start, stop),
        count,
        text.rfind("'", start, closing),
    )


def _inside_any(spans: list[tuple[int, int]], fix: Fix) -> bool:
    bulk = fix.code == "single_quotes" or fix.code == "python_literal"
    return bulk and any(begin < fix.offset < end for begin, end in spans)


def _local_edit(current: str, at: int, message: str) -> tuple[int, int, str, Fix] | None:
    """The edit that fixes the defect the decoder reported at ``at``: (start, end, new, fix).

    Fix offsets are in ``current``; the caller maps them back to the original text.
    """
    if at >= len(current):
        return None  # cut off: the tokenizer closes brackets in order
    c = current[at]
    if c == "}" or c == "]":
        comma = current.rfind(",", 0, at)
        if (
            comma < 0
            or BLANK.match(current, comma + 1, at).end() < at
            or not _after_value(current, comma)
        ):
            return None
        return comma, comma + 1, "", trailing_comma(c, comma)
    if c == ",":  # Python 3.13+ reports a trailing comma at the comma itself
        after = BLANK.match(current, at + 1).end()
        if after < len(current) and current[after] in "}]" and _after_value(current, at):
            return at, at + 1, "", trailing_comma(current[after], at)
        return None  # `{,`, `[,` or `,,`: a comma after nothing is not a trailing comma
    if c == "/":
        return _comment_edit(current, at)
    if c in QUOTES and c != "'" and c != '"':
        try:
            token, end, cut, fix = read_quoted(current, at, len(current))
        except Fail:
            return None
        return None if cut or fix is None else (at, end, token, fix)
    word = BARE_KEY.match(current, at)
    if word is None:
        return None
    if message.startswith("Expecting property name"):
        after = BLANK.match(current, word.end()).end()
        if after < len(current) and current[after] == ":":
            return at, word.end(), '"' + word.group() + '"', unquoted_key(word.group(), at)
        return None
    literal = WORD.match(current, at)
    if (
        message.startswith("Expecting value")
        and literal is not None
        and literal.group() in PYTHON_LITERALS
    ):
        name = literal.group()
        return at, literal.end(), PYTHON_LITERALS[name], python_literal(name, at)
    return None


def _after_value(current: str, comma: int) -> bool:
    """Whether the comma at ``comma`` follows a value (not an opener, a colon or a comma)."""
    before = comma - 1
    while before >= 0 and current[before] in " \t\r\n":
        before -= 1
    return before >= 0 and current[before] not in "{[,:"


def _comment_edit(current: str, at: int) -> tuple[int, int, str, Fix] | None:
    kind = current[at + 1 : at + 2]
    if kind == "/":
        end = current.find("\n", at)
        return at, len(current) if end < 0 else end, "", comment("//", at)
    if kind == "*":
        end = current.find("*/", at + 2)
        return None if end < 0 else (at, end + 2, " ", comment("/* */", at))
    return None
