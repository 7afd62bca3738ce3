"""Two runs compared row by row on their ids (``gate-tui stats A B``): what changed.

Only each row's id and status are kept (a few bytes a row); the rows are matched by an
Arrow hash join, and the changes counted by a group-by: newly failing (PASS in A, NO PASS
or invalid in B), newly passing (the reverse), and every other move. A row whose id
appears more than once in a run cannot be matched and is counted apart, as are rows with
no id and ids found in only one run.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

SAMPLE = 20


def compare_runs(first: str | Path, second: str | Path) -> tuple[dict[str, Any] | None, str | None]:
    """The comparison as plain data, or None and why not (never raises)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    tables = []
    for path in (first, second):
        table, problem = _ids_and_status(Path(path))
        if table is None:
            return None, problem
        tables.append(table)
    parts = []
    for table in tables:
        counts = table.group_by("id").aggregate([([], "count_all")])
        repeated = counts.filter(pc.greater(counts.column("count_all"), 1)).column("id")
        keep = pc.and_(
            pc.is_valid(table.column("id")),
            pc.invert(pc.is_in(table.column("id"), value_set=repeated)),
        )
        parts.append(
            (table.filter(keep), table.num_rows - pc.sum(pc.cast(keep, pa.int64())).as_py())
        )
    (a, a_unmatched), (b, b_unmatched) = parts
    joined = a.join(
        b, "id", join_type="full outer", left_suffix="_a", right_suffix="_b", coalesce_keys=True
    )
    moves = joined.group_by(["status_a", "status_b"]).aggregate([([], "count_all")]).to_pylist()
    changes = {
        f"{row['status_a'] or 'absent'} -> {row['status_b'] or 'absent'}": row["count_all"]
        for row in moves
    }
    failing = pc.and_(
        pc.equal(joined.column("status_a"), "PASS"),
        pc.is_in(joined.column("status_b"), value_set=pa.array(["NO PASS", "invalid"])),
    )
    passing = pc.and_(
        pc.is_in(joined.column("status_a"), value_set=pa.array(["NO PASS", "invalid"])),
        pc.equal(joined.column("status_b"), "PASS"),
    )
    failing, passing = (pc.fill_null(mask, False) for mask in (failing, passing))
    return {
        "a": str(first),
        "b": str(second),
        "matched": sum(count for move, count in changes.items() if "absent" not in move),
        "only_in_a": sum(count for move, count in changes.items() if move.endswith("-> absent")),
        "only_in_b": sum(count for move, count in changes.items() if move.startswith("absent ->")),
        "unmatchable_a": a_unmatched,
        "unmatchable_b": b_unmatched,
        "newly_failing": pc.sum(pc.cast(failing, pa.int64())).as_py() or 0,
        "newly_passing": pc.sum(pc.cast(passing, pa.int64())).as_py() or 0,
        "changes": dict(sorted(changes.items(), key=lambda item: -item[1])),
        "newly_failing_ids": joined.filter(failing).column("id").slice(0, SAMPLE).to_pylist(),
        "newly_passing_ids": joined.filter(passing).column("id").slice(0, SAMPLE).to_pylist(),
    }, None


def _ids_and_status(path: Path) -> tuple[Any, str | None]:
    import pyarrow as pa
    import pyarrow.compute as pc

    from gate_tui.results.stats import raw_batches

    if not path.exists():
        return None, f"{path}: no such results file"
    from gate_tui.results.row_summary import summarise

    pieces = []
    try:
        for table, _names in raw_batches(path, None):
            if "id" not in table.column_names:
                table = table.append_column("id", pa.nulls(table.num_rows, pa.string()))
            ids = pc.cast(table.column("id"), pa.string())
            pieces.append(pa.table({"id": ids, "status": summarise(table).column("status")}))
    except KeyError as exc:
        return None, str(exc.args[0])
    except (OSError, ValueError, TypeError, pa.ArrowException) as exc:
        return None, f"{path}: not a results file of gate-tui check: {str(exc)[:300]}"
    if not pieces:
        return pa.table(
            {"id": pa.array([], pa.string()), "status": pa.array([], pa.string())}
        ), None
    return pa.concat_tables(pieces), None


def compare_text(data: dict[str, Any]) -> str:
    """The comparison for a terminal."""
    out = [
        f"gate-tui stats: {data['a']} -> {data['b']}",
        f"  {data['matched']:,} rows matched by id; {data['only_in_a']:,} only in A, "
        f"{data['only_in_b']:,} only in B"
        + (
            f"; {data['unmatchable_a'] + data['unmatchable_b']:,} without a unique id"
            if data["unmatchable_a"] + data["unmatchable_b"]
            else ""
        ),
        f"  newly failing: {data['newly_failing']:,}; newly passing: {data['newly_passing']:,}",
        "  changes (A -> B):",
    ]
    out += [f"    {move:<28} {count:>10,}" for move, count in data["changes"].items()]
    for key, words in (
        ("newly_failing_ids", "newly failing ids"),
        ("newly_passing_ids", "newly passing ids"),
    ):
        if data[key]:
            out.append(f"  {words}: " + ", ".join(repr(ident)[:60] for ident in data[key]))
    return "\n".join(out) + "\n"
