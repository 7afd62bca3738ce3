"""What the text after a closer says about it: mistyped, one of two, or the end of a row.

A closer of the wrong kind or one too many is judged by what follows it: the enclosing
container going on, another row of a list of lists, a second closer. The candidate scan
(:mod:`~gate_tui.parsing.scanning`) and the repair pass
(:mod:`~gate_tui.parsing.repair.brackets`) ask the same questions here, so they agree on
where a value ends.
"""

from __future__ import annotations

import re

from gate_tui.parsing.repair.lexing import BLANK

# What starts an object member (a key in any quote style, or a bare one, then `:`) and an element.
_MEMBER_AHEAD = re.compile(
    r"""(?:"[^"\\\n]*+(?:\\.[^"\\\n]*+)*+"|'[^'\\\n]*+(?:\\.[^'\\\n]*+)*+'"""
    r"""|[\w$][\w$\-]*+)[ \t]*+:"""
)
_ELEMENT_AHEAD = re.compile(r"""[{\["'\-0-9]|(?:true|false|null|True|False|None)\b""")


def mistyped_closer(text: str, at: int, limit: int, kinds: list[str], want: str) -> bool:
    """Whether a closer for ``want`` at ``at - 1``, while ``kinds[-1]`` is open, was mistyped
    for ``kinds[-1]``'s closer rather than closing the brackets above ``want`` at once.

    Read as mistyped, it closes ``kinds[-1]``, and the closers right after it (if any) close
    what is open under that, in order. Mistyped when the text then goes on with the
    container still open (:func:`continues_container`: ``{"a": [1, 2}, "b": 3}``, or
    ``{"a": {"b": [1, 2}}, "c": 3}``), or when those closers end the whole value with
    nothing after them but prose (``{"a": {"b": [1}}}``): closing at once would leave
    closers or members over, dropped from the value. Otherwise, when closing at once would
    end the whole value (``want`` only at the bottom) while more closers or commas follow:
    swapped closers at the end of nested arrays and objects never end a top-level array
    early."""
    if len(kinds) < 2:
        return False
    if goes_on(text, at, limit, kinds, len(kinds) - 1):
        return True
    if kinds[0] != want or want in kinds[1:]:
        return False
    after = BLANK.match(text, at, limit).end()
    return after < limit and text[after] in ",}])"


_OPENERS = {"}": "{", "]": "[(", ")": "("}
_MAX_RUN = 64  # closers looked at after a wrong one: bounded, so each wrong closer costs O(1)


def _closed_after(text: str, at: int, limit: int, kinds: list[str], depth: int) -> tuple[int, int]:
    """Of ``kinds[:depth]`` open at ``at``, how many stay open after the closers that follow
    (blanks between them), each closing the innermost in turn; and where they end."""
    end = at
    for _ in range(_MAX_RUN):
        after = BLANK.match(text, end, limit).end()
        if not depth or after >= limit or kinds[depth - 1] not in _OPENERS.get(text[after], ""):
            break
        depth -= 1
        end = after + 1
    return depth, end


def continues_container(text: str, at: int, limit: int, container: str) -> bool:
    """Whether the text after a wrong closer at ``at - 1`` goes on with ``container`` (the
    bracket around the one it should close): a comma, then a member of that object or an
    element of that array. Then the closer was mistyped (``{"a": [1, 2}, "b": 3}``), not one
    of two closers with the other missing — which would end the value there and drop what
    follows. The candidate scan and the repair pass both ask this."""
    after = BLANK.match(text, at, limit).end()
    if after >= limit or text[after] != ",":
        return False
    after = BLANK.match(text, after + 1, limit).end()
    if container == "{":
        return _MEMBER_AHEAD.match(text, after, limit) is not None
    return container in "[(" and _ELEMENT_AHEAD.match(text, after, limit) is not None


def next_row_ahead(text: str, at: int, limit: int) -> bool:
    """Whether a ``]`` at ``at - 1``, closing a list that is a member of an object, is followed
    by ``, [``: another row of a list of lists, where an object wants a key. A valid reply
    never writes that, so the list did not end there — a row's opening ``[`` was forgotten
    (``{"m": [[1, 2], 3, 4], [5, 6]]}``). The candidate scan keeps the list open on this; the
    repair pass also requires a complete row before the forgotten one (``missing_opener``)."""
    after = BLANK.match(text, at, limit).end()
    if after >= limit or text[after] != ",":
        return False
    after = BLANK.match(text, after + 1, limit).end()
    return after < limit and text[after] == "["



def row_may_end(text: str, at: int, limit: int, kinds: list[str], outer: int) -> bool:
    """Whether a ``]`` at ``at - 1``, closing a list that is a member of an object (itself
    inside the brackets ``kinds[:outer]``, none for the whole value), may close a row whose ``[``
    was forgotten: another row follows (:func:`next_row_ahead`), or a second ``]`` where the
    object wants a ``}`` — the last row (``{"m": [[1, 2], 5, 6]], "b": 3}``) — then followed
    by ``,`` or ``}``. When the text after the second ``]`` goes on with those, or its
    closers end the whole value, that ``]`` may be a mistyped ``}`` instead
    (``{"m": {"rows": [[1], 2]]}}``), the reading kept (one rule, not two guesses)."""
    if next_row_ahead(text, at, limit):
        return True
    second = BLANK.match(text, at, limit).end()
    if second >= limit or text[second] != "]":
        return False
    after = BLANK.match(text, second + 1, limit).end()
    if after >= limit or text[after] not in ",}":
        return False
    return not outer or not goes_on(text, second + 1, limit, kinds, outer)


def goes_on(
    text: str, at: int, limit: int, kinds: list[str], depth: int, *, members: bool = False
) -> bool:
    """Whether the text at ``at``, with ``kinds[:depth]`` open, reads on as their value: the
    closers there close the innermost in turn, then either a comma goes on with the one
    still open (:func:`continues_container`), or the last of them ended the whole value and
    nothing that goes on with one follows (the end, prose, a fence). ``members``: only the
    first (more members or elements follow)."""
    depth, end = _closed_after(text, at, limit, kinds, depth)
    if depth:
        return continues_container(text, end, limit, kinds[depth - 1])
    if members:
        return False
    after = BLANK.match(text, end, limit).end()
    return after >= limit or text[after] not in ",}])"
