"""The Parquet input of ``check --input``: its parts opened one at a time, read in batches
whose decoded text is bounded (:mod:`gate_tui.runs.budget`), never the whole file.

pyarrow pre-buffers a file by default (memory grows with the file): every part is opened
with ``pre_buffer=False``. Text columns are read as dictionaries, so a dictionary-encoded
column stays as small in memory as on disk until a slice of it is checked.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from gate_tui.results.sources import parquet_files
from gate_tui.runs import budget

JOB_ROWS = 1024
"""Rows per Parquet batch read and checked as one job at most: small, so that at the end
of a run with ``-j N`` no worker waits long for the last one (a 4096-row job is ~0.25 s of
work); fewer when the rows' text is large (:mod:`gate_tui.runs.budget`)."""


def wanted_columns(columns: Any, names: list[str]) -> list[str]:
    """The input columns a run reads: its own (reply, id, …) and the carried ones."""
    own = (
        columns.id,
        columns.reply,
        columns.previous,
        columns.actor,
        columns.finish_reason,
        columns.usage,
    )
    return [name for name in dict.fromkeys((*own, *(columns.carry or ()))) if name in names]


def parquet_batches(source: str, columns: Any) -> tuple[int, Iterator[tuple[int, Any]]]:
    """The input's row count and its batches as ``(first line, decoded batch)``, lazily."""
    names = parquet_files(source)  # parts in sorted order
    first_file, first_names = open_part(names[0], columns)
    wanted = wanted_columns(columns, first_names)
    # The total, for the progress bar, from each footer; each part is opened only when
    # its turn comes (a folder of thousands of parts must not hold thousands of files open).
    total = first_file.metadata.num_rows + sum(
        open_part(name, columns, footer_only=True) for name in names[1:]
    )

    def batches() -> Iterator[tuple[int, Any]]:
        first = 1
        for number, name in enumerate(names):
            parquet, present = (
                (first_file, first_names) if number == 0 else open_part(name, columns)
            )
            missing = [column for column in wanted if column not in present]
            if missing:
                parquet.close()
                raise KeyError(
                    f"{name}: no {', '.join(map(repr, missing))} column, unlike the first part"
                )
            try:
                rows = budget.rows_per_read(parquet.metadata, wanted, JOB_ROWS)
                for batch in parquet.iter_batches(batch_size=rows, columns=wanted):
                    for part in budget.slices(batch):
                        yield first, part
                        first += part.num_rows
            finally:
                parquet.close()

    return total, batches()


def open_part(name: str, columns: Any, *, footer_only: bool = False) -> Any:
    """One Parquet part, open (its footer read), and its column names — or, ``footer_only``,
    just its row count (the file closed again)."""
    import pyarrow.parquet as pq

    source: Any = name
    if "://" in name:
        from gate_tui.results.sources import bounded, remote_filesystem

        filesystem, path = remote_filesystem(name)
        source = bounded(lambda: filesystem.open_input_file(path), name)
    if footer_only:
        return pq.read_metadata(source).num_rows
    metadata = pq.read_metadata(source)  # the footer, read once
    schema = metadata.schema.to_arrow_schema()
    names = schema.names
    if columns.reply not in names:
        if not isinstance(source, str):
            source.close()
        raise KeyError(
            f"{name} has no {columns.reply!r} column (columns: {', '.join(names) or 'none'});"
            " see --reply-column"
        )
    text = budget.dictionary_columns(schema, names)
    parquet = pq.ParquetFile(source, metadata=metadata, pre_buffer=False, read_dictionary=text)
    return parquet, names
