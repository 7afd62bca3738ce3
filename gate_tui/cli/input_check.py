"""``gate-tui check --input PATH [--output PATH]``: which path runs (``check --jsonl``, the
file batch or Ray), the streams it writes to, and every failure as a message and exit 3.

pyarrow (``gate-tui[data]``) and Ray (``gate-tui[ray]``) are optional: a missing one is a
usage error naming the extra to install, never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from gate_tui.cli.common import io_error, isatty, say, usage
from gate_tui.cli.output import OutputFailed
from gate_tui.exit_codes import EXIT_INTERNAL, EXIT_USAGE
from gate_tui.results.sources import is_many
from gate_tui.runs.arrow_rows import Columns
from gate_tui.runs.engine import BatchSettings
from gate_tui.runs.files import format_of
from gate_tui.runs.pool import WorkerDied


def input_usage(ns: argparse.Namespace) -> str | None:
    """What is wrong with ``check --input``'s arguments, or None."""
    if ns.files or ns.jsonl is not None:
        return "give either --input, --jsonl or FILEs"
    if ns.input == "-":
        return "--input reads a file; for stdin use --jsonl -"
    if ns.format == "text":
        return "--input writes Parquet or JSON Lines; --format text applies to FILEs"
    in_format, out_format = format_of(ns.input, ns.input_format), format_of(ns.output)
    if ns.engine == "ray" and ns.output not in (None, "-") and out_format is None:
        out_format = "parquet"  # Ray writes a folder of Parquet parts, named as the user likes
    if in_format is None:
        return (
            f"--input {ns.input}: unknown format"
            " (a .parquet or .jsonl file, or give --input-format)"
        )
    if out_format is None:
        return f"--output {ns.output}: unknown format (write a .parquet or .jsonl file)"
    if in_format == "jsonl" and is_many(ns.input):
        return (
            f"--input {ns.input}: several JSON Lines files; give one"
            " (a folder or a wildcard is for Parquet parts)"
        )
    if ns.envelope and (in_format, out_format) != ("jsonl", "jsonl"):
        return (
            "--envelope writes JSON Lines from JSON Lines; Parquet results hold the result itself"
        )
    if ns.engine == "ray" and (in_format != "parquet" or ns.output in (None, "-")):
        return (
            "--engine ray reads Parquet and writes a Parquet folder: give --input x.parquet"
            " (a folder, a wildcard or a URI) --output DIR"
        )
    if out_format == "parquet" and ns.output in (None, "-"):
        return "Parquet cannot go to stdout: give --output x.parquet"
    return None


def check_input(ns: argparse.Namespace, settings: BatchSettings) -> int:
    """Run ``check --input``; the exit status of the check, or 3 with a message on stderr."""
    in_format, out_format = format_of(ns.input, ns.input_format), format_of(ns.output)
    from gate_tui.cli.check_streams import carry_option

    carry = carry_option(ns)
    columns = Columns(
        reply=ns.reply_column,
        id=ns.id_column,
        finish_reason=ns.finish_reason_column,
        usage=ns.usage_column,
        carry=carry,
    )
    jobs = ns.jobs if ns.jobs is not None else 1
    if ns.engine == "ray":
        return _on_ray(ns, settings, columns, jobs)
    assert in_format is not None and out_format is not None  # input_usage said so
    if (in_format, out_format) == ("jsonl", "jsonl") and columns == Columns():
        from gate_tui.cli.check_streams import check_jsonl

        ns.jsonl = ns.input
        return check_jsonl(ns, None, None, settings)
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        return usage("check", "--input needs pyarrow: pip install 'gate-tui[data]'")
    return _local(ns, settings, columns, jobs, in_format, out_format)


def _local(
    ns: argparse.Namespace,
    settings: BatchSettings,
    columns: Columns,
    jobs: int,
    in_format: str,
    out_format: str,
) -> int:
    import pyarrow as pa

    from gate_tui.results.completion import jsonl_run
    from gate_tui.runs.files import run_files

    to_stdout = ns.output in (None, "-")
    try:
        sink: Any = (
            ns.output
            if out_format == "parquet"
            else sys.stdout.buffer
            if to_stdout
            else open(ns.output, "wb", buffering=1 << 20)
        )  # noqa: SIM115
    except OSError as exc:
        return usage("check", f"--output {ns.output}: {exc.strerror or exc}")
    progress = isatty(sys.stderr) and (not to_stdout or not isatty(sys.stdout))
    try:
        with jsonl_run(None if out_format == "parquet" or to_stdout else ns.output) as marker:
            try:
                return run_files(
                    ns.input,
                    in_format,
                    sink,
                    out_format,
                    settings,
                    columns,
                    jobs,
                    progress,
                    ns.quiet,
                    marker,
                )
            finally:
                if out_format == "jsonl" and not to_stdout:
                    sink.close()
    except WorkerDied as exc:
        say(f"gate-tui check: a worker process died, the output is incomplete: {exc}")
        return EXIT_INTERNAL
    except (BrokenPipeError, OutputFailed):
        raise
    except KeyError as exc:
        return usage("check", str(exc.args[0]))
    except pa.ArrowException as exc:
        say(f"gate-tui check: {ns.input}: cannot read or write: {exc}")
        return EXIT_USAGE
    except OSError as exc:
        return io_error(exc)


def _on_ray(ns: argparse.Namespace, settings: BatchSettings, columns: Columns, jobs: int) -> int:
    try:
        from gate_tui.runs.ray_run import run_on_ray
    except ImportError as exc:
        return usage("check", f"--engine ray needs Ray Data: pip install 'gate-tui[ray]' ({exc})")
    try:
        return run_on_ray(ns.input, ns.output, settings, columns, jobs, ns.quiet)
    except KeyError as exc:
        return usage("check", str(exc.args[0]))
    except Exception as exc:  # noqa: BLE001 - Ray raises its own kinds for a bad path, a lost cluster...
        say(f"gate-tui check: the Ray run failed: {type(exc).__name__}: {str(exc)[:2000]}")
        return EXIT_USAGE
