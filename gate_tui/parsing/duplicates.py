"""Keys a reply gives twice: reported with both positions, refused when the values differ.

``{"verdict": "BOGUS", "verdict": "PASS"}`` decodes last-wins in every JSON library, so a
second ``gates`` block or a second ``verdict`` silently decides. The shared decoder
(:data:`~gate_tui.parsing.repair.lexing.DECODER`) marks each object that repeats a key
(:class:`~gate_tui.parsing.repair.lexing.Duplicated`) and bumps a counter, so a reply
without repeats costs nothing here. With repeats, :func:`settle` turns the marked objects
back into plain dicts and, for the chosen object, gives each repeated key a
``duplicate_key`` warning naming the key and where it appears; when the values differ the
reply is ``invalid_json`` — which one the model meant is unknowable.
"""

from __future__ import annotations

import re
from itertools import islice
from typing import Any

from gate_tui.parsing.candidates import position
from gate_tui.parsing.repair.lexing import BLANK, SCAN_ONCE, SCAN_STRING, Duplicated
from gate_tui.warning_codes import DUPLICATE_KEY

MAX_REPORTED = 20
"""Repeated keys named one by one; the rest are counted in one more warning."""
_SHOWN = 3  # positions named per repeated key
_WALKED = 256 * 1024  # objects walked token by token for exact positions; larger ones are searched

Repeat = tuple[tuple[Any, ...], str, list[Any]]
"""(path of the object, the key, every value it was given, in text order)."""


def settle(text: str, parts: tuple[Any, ...]) -> tuple[Any, ...]:
    """``parts`` (an ``ExtractionParts``) with repeated keys made plain and reported."""
    value, error, source, span, records, notes = parts
    repeats: list[Repeat] = []
    if value is not None:
        value = plain(value, repeats)  # first: a listed candidate may share its objects
    for candidate in notes.get("candidates") or ():
        candidate.value = (
            value if candidate.used and value is not None else plain(candidate.value, [])
        )
    if value is None:
        return parts
    if not repeats:
        return value, error, source, span, records, notes
    where = _Offsets(text, span[0] if span else 0, span[1] if span else len(text))
    warnings = []
    for path, key, values in repeats[:MAX_REPORTED]:
        # At most a few positions, each found once: a hostile reply repeats a key a million times.
        spots = ", ".join(
            "{}:{}".format(*position(text, at))
            for at in where.of(path, key, min(len(values), _SHOWN))
        )
        spots += ", …" if len(values) > _SHOWN else ""
        shown = _dotted(path, key)[:80]
        times = "twice" if len(values) == 2 else f"{len(values):,} times"
        if not _all_same(values):
            message = (
                f"key {shown!r} is given {times} with different values (at {spots}): which one the "
                "model meant is unknowable"
            )
            return None, message, source, span, records, {**notes, "error_code": "invalid_json"}
        at = where.of(path, key, 1)
        line, column = position(text, at[0]) if at else (None, None)
        warnings.append(
            {
                "code": DUPLICATE_KEY,
                "message": f"key {shown!r} is given {times} with the same value (at {spots})",
                "field_path": shown,
                "line": line,
                "column": column,
            }
        )
    if len(repeats) > MAX_REPORTED:
        more = (
            f"and {len(repeats) - MAX_REPORTED:,} more keys given more than once (only the first "
            f"{MAX_REPORTED} are listed)"
        )
        warnings.append({"code": DUPLICATE_KEY, "message": more, "field_path": ""})
    return value, error, source, span, records, {**notes, "duplicate_warnings": warnings}


def plain(value: Any, repeats: list[Repeat]) -> Any:
    """``value`` with every :class:`Duplicated` object replaced by a plain dict (iterative),
    each repeated key noted in ``repeats`` with its object's path, in document order."""
    root = [value]
    pending: list[tuple[Any, Any, tuple[Any, ...]]] = [(root, 0, ())]
    while pending:
        holder, slot, path = pending.pop()
        item = holder[slot]
        if isinstance(item, Duplicated):
            repeats.extend((path, key, values) for key, values in item.repeated.items())
            item = holder[slot] = dict(item)
        if isinstance(item, dict):
            pending.extend(
                (item, key, (*path, key))
                for key in reversed(list(item))
                if isinstance(item[key], dict | list)
            )
        elif isinstance(item, list):
            pending.extend(
                (item, index, (*path, index))
                for index in range(len(item) - 1, -1, -1)
                if isinstance(item[index], dict | list)
            )
    return root[0]


def same_json(first: Any, second: Any) -> bool:
    """Whether two decoded values are the same JSON value (iterative).

    Python's ``==`` says ``True == 1`` and ``False == 0 == 0.0``, but JSON's ``true`` and
    ``1`` are different values (a boolean schema takes one and refuses the other), so a
    bool only equals a bool. ``1`` and ``1.0`` are the same number, as JSON Schema says.
    """
    pending = [(first, second)]
    while pending:
        left, right = pending.pop()
        if isinstance(left, bool) or isinstance(right, bool):
            if left is not right:
                return False
        elif isinstance(left, dict) and isinstance(right, dict):
            if left.keys() != right.keys():
                return False
            pending.extend((left[key], right[key]) for key in left)
        elif isinstance(left, list) and isinstance(right, list):
            if len(left) != len(right):
                return False
            pending.extend(zip(left, right, strict=True))
        elif isinstance(left, dict | list) or isinstance(right, dict | list) or left != right:
            return False
    return True


def _all_same(values: list[Any]) -> bool:
    """Whether every value is the same JSON value as the first. Equal ``repr`` texts are the
    same value (``repr`` tells ``True`` from ``1``), at C speed: a hostile reply repeats a key
    a million times; only values written differently are compared by :func:`same_json`."""
    first = values[0]
    shown = repr(first)
    return all(repr(item) == shown or same_json(item, first) for item in values[1:])


def _dotted(path: tuple[Any, ...], key: str) -> str:
    return ".".join(str(part) for part in (*path, key))


class _Offsets:
    """Where each member's key starts, found once per reply.

    Strict JSON (the common case of a repeated key) is walked with the C scanner, so every
    key has its exact offset and path. Text that needed repairs falls back to a search
    for the key followed by ``:`` inside the object's span: close, not exact.
    """

    def __init__(self, text: str, start: int, end: int) -> None:
        self.text, self.start, self.end = text, start, end
        self.members: dict[tuple[tuple[Any, ...], str], list[int]] | None = None
        if end - start <= _WALKED:
            try:
                self.members = _walk(text, start)
            except (ValueError, IndexError, StopIteration, KeyError, RecursionError):
                self.members = None

    def of(self, path: tuple[Any, ...], key: str, count: int) -> list[int]:
        if self.members is not None:
            found = self.members.get((path, key))
            if found:
                return found[:count]
        pattern = re.compile(
            r"[\"'\u201c\u2018]?" + re.escape(key) + r"[\"'\u201d\u2019]?[ \t\r\n]*:"
        )
        return [
            match.start()
            for match in islice(pattern.finditer(self.text, self.start, self.end), count)
        ]


def _walk(text: str, at: int) -> dict[tuple[tuple[Any, ...], str], list[int]]:
    """Key offsets of the strict JSON object at ``at``, by (object path, key); no recursion."""
    members: dict[tuple[tuple[Any, ...], str], list[int]] = {}
    stack: list[list[Any]] = []  # [kind, path, next index of an array]
    pos = BLANK.match(text, at).end()
    while True:
        char = text[pos]
        if char == "{" or char == "[":
            path = () if not stack else stack[-1][3]
            stack.append([char, path, 0, path])
            pos = BLANK.match(text, pos + 1).end()
            if text[pos] in "}]":
                char = text[pos]
            else:
                pos = _member(text, pos, stack, members)
                continue
        elif char not in ",}]":
            pos = BLANK.match(text, SCAN_ONCE(text, pos)[1]).end()
            char = text[pos]
        if char == ",":
            pos = _member(text, BLANK.match(text, pos + 1).end(), stack, members)
            continue
        stack.pop()
        pos = BLANK.match(text, pos + 1).end()
        if not stack:
            return members


def _member(
    text: str,
    pos: int,
    stack: list[list[Any]],
    members: dict[tuple[tuple[Any, ...], str], list[int]],
) -> int:
    """Read the key of an object member (or note an array element); return where its value
    starts."""
    top = stack[-1]
    if top[0] == "[":
        top[3] = (*top[1], top[2])
        top[2] += 1
        return pos
    if text[pos] != '"':
        raise ValueError(pos)
    key, end = SCAN_STRING(text, pos + 1, True)
    members.setdefault((top[1], key), []).append(pos)
    top[3] = (*top[1], key)
    colon = BLANK.match(text, end).end()
    if text[colon] != ":":
        raise ValueError(colon)
    return BLANK.match(text, colon + 1).end()
