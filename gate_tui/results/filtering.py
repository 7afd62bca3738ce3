"""Which rows of a results index a reviewer's filter keeps: columnar passes in
``pyarrow.compute`` (a million rows in a few tens of milliseconds), never a Python loop
over rows.

A filter is a status, an error code, a next gate, "only guessed repairs", one of the
:data:`FLAGS` a reviewer hunts first (the model's claim overruled, and which way; several
different states in one reply; cut off), a grounding summary (``grounded`` / ``near`` /
``ungrounded``) and free text (matched, ignoring case, in the id, the reason, the next gate
and the error codes); an empty part keeps every row. A caller's own row mask (a reviewer's
share of the rows, the rows reviewers disagree on) narrows it. :func:`matching_rows` gives
the kept rows' positions in file
order, which is all a virtualised table needs to show any window of them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class ResultFilter:
    """What the reviewer asked to see (every part optional)."""

    status: str | None = None
    code: str | None = None
    gate: str | None = None
    guessed: bool = False
    text: str = ""
    flag: str | None = None
    grounding: str | None = None
    """``grounded`` / ``near`` / ``ungrounded`` / ``unchecked``: the results' grounding column."""

    @property
    def empty(self) -> bool:
        return self == ResultFilter()


FLAGS = {
    "overruled": "claim overruled",
    "false-pass": "said PASS, is NO PASS",
    "false-no-pass": "said NO PASS, is PASS",
    "several-states": "several states",
    "cut-off": "cut off",
    "disagreements": "reviewers disagree",
}
"""The flags a filter can ask for, with their words (``disagreements`` is the caller's mask)."""


def flag_mask(table: Any, flag: str) -> Any:
    """The rows a flag keeps (``disagreements``: None, the caller knows them)."""
    import pyarrow.compute as pc

    claimed, status = table.column("claimed"), table.column("status")
    false_pass = pc.and_kleene(pc.equal(claimed, "PASS"), pc.equal(status, "NO PASS"))
    false_no_pass = pc.and_kleene(pc.equal(claimed, "NO PASS"), pc.equal(status, "PASS"))
    masks = {
        "overruled": lambda: pc.or_kleene(false_pass, false_no_pass),
        "false-pass": lambda: false_pass,
        "false-no-pass": lambda: false_no_pass,
        "several-states": lambda: table.column("several_states"),
        "cut-off": lambda: table.column("cut_off"),
    }
    return masks[flag]() if flag in masks else None


def matching_rows(table: Any, wanted: ResultFilter, within: Any = None) -> Any:
    """The positions (an Arrow ``uint64`` array) of the rows ``wanted`` keeps, in order,
    among the rows of the boolean mask ``within`` (every row when None)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if wanted.empty and within is None:
        return pa.array(range(table.num_rows), pa.uint64())
    masks = [] if within is None else [within]
    if wanted.flag:
        flagged = flag_mask(table, wanted.flag)
        if flagged is not None:
            masks.append(flagged)
    if wanted.status:
        masks.append(pc.equal(table.column("status"), wanted.status))
    if wanted.gate:
        masks.append(pc.equal(table.column("next_gate"), wanted.gate))
    if wanted.guessed:
        masks.append(table.column("guessed"))
    if wanted.grounding:
        masks.append(pc.equal(table.column("grounding"), wanted.grounding))
    if wanted.code:
        masks.append(_any_code(table, lambda codes: pc.equal(codes, wanted.code)))
    if wanted.text:
        needle = wanted.text

        def has(column: Any) -> Any:
            return pc.match_substring(column, needle, ignore_case=True)

        found = pc.or_kleene(
            _any_code(table, has),
            pc.or_kleene(has(table.column("reason")), has(table.column("next_gate"))),
        )
        masks.append(pc.or_kleene(found, has(table.column("id"))))
    if not masks:
        return pa.array(range(table.num_rows), pa.uint64())
    mask = masks[0]
    for other in masks[1:]:
        mask = pc.and_kleene(mask, other)
    return pc.indices_nonzero(pc.fill_null(mask, False))


def _any_code(table: Any, test: Any) -> Any:
    """A row mask: does any of the row's error codes pass ``test``?"""
    import pyarrow as pa
    import pyarrow.compute as pc

    codes = table.column("error_codes")
    parents = pc.list_parent_indices(codes)
    hits = pc.filter(parents, pc.fill_null(test(pc.list_flatten(codes)), False))
    return pc.is_in(_positions(table.num_rows), value_set=pc.unique(pc.cast(hits, pa.int64())))


_POSITIONS: dict[int, Any] = {}


def _positions(rows: int) -> Any:
    """0 .. rows-1 as an Arrow array (kept: a filter is typed letter by letter)."""
    import pyarrow as pa

    if rows not in _POSITIONS:
        _POSITIONS.clear()
        _POSITIONS[rows] = pa.array(range(rows), pa.int64())
    return _POSITIONS[rows]


def choices(table: Any, column: str) -> list[str]:
    """The distinct values of a text or list-of-text column, most frequent first."""
    import pyarrow.compute as pc

    values = table.column(column)
    if str(values.type).startswith("list"):
        values = pc.list_flatten(values)
    counted = pc.value_counts(pc.drop_null(values)).to_pylist()
    return [
        str(entry["values"])
        for entry in sorted(counted, key=lambda entry: (-entry["counts"], str(entry["values"])))
    ]
