"""The repair pass's bracket stack: what each open bracket expects, opening and closing.

The rules that change the structure: a member where a ``,`` was due (``missing_comma``),
a closer for a bracket further down (``missing_closer``) or of the wrong kind
(``mismatched_closer``), a row of a list of lists whose ``[`` was forgotten
(``missing_opener``), a trailing comma dropped when its bracket closes. A mixin of the
tokenizer's repairer (:mod:`~gate_tui.parsing.repair.tokenizer`), which holds the stacks.
"""

from __future__ import annotations

from gate_tui.limits import MAX_DEPTH
from gate_tui.parsing.repair.closers import goes_on, mistyped_closer, row_may_end
from gate_tui.parsing.repair.lexing import BARE_KEY, BLANK
from gate_tui.parsing.repair.shortcuts import Shortcuts
from gate_tui.parsing.repair.vocabulary import Fail, Fix, trailing_comma

# Tokenizer states: what the innermost open bracket expects next.
OBJ_FIRST, OBJ_KEY, OBJ_COLON, OBJ_VALUE, OBJ_NEXT = range(5)
ARR_FIRST, ARR_VALUE, ARR_NEXT = range(5, 8)
KEY_STATES = (OBJ_FIRST, OBJ_KEY)
VALUE_STATES = (OBJ_VALUE, ARR_FIRST, ARR_VALUE)
CLOSABLE = (OBJ_FIRST, OBJ_NEXT, ARR_FIRST, ARR_NEXT)

_OPENER_OF = {"}": "{", "]": "[", ")": "("}
_CLOSER_OF = {"{": "}", "[": "]", "(": ")"}


class Brackets(Shortcuts):
    """The bracket stack of the tokenizer's repairer (set in its ``__init__``)."""

    kinds: list[str]
    states: list[int]
    marks: list[int]
    commas: list[int]
    parens: list[tuple[int, int]]
    rows: dict[
        int, tuple[int, int]
    ]  # per list depth: its last array element's end (text) and len(out) then

    def _missing_comma(self, state: int, kind: int) -> int:
        """A member where a ``,`` was due: insert the comma, if the token can start a member."""
        c = self.text[self.pos]
        if state == OBJ_NEXT:
            if kind not in (1, 2, 4, 6):
                raise Fail(self.pos)
            if kind == 6 and BARE_KEY.match(self.text, self.pos, self.limit) is None:
                raise Fail(self.pos)
            new = OBJ_KEY
        elif kind in (1, 2, 4, 5, 6) or (kind == 3 and c in "{[") or (kind == 8 and c in "(."):
            new = ARR_VALUE
        else:
            raise Fail(self.pos)
        self.states[-1] = new
        self.marks[-1] = len(self.out)
        self.commas[-1] = self.pos
        self.out.append(",")
        self.log.add(Fix("missing_comma", "added a missing comma between two members", self.pos))
        return new

    def _open(self, c: str) -> None:
        if len(self.kinds) >= MAX_DEPTH:
            raise Fail(self.pos, f"nested deeper than {MAX_DEPTH} levels")
        self.out.append("[" if c == "(" else c)
        self.kinds.append(c)
        self.states.append(OBJ_FIRST if c == "{" else ARR_FIRST)
        self.marks.append(len(self.out))
        self.commas.append(-1)

    def _close(self, c: str, state: int) -> bool:
        """Close the innermost bracket with ``c`` (True: it was the outermost); a closer for a
        bracket further down closes those above first (``missing_closer``), else it stands for the
        due one."""
        kinds, at = self.kinds, self.pos
        want = _OPENER_OF[c]
        if (
            c == "]"
            and state == ARR_NEXT
            and kinds[-1] == "["
            and len(kinds) > 1
            and kinds[-2] == "{"
            and row_may_end(self.text, at + 1, self.limit, kinds, len(kinds) - 2)
            and self._forgotten_row()
        ):
            return False
        if kinds[-1] != want and not (want == "[" and kinds[-1] == "("):
            if (want in kinds or (want == "[" and "(" in kinds)) and not mistyped_closer(
                self.text, at + 1, self.limit, kinds, want
            ):
                while kinds[-1] != want and not (want == "[" and kinds[-1] == "("):
                    due = _CLOSER_OF[kinds[-1]]
                    self.log.add(
                        Fix("missing_closer", f"closed a '{kinds[-1]}' left open before '{c}'", at)
                    )
                    self._pop(due, self.states[-1])
                    self._value_done()
                state = self.states[-1]
            else:
                due = _CLOSER_OF[kinds[-1]]
                if (
                    want not in kinds
                    and not (want == "[" and "(" in kinds)
                    and not goes_on(self.text, at + 1, self.limit, kinds, len(kinds) - 1)
                    and goes_on(self.text, at + 1, self.limit, kinds, len(kinds), members=True)
                ):
                    # `{"a": [1, 2]], "b": 3}`, `{"a": {"b": 1]}, "c": 2}`: read as a mistyped `}`,
                    # the value would end early and drop what follows, which reads on as its own
                    # with this closer left out: a closer too many, refused (never a guess).
                    raise Fail(
                        at, f"a stray '{c}' where '{due}' was due, with more of the value after it"
                    )
                self.log.add(Fix("mismatched_closer", f"'{c}' where '{due}' was due → '{due}'", at))
        closed = kinds[-1]
        if self._pop(_CLOSER_OF[closed], state):
            return True
        if closed == "[" and kinds[-1] == "[":
            self.rows[len(kinds)] = (at + 1, len(self.out))
        self._value_done()
        return False

    def _forgotten_row(self) -> bool:
        """The ``]`` due now closed a row whose ``[`` was forgotten (see :func:`next_row_ahead`):
        open that row right after the previous row's ``],`` — only when that row is an array
        element of this list, followed by its comma and nothing but scalars (a guess,
        ``missing_opener``). Walks back over this row's pieces once: linear."""
        out = self.out
        row = self.rows.get(len(self.kinds))
        if row is None:
            return False
        end, length = row
        i = len(out) - 1
        while i >= length:
            piece = out[i]
            if piece and (piece[0] in "[{" or piece[-1] in "]}"):
                return False  # a container after the row before: not a row of scalars
            i -= 1
        if i < 0 or length >= len(out) - 1 or out[length] != "," or not out[i].endswith("]"):
            return False
        comma = BLANK.match(self.text, end, self.limit).end()
        if comma >= self.limit or self.text[comma] != ",":
            return False
        first = BLANK.match(self.text, comma + 1, self.limit).end()
        out[length] = ",["
        out.append("]")
        self.rows[len(self.kinds)] = (self.pos + 1, len(out))
        self.log.add(
            Fix("missing_opener", "a row's '[' was missing: opened after the row before", first)
        )
        return True

    def _pop(self, closer: str, state: int) -> bool:
        if state == OBJ_KEY or state == ARR_VALUE:
            self.out[self.marks[-1]] = ""
            self.log.add(trailing_comma(closer, self.commas[-1]))
        elif state not in CLOSABLE:
            raise Fail(self.pos)  # `{"a": }` or `{"a" }`
        if closer == ")":
            self._close_paren(state)
        else:
            self.out.append(closer)
        self.kinds.pop()
        self.states.pop()
        self.marks.pop()
        self.commas.pop()
        return not self.kinds

    def _close_paren(self, state: int) -> None:
        """``( … )``: a tuple is an array, but one value with no comma (``(1)``, ``("x")``)
        is that value in parentheses, as in Python — only ``(1,)`` is a one-element tuple."""
        bracket, logged = self.parens.pop()
        if state == ARR_NEXT and self.commas[-1] < 0:
            self.out[bracket] = ""
            self.out.append("")
            kept = self.log.kept
            if 0 <= logged < len(kept) and kept[logged].code == "tuple":
                kept[logged] = Fix(
                    "tuple", "parentheses around one value ( … ) → the value", kept[logged].offset
                )
        else:
            self.out.append("]")

    def _value_done(self) -> None:
        if self.kinds:
            self.states[-1] = OBJ_NEXT if self.kinds[-1] == "{" else ARR_NEXT
