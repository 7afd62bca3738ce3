"""The input's other columns (or a JSON Lines record's other keys) that a run's results
carry beside each result, so a run can be grouped by what the eval pipeline recorded
(``gate-tui stats RESULTS --by model``).

All of them by default, or those ``check --carry-columns A,B`` names; never the ones the
check reads itself (reply, id, previous state, actor, messages, finish reason, usage). A
name the results use already (``ok``, ``result``, …) is carried as ``input_<name>``.
Parquet results carry them as columns, JSON Lines results as keys after ``result``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from gate_tui.results.summary import SUMMARY_COLUMNS

OUTPUT_COLUMNS = (
    "id",
    "line",
    *SUMMARY_COLUMNS,
    "finish_reason",
    "prompt_tokens",
    "completion_tokens",
    "total_tokens",
    "result",
)
"""The columns of a checked batch (:mod:`gate_tui.runs.arrow_rows`)."""
_TAKEN = frozenset((*OUTPUT_COLUMNS, "reply", "fingerprint"))
_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False)
_ASCII = json.JSONEncoder(ensure_ascii=True, separators=(",", ":"), allow_nan=False)


def carried_names(
    names: Iterable[str], own: Iterable[str], carry: tuple[str, ...] | None
) -> list[str]:
    """The names of ``names`` the results carry: those ``carry`` asks for (``None``: every
    one), less ``own`` (what the check reads itself)."""
    names = list(names)
    skip = set(own)
    wanted = names if carry is None else [name for name in carry if name in names]
    return [name for name in dict.fromkeys(wanted) if name not in skip]


def carried_label(name: str) -> str:
    """An input column's name in the results (``input_<name>`` when a results column has it)."""
    return f"input_{name}" if name in _TAKEN else name


def carried_json(item: dict[str, Any], names: Iterable[str]) -> bytes:
    """``,"name":value`` for each of ``names`` in ``item``: the tail of a JSON Lines record.
    A value JSON cannot carry (infinity, a date from Parquet) goes as its text."""
    out = []
    for name in names:
        if name not in item:
            continue
        key = _encode(carried_label(str(name)))
        out.append(b",%b:%b" % (key, _encode(item[name])))
    return b"".join(out)


def _encode(value: Any) -> bytes:
    try:
        return _ENCODER.encode(value).encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: its JSON escape, like the result's
        return _ASCII.encode(value).encode("ascii")
    except (TypeError, ValueError, RecursionError):
        try:
            return _ASCII.encode(str(value)).encode("ascii")
        except (TypeError, ValueError, RecursionError):
            return b"null"
