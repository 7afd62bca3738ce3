"""The index of a results file from ``gate-tui check`` (Parquet or JSON Lines): the small
columns of every row, in memory, and each row's full result on demand.

A reviewer's table and filters need, per row, its position, id, status (PASS / NO PASS /
VALID / invalid), reason, next gate, error codes, repair counts and whether a repair was
a guess: a few bytes a row, so a million rows sit in one Arrow table and a filter over
them is a columnar pass (:mod:`gate_tui.results.filtering`). The full result (kilobytes a
row) stays in the file and is read when a row is opened:

* Parquet: those columns only are read (never the ``result`` column); a row's result is
  read from its row group, the last one or two kept (neighbours are opened in turn).
* JSON Lines: indexed on first open (:mod:`gate_tui.results.jsonl_index`: each line's
  byte offset plus its summary columns) and the index is cached as Parquet (keyed by the
  file's path, size and modification time), so the next open reads only the cache.

Nothing here raises for a bad file: :func:`open_results` returns the index or a message.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from bisect import bisect_right
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gate_tui.results.row_summary import STATUSES as STATUSES  # named here for the review
from gate_tui.results.row_summary import SUMMARY, finish, with_column
from gate_tui.results.row_summary import summarise as summarise
from gate_tui.results.summary import reply_fingerprint

INDEX_FORMAT = 3
@dataclass
class ResultsIndex:
    """Every row's summary (``table``: :data:`SUMMARY` columns plus ``status``) and the way
    to each row's full result."""

    path: Path
    kind: str  # "parquet" or "jsonl"
    table: Any
    offsets: list[int] = field(default_factory=list)  # JSONL: byte offset of each row's line
    group_starts: list[int] = field(default_factory=list)  # Parquet: first row of each row group
    group_places: list[tuple[Path, int]] = field(
        default_factory=list
    )  # Parquet: each group's file and number in it
    _groups: dict[int, Any] = field(default_factory=dict)
    _groups_meta: dict[str, Any] = field(default_factory=dict)
    fingerprint_column: Any = None
    """Parquet results of ``check --input``: each reply's fingerprint (else None)."""
    marker: Any = None
    """The run's completion marker (:mod:`gate_tui.results.completion`), None when absent."""

    def incomplete(self) -> str | None:
        """``run incomplete: N of M rows`` when the run that wrote the file did not finish."""
        return None if self.marker is None else self.marker.incomplete(self.rows)

    @property
    def rows(self) -> int:
        return self.table.num_rows

    def counts(self) -> dict[str, int]:
        """How many rows have each status (every status, zero included)."""
        import pyarrow.compute as pc

        found = {
            row["values"]: row["counts"]
            for row in pc.value_counts(self.table.column("status")).to_pylist()
        }
        return {status: found.get(status, 0) for status in STATUSES}

    def contract_mode(self) -> bool:
        """True when the rows are contract results (VALID / invalid, no PASS decision)."""
        counts = self.counts()
        return counts["VALID"] > 0 and counts["PASS"] + counts["NO PASS"] == 0

    def summary(self, row: int) -> dict[str, Any]:
        """One row's summary columns as Python values."""
        return {name: self.table.column(name)[row].as_py() for name in self.table.column_names}

    def result_text(self, row: int) -> str | None:
        """The row's full result as JSON text, or None when it cannot be read."""
        try:
            return self._parquet_result(row) if self.kind == "parquet" else self._jsonl_result(row)
        except (OSError, ValueError, KeyError, IndexError, RecursionError):
            return None

    def reply_text(self, row: int) -> str | None:
        """The row's reply, when the results carry it (Parquet results of ``check --input``)."""
        if self.kind != "parquet":
            return None
        try:
            value = self._parquet_cell(row, "reply")
        except (OSError, ValueError, KeyError, IndexError):
            return None
        return value if isinstance(value, str) else None

    def fingerprints(self, rows: list[int]) -> list[str | None]:
        """The reply fingerprints of ``rows`` (:func:`~gate_tui.results.summary.reply_fingerprint`):
        from the results' ``fingerprint`` column, else of the row's reply (or result) text."""
        import pyarrow as pa

        if not rows:
            return []
        given = self.fingerprint_column
        found = (
            given.take(pa.array(rows, pa.int64())).to_pylist()
            if given is not None
            else [None] * len(rows)
        )
        for place, value in enumerate(found):
            if value is None:
                row = rows[place]
                found[place] = reply_fingerprint(self.reply_text(row) or self.result_text(row))
        return found

    def ids(self, rows: list[int]) -> list[str | None]:
        """The ids of ``rows``."""
        import pyarrow as pa

        return self.table.column("id").take(pa.array(rows, pa.int64())).to_pylist() if rows else []

    def rows_with_ids(self, ids: list[str]) -> dict[str, list[int]]:
        """Where each of ``ids`` is in the results (a columnar pass, however many rows)."""
        import pyarrow as pa
        import pyarrow.compute as pc

        column = self.table.column("id")
        hits = pc.indices_nonzero(
            pc.fill_null(pc.is_in(column, value_set=pa.array(ids, pa.string())), False)
        ).to_pylist()
        where: dict[str, list[int]] = {}
        for row, ident in zip(
            hits, column.take(pa.array(hits, pa.int64())).to_pylist(), strict=True
        ):
            where.setdefault(ident, []).append(row)
        return where

    @property
    def run_id(self) -> str | None:
        """The run id the results file carries: its completion marker's (the run that wrote
        it), else Parquet metadata ``gate_tui.run_id`` or ``run_id``, or a ``run_id`` column;
        None when none."""
        if self.marker is not None and self.marker.run_id:
            return str(self.marker.run_id)[:200]
        if "_run_id" not in self._groups_meta:
            self._groups_meta["_run_id"] = _run_id_of(self)
        return self._groups_meta["_run_id"]

    def _parquet_result(self, row: int) -> str | None:
        return self._parquet_cell(row, "result")

    def _parquet_cell(self, row: int, name: str) -> Any:
        """One cell of a big column, read with its row group (the last two groups kept)."""
        import pyarrow.parquet as pq

        group = bisect_right(self.group_starts, row) - 1
        table = self._groups.get(group)
        if table is None:
            place, number = self.group_places[group] if self.group_places else (self.path, group)
            parquet = pq.ParquetFile(place, pre_buffer=False)
            wanted = [
                column for column in ("result", "reply") if column in parquet.schema_arrow.names
            ]
            table = parquet.read_row_group(number, columns=wanted)
            if len(self._groups) >= 2:
                self._groups.pop(next(iter(self._groups)))
            self._groups[group] = table
        if name not in table.column_names:
            return None
        return table.column(name)[row - self.group_starts[group]].as_py()

    def _jsonl_result(self, row: int) -> str | None:
        with open(self.path, "rb") as handle:
            handle.seek(self.offsets[row])
            record = json.loads(handle.readline())
        result = record.get("result", record.get("envelope")) if isinstance(record, dict) else None
        return None if result is None else json.dumps(result, ensure_ascii=False)


def _run_id_of(index: ResultsIndex) -> str | None:
    """A results file's run id: Parquet key-value metadata, or the first ``run_id`` cell."""
    if index.kind != "parquet":
        return _jsonl_run_id(index.path)
    import pyarrow.parquet as pq

    try:
        place = index.group_places[0][0] if index.group_places else index.path
        parquet = pq.ParquetFile(place, pre_buffer=False)
        meta = parquet.schema_arrow.metadata or {}
        for key in (b"gate_tui.run_id", b"gate-tui.run_id", b"run_id"):
            if key in meta:
                return meta[key].decode("utf-8", "replace")[:200]
        if "run_id" in parquet.schema_arrow.names and parquet.metadata.num_rows:
            value = parquet.read_row_group(0, columns=["run_id"]).column(0)[0].as_py()
            return None if value is None else str(value)[:200]
    except (OSError, ValueError, IndexError):
        return None
    return None


def _jsonl_run_id(path: Path) -> str | None:
    """A JSON Lines results file's run id: a ``run_id`` key in its first record."""
    try:
        with open(path, "rb") as handle:
            first = json.loads(handle.readline(1 << 16) or b"null")
    except (OSError, ValueError, RecursionError):
        return None
    value = first.get("run_id") if isinstance(first, dict) else None
    return str(value)[:200] if isinstance(value, (str, int)) else None


def open_results(path: str | Path) -> tuple[ResultsIndex | None, str | None]:
    """The index of a results file, or None and why not (never raises)."""
    path = Path(path)
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        return None, "reviewing results needs pyarrow: pip install 'gate-tui[data]'"
    if not path.is_file() and not path.is_dir():
        return None, f"{path}: no such results file"
    try:
        if path.is_dir() or path.suffix.lower() in (
            ".parquet",
            ".pq",
        ):  # Ray writes a folder of parts
            index = _open_parquet(path)
        else:
            index = _open_jsonl(path)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        return None, f"{path}: not a results file of gate-tui check: {str(exc)[:300]}"
    from gate_tui.results.completion import read_marker

    index.marker = read_marker(path)
    return index, None


def _open_parquet(path: Path) -> ResultsIndex:
    """A Parquet results file, or a folder of parts (read in sorted order, as one table)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from gate_tui.results.sources import parquet_files

    tables, starts, places, first = [], [], [], 0
    for name in parquet_files(str(path)) if path.is_dir() else [str(path)]:
        parquet = pq.ParquetFile(name, pre_buffer=False)
        names = parquet.schema_arrow.names
        missing = [column for column in ("ok", "result") if column not in names]
        if missing:
            raise KeyError(f"{name}: no {', '.join(missing)} column (columns: {', '.join(names)})")
        table = parquet.read(
            columns=[column for column in (*SUMMARY, "fingerprint") if column in names]
        )
        if "fingerprint" not in table.column_names:
            table = table.append_column("fingerprint", pa.nulls(table.num_rows, pa.string()))
        for column, kind in (
            ("line", pa.int64()),
            ("id", pa.string()),
            ("pass", pa.bool_()),
            ("reason", pa.string()),
            ("next_gate", pa.string()),
        ):
            table = with_column(table, column, kind)
        tables.append(table)
        for group in range(parquet.metadata.num_row_groups):
            starts.append(first)
            places.append((Path(name), group))
            first += parquet.metadata.row_group(group).num_rows
    table = (
        tables[0] if len(tables) == 1 else pa.concat_tables(tables, promote_options="permissive")
    )
    fingerprints = table.column("fingerprint")
    fingerprints = None if fingerprints.null_count == len(fingerprints) else fingerprints
    return ResultsIndex(
        path,
        "parquet",
        finish(table),
        group_starts=starts,
        group_places=places,
        fingerprint_column=fingerprints,
    )


# --- JSON Lines ------------------------------------------------------------------------


def _open_jsonl(path: Path) -> ResultsIndex:
    import pyarrow as pa
    import pyarrow.parquet as pq

    stat = path.stat()
    cached = index_cache_path(path, stat.st_size, stat.st_mtime_ns)
    if cached.is_file():
        with contextlib.suppress(OSError, pa.ArrowException, KeyError):
            table = pq.read_table(cached)
            offsets = table.column("offset").to_pylist()
            return ResultsIndex(path, "jsonl", table.drop_columns(["offset"]), offsets=offsets)
    from gate_tui.results.jsonl_index import index_jsonl

    raw, offsets = index_jsonl(path)
    table = finish(raw)
    with contextlib.suppress(OSError, pa.ArrowException):
        cached.parent.mkdir(parents=True, exist_ok=True)
        temporary = cached.with_suffix(f".{os.getpid()}.tmp")
        pq.write_table(table.append_column("offset", pa.array(offsets, pa.int64())), temporary)
        os.replace(temporary, cached)  # whole or absent: a reader never sees half an index
    return ResultsIndex(path, "jsonl", table, offsets=offsets)


def index_cache_path(path: Path, size: int, mtime_ns: int) -> Path:
    """Where the index of this version of ``path`` is cached."""
    override = os.environ.get("GATE_TUI_CACHE_DIR")
    if override:
        base = Path(override)
    else:
        import platformdirs

        base = Path(platformdirs.user_cache_dir("gate-tui", appauthor=False))
    key = hashlib.sha256(
        f"{INDEX_FORMAT}\0{path.resolve()}\0{size}\0{mtime_ns}".encode("utf-8", "surrogateescape")
    ).hexdigest()[:32]
    return base / "review-index" / f"{key}.parquet"
