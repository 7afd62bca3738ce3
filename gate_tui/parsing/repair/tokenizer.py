"""The reference repair pass: one token loop over an explicit bracket stack.

:func:`repair_json` repairs the JSON value opening at a ``{`` or ``[`` with the kinds of
:mod:`~gate_tui.parsing.repair.vocabulary`, and nothing else: anything else (a bare word
used as a value, a missing comma, a raw line break inside a string, prose) makes the
repair fail — the pass never invents content. No recursion; strings, numbers and blanks
are read by :mod:`~gate_tui.parsing.repair.lexing`, the Python loop runs once per token,
and every nested value that is already valid is taken whole by the C scanner, so only
broken parts are tokenized. Linear, with a work budget from the caller. It is the pass
that decides whenever the quick path (:mod:`~gate_tui.parsing.repair.quick`) is unsure.
"""

from __future__ import annotations

import json

from gate_tui.limits import MAX_DEPTH
from gate_tui.parsing.repair.lexing import (
    BARE_KEY,
    BLANK,
    JSON_NUMBER,
    LONG_TAIL,
    NUMBER,
    QUOTES,
    REQUOTE,
    SCAN_ONCE,
    SCAN_STRING,
    TAIL_PLACEHOLDER,
    TOKEN,
    TOKEN_WINDOW,
    WORD,
    end_of_content,
    read_quoted,
    requote,
)
from gate_tui.parsing.repair.vocabulary import (
    LITERALS,
    PYTHON_LITERALS,
    SINGLE_QUOTES_MESSAGE,
    Cut,
    Fail,
    Fix,
    RepairOutcome,
    comment,
    python_literal,
    trailing_comma,
    unquoted_key,
)

# Tokenizer states: what the innermost open bracket expects next.
_OBJ_FIRST, _OBJ_KEY, _OBJ_COLON, _OBJ_VALUE, _OBJ_NEXT = range(5)
_ARR_FIRST, _ARR_VALUE, _ARR_NEXT = range(5, 8)
_KEY_STATES = (_OBJ_FIRST, _OBJ_KEY)
_VALUE_STATES = (_OBJ_VALUE, _ARR_FIRST, _ARR_VALUE)
_CLOSABLE = (_OBJ_FIRST, _OBJ_NEXT, _ARR_FIRST, _ARR_NEXT)


def repair_json(
    text: str, start: int, limit: int, *, budget: int | None = None, detach_tail: bool = False
) -> RepairOutcome:
    """Repair the JSON value opening at ``text[start]`` (``{`` or ``[``), reading at most to ``limit``.

    Stops where the value closes. If ``limit`` comes first the value is treated as cut
    off and closed (``truncated``). Gives up once more than ``budget`` characters were
    examined. Never raises.

    With ``detach_tail``, a string value that the end of the text leaves open and that is
    longer than :data:`LONG_TAIL` is kept out of ``json_text`` (see
    :mod:`~gate_tui.parsing.repair.tail`; measured: copying it made a 2 MB cut-off reply
    cost 3× a 1 MB one).
    """
    repairer = _Repairer(text, start, limit, budget, detach_tail)
    try:
        return repairer.run()
    except (Fail, RecursionError, MemoryError, ValueError, IndexError):
        return RepairOutcome(None, repairer.pos, (), repairer.pos - start)


class _Repairer:
    """One repair attempt: a token loop over an explicit bracket stack (no recursion)."""

    def __init__(self, text: str, start: int, limit: int, budget: int | None, detach_tail: bool = False) -> None:
        self.text = text
        self.start = start
        self.limit = min(limit, len(text))
        self.stop = self.limit if budget is None else min(self.limit, start + max(budget, 0))
        self.pos = start
        self.out: list[str] = []
        self.fixes: list[Fix] = []
        self.kinds: list[str] = []
        self.states: list[int] = []
        self.marks: list[int] = []  # out index where the current member (with its comma) begins
        self.commas: list[int] = []  # text offset of the last comma of each open bracket
        # Valid nested values are consumed whole by the C scanner (see _whole_value). It reads
        # a slice of the candidate, never the whole text: its errors count lines from index 0.
        self.segment = ""
        self.scan_budget = 16 * (self.limit - start) + 16_384
        self.closed_string = False  # the text ended inside a string value, which was closed
        self.detach_tail = detach_tail  # see repair_json
        self.tail: str | None = None
        self.dropped = ""  # what the cut left incomplete, for the truncation message

    def run(self) -> RepairOutcome:
        """The token loop. Long on purpose: strings and punctuation — nearly every token —
        are handled inline, without a method call, because this loop is the cost of every
        repaired reply. Rarer tokens go to :meth:`_other`."""
        text, limit, stop = self.text, self.limit, self.stop
        if self.start >= limit or text[self.start] not in "{[":
            raise Fail
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
                    raise Fail  # over budget
                state = states[-1]
                if kind <= 2:  # a complete string: a key or a value
                    piece = token.group(kind)
                    if kind == 2:
                        piece = self._single_quoted(piece, pos)
                    if state <= _OBJ_KEY:
                        states[-1] = _OBJ_COLON
                    elif state == _OBJ_VALUE:
                        states[-1] = _OBJ_NEXT
                    elif state == _ARR_FIRST or state == _ARR_VALUE:
                        states[-1] = _ARR_NEXT
                    else:
                        raise Fail
                    out.append(piece)
                    pos = token.end()
                elif kind == 3:
                    c = text[pos]
                    if c == ",":
                        if state == _OBJ_NEXT:
                            states[-1] = _OBJ_KEY
                        elif state == _ARR_NEXT:
                            states[-1] = _ARR_VALUE
                        else:
                            raise Fail  # `[,` `{"a":,` `[1,,2]`: not a repair we make
                        marks[-1] = len(out)
                        commas[-1] = pos
                        out.append(",")
                    elif c == ":":
                        if state != _OBJ_COLON:
                            raise Fail
                        out.append(":")
                        states[-1] = _OBJ_VALUE
                    elif c == "}" or c == "]":
                        if self._close(c, state):
                            return self._outcome(pos + 1)
                    elif state in _VALUE_STATES:
                        if self.scan_budget > 0 and self._whole_value(pos):
                            pos = self.pos
                            continue
                        self._open(c)
                    else:
                        raise Fail
                    pos += 1
                else:
                    self._other(kind, state)
                    pos = self.pos
        except Cut:
            return self._truncate()

    def _outcome(self, end: int) -> RepairOutcome:
        return RepairOutcome("".join(self.out), end, tuple(self.fixes), end - self.start, self.tail)

    def _whole_value(self, pos: int) -> bool:
        """Let the C scanner take the container at ``pos`` if it is valid JSON already.

        Most of a repaired reply is valid; taking each valid nested value in one C call
        instead of token by token is what keeps repairs cheap. A failed attempt costs its
        scanning plus the decoder's line count, both charged to ``scan_budget`` (linear).
        """
        if not self.segment:
            self.segment = self.text[self.start : self.limit]
        try:
            _, end = SCAN_ONCE(self.segment, pos - self.start)
        except json.JSONDecodeError as error:
            self.scan_budget -= 2 * error.pos
            return False
        except (StopIteration, ValueError, RecursionError, MemoryError):
            self.scan_budget -= 2 * (pos - self.start) + 64
            return False
        end += self.start
        self.out.append(self.text[pos:end])
        self._value_done()
        self.pos = end
        return True

    def _single_quoted(self, piece: str, pos: int) -> str:
        content = piece[1:-1]
        if '"' in content or "\\" in content:
            content = REQUOTE.sub(requote, content)
        self.fixes.append(Fix("single_quotes", SINGLE_QUOTES_MESSAGE, pos))
        return '"' + content + '"'

    def _other(self, kind: int, state: int) -> None:
        """The rarer tokens: other quotes, numbers, words, comments; anything else fails."""
        if kind == 7:
            self.comment()
        elif kind == 8:
            raise Fail
        elif state in _KEY_STATES:
            self._key(self.text[self.pos])
        elif state in _VALUE_STATES:
            self._value(self.text[self.pos])
        else:
            raise Fail

    def _open(self, c: str) -> None:
        if len(self.kinds) >= MAX_DEPTH:
            raise Fail
        self.out.append(c)
        self.kinds.append(c)
        self.states.append(_OBJ_FIRST if c == "{" else _ARR_FIRST)
        self.marks.append(len(self.out))
        self.commas.append(-1)

    def _close(self, c: str, state: int) -> bool:
        if (c == "}") != (self.kinds[-1] == "{"):
            raise Fail
        if state == _OBJ_KEY or state == _ARR_VALUE:
            self.out[self.marks[-1]] = ""
            self.fixes.append(trailing_comma(c, self.commas[-1]))
        elif state not in _CLOSABLE:
            raise Fail  # `{"a": }` or `{"a" }`
        self.out.append(c)
        self.kinds.pop()
        self.states.pop()
        self.marks.pop()
        self.commas.pop()
        if not self.kinds:
            return True
        self._value_done()
        return False

    def _value_done(self) -> None:
        self.states[-1] = _OBJ_NEXT if self.kinds[-1] == "{" else _ARR_NEXT

    def comment(self) -> None:
        text, pos = self.text, self.pos
        nxt = text[pos + 1 : pos + 2]
        if nxt == "/":
            end = text.find("\n", pos, self.limit)
            self.pos = self.limit if end < 0 else end + 1
            kind = "//"
        elif nxt == "*":
            end = text.find("*/", pos + 2, self.limit)
            self.pos = self.limit if end < 0 else end + 2
            kind = "/* */"
        elif pos + 1 >= self.limit:
            raise Cut
        else:
            raise Fail
        self.fixes.append(comment(kind, pos))

    def _key(self, c: str) -> None:
        if c in QUOTES:
            token, cut, fix = self._string(c)
            if cut:
                self.dropped = "a dangling key"
                raise Cut
        else:
            word = BARE_KEY.match(self.text, self.pos, self.limit)
            if word is None:
                raise Fail
            after = BLANK.match(self.text, word.end(), self.limit).end()
            if after >= self.limit:
                self.dropped = "a dangling key"
                raise Cut
            if self.text[after] != ":":
                raise Fail  # a bare word is a key only when a colon follows it
            token = '"' + word.group() + '"'
            fix = unquoted_key(word.group(), self.pos)
            self.pos = word.end()
        if fix is not None:
            self.fixes.append(fix)
        self.out.append(token)
        self.states[-1] = _OBJ_COLON

    def _value(self, c: str) -> None:
        if c == '"' and self.detach_tail and self.limit - self.pos > LONG_TAIL and self._detach_tail():
            return
        if c in QUOTES:
            token, cut, fix = self._string(c)
            if fix is not None:
                self.fixes.append(fix)
            self.closed_string = cut
        elif c == "-" or "0" <= c <= "9":
            token = self._number()
        elif c.isalpha() or c == "_" or c == "$":
            token = self._literal()
        else:
            raise Fail
        self.out.append(token)
        self._value_done()

    def _detach_tail(self) -> bool:
        """Take the string at ``pos`` as the outcome's tail if it runs to the end unescaped.

        Its value is then its text as it is. Anything else goes read_quoted's ordinary way.
        """
        text, start = self.text, self.pos + 1
        if self.limit < len(text) or text.find('"', start) >= 0:
            return False  # cut before the end of the text (a fence), or the string closes
        if text.find("\\", start) >= 0:
            return False  # escapes to decode
        try:
            SCAN_STRING(text, start, True)  # the C scanner's strict check, as json.loads does
        except json.JSONDecodeError as error:
            if not error.msg.startswith("Unterminated string"):
                return False  # a control character, which strict decoding refuses
        else:
            return False  # (it has no closing quote: the scanner always raises)
        self.tail = text[start:]
        self.out.append(TAIL_PLACEHOLDER)
        self.closed_string = True
        self._value_done()
        self.pos = self.limit
        return True

    def _string(self, quote: str) -> tuple[str, bool, Fix | None]:
        token, end, cut, fix = read_quoted(self.text, self.pos, self.limit)
        self.pos = end
        return token, cut, fix

    def _number(self) -> str:
        found = NUMBER.match(self.text, self.pos, self.limit)
        if found is None:
            if self.pos + 1 >= self.limit:
                self.dropped = "an incomplete value"
                raise Cut  # a lone '-' at the very end
            raise Fail
        token = found.group()
        if JSON_NUMBER.fullmatch(token) is None:
            if found.end() >= self.limit:
                self.dropped = "an incomplete value"
                raise Cut  # `1.` or `2e` cut off: drop it rather than guess digits
            raise Fail
        self.pos = found.end()
        return token

    def _literal(self) -> str:
        found = WORD.match(self.text, self.pos, self.limit)
        if found is None:
            raise Fail
        word = found.group()
        if word in LITERALS:
            token = LITERALS[word]
        elif word in PYTHON_LITERALS:
            token = PYTHON_LITERALS[word]
            self.fixes.append(python_literal(word, self.pos))
        elif found.end() >= self.limit:
            self.dropped = "an incomplete value"
            raise Cut  # `tr` at the very end: a literal cut off mid-word
        else:
            raise Fail  # a bare word as a value is prose, not JSON
        self.pos = found.end()
        return token

    def _truncate(self) -> RepairOutcome:
        """Close a value the text cut off: drop what is incomplete, close brackets in order."""
        if not self.kinds:
            raise Fail
        notes: list[str] = []
        if self.closed_string:
            notes.append("closed an open string")
        state = self.states[-1]
        if self.dropped:
            notes.append("dropped " + self.dropped)
        elif state in (_OBJ_COLON, _OBJ_VALUE):
            notes.append("dropped a key with no value")
        elif state in (_OBJ_KEY, _ARR_VALUE):
            notes.append("dropped a trailing comma")
        if state in (_OBJ_KEY, _OBJ_COLON, _OBJ_VALUE, _ARR_VALUE):
            del self.out[self.marks[-1] :]  # back to before this member's comma (or the bracket)
        opened_objects = self.kinds.count("{")
        opened_arrays = len(self.kinds) - opened_objects
        closed = [f"{count} '{kind}'" for count, kind in ((opened_arrays, "["), (opened_objects, "{")) if count]
        notes.append("closed " + " and ".join(closed))
        self.out.extend("}" if kind == "{" else "]" for kind in reversed(self.kinds))
        cut_at = end_of_content(self.text, self.start, self.limit)
        self.fixes.append(Fix("truncated", "the JSON is cut off: " + ", ".join(notes), cut_at))
        return self._outcome(cut_at)


