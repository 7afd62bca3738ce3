"""``gate-tui check --engine ray``: the batch function on a Ray cluster, through Ray Data.

The job is one map over independent batches (``read_parquet -> map_batches -> write_parquet``):
no shuffle, no state shared between rows, so it scales with the cores Ray is given.
:class:`~gate_tui.cli.arrow_batch.GateCheck` is built once per worker (the config is
validated once there) and checks each Arrow batch as ``check --input`` does. ``ray.init()``
joins the cluster named by ``RAY_ADDRESS``, or starts a local one.

The counts for the summary line and the exit status are read back from the written
results' ``ok``/``pass``/``error_codes`` columns (small; the ``result`` column stays unread).
"""

from __future__ import annotations

import os
import sys
import time
from collections import Counter

import ray
import ray.data

from gate_tui.cli.arrow_batch import Columns, GateCheck
from gate_tui.cli.batch import BatchSettings, BatchStats

BATCH_ROWS = 4096
READ_BLOCK_BYTES = 16 * 1024 * 1024
"""Ray Data's blocks of replies (about 10,000 rows of 1.5 KB), for this dataset only. With
Ray's default (128 MiB) a file of 100,000 rows was read as blocks of 10,000, 80,000 and
10,000 rows: each block goes to one worker as a whole, so with 2 workers one of them
checked 80% of the rows alone (1.2x the speed of one worker). Blocks of ~10,000 rows
share the work evenly, for a start-up cost per block of a few milliseconds."""


def run_on_ray(source: str, output: str, settings: BatchSettings, columns: Columns, jobs: int, quiet: bool = False) -> int:
    """Check ``source`` (Parquet files, local or remote) into the Parquet folder ``output``."""
    started = time.perf_counter()
    if not ray.is_initialized():
        # A local instance (no RAY_ADDRESS) gets one CPU more than the machine has: the
        # workers each hold a CPU for the whole run, and the light listing, reading and
        # writing tasks would otherwise wait for one forever with -j equal to the cores.
        local = {} if os.environ.get("RAY_ADDRESS") else {"num_cpus": max(os.cpu_count() or 1, jobs) + 1}
        # No dashboard: its processes take CPU from the workers, and the CLI never shows it.
        ray.init(logging_level="ERROR", log_to_driver=False, include_dashboard=False, **local)
    wanted = [name for name in (columns.id, columns.reply, columns.previous, columns.actor)]
    dataset = ray.data.read_parquet(source)
    dataset.context.target_max_block_size = READ_BLOCK_BYTES  # this dataset's own copy of the context
    names = dataset.schema().names
    if columns.reply not in names:
        raise KeyError(f"{source} has no {columns.reply!r} column (columns: {', '.join(names) or 'none'}); see --reply-column")
    dataset = dataset.select_columns([name for name in wanted if name in names])
    checked = dataset.map_batches(
        GateCheck,
        fn_constructor_args=(settings,),
        fn_constructor_kwargs={"reply_column": columns.reply, "id_column": columns.id, "keep_reply": True},
        batch_format="pyarrow",
        batch_size=BATCH_ROWS,
        compute=ray.data.ActorPoolStrategy(size=max(jobs, 1)),
    )
    checked.write_parquet(output)
    stats = counts(output, getattr(settings.checker, "WORDS", BatchStats.words))
    if not quiet:
        sys.stderr.write(stats.summary(time.perf_counter() - started) + "\n")
    return stats.exit_status()


def counts(output: str, words: tuple[str, str]) -> BatchStats:
    """PASS / NO PASS / invalid counts and error codes of a written results folder."""
    import pyarrow.compute as pc
    import pyarrow.dataset as ds

    table = ds.dataset(output, format="parquet").to_table(columns=["ok", "pass", "error_codes"])
    ok = table.column("ok")
    passed = table.column("pass")
    stats = BatchStats(words=words)
    stats.invalid = table.num_rows - pc.sum(ok).as_py() if table.num_rows else 0
    stats.passed = pc.sum(pc.and_(ok, pc.fill_null(passed, True))).as_py() or 0 if table.num_rows else 0
    stats.no_pass = table.num_rows - stats.invalid - stats.passed
    codes: Counter[str] = Counter()
    for row in pc.value_counts(pc.list_flatten(table.column("error_codes"))).to_pylist():
        codes[row["values"]] = row["counts"]
    stats.error_codes = codes
    return stats


