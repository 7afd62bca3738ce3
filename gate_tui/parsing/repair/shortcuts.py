"""The repair pass's shortcuts around its Python token loop: C-speed work where it is safe.

* :meth:`Shortcuts._whole_value` — a nested value that is valid JSON already is taken
  whole by the C scanner (most of a repaired reply is valid);
* :meth:`Shortcuts._bulk` — past the listed fixes, the rest of a hostile reply is
  finished by one regex pass (:mod:`~gate_tui.parsing.repair.bulk`).

A mixin of the tokenizer's repairer: the methods read and update its state.
"""

from __future__ import annotations

import json
from typing import Any

from gate_tui.parsing.repair.bulk import bulk_finish
from gate_tui.parsing.repair.closers import row_may_end
from gate_tui.parsing.repair.fixlog import FixLog
from gate_tui.parsing.repair.lexing import SCAN_ONCE
from gate_tui.parsing.repair.vocabulary import RepairOutcome


class Shortcuts:
    """What the tokenizer's repairer gives its shortcuts (set in its ``__init__``)."""

    text: str
    start: int
    limit: int
    pos: int
    out: list[str]
    kinds: list[str]
    rows: dict[int, tuple[int, int]]
    log: FixLog
    segment: str
    scan_budget: int
    failed_at: int
    tail: str | None
    bulk_tried: bool

    def _value_done(self) -> Any:
        raise NotImplementedError

    def _whole_value(self, pos: int) -> bool:
        """Let the C scanner take the valid container at ``pos`` in one call (what keeps repairs
        cheap); a failed attempt is charged to ``scan_budget`` (linear)."""
        failed = self.failed_at
        if pos < failed:
            # The last failed scan read the text valid up to `failed` and stopped there. A
            # container opening before that spot either closes before it (a `}` or `]` in
            # between) or reaches it and fails the same way: with no closer in between, the
            # scan (and the exception it costs) is skipped. A cut-off reply has one such
            # container per open level; the find is charged like a scan (linear).
            text = self.text
            self.scan_budget -= failed - pos
            if text.find("}", pos, failed) < 0 and text.find("]", pos, failed) < 0:
                return False
        if not self.segment:
            self.segment = self.text[self.start : self.limit]
        try:
            _, end = SCAN_ONCE(self.segment, pos - self.start)
        except json.JSONDecodeError as error:
            self.scan_budget -= 2 * error.pos
            self.failed_at = self.start + error.pos
            return False
        except (StopIteration, ValueError, RecursionError, MemoryError):
            self.scan_budget -= 2 * (pos - self.start) + 64
            return False
        end += self.start
        if self.text[pos] == "[":
            kinds = self.kinds
            if kinds[-1] == "{" and row_may_end(self.text, end, self.limit, kinds, len(kinds) - 1):
                # `[[1, 2], 3], [4]]` in an object: a row's `[` forgotten (Brackets._forgotten_row)
                return False
            if kinds[-1] == "[":
                self.rows[len(kinds)] = (end, len(self.out) + 1)
        self.out.append(self.text[pos:end])
        self._value_done()
        self.pos = end
        return True

    def _bulk(self, rest: int) -> RepairOutcome | None:
        """Past the listed fixes, finish in one regex pass if that completes the value (see
        bulk)."""
        if self.text[rest : rest + 64].lstrip(" \t\r\n").startswith(":"):
            return None  # between a key and its colon: try again after the value
        self.bulk_tried = True
        head = "".join(self.out)
        found = bulk_finish(
            self.text, head, rest, self.limit, set(self.log.overflow) | set(self.log.runs)
        )
        if found is None:
            found = bulk_finish(self.text, head, rest, self.limit)
        if found is None:
            return None
        json_text, end = found[0], found[1]
        self.log.count_more(found[2], found[3])
        fixes, guess = self.log.fixes(), self.log.first_guess
        return RepairOutcome(
            json_text,
            end,
            fixes,
            end - self.start,
            self.tail,
            first_guess=guess,
            decoded=(found[4],),
        )
