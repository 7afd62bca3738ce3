"""``gate-tui check --input PATH --output PATH``: replies where they live (Parquet or JSON
Lines), results in Parquet or JSON Lines, streamed in record batches.

Memory stays flat whatever the input size: Parquet is read a batch at a time with
``pre_buffer=False`` (pre-buffering makes pyarrow hold the whole file), JSON Lines in the
blocks of ``check --jsonl``, and every output batch is written at once as its own Parquet
row group (bounded, so a reader can stream the results too) or as its JSONL records.
``-j N`` sends batches to the worker processes of ``check --jsonl`` through files
(:mod:`gate_tui.runs.spill`), and writes the results back in input order; the progress
bar, summary and exit statuses are that command's too. JSONL in and out with the usual columns is ``check --jsonl`` itself.

Every row is checked by :class:`gate_tui.runs.arrow_rows.RowChecker`, so a Parquet result
row's ``result`` is byte for byte the ``"result"`` that ``check --jsonl`` writes. Parquet
results also carry the input's replies (a ``reply`` column), so ``gate-tui review`` can
show each reply beside its result (JSON Lines results stay ``check --jsonl``'s records).
"""

from __future__ import annotations

import sys
import time
from collections import deque
from collections.abc import Iterator
from contextlib import nullcontext
from dataclasses import dataclass, replace
from typing import Any

from gate_tui.results.completion import (
    RunMarker,
    finish_parquet,
    new_marker,
    partial_path,
    start_parquet,
)
from gate_tui.results.sources import is_many, parquet_files
from gate_tui.results.summary import fingerprint_column
from gate_tui.runs import interrupts, spill
from gate_tui.runs.arrow_rows import Checked, Columns, RowChecker, carried_label, carried_names
from gate_tui.runs.blocks import read_blocks
from gate_tui.runs.engine import (
    BatchSettings,
    BatchStats,
    make_checker,
    worker_checker,
    worker_pool,
)
from gate_tui.runs.pool import fan_out, write_all
from gate_tui.runs.progress import progress_bar
from gate_tui.runs.spill import SpillFolder

BATCH_ROWS = 4096
"""Rows per output row group at most (~16 MB of results): bounded, so a reader streams too."""
JOB_ROWS = 1024
"""Rows per Parquet batch read and checked as one job: small, so that at the end of a run
with ``-j N`` no worker waits long for the last one (a 4096-row job is ~0.25 s of work);
the results are gathered into row groups of :data:`BATCH_ROWS` whatever the job size."""
IN_FLIGHT_PER_JOB = 3
FORMATS = {
    ".parquet": "parquet",
    ".pq": "parquet",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".json": "jsonl",
}


def format_of(path: str | None, given: str | None = None) -> str | None:
    """``parquet`` or ``jsonl``: as given, else by the file's extension (stdout: jsonl)."""
    if given:
        return given
    if path in (None, "-"):
        return "jsonl"
    suffix = "." + str(path).rsplit(".", 1)[-1].lower() if "." in str(path) else ""
    if suffix in FORMATS:
        return FORMATS[suffix]
    return "parquet" if is_many(str(path)) else None  # a folder of parts, a wildcard, a URI folder


@dataclass(frozen=True)
class Job:
    """One unit of work for a worker: an Arrow batch (with its first line) or a JSONL block."""

    batch: Any
    first_line: int | None
    columns: Columns
    want_lines: bool
    spill: str | None = None
    """With ``-j N``: the stem of this job's files (:mod:`gate_tui.runs.spill`)."""


def run_files(
    source: str,
    in_format: str,
    sink: Any,
    out_format: str,
    settings: BatchSettings,
    columns: Columns,
    jobs: int,
    show_progress: bool,
    quiet: bool,
    marker: RunMarker | None = None,
) -> int:
    """Check every row of ``source``, write the results to ``sink`` (a path for Parquet,
    a binary stream for JSONL), return the exit status. pyarrow errors propagate.
    ``marker`` (:mod:`gate_tui.results.completion`) is the run's completion marker: it
    goes into a Parquet file's footer, or counts the rows of JSON Lines."""
    want_lines = out_format == "jsonl"
    stats = BatchStats(words=getattr(settings.checker, "WORDS", BatchStats.words))
    started = time.perf_counter()
    columns = (
        _with_carry(source, in_format, columns)
        if out_format == "parquet"
        else replace(columns, carry=())
    )
    total, jobs_in = _reader(source, in_format, columns, want_lines)
    marker = marker or new_marker(None)
    if in_format == "parquet":
        marker.rows_expected = total
    writer = _ParquetOut(sink, marker) if out_format == "parquet" else None
    finished = False
    in_flight: deque[Job] = deque()  # jobs sent, in order: their replies join the results here

    def sent(jobs_out: Iterator[Job]) -> Iterator[Job]:
        for job in jobs_out:
            in_flight.append(job)
            yield job

    # As check --jsonl: SIGTERM / SIGHUP unwind through the pool's shutdown and the Parquet
    # footer, and never cut a batch's write.
    # The job files' folder goes after the pool has stopped (no worker writes there then).
    folder_for = (
        (lambda: SpillFolder(sink if writer is not None else None)) if jobs > 1 else nullcontext
    )
    with (
        interrupts.terminable(),
        folder_for() as folder,
        worker_pool(settings, jobs) as pool,
        progress_bar(show_progress and not quiet, total) as bar,
    ):

        def emit(done: Checked) -> None:
            job = in_flight.popleft()
            with interrupts.deferred():
                if writer is not None:
                    writer.write(_with_reply(done.table, job))
                else:
                    write_all(sink, done.lines)
            stats.add(done.stats)
            marker.rows_written = stats.records
            if bar is not None:
                bar.bytes_read(done.consumed)
                bar.records(stats.records)

        try:
            if pool is None:
                checker = RowChecker(make_checker(settings))
                for job in sent(jobs_in):
                    interrupts.check()
                    emit(_run(checker, job))
            else:
                stems: deque[str] = deque()

                def by_file(jobs_out: Iterator[Job]) -> Iterator[Job]:
                    for job in jobs_out:
                        stems.append(stem := folder.job_path())
                        if job.first_line is None:  # a JSON Lines block (bytes) still goes by pipe
                            yield replace(job, spill=stem)
                        else:
                            folder.send(stem, job.batch)
                            yield replace(job, batch=None, spill=stem)

                def landed(done: Checked) -> None:
                    payload = folder.take(stems.popleft(), want_lines)
                    if want_lines:
                        done.lines = payload
                    else:
                        done.table = payload
                    emit(done)

                fan_out(pool, by_file(sent(jobs_in)), landed, jobs * IN_FLIGHT_PER_JOB, work_job)
            finished = True
        finally:
            # A readable file even when stopped part-way (its footer is written), but its
            # marker says finished only when every row was checked.
            if writer is not None:
                marker.finished = finished
                writer.close(lambda: _empty_schema(source, in_format, columns, settings))
    interrupts.check()
    if writer is None:
        sink.flush()
    if not quiet:
        sys.stderr.write(stats.summary(time.perf_counter() - started) + "\n")
    return stats.exit_status()


def _reader(
    source: str, in_format: str, columns: Columns, want_lines: bool
) -> tuple[int | None, Iterator[Job]]:
    """The input's size (rows for Parquet, bytes for JSONL) and its jobs, lazily."""
    if in_format == "parquet":

        names = parquet_files(source)  # parts in sorted order
        first_file, first_names = _parquet_file(names[0], columns)
        own = (
            columns.id,
            columns.reply,
            columns.previous,
            columns.actor,
            columns.finish_reason,
            columns.usage,
        )
        wanted = [
            name for name in dict.fromkeys((*own, *(columns.carry or ()))) if name in first_names
        ]
        # The total, for the progress bar, from each footer; each part is opened only when
        # its turn comes (a folder of thousands of parts must not hold thousands of files open).
        total = first_file.metadata.num_rows + sum(
            _parquet_file(name, columns, footer_only=True) for name in names[1:]
        )

        def batches() -> Iterator[Job]:
            first = 1
            for number, name in enumerate(names):
                parquet, present = (
                    (first_file, first_names) if number == 0 else _parquet_file(name, columns)
                )
                missing = [column for column in wanted if column not in present]
                if missing:
                    raise KeyError(
                        f"{name}: no {', '.join(map(repr, missing))} column, unlike the first part"
                    )
                try:
                    for batch in parquet.iter_batches(batch_size=JOB_ROWS, columns=wanted):
                        yield Job(batch, first, columns, want_lines)
                        first += batch.num_rows
                finally:
                    parquet.close()

        return total, batches()
    import os

    stream = open(source, "rb", buffering=1 << 20)  # noqa: SIM115 - closed when the generator ends

    def blocks() -> Iterator[Job]:
        with stream:
            for block in read_blocks(stream):
                yield Job(block, None, columns, want_lines)

    return os.fstat(stream.fileno()).st_size, blocks()


def _parquet_file(name: str, columns: Columns, *, footer_only: bool = False) -> Any:
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
    parquet = pq.ParquetFile(source, pre_buffer=False)
    names = parquet.schema_arrow.names
    if columns.reply not in names:
        parquet.close()
        raise KeyError(
            f"{name} has no {columns.reply!r} column (columns: {', '.join(names) or 'none'}); see --reply-column"
        )
    return parquet, names


def _empty_job(source: str, in_format: str, columns: Columns) -> Job:
    """A job of no rows with the input's columns: the output schema of an empty input."""
    if in_format == "parquet":
        import pyarrow.parquet as pq

        return Job(pq.read_schema(source).empty_table(), 1, columns, False)
    from gate_tui.runs.blocks import Block

    return Job(Block(1, b""), None, columns, False)


def _empty_schema(source: str, in_format: str, columns: Columns, settings: BatchSettings) -> Any:
    """The output's columns when no batch came. Only then: the first pyarrow call that builds
    an array imports pandas (~0.13 s), which a ``-j N`` main process otherwise never needs."""
    empty = _empty_job(source, in_format, columns)
    return _with_reply(_run(RowChecker(make_checker(settings)), empty).table, empty).schema


def _run(checker: RowChecker, job: Job) -> Checked:
    lines = checker.lines
    lines.reply_key, lines.id_key = job.columns.reply, job.columns.id
    lines.finish_key, lines.usage_key = job.columns.finish_reason, job.columns.usage
    if job.first_line is None:
        done = checker.block(
            job.batch, job.want_lines, keep_reply=not job.want_lines, carry=job.columns.carry or ()
        )
        done.consumed = len(job.batch.data)
        return done
    done = checker.arrow(job.batch, job.first_line, job.columns, job.want_lines)
    done.consumed = job.batch.num_rows
    return done


def _with_reply(table: Any, job: Job) -> Any:
    """Parquet results carry the replies: those of Parquet input are joined here in the main
    process (which holds the batch anyway) instead of travelling back from a worker; those
    of JSON Lines input come with the checked block."""
    if job.first_line is None:
        return table
    table = table.append_column("reply", job.batch.column(job.columns.reply))
    table = table.append_column(
        "fingerprint", fingerprint_column(job.batch.column(job.columns.reply))
    )
    for name in job.columns.carry or ():
        table = table.append_column(carried_label(name), job.batch.column(name))
    return table


def _with_carry(source: str, in_format: str, columns: Columns) -> Columns:
    """``columns`` naming the input columns the results carry (:func:`carried_names`):
    a Parquet input's from its (first part's) schema, a JSON Lines input's from its first
    record's keys (every block must write the same columns)."""
    if in_format == "parquet":
        import pyarrow.parquet as pq

        names = pq.read_schema(parquet_files(source)[0]).names if "://" not in source else []
    else:
        names = _first_keys(source)
    return replace(columns, carry=tuple(carried_names(names, columns)))


def _first_keys(source: str) -> list[str]:
    """The keys of the first record of a JSON Lines file (read from its first MiB at most)."""
    import json

    try:
        with open(source, "rb") as handle:
            head = handle.read(1 << 20)
    except OSError:
        return []
    for raw in head.split(b"\n")[:-1] if len(head) == 1 << 20 else head.split(b"\n"):
        if raw.strip():
            try:
                item = json.loads(raw.decode("utf-8-sig"))
            except (ValueError, RecursionError):
                return []
            return [str(key) for key in item][:256] if isinstance(item, dict) else []
    return []


_WORKER_ROWS: RowChecker | None = None


def work_job(job: Job) -> Checked:
    """A job in a worker process, with the worker's line checker (built once). A job with
    a ``spill`` stem reads its batch from that file (when it has none) and writes its
    results beside it (:mod:`gate_tui.runs.spill`): only the counts come back by pipe."""
    global _WORKER_ROWS
    if _WORKER_ROWS is None:
        _WORKER_ROWS = RowChecker(worker_checker())
    if job.spill is None:
        return _run(_WORKER_ROWS, job)
    batch = job.batch if job.batch is not None else spill.received(job.spill)
    done = _run(_WORKER_ROWS, replace(job, batch=batch))
    spill.give_back(job.spill, done.lines if job.want_lines else done.table)
    done.table, done.lines = None, b""
    return done


class _ParquetOut:
    """A Parquet file written a row group of up to :data:`BATCH_ROWS` at a time, gathered
    from the checked batches in order (opened on the first one). The row groups depend on
    the batches alone, never on ``-j``: the file is the same byte for byte."""

    def __init__(self, path: str, marker: RunMarker) -> None:
        self.path = path
        self.marker = marker
        self.partial = partial_path(path, marker)
        start_parquet(path)
        self.writer: Any = None
        self.pending: list[Any] = []
        self.rows = 0

    def write(self, table: Any) -> None:
        if self.rows and self.rows + table.num_rows > BATCH_ROWS:
            self._flush()
        self.pending.append(table)
        self.rows += table.num_rows
        if self.rows >= BATCH_ROWS:
            self._flush()

    def _flush(self) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq

        table = self.pending[0] if len(self.pending) == 1 else pa.concat_tables(self.pending)
        if self.writer is None:
            self.writer = pq.ParquetWriter(self.partial, table.schema)
        self.writer.write_table(table, row_group_size=max(table.num_rows, 1))
        self.pending, self.rows = [], 0

    def close(self, schema: Any) -> None:
        """Finish the file (with ``schema()``'s columns when no batch came)."""
        import pyarrow.parquet as pq

        if self.pending:
            self._flush()
        if self.writer is None:
            self.writer = pq.ParquetWriter(self.partial, schema())
        finish_parquet(self.writer, self.partial, self.path, self.marker)
