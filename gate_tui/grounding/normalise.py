"""How a ``raw`` answer and the user's words are compared: one normal form for both.

Matching is exact after this normalisation, so the rule is stated here once: case folded,
every run of whitespace one space, every quote style (straight, curly, guillemets,
backticks) one straight quote, and leading or trailing spaces, quotes and sentence
punctuation dropped. The map back to the original text lets a finding show the user's
own characters, not the normal form. One pass over the text: linear in its length.
"""

from __future__ import annotations

QUOTES = frozenset(
    "'\"`\u2018\u2019\u201a\u201b\u201c\u201d\u201e\u201f\u00ab\u00bb\u2039\u203a\u2032\u2033"
)
EDGE_PUNCTUATION = frozenset(".,;:!?\u2026'- ")
"""What is dropped at either end of a normalised answer (quotes are ``'`` by then)."""


SEPARATOR = "\x00"
"""Joins texts normalised in one pass (not whitespace, so the normal form keeps it)."""

_EDGE = "".join(sorted(EDGE_PUNCTUATION))
_QUOTE_TABLE = {ord(quote): "'" for quote in QUOTES if not quote.isascii()}


def _straight_quotes(text: str) -> str:
    # str.replace runs at C speed; the per-character table only for text that needs it.
    text = text.replace('"', "'").replace("`", "'")
    return text if text.isascii() else text.translate(_QUOTE_TABLE)


def _fold(text: str) -> str:
    # For ASCII text casefold() is lower(), which is several times faster.
    return text.lower() if text.isascii() else text.casefold()


def normal_form(text: str) -> str:
    """``text`` in normal form (not yet trimmed), with string methods: the fast path every
    turn takes; :func:`normalise_mapped` gives the same text with its map, when a finding
    needs the user's own characters."""
    return " ".join(_fold(_straight_quotes(text)).split())


def loose_form(text: str) -> str:
    """``text`` with quotes and case folded but its spacing kept (see ``UserTurn.original``)."""
    return _fold(_straight_quotes(text))


def normalise_mapped(text: str) -> tuple[str, list[int]]:
    """``text`` in normal form (not yet trimmed), and for each of its characters the index
    of the original character it came from (a case fold may turn one into two)."""
    out: list[str] = []
    where: list[int] = []
    space = False
    for index, char in enumerate(text):
        if char.isspace():
            space = bool(out)
            continue
        if space:
            out.append(" ")
            where.append(index - 1)
            space = False
        folded = "'" if char in QUOTES else char.casefold()
        out.extend(folded)
        where.extend([index] * len(folded))
    return "".join(out), where


def trim(text: str) -> str:
    """``text`` without its leading and trailing spaces, quotes and punctuation."""
    return text.strip(_EDGE)  # at C speed: the same characters as EDGE_PUNCTUATION


def normalise(text: str) -> str:
    """The normal form of an answer, trimmed: what must occur in a user turn."""
    return trim(normal_form(text))


def normalise_many(texts: list[str]) -> list[str]:
    """:func:`normalise` of each text, in one pass over them all (a few C calls for all the
    answers of a reply rather than a few per answer: this runs for every reply of a batch)."""
    joined = SEPARATOR.join(texts)
    if len(texts) < 2 or joined.count(SEPARATOR) != len(texts) - 1:
        return [normalise(text) for text in texts]
    return [trim(part) for part in normal_form(joined).split(SEPARATOR)]
