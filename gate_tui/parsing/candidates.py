"""The candidates of a reply: every object a reader could take for the answer, listed.

A self-correcting model writes a draft, then "Wait — corrected version:" and a second
object. The choice rule (:mod:`gate_tui.parsing.choosing`) keeps the first gate-like
object, but a reviewer must be able to see that there was a choice and take another one:
extraction lists the candidates it decoded (:class:`Candidate`, in text order, at most
:data:`MAX_LISTED` of them plus the default winner), ``extract_json(..., candidate=K)``
and ``parse(..., candidate=K)`` use the K-th (0-based) instead of the default, and when
the candidates are *different* states the warning says so in words a reviewer notices.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gate_tui.parsing.repair.vocabulary import Fix
from gate_tui.warning_codes import DIFFERENT_STATES, SEVERAL_CANDIDATES

MAX_LISTED = 16
"""Candidates decoded and listed per reply beyond the default winner: a hostile reply can
hold a hundred thousand small objects, and listing each would cost more than the reply."""


PREFERRED_KEYS = ("summary", "gates", "status")


def has_preferred_key(value: dict[str, Any], keys: tuple[str, ...] = PREFERRED_KEYS) -> bool:
    """True when ``value`` looks like the object the caller wants rather than some other JSON.

    With the gate-state keys, the key must hold what a gate state holds there (a
    ``summary`` string, a ``gates`` or ``status`` object): an echo such as
    ``{"status": "echo"}`` does not beat an earlier object. Other keys count by name.
    """
    if keys is not PREFERRED_KEYS and keys != PREFERRED_KEYS:
        return any(key in value for key in keys)
    return (
        isinstance(value.get("summary"), str)
        or isinstance(value.get("gates"), dict)
        or isinstance(value.get("status"), dict)
    )


@dataclass(slots=True)  # not frozen: a frozen init costs a call per field, on every reply
class Candidate:
    """One object of a reply that could be the answer.

    ``index`` is what ``candidate=`` takes; ``line`` / ``column`` (1-based) and ``span``
    locate it; ``used`` marks the one the result holds. ``state_like`` says it holds what
    a gate state holds (a ``summary`` string, a ``gates`` or ``status`` object; with other
    preferred keys, one of them; with none, any object). ``repaired`` / ``guessed`` say
    whether reading it took a repair / a guessed one; ``cut`` that the text cut it off.
    ``value`` is the object read (after repairs).
    """

    index: int
    line: int
    column: int
    span: tuple[int, int]
    source: str
    used: bool
    state_like: bool
    repaired: bool
    guessed: bool
    cut: bool
    value: dict[str, Any]


def position(text: str, offset: int) -> tuple[int, int]:
    """1-based ``(line, column)`` of ``offset`` in ``text``."""
    offset = min(max(offset, 0), len(text))
    return text.count("\n", 0, offset) + 1, offset - (text.rfind("\n", 0, offset) + 1) + 1


def candidate_warning(
    text: str, listed: list[Candidate], others: list[int], picked: bool, gate_mode: bool = True
) -> dict[str, Any] | None:
    """The ``ParseWarning``-shaped dict for a reply with several candidates, or None.

    When at least two state-like candidates hold different values, the warning is
    ``different_states`` and says how many states the reply holds and which one is used —
    the stale draft of a self-correcting model must not pass for a detail. Otherwise it is
    the quieter ``several_candidates`` naming the ignored ones (echoes, repeats, examples).
    """
    used = next((c for c in listed if c.used), None)
    if used is None:
        return None
    states: list[dict[str, Any]] = []
    for candidate in listed:
        if candidate.state_like and candidate.value not in states:
            states.append(candidate.value)
    where = f"{used.line}:{used.column}"
    if len(states) >= 2:
        first_state = next(c for c in listed if c.state_like)
        if picked:
            # Numbered from 1, as the preview lists them.
            how = f"using #{used.index + 1} as chosen, at {where}"
        elif used is first_state:
            how = f"using the first, at {where}"
        else:
            how = f"using the one at {where}"
        rest = [f"{c.line}:{c.column}" for c in listed if c.state_like and not c.used]
        shown = ", ".join(rest[:5]) + (", …" if len(rest) > 5 else "")
        other = "the other" if len(rest) == 1 else "the others"
        # Contract mode has no notion of a state: its candidates are objects, and it keeps
        # the several-candidates code its surfaces already know.
        noun, code = ("states", DIFFERENT_STATES) if gate_mode else ("objects", SEVERAL_CANDIDATES)
        message = (
            f"this reply holds {len(states)} different {noun}; {how}; {other} at {shown} ignored"
        )
        return {
            "code": code,
            "message": message,
            "field_path": "",
            "line": used.line,
            "column": used.column,
        }
    if not others:
        return None
    shown = ", ".join("{}:{}".format(*position(text, at)) for at in others[:5]) + (
        ", …" if len(others) > 5 else ""
    )
    return {
        "code": SEVERAL_CANDIDATES,
        "message": f"used the object at {where}; {len(others)} more at {shown} ignored",
        "field_path": "",
    }


def listed(
    text: str,
    span: tuple[int, int] | None,
    source: str | None,
    records: list[Any],
    notes: dict[str, Any],
    value: Any,
    keys: tuple[str, ...] = PREFERRED_KEYS,
) -> list[Candidate]:
    """The candidates of an extraction: those the full scan listed, or the fast path's one.

    The fast path takes a reply only when it holds one candidate, so its list is built
    here, when asked, rather than on every reply.
    """
    found = notes.get("candidates")
    if found is not None:
        return found
    value = value if value is not None else notes.get("recovered")
    if value is None or span is None:
        return []
    line, column = position(text, span[0])
    guessed = any(record["certainty"] == "guess" for record in records)
    cut = notes.get("cut_at", -1) >= 0
    state_like = (isinstance(value, dict) and has_preferred_key(value, keys)) if keys else True
    return [
        Candidate(
            0,
            line,
            column,
            span,
            source or "scan",
            True,
            state_like,
            bool(records),
            guessed,
            cut,
            value,
        )
    ]


def judged(
    found: list[Candidate], used_problem: str | None, problem_of: Callable[[Candidate], str | None]
) -> list[dict[str, Any]]:
    """``CandidateInfo``-shaped dicts: each candidate with whether using it would succeed.

    The used one's verdict is the result's own (``used_problem``); each other one is asked
    of ``problem_of`` (the parser's policy and validation, run on that candidate's value).
    """
    return [
        {
            "index": candidate.index,
            "line": candidate.line,
            "column": candidate.column,
            "source": candidate.source,
            "used": candidate.used,
            "valid": (problem := used_problem if candidate.used else problem_of(candidate)) is None,
            "problem": problem,
        }
        for candidate in found
    ]


# After an opener: a member (a key in any quote style — mixed ones too, `"summary':` — or a
# bare one, then `:`) or at once another `{` (a model that restarts). An unclosed `{`
# followed by anything else is prose.
_OPENS_AN_OBJECT = re.compile(
    r"""\{[ \t\r\n]*+(?:\{|(?:"[^"\\\n]*+(?:\\.[^"\\\n]*+)*+"|'[^'\\\n]*+'"""
    r"""|["'][^"'\\\n]*+["']|[\w$][\w$\-]*+)[ \t]*+:)"""
)
# What an abandoned opener may hold before the object that restarts the answer: nothing, or
# a few complete members with plain values (`{"function": "send",`).
_RESTART_PREFIX = re.compile(
    r"""[ \t\r\n]*+(?:(?:"[^"\\\n]*+"|[\w$]++)[ \t]*+:[ \t]*+"""
    r"""(?:"[^"\\\n]*+"|[\w.+\-]++)[ \t]*+,[ \t\r\n]*+){0,3}"""
)
RESTART_MESSAGE = "abandoned the object opened here; took the complete object that follows it"


def opens_an_object(text: str, start: int) -> bool:
    """Whether the unclosed ``{`` at ``start`` opens a JSON object (not a brace in prose)."""
    return _OPENS_AN_OBJECT.match(text, start) is not None


def restarted(text: str, outer: int, start: int) -> Fix | None:
    """The guess that the object at ``start``, inside the unclosed object at ``outer``, is a
    restart of the answer (the outer one holds nothing else before it), or None.

    Anything else nested in an unclosed object is part of it, never an answer of its own:
    ``{"function": "send", "params": {"msg": "hi"}`` then made-up text must not give ``params``.
    """
    prefix = _RESTART_PREFIX.match(text, outer + 1, start)
    if prefix is None or prefix.end() != start:
        return None
    return Fix("restarted_object", RESTART_MESSAGE, outer)


def locate(text: str, offset: int) -> str:
    """``line:column`` (1-based) of ``offset`` in ``text``."""
    offset = min(max(offset, 0), len(text))
    line = text.count("\n", 0, offset) + 1
    return f"{line}:{offset - (text.rfind(chr(10), 0, offset) + 1) + 1}"


def describe_spot(text: str, offset: int) -> str:
    """What stands at ``offset``, for an error message: a quoted word or character, or the end."""
    if offset >= len(text):
        return "end of text"
    word = _SPOT_WORD.match(text, offset)
    shown = word.group() if word is not None else text[offset]
    return repr(shown[:40])


_SPOT_WORD = re.compile(r"[\w$]{1,40}")
