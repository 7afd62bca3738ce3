"""The Parquet results of ``check --input``: row groups bounded in rows and in bytes, so a
reader can stream them too, written under a partial name until the run is finished
(:mod:`gate_tui.results.completion`)."""

from __future__ import annotations

from typing import Any

from gate_tui.results.completion import RunMarker, finish_parquet, partial_path, start_parquet

BATCH_ROWS = 4096
"""Rows per output row group at most (~16 MB of results): bounded, so a reader streams too."""
BATCH_BYTES = 32 * 1024 * 1024
"""Bytes per output row group at most (results carry the replies, which may be large)."""


class ParquetOut:
    """A Parquet file written a row group at a time, gathered from the checked batches in
    order (opened on the first one). The row groups depend on the batches alone, never on
    ``-j``: the file is the same byte for byte."""

    def __init__(self, path: str, marker: RunMarker) -> None:
        self.path = path
        self.marker = marker
        self.partial = partial_path(path, marker)
        start_parquet(path)
        self.writer: Any = None
        self.pending: list[Any] = []
        self.rows = 0
        self.bytes = 0

    def write(self, table: Any) -> None:
        size = table.nbytes
        if self.rows and (
            self.rows + table.num_rows > BATCH_ROWS or self.bytes + size > BATCH_BYTES
        ):
            self._flush()
        self.pending.append(table)
        self.rows += table.num_rows
        self.bytes += size
        if self.rows >= BATCH_ROWS or self.bytes >= BATCH_BYTES:
            self._flush()

    def _flush(self) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq

        table = self.pending[0] if len(self.pending) == 1 else pa.concat_tables(self.pending)
        if self.writer is None:
            self.writer = pq.ParquetWriter(self.partial, table.schema)
        self.writer.write_table(table, row_group_size=max(table.num_rows, 1))
        self.pending, self.rows, self.bytes = [], 0, 0

    def close(self, schema: Any) -> None:
        """Finish the file (with ``schema()``'s columns when no batch came)."""
        import pyarrow.parquet as pq

        if self.pending:
            self._flush()
        if self.writer is None:
            self.writer = pq.ParquetWriter(self.partial, schema())
        finish_parquet(self.writer, self.partial, self.path, self.marker)
