"""``gate-tui check --input PATH --output PATH``: replies where they live (Parquet or JSON
Lines), results in Parquet or JSON Lines, streamed in record batches.

Memory is bounded by bytes, not rows: Parquet is read in slices of bounded text
(:mod:`gate_tui.runs.parquet_in`, :mod:`gate_tui.runs.budget`), JSON Lines in the blocks
of ``check --jsonl``, and every output batch is written at once, as Parquet row groups
bounded in rows and bytes (:mod:`gate_tui.runs.parquet_out`) or as its JSONL records.
``-j N`` sends batches to the worker processes of ``check --jsonl`` through files
(:mod:`gate_tui.runs.spill`), and writes the results back in input order; the progress
bar, summary and exit statuses are that command's too. JSONL in and out with the usual
columns is ``check --jsonl`` itself.

Every row is checked by :class:`gate_tui.runs.arrow_rows.RowChecker`, so a Parquet result
row's ``result`` is byte for byte the ``"result"`` that ``check --jsonl`` writes. Parquet
results also carry the input's replies (a ``reply`` column), so ``gate-tui review`` can
show each reply beside its result. Both carry the input's other columns (JSON Lines
results as keys after ``result``; :mod:`gate_tui.runs.carry`).
"""

from __future__ import annotations

import sys
import time
from collections import deque
from collections.abc import Iterator
from contextlib import nullcontext
from dataclasses import dataclass, replace
from typing import Any

from gate_tui.results.completion import RunMarker, new_marker
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
from gate_tui.runs.parquet_in import parquet_batches
from gate_tui.runs.parquet_out import ParquetOut
from gate_tui.runs.pool import fan_out, write_all
from gate_tui.runs.progress import progress_bar
from gate_tui.runs.spill import SpillFolder

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
    if in_format == "parquet" or out_format == "parquet":  # columns: fixed by the first part
        columns = _with_carry(source, in_format, columns)
    total, jobs_in = _reader(source, in_format, columns, want_lines)
    marker = marker or new_marker(None)
    if in_format == "parquet":
        marker.rows_expected = total
    writer = ParquetOut(sink, marker) if out_format == "parquet" else None
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
    """The input's size (rows for Parquet, bytes for JSONL) and its jobs, lazily: Parquet
    in slices of bounded text (:mod:`gate_tui.runs.parquet_in`), JSON Lines in blocks."""
    if in_format == "parquet":
        total, batches = parquet_batches(source, columns)
        return total, (Job(batch, first, columns, want_lines) for first, batch in batches)
    import os

    stream = open(source, "rb", buffering=1 << 20)  # noqa: SIM115 - closed when the generator ends

    def blocks() -> Iterator[Job]:
        with stream:
            for block in read_blocks(stream):
                yield Job(block, None, columns, want_lines)

    return os.fstat(stream.fileno()).st_size, blocks()


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
    lines.carry = job.columns.carry if job.want_lines else ()  # JSON Lines records carry them
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
