"""Choosing the one JSON object among a reply's candidates (the full path of extraction).

:func:`gate_tui.parsing.extraction.extract_json` tries one candidate on its fast path;
when that is not conclusive, the balanced scan (:mod:`gate_tui.parsing.scanning`) lists
every candidate and :class:`Chooser` applies the rules: fenced candidates first, the
first object with a gate-state key (``summary`` / ``gates`` / ``status``) wins, else the
first object; a candidate that fails strict decoding gets the repair pass, within a
work budget of the text's length; a top-level array is refused rather than mined.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_right
from typing import Any

from gate_tui.limits import MAX_DEPTH
from gate_tui.parsing.candidates import (
    MAX_LISTED,
    PREFERRED_KEYS,
    RESTART_MESSAGE,
    describe_spot,
    has_preferred_key,
    locate,
    opens_an_object,
    restarted,
)
from gate_tui.parsing.found import ExtractionParts, decode_outcome
from gate_tui.parsing.found import Found as _Found
from gate_tui.parsing.repair.lexing import DECODER
from gate_tui.parsing.repair.tokenizer import repair_json
from gate_tui.parsing.repair.vocabulary import Fix, RepairOutcome
from gate_tui.parsing.scanning import ScanResult, first_non_blank, text_is_blank
from gate_tui.parsing.short_close import comma_follows
from gate_tui.parsing.spans import holds_object, inside, merge_spans

NO_OBJECT = "No JSON object found in text"



def failure(error: str, code: str = "invalid_json") -> ExtractionParts:
    return None, error, None, None, [], {"error_code": code}


TOP_LEVEL_ARRAY = "top-level array not allowed"

_DECODE_ERRORS = (ValueError, RecursionError, MemoryError)
_NOT_EMPTY_OBJECT = re.compile(r"\{(?![ \t\r\n]*+\})")


# Characters after which the repair pass may see a value end later than the bracket scan did.
_READS_FURTHER = re.compile("[/'\u2018\u2019\u201c\u201d]")


def _loads_object(candidate: str) -> dict[str, Any] | None:
    try:
        value = DECODER.decode(candidate)
    except _DECODE_ERRORS:
        return None
    return value if isinstance(value, dict) else None


class Chooser:
    """Applies the choice rules to one :class:`ScanResult`, within a linear work budget."""

    def __init__(
        self, text: str, result: ScanResult, keys: tuple[str, ...] = PREFERRED_KEYS
    ) -> None:
        self.text = text
        self.result = result
        self.keys = keys
        self.first_failure: RepairOutcome | None = (
            None  # of an object candidate: says where it breaks
        )
        self.failed_start = -1
        self.last_error_at = -1  # where the last failed repair gave up
        # Characters the repair pass may examine, per kind of candidate: linear by design.
        self.object_budget = len(text) + 1024
        self.array_budget = len(text) + 1024
        self.keyword_cache: dict[str, tuple[int, int]] = {}
        self.keyword_from, self.keyword_at = 0, -1  # empty: the first check searches

    def choose(self, pick: int | None = None) -> ExtractionParts:
        """The default winner (or candidate ``pick``), with the candidates listed in the notes.

        Fenced candidates are tried first, then the others, each group in text order; a
        candidate inside one already decoded is part of it. The first :data:`MAX_LISTED`
        objects are decoded and listed; beyond them only a candidate that may hold a
        preferred key is decoded, and only while no preferred one has been found.
        """
        arrays = self._real_arrays()
        array_starts = [start for start, _ in arrays]
        candidates = sorted(
            [(start, end, fence, True) for start, end, fence in self.result.objects]
            + [(start, limit, fence, False) for start, limit, fence in self.result.cut_objects]
        )
        listed: list[_Found] = []
        preferred: _Found | None = None
        for group in (
            [c for c in candidates if c[2] >= 0],  # fenced candidates first
            [c for c in candidates if c[2] < 0],
        ):
            consumed = -1
            outer = (-1, -1)  # an unclosed object that could not be read: what it holds is its own
            text, find = self.text, self.text.find
            for start, stop, fence, closed in group:
                if closed and find(":", start, stop) < 0 and find("{", start + 1, stop) < 0:
                    # `{ about }` in prose: no member, nothing nested, so at best `{}` (or a
                    # comment or quote style the repair reads further): one check, not four.
                    if _READS_FURTHER.search(text, start, stop) is None and not text_is_blank(
                        text, start + 1, stop - 1
                    ):
                        continue
                if start < consumed or inside(arrays, array_starts, start):
                    continue
                restart = None
                if outer[0] < start < outer[1]:
                    restart = restarted(self.text, outer[0], start)
                    if restart is None:
                        continue  # inside an unclosed object: never a candidate of its own
                if len(listed) >= MAX_LISTED:
                    if preferred is not None or pick is not None:
                        break
                    if not self._may_have_keyword(start, stop):
                        continue  # only a gate-state object could still be the winner
                found = self._decode_object(start, stop, fence, closed)
                if (
                    found is None
                    and closed
                    and (found := self._doubled(start, stop, fence)) is not None
                ):
                    restart = Fix("restarted_object", RESTART_MESSAGE, start)
                if found is None:
                    # An object that cannot be read holds its members: an object nested in
                    # it is part of it, never the answer (unless the model restarted there).
                    if opens_an_object(self.text, start):
                        outer = (start, stop)
                    continue
                if restart is not None:
                    found.fixes = (*found.fixes, restart)
                listed.append(found)
                consumed = found.end
                if preferred is None and has_preferred_key(found.value, self.keys):
                    preferred = found
        if not listed:
            return self._no_object(bool(arrays))
        listed.sort(key=lambda found: found.start)
        if pick is None:
            winner = preferred or min(listed, key=lambda found: (found.fence < 0, found.start))
        elif 0 <= pick < len(listed):
            winner = listed[pick]
        else:
            parts = failure(
                f"there is no candidate {pick}: this reply holds {len(listed)} (0 to "
                f"{len(listed) - 1})",
                "invalid_value",
            )
            parts[5]["candidates"] = [
                found.candidate(self.text, index, False, self.keys)
                for index, found in enumerate(listed)
            ]
            return parts
        parts = winner.extraction(self.text, self._others(candidates, winner))
        parts[5]["candidates"] = [
            found.candidate(self.text, index, found is winner, self.keys)
            for index, found in enumerate(listed)
        ]
        return parts

    def _others(self, candidates: list[tuple[int, int, int, bool]], winner: _Found) -> list[int]:
        """Offsets of the other candidates that look like objects (a key inside), in text order.

        Candidates inside the winner's span are part of it; a later candidate inside
        another one counted is skipped the same way."""
        others: list[int] = []
        reach = -1
        for start, stop, _, _ in candidates:
            if (
                winner.start <= start < winner.end
                or start < reach
                or (start < winner.start and stop >= winner.end)
            ):
                continue  # part of the winner, or the abandoned opener around a restart
            if self.text.find(":", start, stop) >= 0:
                others.append(start)
                reach = stop
        return others

    def _no_object(self, saw_array: bool) -> ExtractionParts:
        failed = self.first_failure
        if failed is None or saw_array or self.result.depth_error is not None:
            return failure(self._no_object_error(saw_array))
        at = locate(self.text, failed.error_at)
        if failed.bad_value:
            return failure(f"{failed.error} (at {at})", "invalid_value")
        what = failed.error or "unexpected " + describe_spot(self.text, failed.error_at)
        return failure(
            f"JSON object at {locate(self.text, self.failed_start)} could not be repaired: {what} "
            f"at {at}"
        )

    def _no_object_error(self, saw_array: bool) -> str:
        if saw_array:
            return TOP_LEVEL_ARRAY
        depth_at = self.result.depth_error
        if depth_at is not None:
            line = self.text.count("\n", 0, depth_at) + 1
            column = depth_at - (self.text.rfind("\n", 0, depth_at) + 1) + 1
            return (
                f"JSON nested deeper than {MAX_DEPTH} levels at line {line}, column {column}; not "
                "decoded"
            )
        return NO_OBJECT

    def _may_have_keyword(self, start: int, stop: int) -> bool:
        """Whether ``text[start:stop]`` contains a preferred key's name: a cheap pre-check.

        ``keyword_at`` is the first occurrence of any of the names at or after
        ``keyword_from``; it stays valid while candidates start between the two, so in
        the common case (no name ahead) the check is one comparison. Per word, searches
        resume where the last one stopped and never cover the same text twice.
        """
        if not self.keyword_from <= start <= self.keyword_at:
            nowhere = len(self.text)
            nearest = nowhere
            for word in self.keys:
                cached = self.keyword_cache.get(word)
                if cached is None or start < cached[0] or cached[1] < start:
                    at = self.text.find(word, start)
                    cached = (start, nowhere if at < 0 else at)
                    self.keyword_cache[word] = cached
                nearest = min(nearest, cached[1])
            self.keyword_from, self.keyword_at = start, nearest
        return self.keyword_at < stop

    def _limit_after(self, start: int) -> int:
        """How far a repair starting at ``start`` may read: the next fence marker, or the end."""
        boundaries = self.result.boundaries
        index = bisect_right(boundaries, start)
        return boundaries[index] if index < len(boundaries) else len(self.text)

    def _decode_object(self, start: int, stop: int, fence: int, closed: bool) -> _Found | None:
        text = self.text
        if closed and text.find(":", start, stop) < 0:
            # No key: at best `{}`. Prose like `{name}` is the common case, rejected cheaply
            # unless a comment or another quote style could make the repair read further.
            if text_is_blank(text, start + 1, stop - 1):
                return _Found({}, start, stop, fence, ())
            if _READS_FURTHER.search(text, start, stop) is None:
                return None
        if closed:
            value = _loads_object(text[start:stop])
            if value is not None:
                return _Found(value, start, stop, fence, ())
            limit = self._limit_after(start)
        else:
            limit = stop
        outcome = self._repair(start, limit, "object_budget")
        at = self._line_start(start, self.last_error_at)
        if (
            outcome is None
            and not closed
            and at > start + 1
            and not self._restarts_at(start, self.last_error_at)
        ):
            # An unclosed object whose text stops being JSON on a line of prose after its last
            # member: read as cut off there — closed when only its last `}` is missing, else
            # refused.
            outcome = self._repair(start, at, "object_budget")
        if outcome is None:
            return None
        value = decode_outcome(outcome)
        if not isinstance(value, dict) or not value:  # a repair must not invent an empty object
            return None
        return _Found(value, start, outcome.end, fence, outcome.fixes, outcome)

    def _doubled(self, start: int, stop: int, fence: int) -> _Found | None:
        """``{{"a": 1}}`` (template braces a model copied): the strict-JSON inner object when
        the outer braces hold nothing else; a restart (see :func:`restarted`), never a repair."""
        # Blanks before the last `}` trimmed in place: a slice of the text from 0 per prose
        # brace pair made `{ a } ` repeated quadratic.
        if not self.text.startswith("{", inner := first_non_blank(self.text, start + 1)):
            return None
        end = stop - 1
        while end > inner and self.text[end - 1] in " \t\r\n":
            end -= 1
        value = _loads_object(self.text[inner:end])
        return _Found(value, inner, end, fence, ()) if value else None

    def _line_start(self, start: int, at: int) -> int:
        """The start of the line holding ``at`` when it lies after ``start``'s line, else -1."""
        if at <= start:
            return -1
        line = self.text.rfind("\n", start, at) + 1
        return line if line > start else -1

    def _restarts_at(self, start: int, at: int) -> bool:
        """Whether the object at ``start`` stops being JSON at ``at`` because a new object
        starts there (a model that restarts its answer: see :func:`restarted`)."""
        return self.text.startswith("{", at) and restarted(self.text, start, at) is not None

    def _repair(self, start: int, limit: int, budget: str) -> RepairOutcome | None:
        """Repair the candidate at ``start``, charging the named budget; None on failure.

        The bracket scan reads strings as the repair pass does but knows no comments, so
        it can take a fence marker inside a ``//`` comment for a real one and cut the
        candidate there. When ``limit`` is such a marker, reading past it is tried first,
        and wins if the value then closes without truncation (backticks are never JSON
        tokens, so that happens only when the marker was inside a comment or string).
        """
        tries = (len(self.text), limit) if limit < len(self.text) else (limit,)
        for reach in tries:
            left = getattr(self, budget)
            if left <= 0:
                return None
            outcome = repair_json(self.text, start, reach, budget=left, detach_tail=True)
            setattr(self, budget, left - outcome.consumed)
            if outcome.json_text is None:
                self.last_error_at = outcome.error_at
                if (
                    budget == "object_budget"
                    and self.first_failure is None
                    and outcome.error_at >= 0
                ):
                    if (
                        outcome.bad_value
                        or self.text.find(":", start, max(outcome.error_at, start + 1)) >= 0
                    ):
                        self.first_failure, self.failed_start = outcome, start
                continue
            if reach == limit or not any(fix.code == "truncated" for fix in outcome.fixes):
                return outcome
        return None

    def _real_arrays(self) -> list[tuple[int, int]]:
        """Spans of arrays that are the reply's JSON value, merged and sorted by start.

        An outermost array counts when it starts the reply or a fence body, or when it
        holds an object; ``see [1]`` in prose never does.
        """
        result = self.result
        items = [(start, end, True) for start, end, _ in result.arrays]
        items += [(start, limit, False) for start, limit, _ in result.cut_arrays]
        if not items:
            return []
        leads = set(result.leads)
        leads.update(first_non_blank(self.text, body) for body, _ in result.fences)
        spans: list[tuple[int, int]] = []
        for start, stop, closed in sorted(items):
            lead = start in leads
            if not lead and self.text.find("{", start, stop) < 0:
                continue
            # Not leading the reply and no `:` inside: it holds no member, so at best `[{}]`,
            # read strictly — a repair per `[{]}` of prose cost 60 µs each.
            bare = not lead and self.text.find(":", start, stop) < 0
            if bare and _NOT_EMPTY_OBJECT.search(self.text, start, stop) is not None:
                continue  # a `{` not closed at once, and no member: never strict JSON
            decoded = self._decode_array(start, stop, closed, strict_only=bare)
            if decoded is not None and (lead or holds_object(decoded[0])):
                # A comma after its last closers: it was closed early and holds the rest.
                end = len(self.text) if comma_follows(self.text, decoded[1]) else decoded[1]
                spans.append((start, end))
            elif (
                decoded is None
                and not bare
                and self.text.startswith("{", first_non_blank(self.text, start + 1))
            ):
                # An array of objects that cannot be read (closers swapped, …) is still the
                # reply's value: one of its elements is never the answer (as above, a comma
                # after its last closers: it holds the rest of the text).
                spans.append((start, len(self.text) if comma_follows(self.text, stop) else stop))
        return merge_spans(spans)

    def _decode_array(
        self, start: int, stop: int, closed: bool, *, strict_only: bool = False
    ) -> tuple[list[Any], int] | None:
        text = self.text
        if closed:
            try:
                value = json.loads(text[start:stop])
            except _DECODE_ERRORS:
                value = None
            if isinstance(value, list):
                return value, stop
        if strict_only:
            return None
        outcome = self._repair(start, self._limit_after(start) if closed else stop, "array_budget")
        if outcome is None:
            return None
        value = decode_outcome(outcome)
        return (value, outcome.end) if isinstance(value, list) else None
