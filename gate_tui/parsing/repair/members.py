"""The tokens of an object member or an array element, for the token loop of
:mod:`~gate_tui.parsing.repair.tokenizer`: a key (quoted, single-quoted, bare, missing one
of its quotes), a value (a string, a number, a word, a long cut-off string kept as the
tail) and a comment between them. The loop's state (``text``, ``pos``, ``out``, ``log``
and the bracket stack of :class:`~gate_tui.parsing.repair.brackets.Brackets`) is the
repairer's own: this is the part of its class that reads one token.
"""

from __future__ import annotations

from gate_tui.parsing.repair.brackets import OBJ_COLON, OBJ_VALUE, Brackets
from gate_tui.parsing.repair.lexing import BARE_KEY, BLANK, LONG_TAIL, TAIL_PLACEHOLDER
from gate_tui.parsing.repair.scalars import (
    COLON_NEXT,
    encode,
    read_number,
    read_string,
    read_word,
    skip_comment,
    unclosed_key,
)
from gate_tui.parsing.repair.tail import detachable_tail
from gate_tui.parsing.repair.vocabulary import (
    SINGLE_QUOTES_MESSAGE,
    Cut,
    Fail,
    Fix,
    comment,
    unquoted_key,
)

QUOTES = frozenset("\"'\u201c\u201d\u2018\u2019")
"""The quotes a string may open with (straight, single, curly)."""


class Members(Brackets):
    """Reads the token at ``pos`` in a key's or a value's place (see the module's text)."""

    text: str
    pos: int
    limit: int
    out: list[str]
    dropped: str
    closed_string: bool
    detach_tail: bool
    tail: str | None

    def _single_quoted(self, pos: int, end: int) -> str:
        self.log.add(Fix("single_quotes", SINGLE_QUOTES_MESSAGE, pos))
        return encode(self.text, pos + 1, end - 1, "'", self.log)

    def comment(self) -> None:
        end, kind = skip_comment(self.text, self.pos, self.limit)
        self.log.add(comment(kind, self.pos))
        self.pos = end

    def _key(self, c: str) -> None:
        if c in QUOTES:
            if c == '"' and self._key_missing_closing_quote():
                return
            token, self.pos, cut = read_string(self.text, self.pos, self.limit, self.log, key=True)
            if cut:
                self.dropped = "a dangling key"
                raise Cut
        else:
            word = BARE_KEY.match(self.text, self.pos, self.limit)
            if word is None:
                raise Fail(self.pos)
            after = BLANK.match(self.text, word.end(), self.limit).end()
            if after >= self.limit:
                self.dropped = "a dangling key"
                raise Cut
            if (
                self.text[after] == '"'
                and after == word.end()
                and COLON_NEXT.match(self.text, after + 1, self.limit)
            ):
                # `description":"…"`: the key's opening quote is missing
                self.log.add(
                    Fix(
                        "missing_quote",
                        f"opened the key {word.group()!r}, whose opening quote is missing",
                        self.pos,
                    )
                )
                self.out.append('"' + word.group() + '"')
                self.pos = after + 1
                self.states[-1] = OBJ_COLON
                return
            if self.text[after] != ":":
                raise Fail(self.pos)  # a bare word is a key only when a colon follows it
            token = '"' + word.group() + '"'
            self.log.add(unquoted_key(word.group(), self.pos))
            self.pos = word.end()
        self.out.append(token)
        self.states[-1] = OBJ_COLON

    def _key_missing_closing_quote(self) -> bool:
        """``"description:"Check"``: see :func:`~gate_tui.parsing.repair.scalars.unclosed_key`."""
        found = unclosed_key(self.text, self.pos, self.limit)
        if found is None:
            return False
        name, name_end, self.pos = found
        self.log.add(
            Fix(
                "missing_quote",
                f"closed the key {name!r}, whose closing quote is missing",
                name_end,
            )
        )
        self.out.append('"' + name + '":')
        self.states[-1] = OBJ_VALUE
        return True

    def _value(self, c: str) -> None:
        if (
            c == '"'
            and self.detach_tail
            and self.limit - self.pos > LONG_TAIL
            and self._detach_tail()
        ):
            return
        if c in QUOTES:
            token, self.pos, self.closed_string = read_string(
                self.text, self.pos, self.limit, self.log, kinds=self.kinds
            )
        elif c == "-" or c == "." or "0" <= c <= "9":
            try:
                token, self.pos = read_number(self.text, self.pos, self.limit, self.log)
            except Cut:
                self.dropped = "an incomplete value"
                raise
        elif c.isalpha() or c == "_" or c == "$":
            try:
                token, self.pos = read_word(self.text, self.pos, self.limit, self.log)
            except Cut:
                self.dropped = "an incomplete value"
                raise
        else:
            raise Fail(self.pos)
        self.out.append(token)
        self._value_done()

    def _detach_tail(self) -> bool:
        """Take the string at ``pos`` as the outcome's tail (see :func:`detachable_tail`)."""
        tail = detachable_tail(self.text, self.pos + 1, self.limit)
        if tail is None:
            return False
        self.tail = tail
        self.out.append(TAIL_PLACEHOLDER)
        self.closed_string = True
        self._value_done()
        self.pos = self.limit
        return True
