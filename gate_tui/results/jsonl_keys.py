"""One key of every record of a JSON Lines results file, as text: the input's columns that
``check`` carried into its records (``"model"`` after ``"result"``), read for
``gate-tui stats RESULTS --by model``.

pyarrow's JSON reader reads just that key (C++, everything else skipped); when its
values are not all text (a number here, an object there) each record is read in Python
instead, a value that is not text given as its JSON.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def key_column(path: Path, offsets: list[int], key: str) -> Any:
    """The values of ``key`` in the records at ``offsets`` (one per row), as an Arrow text
    array; ``None`` when no record has it."""
    import pyarrow as pa

    column = _by_arrow(path, key, len(offsets))
    if column is None:
        column = pa.array(_by_python(path, offsets, key), pa.string())
    return None if column.null_count == len(column) else column


def _by_arrow(path: Path, key: str, rows: int) -> Any:
    import pyarrow as pa
    import pyarrow.json as pj

    options = pj.ParseOptions(
        explicit_schema=pa.schema([(key, pa.string())]), unexpected_field_behavior="ignore"
    )
    try:
        table = pj.read_json(path, parse_options=options)
    except (pa.ArrowException, OSError):
        return None
    return table.column(key).combine_chunks() if table.num_rows == rows else None


def _by_python(path: Path, offsets: list[int], key: str) -> list[str | None]:
    values: list[str | None] = []
    with open(path, "rb") as handle:
        for offset in offsets:
            handle.seek(offset)
            try:
                item = json.loads(handle.readline())
            except (ValueError, RecursionError):
                item = None
            value = item.get(key) if isinstance(item, dict) else None
            values.append(value if value is None or isinstance(value, str) else _text(value))
    return values


def _text(value: Any) -> str:
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        return str(value)
