"""Thinking tags and code fences: the markers around a model's JSON, found in linear time.

A model reply wraps its JSON in ``<thinking>…</thinking>`` / ``<think>…</think>`` blocks,
Markdown code fences (```` ``` ```` or ``~~~`` with an optional language tag) and prose.
This module finds those markers: the regions hidden by thinking tags, the first fence
outside them and the first ``{`` / ``[`` that could open a candidate. Every search
moves forward only (``str.find`` and possessive patterns), so a reply full of unclosed
tags or fences costs one pass. The balanced scan of the candidates themselves is in
:mod:`gate_tui.parsing.scanning`.
"""

from __future__ import annotations

import re

FENCE_RUN = {"`": re.compile(r"`++"), "~": re.compile(r"~++")}
INFO_AND_BLANKS = re.compile(r"[ \t]*+[\w+.#-]*+\s*+")  # _INFO, then _SPACE, in one match
Region = tuple[int, int, bool]

# `<think>`, `<thinking>`, `</think>`, `</thinking>` in any case. Bounded length: no backtracking.
THINK_TAG = re.compile(r"<(/?)(think(?:ing)?)>", re.IGNORECASE)


_THINK_CLOSE = {
    "think": re.compile(r"</think>", re.IGNORECASE),
    "thinking": re.compile(r"</thinking>", re.IGNORECASE),
}


# The usual lowercase spellings, tried with str.startswith before the case-insensitive
# regexes above: on the hot path a regex match costs several times a startswith.
_CLOSING_TAG = {"think": "</think>", "thinking": "</thinking>"}


def thinking_regions(text: str) -> list[Region]:
    """Thinking blocks found by tags alone (no JSON awareness), in text order.

    Used by the fast path, which must skip thinking without running the full scan.
    A closed pair is a hard region. An opening tag that is never closed makes a soft
    region to the end of the text; a closing tag with no opening tag makes a soft region
    from the end of the previous block (DeepSeek-style replies whose prompt opened the tag).
    """
    regions: list[Region] = []
    pos = 0
    outside_start = 0
    find, match_tag = text.find, THINK_TAG.match
    while True:
        # str.find to each '<' is several times faster than a case-insensitive regex search.
        at = find("<", pos)
        if at < 0:
            return regions
        if text.startswith("<thinking>", at):  # the usual spellings, without the regex
            name, end = "thinking", at + 10
        elif text.startswith("<think>", at):
            name, end = "think", at + 7
        else:
            tag = match_tag(text, at)
            if tag is None:
                pos = at + 1
                continue
            if tag.group(1):  # an orphan closing tag: everything since the last block
                pos = tag.end()
                regions.append((outside_start, pos, True))
                outside_start = pos
                continue
            name, end = tag_name(tag), tag.end()
        close = find_closing_tag(text, name, end)
        if close < 0:
            regions.append((at, len(text), True))
            return regions
        regions.append((at, close, False))
        outside_start = pos = close


def find_closing_tag(text: str, name: str, pos: int) -> int:
    """End offset of the first ``</think>`` / ``</thinking>`` (per ``name``) after ``pos``, or
    -1."""
    pattern, lowercase = _THINK_CLOSE[name], _CLOSING_TAG[name]
    for _ in range(8):  # find '<' in C (memchr), then check the tag: faster on ordinary text
        at = text.find("<", pos)
        if at < 0:
            return -1
        if text.startswith(lowercase, at):
            return at + len(lowercase)
        close = pattern.match(text, at)
        if close is not None:
            return close.end()
        pos = at + 1
    close = pattern.search(text, pos)  # many '<': one case-insensitive search in C instead
    return -1 if close is None else close.end()


def first_fence(text: str, regions: list[Region]) -> tuple[int, int] | None:
    """The first run of three or more backticks or tildes that does not start inside one
    of ``regions``: (start, end), or None.

    Regions are skipped in order, and each search resumes where the last one stopped
    (thousands of thinking blocks with a ``~~~`` or a ``[`` in each stay linear).
    """
    n = len(text)
    find = text.find
    pos = index = 0
    count = len(regions)
    ticks = -2  # the next ``` at or after pos; -1: there is none; -2: not searched yet
    while True:
        if ticks < pos and ticks != -1:  # search again only once passed: linear in all
            ticks = find("`", pos)
            if ticks >= 0 and not text.startswith("```", ticks):
                ticks = find_run(text, "```", ticks + 1, n)
        at = ticks
        limit = n if at < 0 else at
        tildes = find("~", pos, limit)  # most replies have no tilde at all: one memchr says so
        if tildes >= 0:
            tildes = find_run(text, "~~~", tildes, limit)
            if tildes >= 0:
                at = tildes
        if at < 0:
            return None
        while index < count and regions[index][1] <= at:
            index += 1
        if index < count and regions[index][0] <= at:
            pos = regions[index][1]
            continue
        end = at + 3
        if text.startswith(text[at], end):  # a longer run: the regex takes it whole
            end = FENCE_RUN[text[at]].match(text, at).end()
        return at, end


def find_run(text: str, marker: str, pos: int, end: int) -> int:
    """``text.find(marker, pos, end)`` for a marker made of one repeated character.

    Jumps with a one-character find (memchr, several times faster than a multi-character
    search) and falls back to the plain search after a few lone characters.
    """
    char = marker[0]
    for _ in range(8):
        at = text.find(char, pos, end)
        if at < 0 or text.startswith(marker, at):
            return at if at < 0 or at + len(marker) <= end else -1
        pos = at + 1
    return text.find(marker, pos, end)


def first_opener(text: str, regions: list[Region]) -> int:
    """Offset of the first ``{`` or ``[`` that does not start inside one of ``regions``, or -1."""
    n = len(text)
    find = text.find
    pos = index = 0
    count = len(regions)
    brace = -2  # the next `{` at or after pos; -1: there is none; -2: not searched yet
    while True:
        if brace < pos and brace != -1:  # search again only once passed: linear in all
            brace = find("{", pos)
        bracket = find("[", pos, n if brace < 0 else brace)
        at = bracket if bracket >= 0 else brace
        if at < 0:
            return -1
        while index < count and regions[index][1] <= at:
            index += 1
        if index < count and regions[index][0] <= at:
            pos = regions[index][1]
            continue
        return at


def fence_body_lead(text: str, marker_end: int) -> int:
    """The first non-blank of a fence's body: after the marker, its optional language tag
    and blanks."""
    return INFO_AND_BLANKS.match(text, marker_end).end()


def tag_name(tag: re.Match[str]) -> str:
    # len() rather than .lower(): case folding may map odd code points onto ASCII letters.
    return "thinking" if len(tag.group(2)) == 8 else "think"
