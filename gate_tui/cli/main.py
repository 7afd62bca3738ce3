"""The whole ``gate-tui`` command line (argparse): the editor and the headless commands.

::

    gate-tui [CONFIG] [--state FILE] [--new]          start the editor (Textual)
    gate-tui check --config CFG [FILE ...|-] [--previous STATE] [--actor A] [--format F]
    gate-tui check --config CFG --jsonl IN [-o OUT] [-j N] [-q]
    gate-tui schema --config CFG [--decision-rules]
    gate-tui prompt --config CFG
    gate-tui validate-config CFG ...
    gate-tui sessions [--config CFG]
    gate-tui report SESSION [-o FILE]

A first argument that names a subcommand selects it; anything else is the editor's
``CONFIG`` (so a config file called ``check`` must be given as ``./check``). This module
only parses arguments and dispatches; the work lives in :mod:`gate_tui.cli.check`,
:mod:`gate_tui.cli.batch`, :mod:`gate_tui.config.schema_export` and :mod:`gate_tui.config.prompt_export`.
Textual and the session commands are imported only in the branch that needs them, so
the headless commands work where the editor cannot start.

Exit statuses: ``check`` 0 all PASS, 1 some NO PASS, 2 some reply not parsed or not
valid, 3 usage or config error (also: the output could not be written, e.g. a full
disk); ``validate-config`` 0 all valid, 1 some invalid, 3 usage; the editor 2 when its
config is missing or invalid or it cannot start. Argument errors exit 3 everywhere, an
interrupt 130, a closed output pipe (``| head``) 141 without a message. Users never see
a traceback (``GATE_TUI_DEBUG=1`` shows one for an internal error, which exits 70).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, NoReturn

from gate_tui import __version__
from gate_tui.config.loading import ConfigProblem, check_config, default_config_path
from gate_tui.exit_codes import (
    EXIT_BROKEN_PIPE,
    EXIT_EDITOR_FAILED,
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_USAGE,
)

if TYPE_CHECKING:
    # The headless commands import these where they run: starting the editor must not
    # load pydantic before its first frame (see gate_tui.tui.app).
    from gate_tui.models import GateConfig, GateState
SUBCOMMANDS = ("check", "schema", "prompt", "validate-config", "sessions", "report")

EDITOR_EPILOG = """\
commands (gate-tui COMMAND --help for each):
  check            check model replies headlessly: PASS / NO PASS, errors, repairs
  schema           print the JSON Schema of a valid state (structured outputs)
  prompt           print a system-prompt block describing the gates and the JSON shape
  validate-config  check config files and list every problem with its location
  sessions         list saved editor sessions
  report           write a report of a saved session

exit status of check: 0 all PASS, 1 some NO PASS, 2 some reply invalid, 3 usage or config error
"""


class _Parser(argparse.ArgumentParser):
    """argparse with usage errors exiting 3 (2 means "invalid reply" for check)."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``gate-tui`` script and of ``python -m gate_tui``."""
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        status = _run_command(args) if args and args[0] in SUBCOMMANDS else _run_editor(args)
        sys.stdout.flush()  # a closed pipe shows up here, not as a warning at exit
        return status
    except SystemExit as exc:
        return _exit_code(exc.code)
    except KeyboardInterrupt:
        sys.stderr.write("gate-tui: interrupted\n")
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_BROKEN_PIPE
    except Exception as exc:  # noqa: BLE001 - the last guard before a user would see a traceback
        if os.environ.get("GATE_TUI_DEBUG"):
            raise
        sys.stderr.write(f"gate-tui: internal error: {type(exc).__name__}: {exc} (set GATE_TUI_DEBUG=1 for details)\n")
        return EXIT_INTERNAL


# --- the editor -----------------------------------------------------------------------


def editor_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="gate-tui",
        description="Edit a gate state in the terminal: a model's reply or your edit in, a validated state and the system's PASS / NO PASS out.",
        epilog=EDITOR_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("config", nargs="?", metavar="CONFIG", help="gate config (YAML, JSON or TOML); default: the bundled ML project intake")
    parser.add_argument("--state", metavar="FILE", help="state file to open or create")
    parser.add_argument("--new", action="store_true", help="start a new session instead of resuming the last one")
    parser.add_argument("--version", action="version", version=f"gate-tui {__version__}")
    return parser


def _run_editor(args: list[str]) -> int:
    # Start-up makes little garbage; collecting it would only slow the first frame down.
    # run_app turns the collector back on once the editor has booted.
    gc.disable()
    try:
        return _start_editor(args)
    finally:
        gc.enable()


def _start_editor(args: list[str]) -> int:
    from gate_tui.config.cache import open_config

    ns = editor_parser().parse_args(args)
    path = Path(ns.config) if ns.config else default_config_path()
    config, problems = open_config(path)  # from the cache when this text was validated before
    _report_problems(problems, "gate-tui")
    if config is None:
        return EXIT_EDITOR_FAILED
    try:
        from gate_tui.tui.startup import run_app
    except ImportError as exc:
        return _cannot_start("the editor", exc)
    state_file = Path(ns.state) if ns.state else None
    return _exit_code(run_app(config=config, config_path=path, state_file=state_file, new=ns.new))


# --- the subcommands ------------------------------------------------------------------


def command_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="gate-tui", description="gate-tui commands; run gate-tui --help for the editor.")
    parser.add_argument("--version", action="version", version=f"gate-tui {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    _add_check(commands)
    _add_schema(commands)
    _add_prompt(commands)
    _add_validate(commands)
    _add_sessions(commands)
    _add_report(commands)
    return parser


def _run_command(args: list[str]) -> int:
    ns, extra = command_parser().parse_known_args(args)
    if extra:
        ns.parser.error(f"unrecognized arguments: {' '.join(extra)}")
    return int(ns.handler(ns))


def _add_check(commands: Any) -> None:
    check = commands.add_parser(
        "check",
        help="check model replies: PASS / NO PASS, errors, repairs",
        description="Parse each reply with the config and print the result. Exit status: 0 all PASS, "
        "1 some NO PASS, 2 some reply not parsed or not valid, 3 usage or config error.",
        epilog="--jsonl: each input line is {\"id\": ..., \"reply\": \"...\"} (optionally \"previous\"); "
        "each output line is {\"id\", \"line\", \"ok\", \"pass\", \"result\"} in input order.",
    )
    check.add_argument("--config", required=True, metavar="CFG", help="gate config file")
    check.add_argument("files", nargs="*", metavar="FILE", help="reply files; '-' or none reads stdin")
    check.add_argument("--previous", metavar="STATE", help="JSON file with the previous state (or a ParseResult from --format json)")
    check.add_argument("--actor", choices=("assistant", "user"), default="assistant", help="who wrote the replies (user: a JSON object is a patch)")
    check.add_argument("--format", choices=("text", "json"), default=None, help="text (default): a summary; json: the ParseResult, one per line")
    check.add_argument("--jsonl", metavar="IN", help="check a JSON Lines file ('-' for stdin) instead of FILEs")
    check.add_argument("-o", "--output", metavar="OUT", help="write results to OUT instead of stdout")
    check.add_argument("-j", "--jobs", type=_jobs, default=None, metavar="N", help="worker processes for --jsonl (0: one per CPU; default 1)")
    check.add_argument("-q", "--quiet", action="store_true", help="--jsonl: no progress bar and no summary on stderr")
    check.set_defaults(handler=_cmd_check, parser=check)


def _cmd_check(ns: argparse.Namespace) -> int:
    problem = _check_usage(ns)
    if problem is not None:
        return _usage("check", problem)
    config = _load_config(Path(ns.config), "gate-tui check")
    if config is None:
        return EXIT_USAGE
    from gate_tui.cli.check import load_previous

    previous: GateState | None = None
    if ns.previous:
        previous, trouble = load_previous(ns.previous)
        if trouble is not None:
            return _usage("check", f"--previous {trouble}")
    if ns.jsonl is not None:
        return _check_jsonl(ns, config, previous)
    return _check_files(ns, config, previous)


def _check_usage(ns: argparse.Namespace) -> str | None:
    inputs = [ns.jsonl] if ns.jsonl is not None else ns.files
    if any(_same_file(name, ns.output) for name in inputs):
        return f"-o {ns.output} is also an input; it would be overwritten before it is read"
    if ns.jsonl is not None:
        if ns.files:
            return "give either FILEs or --jsonl, not both"
        if ns.format == "text":
            return "--jsonl always writes JSON Lines; --format text applies to FILEs"
        return None
    if ns.jobs is not None:
        return "-j/--jobs applies only with --jsonl"
    if not ns.files and _isatty(sys.stdin):
        return "no FILE given and stdin is a terminal (give FILEs, '-' for stdin, or --jsonl IN)"
    return None


def _check_files(ns: argparse.Namespace, config: GateConfig, previous: GateState | None) -> int:
    from gate_tui.cli.check import run_check

    out, problem = _open_text_output(ns.output)
    if out is None:
        return _usage("check", problem or "cannot write the output")
    try:
        try:
            return run_check(ns.files or ["-"], config, previous, ns.actor, ns.format or "text", out, sys.stderr, sys.stdin.buffer)
        finally:
            if out is not sys.stdout:
                out.close()
    except BrokenPipeError:
        raise
    except OSError as exc:
        return _io_error(exc)


def _check_jsonl(ns: argparse.Namespace, config: GateConfig, previous: GateState | None) -> int:
    from gate_tui.cli.batch import WorkerDied, input_size, run_batch

    try:
        source = sys.stdin.buffer if ns.jsonl == "-" else open(ns.jsonl, "rb", buffering=1 << 20)  # noqa: SIM115
    except OSError as exc:
        return _usage("check", f"--jsonl {ns.jsonl}: {exc.strerror or exc}")
    try:
        sink = sys.stdout.buffer if ns.output in (None, "-") else open(ns.output, "wb", buffering=1 << 20)  # noqa: SIM115
    except OSError as exc:
        source.close()
        return _usage("check", f"-o {ns.output}: {exc.strerror or exc}")
    jobs = ns.jobs if ns.jobs is not None else 1
    progress = _isatty(sys.stderr) and (sink is not sys.stdout.buffer or not _isatty(sys.stdout))
    try:
        try:
            return run_batch(source, sink, config, previous, ns.actor, jobs, input_size(source), progress, ns.quiet)
        finally:
            for stream in (source, sink):
                if stream not in (sys.stdin.buffer, sys.stdout.buffer):
                    stream.close()
    except WorkerDied as exc:
        sys.stderr.write(f"gate-tui check: a worker process died, the output is incomplete: {exc}\n")
        return EXIT_INTERNAL
    except BrokenPipeError:
        raise
    except OSError as exc:
        return _io_error(exc)


def _add_schema(commands: Any) -> None:
    schema = commands.add_parser(
        "schema",
        help="print the JSON Schema of a valid state",
        description="Print the JSON Schema (draft 2020-12) of a valid gate state for the config, usable as a structured-output schema.",
    )
    schema.add_argument("--config", required=True, metavar="CFG", help="gate config file")
    schema.add_argument(
        "--decision-rules",
        action="store_true",
        help="also encode the PASS rule (allOf/if/then), so status must be the system's; not for structured-output modes",
    )
    schema.set_defaults(handler=_cmd_schema, parser=schema)


def _cmd_schema(ns: argparse.Namespace) -> int:
    from gate_tui.config.schema_export import state_schema

    config = _load_config(Path(ns.config), "gate-tui schema")
    if config is None:
        return EXIT_USAGE
    sys.stdout.write(json.dumps(state_schema(config, ns.decision_rules), indent=2, ensure_ascii=False) + "\n")
    return 0


def _add_prompt(commands: Any) -> None:
    prompt = commands.add_parser(
        "prompt",
        help="print a system-prompt block for the config",
        description="Print plain text for a model's system prompt: the gates, their questions and categories, and the exact JSON shape.",
    )
    prompt.add_argument("--config", required=True, metavar="CFG", help="gate config file")
    prompt.set_defaults(handler=_cmd_prompt, parser=prompt)


def _cmd_prompt(ns: argparse.Namespace) -> int:
    from gate_tui.config.prompt_export import prompt_text

    config = _load_config(Path(ns.config), "gate-tui prompt")
    if config is None:
        return EXIT_USAGE
    sys.stdout.write(prompt_text(config))
    return 0


def _add_validate(commands: Any) -> None:
    validate = commands.add_parser(
        "validate-config",
        help="check config files and list every problem",
        description="Check each config and print every problem with its file, line and field. "
        "Exit status: 0 all valid, 1 some invalid, 3 usage error.",
    )
    validate.add_argument("configs", nargs="+", metavar="CFG", help="config files")
    validate.set_defaults(handler=_cmd_validate, parser=validate)


def _cmd_validate(ns: argparse.Namespace) -> int:
    status = 0
    for name in ns.configs:
        loaded = check_config(name)
        if loaded.config is None:
            status = 1
            sys.stdout.writelines(f"{problem}\n" for problem in loaded.problems)
        else:
            count = len(loaded.config.gates)
            sys.stdout.write(f"{name}: OK ({count} gate{'s' * (count != 1)})\n")
    return status


def _add_sessions(commands: Any) -> None:
    sessions = commands.add_parser("sessions", help="list saved editor sessions", description="List saved editor sessions.")
    sessions.add_argument("--config", metavar="CFG", help="only sessions of this config")
    sessions.set_defaults(handler=_cmd_sessions, parser=sessions)


def _cmd_sessions(ns: argparse.Namespace) -> int:
    try:
        from gate_tui.session.commands import sessions_command
    except ImportError as exc:
        return _cannot_start("the sessions command", exc)
    return _exit_code(sessions_command(Path(ns.config) if ns.config else None))


def _add_report(commands: Any) -> None:
    report = commands.add_parser("report", help="write a report of a saved session", description="Write a report of a saved session.")
    report.add_argument("session", metavar="SESSION", help="session id or path")
    report.add_argument("-o", "--output", metavar="FILE", help="write the report to FILE instead of stdout")
    report.set_defaults(handler=_cmd_report, parser=report)


def _cmd_report(ns: argparse.Namespace) -> int:
    try:
        from gate_tui.session.commands import report_command
    except ImportError as exc:
        return _cannot_start("the report command", exc)
    return _exit_code(report_command(ns.session, Path(ns.output) if ns.output else None))


# --- helpers --------------------------------------------------------------------------


def _load_config(path: Path, prog: str) -> GateConfig | None:
    """The config, or None after printing one line per problem to stderr."""
    loaded = check_config(path)
    _report_problems(loaded.problems, prog)
    return loaded.config


def _report_problems(problems: list[ConfigProblem], prog: str) -> None:
    for problem in problems:
        sys.stderr.write(f"{prog}: {problem}\n")


def _jobs(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError("must be 0 (one per CPU) or more")
    return value or (os.cpu_count() or 1)


def _open_text_output(path: str | None) -> tuple[IO[str] | None, str | None]:
    if path in (None, "-"):
        return sys.stdout, None
    try:
        return open(path, "w", encoding="utf-8"), None  # noqa: SIM115
    except OSError as exc:
        return None, f"-o {path}: {exc.strerror or exc}"


def _same_file(first: str | None, second: str | None) -> bool:
    if not first or not second or "-" in (first, second):
        return False
    try:
        return os.path.samefile(first, second)
    except OSError:
        return False


def _io_error(exc: OSError) -> int:
    """Reading the input or writing the output failed part-way (e.g. a full disk)."""
    where = f" ({exc.filename})" if exc.filename else ""
    sys.stderr.write(f"gate-tui check: input/output error{where}: {exc.strerror or exc}; the output is incomplete\n")
    return EXIT_USAGE


def _usage(command: str, message: str) -> int:
    sys.stderr.write(f"gate-tui {command}: error: {message}\n")
    return EXIT_USAGE


def _cannot_start(what: str, exc: ImportError) -> int:
    sys.stderr.write(
        f"gate-tui: {what} is not available ({exc}). "
        "The headless commands (check, schema, prompt, validate-config) still work.\n"
    )
    return EXIT_EDITOR_FAILED


def _exit_code(code: Any) -> int:
    if code is None:
        return 0
    if isinstance(code, bool):
        return int(code)
    if isinstance(code, int):
        return code
    sys.stderr.write(f"{code}\n")
    return 1


def _isatty(stream: Any) -> bool:
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def _silence_stdout() -> None:
    """After a closed pipe, point stdout at /dev/null so the exit flush cannot fail."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
