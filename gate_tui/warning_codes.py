"""The codes of :class:`gate_tui.models.ParseWarning`, in one place.

A warning says something the reviewer should know about an ok result. Some warnings
are shown on their own surface rather than in the warning list — a repair (the preview,
``check`` and the report list repairs with their positions) and the overruled claim (the
decision panel says it) — and the surfaces ask :func:`shown_elsewhere` instead of testing
a code's spelling.
"""

from __future__ import annotations

REPAIRED_PREFIX = "repaired_"
"""A repair's warning is ``repaired_<repair code>`` (``repaired_trailing_comma``)."""

CLAIMED_STATUS_OVERRULED = "claimed_status_overruled"
UNKNOWN_KEY_IGNORED = "unknown_key_ignored"
CATEGORY_NORMALISED = "category_normalised"
CATEGORY_CLEARED = "category_cleared"
UNKNOWN_GATE_IGNORED = "unknown_gate_ignored"
STATUS_IGNORED = "status_ignored"
MORE_WARNINGS = "more_warnings"
"""Counts the warnings beyond the first few hundred of one reply (a hostile reply can make a
million)."""
SEVERAL_CANDIDATES = "several_candidates"
"""The reply held more than one JSON object or fenced block; the warning says where."""
DIFFERENT_STATES = "different_states"
"""The reply holds several candidates that are different states (a draft and a correction):
the warning says how many and which one is used (``candidate=`` picks another)."""
DUPLICATE_KEY = "duplicate_key"
"""An object of the reply gives a key more than once, each time with the same value (with
different values the reply is refused); names the key and every position."""
TRUNCATED_REPLY = "truncated_reply"
"""A cut-off reply accepted by ``accept_truncated_replies``; names every field the cut touched."""


def repaired(repair_code: str) -> str:
    """The warning code of a repair."""
    return REPAIRED_PREFIX + repair_code


def is_repair(code: str) -> bool:
    """Whether ``code`` is the warning of a repair."""
    return code.startswith(REPAIRED_PREFIX)


def shown_elsewhere(code: str) -> bool:
    """Whether the warning has a surface of its own (repairs, the overruled claim)."""
    return is_repair(code) or code == CLAIMED_STATUS_OVERRULED
