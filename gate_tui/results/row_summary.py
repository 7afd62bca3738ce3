"""The summary columns of a results table, whatever wrote it: every row's position, id,
status (PASS / NO PASS / VALID / invalid), reason, next gate, error and repair codes and
flags, in a fixed order and with fixed types. Older results lack some columns (filled with
defaults); odd types (an integer id) are cast. The review's index, ``stats`` and the
comparison of two runs all read rows through :func:`summarise` or :func:`finish`.
"""

from __future__ import annotations

import json
from typing import Any

SUMMARY = (
    "line",
    "id",
    "ok",
    "pass",
    "reason",
    "next_gate",
    "error_codes",
    "repairs",
    "guessed",
    "warnings",
    "claimed",
    "cut_off",
    "several_states",
    "repair_codes",
    "grounding",
)
STATUSES = ("PASS", "NO PASS", "VALID", "invalid")


def with_column(table: Any, name: str, kind: Any) -> Any:
    """``table`` with column ``name`` of type ``kind``: cast, or all null when absent."""
    import pyarrow as pa

    if name not in table.column_names:
        return table.append_column(name, pa.nulls(table.num_rows, kind))
    column = table.column(name)
    if column.type == kind:
        return table
    try:
        cast = column.cast(kind)
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        cast = pa.array(
            [
                None if value is None else json.dumps(value, default=str)
                for value in column.to_pylist()
            ],
            kind,
        )
    return table.set_column(table.column_names.index(name), name, cast)


def summarise(table: Any) -> Any:
    """A results table's (or batch's) summary columns, defaults filled, plus ``status``."""
    import pyarrow as pa

    for column, kind in (
        ("line", pa.int64()),
        ("id", pa.string()),
        ("pass", pa.bool_()),
        ("reason", pa.string()),
        ("next_gate", pa.string()),
    ):
        table = with_column(table, column, kind)
    return finish(table)


def finish(table: Any) -> Any:
    """The summary columns in a fixed order, plus ``status``."""
    import pyarrow as pa
    import pyarrow.compute as pc

    codes = pa.list_(pa.string())
    for name, kind in (
        ("error_codes", codes),
        ("repairs", pa.int32()),
        ("guessed", pa.bool_()),
        ("warnings", pa.int32()),
        ("claimed", pa.string()),
        ("cut_off", pa.bool_()),
        ("several_states", pa.bool_()),
        ("repair_codes", codes),
        ("grounding", pa.string()),  # grounding: null where no conversation came with a reply
    ):
        table = with_column(table, name, kind)
    for name in ("guessed", "cut_off", "several_states"):  # results from before these columns
        table = table.set_column(
            table.column_names.index(name), name, pc.fill_null(table.column(name), False)
        )
    ok = pc.fill_null(table.column("ok"), False)
    passed = table.column("pass")
    verdict = pc.if_else(
        pc.is_null(passed), "VALID", pc.if_else(pc.fill_null(passed, False), "PASS", "NO PASS")
    )
    status = pc.if_else(ok, verdict, "invalid")
    return table.select(list(SUMMARY)).append_column("status", status)
