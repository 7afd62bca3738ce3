"""Batches of an eval run sized by the bytes of their text, not by a count of rows.

A Parquet file can hold a million copies of one large reply in a few kilobytes
(dictionary encoding: each row is an index into a table of distinct values). Read as rows
of text, 1,024 rows of a 1 MB reply are 1 GB, however small the file. So the reader asks
pyarrow to keep text columns dictionary-encoded (:func:`dictionary_columns`), each batch
is cut into slices of at most :data:`SLICE_BYTES` of decoded text (:func:`slices`, one
huge reply alone in its slice), and a slice is decoded only when its turn comes
(:func:`decoded`). Ordinary rows (a few KB) make one slice per batch, so runs of them
are exactly as before.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

SLICE_BYTES = 8 * 1024 * 1024
"""Decoded text in one checked slice at most (one row alone may exceed it)."""


def is_text(kind: Any) -> bool:
    """A string or binary Arrow type, or a dictionary of one."""
    import pyarrow as pa

    if pa.types.is_dictionary(kind):
        kind = kind.value_type
    return bool(
        pa.types.is_string(kind)
        or pa.types.is_large_string(kind)
        or pa.types.is_binary(kind)
        or pa.types.is_large_binary(kind)
    )


def dictionary_columns(schema: Any, names: list[str]) -> list[str]:
    """The columns of ``names`` that pyarrow should read as dictionaries (every text one):
    a dictionary-encoded column then stays as small in memory as it is in the file."""
    return [name for name in names if is_text(schema.field(name).type)]


def rows_per_read(metadata: Any, names: list[str], most: int) -> int:
    """Rows per read batch of a Parquet file: ``most``, fewer when its row groups' plain
    (not dictionary-encoded) bytes per row say that ``most`` rows would pass
    :data:`SLICE_BYTES` (a file of large, distinct replies)."""
    per_row = 0.0
    wanted = set(names)
    for group in range(metadata.num_row_groups):
        row_group = metadata.row_group(group)
        if not row_group.num_rows:
            continue
        size = sum(
            row_group.column(index).total_uncompressed_size
            for index in range(row_group.num_columns)
            if row_group.column(index).path_in_schema.split(".")[0] in wanted
        )
        per_row = max(per_row, size / row_group.num_rows)
    if per_row <= 0:
        return most
    return max(1, min(most, int(SLICE_BYTES // per_row)))


def row_bytes(batch: Any) -> list[int]:
    """Each row's decoded text bytes (every text column; others as their share of the batch)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    rows = batch.num_rows
    total = pa.array([0] * rows, pa.int64())
    other = 0
    for column in batch.columns:
        if isinstance(column, pa.ChunkedArray):
            column = column.combine_chunks()
        if not is_text(column.type):
            other += column.nbytes
            continue
        if pa.types.is_dictionary(column.type):
            lengths = pc.binary_length(column.dictionary).take(column.indices)
        else:
            lengths = pc.binary_length(column)
        total = pc.add(total, pc.cast(pc.fill_null(lengths, 0), pa.int64()))
    share = other // rows if rows else 0
    return [size + share for size in total.to_pylist()]


def slices(batch: Any, budget: int | None = None) -> Iterator[Any]:
    """``batch`` as consecutive decoded slices of at most ``budget`` (:data:`SLICE_BYTES`)
    bytes of text each (a row over it alone). Lazily: only the slice yielded is decoded."""
    budget = SLICE_BYTES if budget is None else budget
    sizes = row_bytes(batch)
    start, held = 0, 0
    for index, size in enumerate(sizes):
        if index > start and held + size > budget:
            yield decoded(batch.slice(start, index - start))
            start, held = index, 0
        held += size
    if start < len(sizes) or not sizes:
        yield decoded(batch.slice(start, len(sizes) - start))


def decoded(batch: Any) -> Any:
    """``batch`` with its dictionary columns decoded to their values (the same rows and
    types as a plain read), so results never depend on how the file was encoded."""
    import pyarrow as pa

    if not any(pa.types.is_dictionary(field.type) for field in batch.schema):
        return batch
    arrays, fields = [], []
    for field, column in zip(batch.schema, batch.columns, strict=True):
        if pa.types.is_dictionary(field.type):
            column = column.cast(field.type.value_type)
            field = field.with_type(field.type.value_type)
        arrays.append(column)
        fields.append(field)
    kind = pa.Table if isinstance(batch, pa.Table) else pa.RecordBatch
    return kind.from_arrays(arrays, schema=pa.schema(fields, metadata=batch.schema.metadata))
