"""What a cut-off reply lost: the fields the cut touched and the ``truncated`` record.

A reply that stops mid-JSON (the model ran out of tokens) is closed by the repair pass,
but valid JSON is not a complete answer: the caller rejects it by default, naming where
the text stops and every field that was open there (``gates``,
``gates.3_success_metric``, ``gates.3_success_metric.raw``).
"""

from __future__ import annotations

import json

from gate_tui.parsing.repair.vocabulary import Fix


def cut_paths(out: list[str]) -> tuple[str, ...]:
    """The dotted path of every field open at the cut, outermost first, from the repaired tokens.

    Walks the tokens once (only when a reply is cut off): ``{`` / ``[`` / ``(`` open a
    level, a string followed by ``:`` names the member, ``,`` advances an array's index.
    """
    levels: list[list[object]] = []  # [kind, key or index]
    previous = ""
    for piece in out:
        if piece == "{" or piece == "[":
            levels.append([piece, None if piece == "{" else 0])
        elif piece == "}" or piece == "]":
            if levels:
                levels.pop()
        elif piece == "," and levels:
            if levels[-1][0] == "[":
                levels[-1][1] = int(levels[-1][1]) + 1  # type: ignore[call-overload]
            else:
                levels[-1][1] = None  # the member before the comma is complete
        elif piece == ":" and levels and previous.startswith('"'):
            levels[-1][1] = _key_name(previous)
        if piece:
            previous = piece
    names: list[str] = []
    paths: list[str] = []
    for _, name in levels:
        if name is None:
            break
        names.append(str(name))
        paths.append(".".join(names))
    return tuple(paths)


def open_paths(out: list[str], kinds: list[str], marks: list[int]) -> tuple[str, ...]:
    """:func:`cut_paths` read off the tokenizer's bracket stack, without walking the tokens.

    When every open level is an object, each level's current member starts at its mark
    (the member's comma, or its key right after the ``{``): the member is named when its
    key is followed by ``:``. An open array needs its element count, which only the walk
    knows, so any array or tuple on the stack falls back to :func:`cut_paths`.
    """
    if "[" in kinds or "(" in kinds:
        return cut_paths(out)
    names: list[str] = []
    paths: list[str] = []
    size = len(out)
    for mark in marks:
        key = mark + 1 if mark < size and out[mark] == "," else mark
        if key + 1 >= size or out[key + 1] != ":" or not out[key].startswith('"'):
            break  # this level's member has no key and colon yet: nothing below is named
        names.append(_key_name(out[key]))
        paths.append(".".join(names))
    return tuple(paths)


def truncation_fix(kinds: list[str], closed_string: bool, dropped: str, cut_at: int) -> Fix:
    """The ``truncated`` record: what was closed and dropped where the text stops."""
    notes: list[str] = []
    if closed_string:
        notes.append("closed an open string")
    if dropped:
        notes.append("dropped " + dropped)
    opened_objects = kinds.count("{")
    opened_arrays = len(kinds) - opened_objects
    closed = [
        f"{count} '{kind}'"
        for count, kind in ((opened_arrays, "["), (opened_objects, "{"))
        if count
    ]
    notes.append("closed " + " and ".join(closed))
    return Fix("truncated", "the JSON is cut off: " + ", ".join(notes), cut_at)


def _key_name(token: str) -> str:
    """The name a JSON string token stands for (decoded only when it holds an escape)."""
    if "\\" not in token:
        return token[1:-1]
    try:
        return str(json.loads(token))
    except ValueError:
        return token.strip('"')
