"""The reference repair pass: one token loop over an explicit bracket stack.

:func:`repair_json` repairs the JSON value opening at a ``{`` or ``[`` with the kinds of
:mod:`~gate_tui.parsing.repair.vocabulary` (structure here; strings, numbers and words
in :mod:`~gate_tui.parsing.repair.scalars`) and nothing else: prose, ``"key": ,`` or a
bare word in a key's place make it fail, with the offset of the first unrecoverable spot.
The pass never invents content. No recursion; the Python loop runs once per token, and
every nested value that is already valid is taken whole by the C scanner, so only broken
parts are tokenized. Linear, with a work budget from the caller; fixes are bounded by
:class:`~gate_tui.parsing.repair.fixlog.FixLog`.
"""

from __future__ import annotations

from gate_tui.parsing.repair.brackets import (
    ARR_FIRST,
    ARR_NEXT,
    ARR_VALUE,
    KEY_STATES,
    OBJ_COLON,
    OBJ_KEY,
    OBJ_NEXT,
    OBJ_VALUE,
    VALUE_STATES,
)
from gate_tui.parsing.repair.fixlog import FixLog
from gate_tui.parsing.repair.lexing import (
    TOKEN,
    TOKEN_WINDOW,
    comma_ends_string,
    end_of_content,
    follows_a_value,
)
from gate_tui.parsing.repair.members import Members
from gate_tui.parsing.repair.scalars import (
    COLON_NEXT,
    KEY_UNCLOSED,
)
from gate_tui.parsing.repair.truncation import open_paths, truncation_fix
from gate_tui.parsing.repair.vocabulary import (
    BadValue,
    Cut,
    Fail,
    Fix,
    RepairOutcome,
)
from gate_tui.parsing.repair.wrapped import unwrap


def repair_json(
    text: str, start: int, limit: int, *, budget: int | None = None, detach_tail: bool = False
) -> RepairOutcome:
    """Repair the JSON value opening at ``text[start]`` (``{`` or ``[``), reading at most to
    ``limit``.

    Stops where the value closes. If ``limit`` (or a fence marker where a token is due)
    comes first the value is treated as cut off and closed (``truncated``, with
    ``cut_at`` and ``cut_paths`` set). Gives up once more than ``budget`` characters were
    examined. Never raises; a failure has ``json_text`` None and ``error_at`` / ``error``.

    With ``detach_tail``, a string value that the end of the text leaves open and that is
    longer than :data:`LONG_TAIL` is kept out of ``json_text`` (see
    :mod:`~gate_tui.parsing.repair.tail`; measured: copying it made a 2 MB cut-off reply
    cost 3× a 1 MB one).
    """
    wrapped = unwrap(text, start, limit, repair_json)
    if wrapped is not None:
        return wrapped
    repairer = _Repairer(text, start, limit, budget, detach_tail)
    try:
        return repairer.run()
    except BadValue as exc:
        return repairer.failed(exc.args[0], exc.args[1], bad_value=True)
    except Fail as exc:
        at = exc.args[0] if exc.args else repairer.pos
        return repairer.failed(at, exc.args[1] if len(exc.args) > 1 else "")
    except (RecursionError, MemoryError, ValueError, IndexError):
        return repairer.failed(repairer.pos, "")




class _Repairer(Members):
    """One repair attempt: a token loop over an explicit bracket stack (no recursion)."""

    def __init__(
        self, text: str, start: int, limit: int, budget: int | None, detach_tail: bool = False
    ) -> None:
        self.text = text
        self.start = start
        self.limit = min(limit, len(text))
        self.stop = self.limit if budget is None else min(self.limit, start + max(budget, 0))
        self.pos = start
        self.out: list[str] = []
        self.log = FixLog()
        self.rows: dict[int, tuple[int, int]] = {}  # see Brackets._forgotten_row
        self.parens: list[tuple[int, int]] = []  # per open "(": its "[" in out, its fix in the log
        self.kinds: list[str] = []  # "{", "[" or "(" (a tuple, closed as an array)
        self.states: list[int] = []
        self.marks: list[int] = []  # out index where the current member (with its comma) begins
        self.commas: list[int] = []  # text offset of the last comma of each open bracket
        # Valid nested values are consumed whole by the C scanner (see _whole_value). It reads
        # a slice of the candidate, never the whole text: its errors count lines from index 0.
        self.segment = ""
        self.scan_budget = 16 * (self.limit - start) + 16_384
        self.failed_at = -1  # where the last failed whole-value scan stopped (see _whole_value)
        self.closed_string = False  # the text ended inside a string value, which was closed
        self.detach_tail = detach_tail  # see repair_json
        self.tail: str | None = None
        self.dropped = ""  # what the cut left incomplete, for the truncation message
        self.cut_limit = self.limit  # where the text (or a fence marker) cut the value
        self.bulk_tried = False  # see _bulk

    def failed(self, at: int, error: str, *, bad_value: bool = False) -> RepairOutcome:
        consumed = max(self.pos, at) - self.start
        return RepairOutcome(None, at, (), consumed, error_at=at, error=error, bad_value=bad_value)

    def run(self) -> RepairOutcome:
        """The token loop; strings and punctuation inline (the cost of every repair), the rest in
        :meth:`_other`."""
        text, limit, stop = self.text, self.limit, self.stop
        if self.start >= limit or text[self.start] not in "{[":
            raise Fail(self.start)
        out, states, marks, commas = self.out, self.states, self.marks, self.commas
        self._open(text[self.start])
        pos = self.start + 1
        match = TOKEN.match
        try:
            while True:
                window = pos + TOKEN_WINDOW
                token = match(text, pos, window if window < limit else limit)
                kind = token.lastindex
                if kind is None:  # only blanks up to where the match could read
                    if window < limit:
                        pos = window
                        continue
                    self.pos = limit
                    raise Cut  # only blanks left before the limit
                pos = self.pos = token.start(kind)
                if pos > stop:
                    raise Fail(pos, "too much to repair")
                state = states[-1]
                if state == OBJ_NEXT or state == ARR_NEXT:
                    if kind != 3 or text[pos] not in ",}])":
                        if kind == 7 or (kind == 8 and text[pos] in ")`\\"):
                            self._other(kind, state)
                            pos = self.pos
                            continue
                        state = self._missing_comma(state, kind)
                if kind <= 2:  # a complete string on one line: a key or a value
                    end = token.end()
                    odd = end < limit and (
                        text[end] not in ",:}]"
                        or (text[end] == "," and not comma_ends_string(text, end, limit))
                    )
                    if odd and state > OBJ_KEY and not follows_a_value(text, end, limit):
                        self._other(4, state)  # an inner quote: read it the slow way
                        pos = self.pos
                        continue
                    colon = end < limit and (text[end] == ":" or COLON_NEXT.match(text, end, limit))
                    if (
                        state <= OBJ_KEY
                        and kind == 1
                        and not colon
                        and KEY_UNCLOSED.match(text, pos, end)
                    ):
                        self._other(4, state)  # `"key:"value"`: the key's closing quote is missing
                        pos = self.pos
                        continue
                    piece = token.group(kind)
                    if kind == 2:
                        piece = self._single_quoted(pos, end)
                    if state <= OBJ_KEY:
                        state = OBJ_COLON
                    elif state == OBJ_VALUE:
                        state = OBJ_NEXT
                    elif state == ARR_FIRST or state == ARR_VALUE:
                        state = ARR_NEXT
                    else:
                        raise Fail(pos)
                    out.append(piece)
                    pos = end
                    # The `:` after a key or the `,` after a value, when it follows at once
                    # (as it nearly always does), is taken here as its own token would be:
                    # one turn of the loop instead of two per key and per value.
                    if end < limit and end <= stop:
                        c = text[end]
                        if c == ":" and state == OBJ_COLON:
                            out.append(":")
                            state = OBJ_VALUE
                            pos = end + 1
                        elif c == "," and state != OBJ_COLON:
                            state = OBJ_KEY if state == OBJ_NEXT else ARR_VALUE
                            marks[-1] = len(out)
                            commas[-1] = end
                            out.append(",")
                            pos = end + 1
                    states[-1] = state
                elif kind == 3:
                    c = text[pos]
                    if c == ",":
                        if state == OBJ_NEXT:
                            states[-1] = OBJ_KEY
                        elif state == ARR_NEXT:
                            states[-1] = ARR_VALUE
                        else:
                            raise Fail(pos)  # `[,` `{"a":,` `[1,,2]`: never invent a value
                        marks[-1] = len(out)
                        commas[-1] = pos
                        out.append(",")
                    elif c == ":":
                        if state != OBJ_COLON:
                            raise Fail(pos)
                        out.append(":")
                        states[-1] = OBJ_VALUE
                    elif c == "}" or c == "]":
                        if self._close(c, state):
                            return self._outcome(pos + 1)
                        if (
                            self.log.crowded
                            and not self.bulk_tried
                            and (done := self._bulk(pos + 1))
                        ):
                            return done
                    elif state in VALUE_STATES:
                        if self.scan_budget > 0 and self._whole_value(pos):
                            pos = self.pos
                            if (
                                pos < limit and pos <= stop and text[pos] == ","
                            ):  # its comma, as above
                                states[-1] = OBJ_KEY if states[-1] == OBJ_NEXT else ARR_VALUE
                                marks[-1] = len(out)
                                commas[-1] = pos
                                out.append(",")
                                pos += 1
                            continue
                        self._open(c)
                    else:
                        raise Fail(pos)
                    pos += 1
                else:
                    if self._other(kind, state):
                        return self._outcome(self.pos)
                    pos = self.pos
                    if self.log.crowded and not self.bulk_tried and (done := self._bulk(pos)):
                        return done
        except Cut:
            return self._truncate()

    def _outcome(self, end: int, *, cut_at: int = -1, paths: tuple[str, ...] = ()) -> RepairOutcome:
        out, log = "".join(self.out), self.log
        return RepairOutcome(
            out,
            end,
            log.fixes(),
            end - self.start,
            self.tail,
            cut_at=cut_at,
            cut_paths=paths,
            first_guess=log.first_guess,
        )

    def _other(self, kind: int, state: int) -> bool:
        """The rarer tokens (quotes, numbers, words, comments, tuples, fences); True when the value
        closed."""
        c = self.text[self.pos]
        if kind == 7:
            self.comment()
        elif kind == 8:
            if c == "`" and self.text.startswith("```", self.pos):
                self.cut_limit = self.pos  # a fence marker where a token is due: the value is cut
                raise Cut
            if c == "(" and state in VALUE_STATES:
                self.log.add(Fix("tuple", "a Python tuple ( … ) → an array [ … ]", self.pos))
                self.parens.append((len(self.out), len(self.log.kept) - 1))  # see Brackets._pop
                self._open("(")
                self.pos += 1
            elif c == ")":
                self.pos += 1
                return self._close(")", state)
            elif c == "." and state in VALUE_STATES:
                self._value(c)
            elif c == "\\" and self.text.startswith(("\\n", "\\t", "\\r"), self.pos):
                # `"view_range": \n[1, 2]`: an escaped line break written between tokens
                self.log.add(
                    Fix(
                        "literal_escape",
                        "a literal \\n, \\t or \\r between tokens read as a blank",
                        self.pos,
                    )
                )
                self.pos += 2
            else:
                raise Fail(self.pos)
        elif state in KEY_STATES:
            self._key(c)
        elif state in VALUE_STATES:
            self._value(c)
        else:
            raise Fail(self.pos)
        return False

    def _truncate(self) -> RepairOutcome:
        """Close a value the text cut off: drop what is incomplete, close brackets in order."""
        if not self.kinds:
            raise Fail(self.pos)
        paths = open_paths(self.out, self.kinds, self.marks)
        state = self.states[-1]
        dropped = self.dropped
        if not dropped and state in (OBJ_COLON, OBJ_VALUE):
            dropped = "a key with no value"
        elif not dropped and state in (OBJ_KEY, ARR_VALUE):
            dropped = "a trailing comma"
        if state in (OBJ_KEY, OBJ_COLON, OBJ_VALUE, ARR_VALUE):
            del self.out[self.marks[-1] :]  # back to before this member's comma (or the bracket)
        self.out.extend("}" if kind == "{" else "]" for kind in reversed(self.kinds))
        cut_at = end_of_content(self.text, self.start, self.cut_limit)
        self.log.add(truncation_fix(self.kinds, self.closed_string, dropped, cut_at))
        # Only `}` missing, right after a complete member (a fully written state without its
        # last braces): nothing of the answer was lost, so the caller need not refuse it (the
        # `truncated` record still says what was closed). A text ending inside an array
        # (`["db"` — a list is where more usually follows), or right after an opener, a
        # comma, a colon or a key, was cut off: refused by default.
        lost = self.closed_string or bool(dropped)
        if not lost and ("[" in self.kinds or "(" in self.kinds or self.states[-1] != OBJ_NEXT):
            lost = True
            paths = paths[
                : len(self.kinds) - 1
            ]  # the innermost open container, not its complete member
        return self._outcome(cut_at, cut_at=cut_at if lost else -1, paths=paths)
