"""The output columns of one checked batch (:mod:`gate_tui.runs.arrow_rows`), gathered a
record at a time from the line checker: the summary columns, the provider's signals, the
result's JSON, and (when asked) the JSON Lines records themselves."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from gate_tui.results.summary import SUMMARY_COLUMNS, summary
from gate_tui.runs.carry import OUTPUT_COLUMNS
from gate_tui.runs.tally import BatchStats
from gate_tui.safe_text import json_visible_bytes

if TYPE_CHECKING:
    import pyarrow as pa


@dataclass
class Checked:
    """One checked batch: its output table, its counts and (when asked) its JSONL records."""

    table: pa.Table
    stats: BatchStats
    lines: bytes = b""
    consumed: int = 0
    """How much input it took (rows, or bytes of JSON Lines): for the progress bar."""


class Collector:
    """The output columns of one batch, a row at a time."""

    def __init__(self, want_lines: bool, ids: list[Any] | None = None) -> None:
        self.stats = BatchStats()
        self.want_lines = want_lines
        self.records: list[bytes] = []
        self.results: list[bytes] = []
        self.summaries: list[tuple[Any, ...]] = []
        self.ids = ids
        self.numbers: list[int] = []
        self.signals: list[tuple[Any, ...]] = []

    def add(self, record: bytes, lines: Any, number: int | None = None) -> None:
        head = lines.head_length
        self.results.append(json_visible_bytes(record[head : head + lines.result_length]))
        self.summaries.append(summary(lines.last))
        self.signals.append(lines.signals)
        if self.want_lines:
            self.records.append(record)
        if self.ids is not None:
            self.ids.append(_id_text(record[6 : record.rfind(b',"line":', 0, head)]))
            self.numbers.append(number or 0)

    def finish(self, id_column: Any, rows: int, first_line: int | None) -> Checked:
        import pyarrow as pa

        width = len(SUMMARY_COLUMNS)
        columns = list(zip(*self.summaries, strict=True)) if self.summaries else [[]] * width
        signals = list(zip(*self.signals, strict=True)) if self.signals else [[]] * 4
        if self.ids is not None:
            ident: Any = pa.array(self.ids, pa.string())
            line: Any = pa.array(self.numbers, pa.int64())
        else:
            ident = id_column if id_column is not None else pa.nulls(rows, pa.string())
            line = (
                pa.nulls(rows, pa.int64())
                if first_line is None
                else pa.array(range(first_line, first_line + rows), pa.int64())
            )
        arrays = [
            ident,
            line,
            *(
                pa.array(values, kind)
                for values, kind in zip(columns, SUMMARY_TYPES(), strict=True)
            ),
            pa.array(signals[0], pa.string()),
            *(pa.array(values, pa.int64()) for values in signals[1:]),
            pa.array(self.results, pa.string()),
        ]
        table = pa.Table.from_arrays(arrays, names=list(OUTPUT_COLUMNS))
        lines = json_visible_bytes(b"".join(self.records)) if self.want_lines else b""
        return Checked(table, self.stats, lines)


def SUMMARY_TYPES() -> tuple[Any, ...]:  # noqa: N802 - a constant, built when pyarrow is in
    """The Arrow type of each of :data:`SUMMARY_COLUMNS`."""
    import pyarrow as pa

    text, flag, number, codes = pa.string(), pa.bool_(), pa.int32(), pa.list_(pa.string())
    return (flag, flag, text, text, codes, number, flag, number, text, flag, flag, codes, text)


def _id_text(ident: bytes) -> str | None:
    """A JSONL id as text: a string as itself, null as null, anything else as its JSON."""
    if ident == b"null":
        return None
    if ident.startswith(b'"'):
        try:
            return json.loads(ident)
        except ValueError:
            pass
    return ident.decode("utf-8", "replace")
