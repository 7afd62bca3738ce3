"""The streams of ``gate-tui check``: ``-o``'s text output and the ``--jsonl`` batch's
input, output and workers, shared by gate configs and contracts (``cli/commands/check``
and ``cli/contract_check`` both use them, so neither imports the other).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import IO, TYPE_CHECKING, Any

from gate_tui.cli.common import io_error, isatty, say, usage
from gate_tui.cli.output import OutputFailed
from gate_tui.exit_codes import EXIT_INTERNAL

if TYPE_CHECKING:
    import argparse

    from gate_tui.models import GateConfig, GateState


def check_jsonl(
    ns: argparse.Namespace,
    config: GateConfig | None,
    previous: GateState | None,
    settings: Any = None,
) -> int:
    from gate_tui.results.completion import jsonl_run
    from gate_tui.runs.engine import run_batch
    from gate_tui.runs.pool import WorkerDied
    from gate_tui.runs.progress import input_size

    try:
        source = sys.stdin.buffer if ns.jsonl == "-" else open(ns.jsonl, "rb", buffering=1 << 20)  # noqa: SIM115
    except OSError as exc:
        return usage("check", f"--jsonl {ns.jsonl}: {exc.strerror or exc}")
    try:
        sink = (
            sys.stdout.buffer
            if ns.output in (None, "-")
            else open(ns.output, "wb", buffering=1 << 20)
        )  # noqa: SIM115
    except OSError as exc:
        source.close()
        return usage("check", f"-o {ns.output}: {exc.strerror or exc}")
    workers = ns.jobs if ns.jobs is not None else 1
    carry = carry_option(ns)
    if carry is not None:  # the record keys the output carries (default: all the others)
        from dataclasses import replace

        from gate_tui.runs.engine import BatchSettings

        if settings is None:
            assert config is not None, "a gate batch needs its config"
            settings = BatchSettings(
                config=config.model_dump(mode="json"),
                previous=None if previous is None else previous.model_dump(mode="json"),
                actor=ns.actor,
            )
        settings = replace(settings, carry=carry)
    progress = isatty(sys.stderr) and (sink is not sys.stdout.buffer or not isatty(sys.stdout))
    try:
        # The sidecar marker says "unfinished" until the last record is flushed and closed.
        with jsonl_run(None if sink is sys.stdout.buffer else ns.output) as marker:
            try:
                return run_batch(
                    source,
                    sink,
                    config,
                    previous,
                    ns.actor,
                    workers,
                    input_size(source),
                    progress,
                    ns.quiet,
                    settings,
                    marker,
                )
            finally:
                for stream in (source, sink):
                    if stream not in (sys.stdin.buffer, sys.stdout.buffer):
                        stream.close()
    except WorkerDied as exc:
        say(f"gate-tui check: a worker process died, the output is incomplete: {exc}")
        return EXIT_INTERNAL
    except (BrokenPipeError, OutputFailed):
        raise
    except OSError as exc:
        return io_error(exc)


def carry_option(ns: argparse.Namespace) -> tuple[str, ...] | None:
    """``--carry-columns A,B`` as names (``''``: none); ``None`` when not given (all)."""
    given = getattr(ns, "carry_columns", None)
    if given is None:
        return None
    return tuple(name.strip() for name in given.split(",") if name.strip())


def to_text_output(path: str | None, write: Callable[[IO[str]], int]) -> int:
    """Run ``write`` on ``-o``'s text stream (stdout for none or '-') and return its status;
    a stream that cannot be opened or written is a usage or I/O error, never a traceback."""
    out, problem = open_text_output(path)
    if out is None:
        return usage("check", problem or "cannot write the output")
    try:
        try:
            return write(out)
        finally:
            if out is not sys.stdout:
                out.close()
    except (BrokenPipeError, OutputFailed):  # stdout: reported once, by the entry point
        raise
    except OSError as exc:
        return io_error(exc)


def open_text_output(path: str | None) -> tuple[IO[str] | None, str | None]:
    """``-o``'s text stream (stdout for none or '-'), or None and why not."""
    if path in (None, "-"):
        return sys.stdout, None
    try:
        return open(path, "w", encoding="utf-8"), None  # noqa: SIM115
    except OSError as exc:
        return None, f"-o {path}: {exc.strerror or exc}"


