"""Whether a results file holds a finished run: the completion marker of ``gate-tui check``.

A run that stopped part-way (killed, SIGTERM, a failed part, out of memory) must never
leave a file that looks finished. Every results file that ``check`` writes to a path
carries a marker, one JSON object::

    {"format": 1, "run_id": "<32 hex>", "rows_expected": <int or null>,
     "rows_written": <int>, "finished": <bool>}

* Parquet: in the file's key-value metadata under :data:`PARQUET_KEY`, written with the
  footer. The file is written under a temporary name beside the final one
  (``.NAME.RUN_ID.partial``) and moved to its name only when it is closed, the marker
  saying ``finished: false`` when the run stopped early (SIGTERM, an error). A ``kill -9``
  leaves only the temporary file (no footer: not readable) and no file at the final name
  (an older one there was removed when the run started, as truncating it would have).
* JSON Lines: in a sidecar file ``RESULTS.run.json``, written (atomically) *before* the
  first record with ``finished: false`` and rewritten with ``finished: true`` only after
  the last record is flushed, so a killed run's sidecar still says unfinished. JSON Lines
  written to stdout has no marker (nothing to put it beside).

``rows_expected`` is the input's row count when it is known before the run (Parquet
input); JSON Lines input has none (null). ``run_id`` names the run: a verdict given on a
row can be keyed by it, so a rerun into the same path never inherits an old verdict.
"""

from __future__ import annotations

import contextlib
import json
import os
import uuid
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

PARQUET_KEY = b"gate_tui.run"
SIDECAR_SUFFIX = ".run.json"
MARKER_FORMAT = 1
MAX_SIDECAR_BYTES = 4096


@dataclass
class RunMarker:
    run_id: str
    rows_expected: int | None
    rows_written: int = 0
    finished: bool = False
    format: int = MARKER_FORMAT

    def to_json(self) -> bytes:
        return json.dumps(asdict(self), sort_keys=True).encode()

    def incomplete(self, rows: int | None = None) -> str | None:
        """``run incomplete: N of M rows`` for an unfinished run, else None. ``rows``: what
        the file holds (a killed JSON Lines run wrote more than its sidecar last said)."""
        if self.finished:
            return None
        written = self.rows_written if rows is None else rows
        if self.rows_expected is None:
            return f"run incomplete: {written:,} rows written, the run did not finish"
        return f"run incomplete: {written:,} of {self.rows_expected:,} rows"


def new_marker(rows_expected: int | None) -> RunMarker:
    return RunMarker(run_id=uuid.uuid4().hex, rows_expected=rows_expected)


def marker_from_json(raw: bytes | str | None) -> RunMarker | None:
    """The marker in ``raw``, or None when there is none or it is not one of ours."""
    if raw is None or len(raw) > MAX_SIDECAR_BYTES:
        return None
    try:
        data = json.loads(raw)
        expected = data.get("rows_expected")
        return RunMarker(
            run_id=str(data["run_id"])[:64],
            rows_expected=None if expected is None else int(expected),
            rows_written=int(data.get("rows_written", 0)),
            finished=data.get("finished") is True,
            format=int(data.get("format", MARKER_FORMAT)),
        )
    except (ValueError, TypeError, KeyError, AttributeError, RecursionError):
        return None


def sidecar_path(path: str | Path) -> Path:
    return Path(str(path) + SIDECAR_SUFFIX)


def write_sidecar(path: str | Path, marker: RunMarker) -> None:
    """The JSON Lines marker, whole or absent (written aside, then moved into place)."""
    target = sidecar_path(path)
    temporary = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    temporary.write_bytes(marker.to_json())
    os.replace(temporary, target)


def read_marker(path: str | Path) -> RunMarker | None:
    """The marker of a results file (Parquet footer or JSON Lines sidecar), or None for a
    file without one (written before markers, by another program, or to stdout)."""
    path = Path(path)
    if path.is_dir():
        return None  # a folder of Ray parts: each part is written whole by Ray
    if path.suffix.lower() in (".parquet", ".pq"):
        with contextlib.suppress(Exception):  # an unreadable footer is reported by the reader
            import pyarrow.parquet as pq

            metadata = pq.read_metadata(path).metadata or {}
            return marker_from_json(metadata.get(PARQUET_KEY))
        return None
    with contextlib.suppress(OSError):
        with open(sidecar_path(path), "rb") as stream:
            return marker_from_json(stream.read(MAX_SIDECAR_BYTES + 1))
    return None


def partial_path(path: str | Path, marker: RunMarker) -> Path:
    """Where a Parquet run writes until it is closed: hidden, beside the final name."""
    path = Path(path)
    return path.with_name(f".{path.name}.{marker.run_id}.partial")


def start_parquet(path: str | Path) -> None:
    """Remove the file a previous run left at ``path`` (as truncating it would): after a
    run that never closes (``kill -9``) no old finished file may stand in for the new run."""
    folder = Path(path).parent
    if not folder.is_dir():  # named as the user wrote it, not as the partial file
        raise FileNotFoundError(2, "No such file or directory", str(path))
    with contextlib.suppress(FileNotFoundError, IsADirectoryError, PermissionError):
        if not Path(path).is_dir():
            os.unlink(path)


def finish_parquet(writer: Any, partial: Path, path: str | Path, marker: RunMarker) -> None:
    """Write the marker into the footer, close the file, give it its final name."""
    writer.add_key_value_metadata({PARQUET_KEY.decode(): marker.to_json().decode()})
    writer.close()
    os.replace(partial, path)


@contextlib.contextmanager
def jsonl_run(path: str | None, rows_expected: int | None = None) -> Any:
    """The marker of a JSON Lines run into ``path`` (None for stdout: no sidecar): its
    sidecar says unfinished from the start and finished only when the block ends without
    an exception (the caller sets ``rows_written`` and closes the file inside it)."""
    marker = new_marker(rows_expected)
    if path in (None, "-"):
        yield marker
        return
    write_sidecar(path, marker)
    try:
        yield marker
    except BaseException:  # a failed or stopped run: its counts, still unfinished
        with contextlib.suppress(OSError):
            write_sidecar(path, marker)
        raise
    marker.finished = True
    write_sidecar(path, marker)
