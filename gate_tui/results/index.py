"""The index of a results file from ``gate-tui check`` (Parquet or JSON Lines): the small
columns of every row, in memory, and each row's full result on demand.

A reviewer's table and filters need, per row, its position, id, status (PASS / NO PASS /
VALID / invalid), reason, next gate, error codes, repair counts and whether a repair was
a guess: a few bytes a row, so a million rows sit in one Arrow table and a filter over
them is a columnar pass (:mod:`gate_tui.results.filtering`). The full result (kilobytes a
row) stays in the file and is read when a row is opened:

* Parquet: those columns only are read (never the ``result`` column); a row's result is
  read from its row group, the last one or two kept (neighbours are opened in turn).
* JSON Lines: indexed on first open — each line's byte offset plus its summary columns,
  parsed by pyarrow's JSON reader in C++ — and the index is cached as Parquet (keyed by
  the file's path, size and modification time), so the next open reads only the cache.

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

from gate_tui.warning_codes import REPAIRED_PREFIX, is_repair

INDEX_FORMAT = 1
SUMMARY = ("line", "id", "ok", "pass", "reason", "next_gate", "error_codes", "repairs", "guessed", "warnings")
STATUSES = ("PASS", "NO PASS", "VALID", "invalid")


@dataclass
class ResultsIndex:
    """Every row's summary (``table``: :data:`SUMMARY` columns plus ``status``) and the way
    to each row's full result."""

    path: Path
    kind: str  # "parquet" or "jsonl"
    table: Any
    offsets: list[int] = field(default_factory=list)  # JSONL: byte offset of each row's line
    group_starts: list[int] = field(default_factory=list)  # Parquet: first row of each row group
    _groups: dict[int, Any] = field(default_factory=dict)

    @property
    def rows(self) -> int:
        return self.table.num_rows

    def counts(self) -> dict[str, int]:
        """How many rows have each status (every status, zero included)."""
        import pyarrow.compute as pc

        found = {row["values"]: row["counts"] for row in pc.value_counts(self.table.column("status")).to_pylist()}
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

    def _parquet_result(self, row: int) -> str | None:
        return self._parquet_cell(row, "result")

    def _parquet_cell(self, row: int, name: str) -> Any:
        """One cell of a big column, read with its row group (the last two groups kept)."""
        import pyarrow.parquet as pq

        group = bisect_right(self.group_starts, row) - 1
        table = self._groups.get(group)
        if table is None:
            parquet = pq.ParquetFile(self.path, pre_buffer=False)
            wanted = [column for column in ("result", "reply") if column in parquet.schema_arrow.names]
            table = parquet.read_row_group(group, columns=wanted)
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


def open_results(path: str | Path) -> tuple[ResultsIndex | None, str | None]:
    """The index of a results file, or None and why not (never raises)."""
    path = Path(path)
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        return None, "reviewing results needs pyarrow: pip install 'gate-tui[data]'"
    if not path.is_file():
        return None, f"{path}: no such results file"
    try:
        if path.suffix.lower() in (".parquet", ".pq"):
            return _open_parquet(path), None
        return _open_jsonl(path), None
    except (OSError, ValueError, KeyError, TypeError) as exc:
        return None, f"{path}: not a results file of gate-tui check: {str(exc)[:300]}"


def _open_parquet(path: Path) -> ResultsIndex:
    import pyarrow as pa
    import pyarrow.parquet as pq

    parquet = pq.ParquetFile(path, pre_buffer=False)
    names = parquet.schema_arrow.names
    missing = [name for name in ("ok", "result") if name not in names]
    if missing:
        raise KeyError(f"no {', '.join(missing)} column (columns: {', '.join(names)})")
    table = parquet.read(columns=[name for name in SUMMARY if name in names])
    for name, kind in (("line", pa.int64()), ("id", pa.string()), ("pass", pa.bool_()), ("reason", pa.string()), ("next_gate", pa.string())):
        table = _with_column(table, name, kind)
    starts, first = [], 0
    for group in range(parquet.metadata.num_row_groups):
        starts.append(first)
        first += parquet.metadata.row_group(group).num_rows
    return ResultsIndex(path, "parquet", _finish(table), group_starts=starts)


def _with_column(table: Any, name: str, kind: Any) -> Any:
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
        cast = pa.array([None if value is None else json.dumps(value, default=str) for value in column.to_pylist()], kind)
    return table.set_column(table.column_names.index(name), name, cast)


def _finish(table: Any) -> Any:
    """The summary columns in a fixed order, plus ``status``."""
    import pyarrow as pa
    import pyarrow.compute as pc

    for name, kind in (("error_codes", pa.list_(pa.string())), ("repairs", pa.int32()), ("guessed", pa.bool_()), ("warnings", pa.int32())):
        table = _with_column(table, name, kind)
    ok = pc.fill_null(table.column("ok"), False)
    passed = table.column("pass")
    verdict = pc.if_else(pc.is_null(passed), "VALID", pc.if_else(pc.fill_null(passed, False), "PASS", "NO PASS"))
    status = pc.if_else(ok, verdict, "invalid")
    return table.select(list(SUMMARY)).append_column("status", status)


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
    table, offsets = _index_jsonl(path)
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
    key = hashlib.sha256(f"{INDEX_FORMAT}\0{path.resolve()}\0{size}\0{mtime_ns}".encode("utf-8", "surrogateescape")).hexdigest()[:32]
    return base / "review-index" / f"{key}.parquet"


def _index_jsonl(path: Path) -> tuple[Any, list[int]]:
    """Offsets by a scan for line ends; everything else by pyarrow's JSON reader (C++, all
    cores). Ids that are not all text (or null) make that reader refuse: they are then read
    from each line's head in Python; a file the reader refuses anyway is indexed line by line."""
    import pyarrow as pa

    offsets = _line_offsets(path)
    table = _summaries_or_none(path, heads=True)
    if table is None or table.num_rows != len(offsets):
        offsets, ids, lines = _scan_heads(path)
        table = _summaries_or_none(path, heads=False)
        if table is None or table.num_rows != len(offsets):
            table = _slow_summaries(path, offsets)
        table = table.append_column("id", pa.array(ids, pa.string())).append_column("line", pa.array(lines, pa.int64()))
    return _finish(table), offsets


def _summaries_or_none(path: Path, heads: bool) -> Any:
    import pyarrow as pa

    try:
        return _read_summaries(path, heads)
    except (pa.ArrowException, OSError):
        return None


def _line_offsets(path: Path) -> list[int]:
    """The byte offset of every line that is not blank (blank lines hold no record)."""
    offsets: list[int] = []
    position = 0
    with open(path, "rb", buffering=1 << 20) as handle:
        for raw in handle:
            if raw.strip():
                offsets.append(position)
            position += len(raw)
    return offsets


def _scan_heads(path: Path) -> tuple[list[int], list[str | None], list[int | None]]:
    offsets: list[int] = []
    ids: list[str | None] = []
    lines: list[int | None] = []
    position = 0
    with open(path, "rb", buffering=1 << 20) as handle:
        for raw in handle:
            if raw.strip():
                offsets.append(position)
                ident, number = _head(raw)
                ids.append(ident)
                lines.append(number)
            position += len(raw)
    return offsets, ids, lines


def _head(raw: bytes) -> tuple[str | None, int | None]:
    """The id (as text) and line number of a ``check`` record, read from its head."""
    if not raw.startswith(b'{"id":'):
        return None, None
    end = raw.find(b',"line":', 6)
    if end < 0:
        return None, None
    ident = raw[6:end]
    stop = raw.find(b",", end + 8)
    digits = raw[end + 8 : stop]
    number = int(digits) if digits.isdigit() else None
    if ident == b"null":
        return None, number
    if ident.startswith(b'"'):
        with contextlib.suppress(ValueError):
            return json.loads(ident), number
    return ident.decode("utf-8", "replace"), number


def _schema() -> Any:
    import pyarrow as pa

    coded = pa.list_(pa.struct([("code", pa.string())]))
    result = pa.struct([
        ("decision", pa.struct([("reason", pa.string()), ("next_gate", pa.string())])),
        ("errors", coded),
        ("warnings", coded),
        ("repairs", pa.list_(pa.struct([("certainty", pa.string())]))),
    ])
    return pa.schema([("ok", pa.bool_()), ("pass", pa.bool_()), ("result", result)])


def _read_summaries(path: Path, heads: bool = False) -> Any:
    """The summary columns by pyarrow's JSON reader; ``heads``: the id (as text) and line too."""
    import pyarrow as pa
    import pyarrow.json as pj

    schema = _schema()
    if heads:
        schema = schema.append(pa.field("id", pa.string())).append(pa.field("line", pa.int64()))
    options = pj.ParseOptions(explicit_schema=schema, unexpected_field_behavior="ignore")
    table = pj.read_json(path, parse_options=options)
    flat = _flatten(table)
    if heads:
        flat = flat.append_column("id", table.column("id")).append_column("line", table.column("line"))
    return flat


def _flatten(table: Any) -> Any:
    """The nested result fields as the summary columns."""
    import pyarrow as pa
    import pyarrow.compute as pc

    result = table.column("result")
    decision = pc.struct_field(result, "decision")
    errors = pc.struct_field(result, "errors")
    repairs = pc.struct_field(result, "repairs")
    warnings = pc.struct_field(result, "warnings")
    codes = _list_field(errors, "code")
    certainty = _list_field(repairs, "certainty")
    guess = pc.equal(pc.list_flatten(certainty), "guess")
    parents = pc.list_parent_indices(certainty)
    guessed_rows = pc.filter(parents, guess)
    guessed = pc.is_in(pa.array(range(table.num_rows), pa.int64()), value_set=pc.cast(guessed_rows, pa.int64()))
    warning_codes = pc.list_flatten(_list_field(warnings, "code"))
    plain = pc.invert(pc.starts_with(warning_codes, REPAIRED_PREFIX))
    warn_parents = pc.filter(pc.list_parent_indices(_list_field(warnings, "code")), plain)
    warn_counts = pc.value_counts(warn_parents).to_pylist()
    counts = [0] * table.num_rows
    for entry in warn_counts:
        counts[entry["values"]] = entry["counts"]
    return pa.table({
        "ok": table.column("ok"),
        "pass": table.column("pass"),
        "reason": pc.struct_field(decision, "reason"),
        "next_gate": pc.struct_field(decision, "next_gate"),
        "error_codes": codes,
        "repairs": pc.cast(pc.fill_null(pc.list_value_length(repairs), 0), pa.int32()),
        "guessed": guessed,
        "warnings": pa.array(counts, pa.int32()),
    })


def _list_field(lists: Any, name: str) -> Any:
    """``list<struct{name}>`` to ``list<string>`` (null lists become empty)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    lists = lists.combine_chunks() if hasattr(lists, "combine_chunks") else lists
    lists = pc.fill_null(lists, pa.scalar([], lists.type)) if lists.null_count else lists
    values = pc.struct_field(lists.values, name)
    return pa.ListArray.from_arrays(lists.offsets, values)


def _slow_summaries(path: Path, offsets: list[int]) -> Any:
    """The summaries line by line in Python: for a file pyarrow's reader refuses."""
    import pyarrow as pa

    rows: list[dict[str, Any]] = []
    with open(path, "rb") as handle:
        for offset in offsets:
            handle.seek(offset)
            try:
                record = json.loads(handle.readline())
            except (ValueError, RecursionError):
                record = None
            rows.append(_summary_of(record if isinstance(record, dict) else {}))
    return pa.Table.from_pylist(rows, schema=pa.schema([
        ("ok", pa.bool_()), ("pass", pa.bool_()), ("reason", pa.string()), ("next_gate", pa.string()),
        ("error_codes", pa.list_(pa.string())), ("repairs", pa.int32()), ("guessed", pa.bool_()), ("warnings", pa.int32()),
    ]))


def _summary_of(record: dict[str, Any]) -> dict[str, Any]:
    result = record.get("result") if isinstance(record.get("result"), dict) else {}
    decision = result.get("decision") if isinstance(result.get("decision"), dict) else {}
    listed = {name: [item for item in result.get(name) or [] if isinstance(item, dict)] for name in ("errors", "repairs", "warnings")}
    return {
        "ok": record.get("ok") is True,
        "pass": record.get("pass") if isinstance(record.get("pass"), bool) else None,
        "reason": str(decision["reason"]) if decision.get("reason") is not None else None,
        "next_gate": str(decision["next_gate"]) if decision.get("next_gate") is not None else None,
        "error_codes": [str(item.get("code")) for item in listed["errors"]],
        "repairs": len(listed["repairs"]),
        "guessed": any(item.get("certainty") == "guess" for item in listed["repairs"]),
        "warnings": sum(1 for item in listed["warnings"] if not is_repair(str(item.get("code", "")))),
    }
