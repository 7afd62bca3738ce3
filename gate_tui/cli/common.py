"""What every ``gate-tui`` command shares: the argparse flavour, config loading with
one line per problem, exit-status helpers and safe messages.

Headless and light: it imports the config loader's error type only, so the editor's
start-up path can use it without loading pydantic.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, NoReturn

from gate_tui.exit_codes import EXIT_EDITOR_FAILED, EXIT_USAGE
from gate_tui.safe_text import visible

if TYPE_CHECKING:
    from gate_tui.config.loading import ConfigProblem
    from gate_tui.models import GateConfig


class Parser(argparse.ArgumentParser):
    """argparse with usage errors exiting 3 (2 means "invalid reply" for check)."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {visible(message)}\n")


def say(message: str, stream: IO[str] | None = None) -> None:
    """Write one line to stderr (or ``stream``), control characters made visible."""
    (stream or sys.stderr).write(visible(message) + "\n")


def load_config(path: Path, prog: str) -> GateConfig | None:
    """The config, or None after printing one line per problem to stderr."""
    from gate_tui.config.loading import check_config

    loaded = check_config(path)
    report_problems(loaded.problems, prog)
    return loaded.config


def report_problems(problems: list[ConfigProblem], prog: str) -> None:
    for problem in problems:
        say(f"{prog}: {problem}")


def usage(command: str, message: str) -> int:
    say(f"gate-tui {command}: error: {message}")
    return EXIT_USAGE


def io_error(exc: OSError) -> int:
    """Reading the input or writing the output failed part-way (e.g. a full disk)."""
    where = f" ({exc.filename})" if exc.filename else ""
    say(
        f"gate-tui check: input/output error{where}: {exc.strerror or exc}; the output is "
        "incomplete"
    )
    return EXIT_USAGE


def cannot_start(what: str, exc: ImportError) -> int:
    say(
        f"gate-tui: {what} is not available ({exc}). "
        "The headless commands (check, schema, prompt, validate-config) still work."
    )
    return EXIT_EDITOR_FAILED


def exit_code(code: Any) -> int:
    """An exit status from whatever a command or ``SystemExit`` carried."""
    if code is None:
        return 0
    if isinstance(code, bool):
        return int(code)
    if isinstance(code, int):
        return code
    say(str(code))
    return 1


def isatty(stream: Any) -> bool:
    check = getattr(stream, "isatty", None)
    return bool(check and check())


def same_file(first: str | None, second: str | None) -> bool:
    """Whether two command-line paths name one existing file ('-' never does)."""
    if not first or not second or "-" in (first, second):
        return False
    try:
        return os.path.samefile(first, second)
    except OSError:
        return False


def silence_stdout() -> None:
    """After a closed pipe, point stdout at /dev/null so the exit flush cannot fail."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # AttributeError: stdout was closed (None)
        pass
