"""``gate-tui check --engine ray``: the batch function on a Ray cluster, through Ray Data.

The job is one map over independent batches (``read_parquet -> map_batches``, which writes):
no shuffle, no state shared between rows, so it scales with the cores Ray is given.
:class:`~gate_tui.runs.arrow_rows.GateCheck` is built once per worker (the config is
validated once there) and checks each Arrow batch as ``check --input`` does. ``ray.init()``
joins the cluster named by ``RAY_ADDRESS``, or starts a local one.

Each worker writes the Parquet files of the batches it checks (:class:`CheckAndWrite`) and
sends back only their counts, for the summary line and the exit status.
"""

from __future__ import annotations

import os
import sys
import time
from dataclasses import replace
from typing import Any

import ray
import ray.data

from gate_tui.results.sources import has_wildcard, parquet_files
from gate_tui.runs import budget
from gate_tui.runs.arrow_rows import Columns, GateCheck, carried_names
from gate_tui.runs.engine import BatchSettings, BatchStats

ROW_HASH = "row_hash"  # Ray's deterministic row identity (read_parquet(include_row_hash=True))
READ_BLOCK_BYTES = 16 * 1024 * 1024
"""Ray Data's blocks of replies (about 10,000 rows of 1.5 KB), for this dataset only. With
Ray's default (128 MiB) a file of 100,000 rows was read as blocks of 10,000, 80,000 and
10,000 rows: each block goes to one worker as a whole, so with 2 workers one of them
checked 80% of the rows alone (1.2x the speed of one worker). Blocks of ~10,000 rows
share the work evenly, for a start-up cost per block of a few milliseconds."""


def run_on_ray(
    source: str,
    output: str,
    settings: BatchSettings,
    columns: Columns,
    jobs: int,
    quiet: bool = False,
) -> int:
    """Check ``source`` (Parquet files, local or remote) into the Parquet folder ``output``."""
    started = time.perf_counter()
    if not ray.is_initialized():
        # A local instance (no RAY_ADDRESS) gets one CPU more than the machine has: the
        # workers each hold a CPU for the whole run, and the light listing and reading
        # tasks would otherwise wait for one forever with -j equal to the cores.
        local = (
            {}
            if os.environ.get("RAY_ADDRESS")
            else {"num_cpus": max(os.cpu_count() or 1, jobs) + 1}
        )
        # No dashboard: its processes take CPU from the workers, and the CLI never shows it.
        ray.init(logging_level="ERROR", log_to_driver=False, include_dashboard=False, **local)
    dataset = ray.data.read_parquet(
        parquet_files(source) if has_wildcard(source) else source, include_row_hash=True
    )  # Ray expands no wildcard
    dataset.context.target_max_block_size = (
        READ_BLOCK_BYTES  # this dataset's own copy of the context
    )
    names = dataset.schema().names
    if columns.reply not in names:
        raise KeyError(
            f"{source} has no {columns.reply!r} column"
            f" (columns: {', '.join(names) or 'none'}); see --reply-column"
        )
    # The input's other columns ride along into the results, as with the local engine.
    carried = carried_names([name for name in names if name != ROW_HASH], columns)
    columns = replace(columns, carry=tuple(carried))
    own = (columns.id, columns.reply, columns.previous, columns.actor)
    own += (columns.finish_reason, columns.usage, columns.messages)  # messages: grounding
    wanted = list(dict.fromkeys((*own, *columns.carry)))
    dataset = dataset.select_columns([name for name in wanted if name in names] + [ROW_HASH])
    filesystem, folder = _filesystem(output)
    filesystem.create_dir(folder, recursive=True)
    counted = dataset.map_batches(
        CheckAndWrite,
        fn_constructor_args=(settings, output, columns),
        batch_format="pyarrow",
        # Ray's own blocks (bounded in bytes by READ_BLOCK_BYTES), never a count of rows:
        # 4,096 rows of a 1 MB reply would be 4 GB in one worker.
        batch_size=None,
        compute=ray.data.ActorPoolStrategy(size=max(jobs, 1)),
    )
    stats = BatchStats(words=getattr(settings.checker, "WORDS", BatchStats.words))
    for batch in counted.iter_batches(batch_size=None, batch_format="pyarrow"):
        for row in batch.to_pylist():
            stats.passed += row["passed"]
            stats.no_pass += row["no_pass"]
            stats.invalid += row["invalid"]
            stats.error_codes.update(dict(zip(row["codes"], row["counts"], strict=True)))
    if not quiet:
        sys.stderr.write(stats.summary(time.perf_counter() - started) + "\n")
    return stats.exit_status()


class CheckAndWrite:
    """:class:`GateCheck`, and each checked batch written as a Parquet file straight from the
    worker; the batch's counts are all that goes back.

    Ray Data's ``write_parquet`` runs as a stage of its own: every result (~4 KB a row with
    the reply) went through Ray's object store to a separate write task, and those tasks took
    CPU from the workers (on 2 cores, 2 workers were 1.3x one). A file is named after its
    batch's first row (Ray's ``row_hash``: the input file and the row's place in it), so a
    batch that Ray runs again (a worker lost part-way) rewrites its own file instead of
    adding its rows twice; it is written under a dotted name first, which readers skip,
    and renamed whole (local folders; object stores show only whole objects)."""

    def __init__(self, settings: BatchSettings, output: str, columns: Columns) -> None:
        self.check = GateCheck(
            settings, reply_column=columns.reply, id_column=columns.id, keep_reply=True
        )
        self.check.columns = columns  # with the signals' and the carried columns' names
        self.filesystem, self.folder = _filesystem(output)
        self.local = self.filesystem.type_name == "local"

    def __call__(self, batch: Any) -> Any:
        import pyarrow as pa
        import pyarrow.parquet as pq

        stats, writer = BatchStats(), None
        first = batch.column(ROW_HASH)[0].as_py() if batch.num_rows else 0
        name = f"{self.folder}/part-{first:016x}-{batch.num_rows}.parquet"
        temp = f"{self.folder}/.{name.rsplit('/', 1)[1]}.tmp" if self.local else name
        try:
            # A slice of bounded text at a time (gate_tui.runs.budget), a row group each.
            for part in budget.slices(batch):
                done = self.check.rows.arrow(part, None, self.check.columns, keep_reply=True)
                stats.add(done.stats)
                if not done.table.num_rows:
                    continue
                if writer is None:
                    writer = pq.ParquetWriter(temp, done.table.schema, filesystem=self.filesystem)
                writer.write_table(done.table, row_group_size=max(done.table.num_rows, 1))
        finally:
            if writer is not None:
                writer.close()
        if writer is not None and self.local:
            self.filesystem.move(temp, name)
        return pa.table({
            "passed": [stats.passed], "no_pass": [stats.no_pass], "invalid": [stats.invalid],
            "codes": pa.array([list(stats.error_codes)], pa.list_(pa.string())),
            "counts": pa.array([list(stats.error_codes.values())], pa.list_(pa.int64())),
        })


def _filesystem(output: str) -> tuple[Any, str]:
    """The pyarrow filesystem and path of ``output`` (a local folder or a URI like s3://)."""
    import pyarrow.fs

    if "://" not in output:
        return pyarrow.fs.LocalFileSystem(), os.path.abspath(output)
    return pyarrow.fs.FileSystem.from_uri(output)
