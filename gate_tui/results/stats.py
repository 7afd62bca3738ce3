"""The statistics of an eval run (``gate-tui stats``), one pass over its results file.

A results file is read a record batch at a time (only the columns the counts need), and
each batch is counted with ``pyarrow.compute``: a group-by over a few small key columns
(the group, the status, the model's claim, the next gate and four flags) whose counts add
up across batches in a dictionary as small as the number of distinct keys. Error and repair
codes are counted the same way from their flattened lists, token usage summed per group.
Time is linear in the rows and memory flat: nothing the size of the run is ever held.

From those counts come, per group and overall: rows per status; the claim-vs-system table
(what the model claimed about the gate status against what the system decided) and, for
the false PASS claims, the gate the system stopped at; the invalid, repaired, guessed and
cut-off rates; the top error and repair codes; token usage; grounding findings when the
results carry a ``grounding`` column.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gate_tui.results.row_summary import STATUSES, SUMMARY
from gate_tui.results.summary import CUT_REASONS

BATCH_ROWS = 1 << 16
CLAIMS = ("PASS", "NO PASS", "none")
SYSTEM = STATUSES
TOKENS = ("prompt_tokens", "completion_tokens", "total_tokens")
GROUNDING = "grounding"
_KEYS = (
    "group",
    "status",
    "claimed",
    "next_gate",
    "repaired",
    "guessed",
    "cut_off",
    "several_states",
    "provider_cut",
)
# The index's summary columns (one source; less its line number), the provider's signals,
# then the grounding column.
_NEEDED = (
    *(name for name in SUMMARY if name not in ("line", GROUNDING)),
    "finish_reason",
    *TOKENS,
    GROUNDING,
)
OVERALL = "(all)"


@dataclass
class GroupStats:
    """The counts of one group of rows (or of all of them)."""

    rows: int = 0
    status: Counter[str] = field(default_factory=Counter)
    claims: Counter[tuple[str, str]] = field(default_factory=Counter)
    """(claimed, system) -> rows; claimed is PASS, NO PASS or none."""
    false_pass_gates: Counter[str] = field(default_factory=Counter)
    """For rows the model claimed PASS and the system said NO PASS: the gate it stopped at."""
    no_pass_gates: Counter[str] = field(default_factory=Counter)
    flags: Counter[str] = field(default_factory=Counter)
    """repaired, guessed, cut_off, provider_cut, several_states, claim_overruled."""
    error_codes: Counter[str] = field(default_factory=Counter)
    repair_codes: Counter[str] = field(default_factory=Counter)
    tokens: Counter[str] = field(default_factory=Counter)
    grounding: Counter[str] = field(default_factory=Counter)

    def rate(self, name: str) -> float:
        """The share of rows with a flag (``invalid`` counts the invalid status)."""
        count = self.status["invalid"] if name == "invalid" else self.flags[name]
        return count / self.rows if self.rows else 0.0

    def add(self, other: GroupStats) -> None:
        self.rows += other.rows
        for name in (
            "status",
            "claims",
            "false_pass_gates",
            "no_pass_gates",
            "flags",
            "error_codes",
            "repair_codes",
            "tokens",
            "grounding",
        ):
            getattr(self, name).update(getattr(other, name))


@dataclass
class RunStats:
    """A run's statistics: every group's, and all rows'."""

    path: str
    by: str | None
    overall: GroupStats
    groups: dict[str, GroupStats]
    has_tokens: bool = False
    has_grounding: bool = False
    agreement: Any = None
    """Reviewers' agreement (:mod:`gate_tui.results.agreement`), when verdicts exist."""


def run_stats(path: str | Path, by: str | None = None) -> tuple[RunStats | None, str | None]:
    """The statistics of the results at ``path``, or None and why not (never raises)."""
    try:
        import pyarrow as pa
    except ImportError:
        return None, "stats needs pyarrow: pip install 'gate-tui[data]'"
    path = Path(path)
    if not path.exists():
        return None, f"{path}: no such results file"
    groups: dict[str, GroupStats] = {}
    seen = {"tokens": False, "grounding": False}
    try:
        for batch in result_batches(path, by):
            count_batch(batch, groups, seen)
    except KeyError as exc:
        return None, str(exc.args[0])
    except (OSError, ValueError, TypeError, pa.ArrowException) as exc:
        return None, f"{path}: not a results file of gate-tui check: {str(exc)[:300]}"
    overall = GroupStats()
    for group in groups.values():
        overall.add(group)
    ordered = dict(sorted(groups.items(), key=lambda item: item[0]))
    return RunStats(
        str(path), by, overall, ordered if by else {}, seen["tokens"], seen["grounding"]
    ), None


def result_batches(path: Path, by: str | None) -> Iterator[Any]:
    """The results' summary columns (:func:`gate_tui.results.index.summarise`), plus
    ``group`` (``by``'s values as text), a batch at a time."""
    import pyarrow.compute as pc

    from gate_tui.results.row_summary import summarise

    for table, names in raw_batches(path, by):
        if by is not None and by not in names:
            raise KeyError(
                f"{path}: no column {by!r} to group by (columns: {', '.join(names)[:600]})"
            )
        out = summarise(table)
        group = pc.cast(table.column(by), "string") if by is not None else None
        out = out.append_column(
            "group", group if group is not None else _constant(OVERALL, table.num_rows)
        )
        for name in ("finish_reason", *TOKENS, GROUNDING):  # grounding: summarised already
            if name in table.column_names and name not in out.column_names:
                out = out.append_column(name, table.column(name))
        yield out


def raw_batches(path: Path, by: str | None) -> Iterator[tuple[Any, list[str]]]:
    import pyarrow as pa
    import pyarrow.parquet as pq

    from gate_tui.results.sources import parquet_files

    if path.is_dir() or path.suffix.lower() in (".parquet", ".pq"):
        for name in parquet_files(str(path)) if path.is_dir() else [str(path)]:
            parquet = pq.ParquetFile(name, pre_buffer=False)
            names = parquet.schema_arrow.names
            if "ok" not in names:
                raise KeyError(f"{name}: no ok column: not a results file of gate-tui check")
            wanted = [
                column
                for column in dict.fromkeys((*_NEEDED, *([by] if by else [])))
                if column in names
            ]
            try:
                for batch in parquet.iter_batches(batch_size=BATCH_ROWS, columns=wanted):
                    yield pa.Table.from_batches([batch]), names
            finally:
                parquet.close()
        return
    from gate_tui.results.index import open_results

    index, problem = open_results(path)  # JSON Lines: the review's (cached) index
    if index is None:
        raise KeyError(problem or f"{path}: cannot read")
    table = index.table
    if by is not None and by not in table.column_names and index.kind == "jsonl":
        from gate_tui.results.jsonl_keys import key_column

        column = key_column(path, index.offsets, by)  # a key check carried into the records
        if column is not None:
            table = table.append_column(by, column)
    for start in range(0, max(index.rows, 1), BATCH_ROWS):
        yield table.slice(start, BATCH_ROWS), table.column_names


def _constant(value: str, rows: int) -> Any:
    import pyarrow as pa

    return (
        pa.array([value], pa.string()).take(pa.array([0] * rows, pa.int32()))
        if rows
        else pa.array([], pa.string())
    )


def count_batch(table: Any, groups: dict[str, GroupStats], seen: dict[str, bool]) -> None:
    import pyarrow as pa
    import pyarrow.compute as pc

    rows = table.num_rows
    if rows == 0:
        return
    finish = (
        table.column("finish_reason")
        if "finish_reason" in table.column_names
        else pa.nulls(rows, pa.string())
    )
    keys = pa.table(
        {
            "group": pc.fill_null(table.column("group"), "(none)"),
            "status": table.column("status"),
            "claimed": pc.fill_null(table.column("claimed"), "none"),
            "next_gate": table.column("next_gate"),
            "repaired": pc.greater(pc.fill_null(table.column("repairs"), 0), 0),
            "guessed": table.column("guessed"),
            "cut_off": table.column("cut_off"),
            "several_states": table.column("several_states"),
            "provider_cut": pc.fill_null(pc.is_in(finish, value_set=pa.array(CUT_REASONS)), False),
        }
    )
    for row in keys.group_by(list(_KEYS)).aggregate([([], "count_all")]).to_pylist():
        _tally(groups.setdefault(row["group"], GroupStats()), row, row["count_all"])
    for column, target in (("error_codes", "error_codes"), ("repair_codes", "repair_codes")):
        _count_lists(table, column, target, groups)
    present = [name for name in TOKENS if name in table.column_names]
    if present:
        seen["tokens"] = True
        sums = pa.table(
            {
                "group": keys.column("group"),
                **{name: pc.cast(table.column(name), pa.int64()) for name in present},
            }
        )
        for row in (
            sums.group_by("group").aggregate([(name, "sum") for name in present]).to_pylist()
        ):
            for name in present:
                groups[row["group"]].tokens[name] += row[f"{name}_sum"] or 0
    if GROUNDING in table.column_names:
        seen["grounding"] = True
        _count_grounding(table, keys.column("group"), groups)


def _tally(stats: GroupStats, row: dict[str, Any], count: int) -> None:
    status, claimed = row["status"], row["claimed"]
    stats.rows += count
    stats.status[status] += count
    stats.claims[(claimed, status)] += count
    if status == "NO PASS":
        stats.no_pass_gates[row["next_gate"] or "(none)"] += count
        if claimed == "PASS":
            stats.false_pass_gates[row["next_gate"] or "(none)"] += count
    if (claimed, status) in (("PASS", "NO PASS"), ("NO PASS", "PASS")):
        stats.flags["claim_overruled"] += count
    for flag in ("repaired", "guessed", "cut_off", "several_states", "provider_cut"):
        if row[flag]:
            stats.flags[flag] += count


def _count_lists(table: Any, column: str, target: str, groups: dict[str, GroupStats]) -> None:
    import pyarrow as pa
    import pyarrow.compute as pc

    lists = table.column(column)
    flat = pc.list_flatten(lists)
    if len(flat) == 0:
        return
    owners = pc.take(pc.fill_null(table.column("group"), "(none)"), pc.list_parent_indices(lists))
    pairs = pa.table({"group": owners, "code": flat})
    for row in pairs.group_by(["group", "code"]).aggregate([([], "count_all")]).to_pylist():
        getattr(groups[row["group"]], target)[row["code"] or "(none)"] += row["count_all"]


def _count_grounding(table: Any, group: Any, groups: dict[str, GroupStats]) -> None:
    """A ``grounding`` column's findings: text or flags counted as values, lists item by
    item; anything else by its text."""
    import pyarrow as pa
    import pyarrow.compute as pc

    column = table.column(GROUNDING)
    kind = column.type
    if pa.types.is_list(kind) or pa.types.is_large_list(kind):
        owners, values = pc.take(group, pc.list_parent_indices(column)), pc.list_flatten(column)
    else:
        owners, values = group, column
    if pa.types.is_struct(values.type):
        values = pa.array(
            [None if value is None else str(value) for value in values.to_pylist()], pa.string()
        )
    else:
        values = pc.cast(values, pa.string())
    pairs = pa.table({"group": owners, "value": values}).filter(pc.is_valid(values))
    for row in pairs.group_by(["group", "value"]).aggregate([([], "count_all")]).to_pylist():
        groups[row["group"]].grounding[row["value"]] += row["count_all"]


def table_stats(table: Any, group: Any = None) -> tuple[GroupStats, dict[str, GroupStats]]:
    """The counts of a review index's summary table (already in memory), in slices: all
    rows', and, given ``group`` (an Arrow array of each row's group), each group's."""
    import pyarrow.compute as pc

    groups: dict[str, GroupStats] = {}
    seen = {"tokens": False, "grounding": False}
    for start in range(0, table.num_rows, BATCH_ROWS):
        part = table.slice(start, BATCH_ROWS)
        if group is None:
            keys = _constant(OVERALL, part.num_rows)
        else:
            keys = pc.cast(group.slice(start, BATCH_ROWS), "string")
        count_batch(part.append_column("group", keys), groups, seen)
    overall = GroupStats()
    for stats in groups.values():
        overall.add(stats)
    return overall, ({} if group is None else dict(sorted(groups.items())))
