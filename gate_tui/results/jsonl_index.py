"""Indexing a JSON Lines results file of ``gate-tui check``: each record's byte offset and
summary columns (see :mod:`gate_tui.results.index`, which caches what this builds).

pyarrow's JSON reader does the work in C++ with an explicit schema of just the fields
needed (everything else in a record is skipped); the byte offsets come from a plain scan
for line ends. Records whose ids are not all text make that reader refuse: their ids and
line numbers are then read from each line's head in Python. A file the reader refuses
anyway (a line that is not JSON, say) is indexed line by line in Python; such a line is a
row with status invalid.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

from gate_tui.results.summary import CLAIM_WORDS, CUT_OFF_WORDS, claim_word
from gate_tui.warning_codes import DIFFERENT_STATES, REPAIRED_PREFIX, TRUNCATED_REPLY, is_repair


def index_jsonl(path: Path) -> tuple[Any, list[int]]:
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
        table = table.append_column("id", pa.array(ids, pa.string())).append_column(
            "line", pa.array(lines, pa.int64())
        )
    return table, offsets


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
        ("errors", pa.list_(pa.struct([("code", pa.string()), ("message", pa.string())]))),
        ("warnings", coded),
        ("repairs", pa.list_(pa.struct([("certainty", pa.string()), ("code", pa.string())]))),
        ("claimed_status", pa.struct([("pass", pa.bool_())])),
        ("grounding", pa.struct([("summary", pa.string())])),
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
        flat = flat.append_column("id", table.column("id")).append_column(
            "line", table.column("line")
        )
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
    guessed = pc.is_in(
        pa.array(range(table.num_rows), pa.int64()), value_set=pc.cast(guessed_rows, pa.int64())
    )
    warning_codes = pc.list_flatten(_list_field(warnings, "code"))
    plain = pc.invert(pc.starts_with(warning_codes, REPAIRED_PREFIX))
    warn_parents = pc.filter(pc.list_parent_indices(_list_field(warnings, "code")), plain)
    warn_counts = pc.value_counts(warn_parents).to_pylist()
    counts = [0] * table.num_rows
    for entry in warn_counts:
        counts[entry["values"]] = entry["counts"]
    messages = _list_field(errors, "message")
    flat_codes = _list_field(warnings, "code")
    cut = _rows_where(
        pc.match_substring(pc.list_flatten(messages), CUT_OFF_WORDS), messages, table.num_rows
    )
    cut = pc.or_(
        cut,
        _rows_where(
            pc.equal(pc.list_flatten(flat_codes), TRUNCATED_REPLY), flat_codes, table.num_rows
        ),
    )
    several = _rows_where(
        pc.equal(pc.list_flatten(flat_codes), DIFFERENT_STATES), flat_codes, table.num_rows
    )
    claim = pc.struct_field(pc.struct_field(result, "claimed_status"), "pass")
    claimed = pc.if_else(claim, CLAIM_WORDS[True], CLAIM_WORDS[False])
    return pa.table({
        "ok": table.column("ok"),
        "pass": table.column("pass"),
        "reason": pc.struct_field(decision, "reason"),
        "next_gate": pc.struct_field(decision, "next_gate"),
        "error_codes": codes,
        "repairs": pc.cast(pc.fill_null(pc.list_value_length(repairs), 0), pa.int32()),
        "guessed": guessed,
        "warnings": pa.array(counts, pa.int32()),
        "claimed": claimed,
        "cut_off": cut,
        "several_states": several,
        "repair_codes": _list_field(repairs, "code"),
        "grounding": pc.struct_field(pc.struct_field(result, "grounding"), "summary"),
    })


def _rows_where(hits: Any, lists: Any, rows: int) -> Any:
    """A row mask: does any item of the row's list hit (``hits`` is over the flat items)?"""
    import pyarrow as pa
    import pyarrow.compute as pc

    parents = pc.filter(pc.list_parent_indices(lists), pc.fill_null(hits, False))
    return pc.is_in(pa.array(range(rows), pa.int64()), value_set=pc.cast(parents, pa.int64()))


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
    return pa.Table.from_pylist(
        rows,
        schema=pa.schema(
            [
                ("ok", pa.bool_()),
                ("pass", pa.bool_()),
                ("reason", pa.string()),
                ("next_gate", pa.string()),
                ("error_codes", pa.list_(pa.string())),
                ("repairs", pa.int32()),
                ("guessed", pa.bool_()),
                ("warnings", pa.int32()),
                ("claimed", pa.string()),
                ("cut_off", pa.bool_()),
                ("several_states", pa.bool_()),
                ("repair_codes", pa.list_(pa.string())),
                ("grounding", pa.string()),
            ]
        ),
    )


def _summary_of(record: dict[str, Any]) -> dict[str, Any]:
    result = record.get("result") if isinstance(record.get("result"), dict) else {}
    decision = result.get("decision") if isinstance(result.get("decision"), dict) else {}
    listed = {
        name: [item for item in result.get(name) or [] if isinstance(item, dict)]
        for name in ("errors", "repairs", "warnings")
    }
    return {
        "ok": record.get("ok") is True,
        "pass": record.get("pass") if isinstance(record.get("pass"), bool) else None,
        "reason": str(decision["reason"]) if decision.get("reason") is not None else None,
        "next_gate": str(decision["next_gate"]) if decision.get("next_gate") is not None else None,
        "error_codes": [str(item.get("code")) for item in listed["errors"]],
        "repairs": len(listed["repairs"]),
        "guessed": any(item.get("certainty") == "guess" for item in listed["repairs"]),
        "warnings": sum(
            1 for item in listed["warnings"] if not is_repair(str(item.get("code", "")))
        ),
        "claimed": _claim(result.get("claimed_status")),
        "cut_off": any(CUT_OFF_WORDS in str(item.get("message", "")) for item in listed["errors"])
        or any(item.get("code") == TRUNCATED_REPLY for item in listed["warnings"]),
        "several_states": any(item.get("code") == DIFFERENT_STATES for item in listed["warnings"]),
        "repair_codes": [str(item.get("code")) for item in listed["repairs"]],
        "grounding": _grounding_summary(result.get("grounding")),
    }


def _claim(status: Any) -> str | None:
    return claim_word(status.get("pass")) if isinstance(status, dict) else None


def _grounding_summary(grounding: Any) -> str | None:
    summary = grounding.get("summary") if isinstance(grounding, dict) else None
    return summary if isinstance(summary, str) else None
