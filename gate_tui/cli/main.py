"""The ``gate-tui`` entry point: the editor, or the subcommand the first word names.

::

    gate-tui [CONFIG] [--state FILE] [--new]          start the editor (Textual)
    gate-tui COMMAND ...                              a headless command (see the registry)

A first argument that names a subcommand of :mod:`gate_tui.cli.registry` selects it;
anything else is the editor's ``CONFIG`` (so a config file called ``check`` must be given
as ``./check``). This module only dispatches and guards: each command's arguments and
work live in its own module under :mod:`gate_tui.cli.commands`, imported only when it
runs, so the editor's start-up path loads none of them.

Exit statuses: ``check`` 0 all PASS, 1 some NO PASS, 2 some reply not parsed or not
valid, 3 usage or config error (also, for every command: the output could not be
written, e.g. a full disk, reported once here, see :mod:`gate_tui.cli.output`); ``validate-config``
0 all valid, 3 some invalid or usage; the editor 2 when it cannot start, 3 when its config is
missing or invalid. Argument errors exit 3 everywhere, an interrupt 130, SIGTERM 143 and SIGHUP 129
(``check --jsonl``: its workers end with it, the output ends at a line), a closed output pipe
(``| head``) 141 without a message. Users never see a traceback (``GATE_TUI_DEBUG=1`` shows one for
an internal error, which exits 70).
"""

from __future__ import annotations

import argparse
import gc
import os
import signal
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path

from gate_tui.cli.common import (
    Parser,
    cannot_start,
    exit_code,
    report_problems,
    say,
    silence_stdout,
)
from gate_tui.cli.output import OutputFailed, flush, guarded_stdout
from gate_tui.cli.registry import BY_NAME, Subcommand, epilog
from gate_tui.exit_codes import EXIT_BROKEN_PIPE, EXIT_INTERNAL, EXIT_INTERRUPTED, EXIT_USAGE
from gate_tui.runs import interrupts
from gate_tui.safe_text import visible
from gate_tui.version import __version__

EXIT_CONFIG = EXIT_USAGE
"""The editor's status for a missing or invalid config (as for every other command)."""


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``gate-tui`` script and of ``python -m gate_tui``."""
    args = list(sys.argv[1:] if argv is None else argv)
    interrupts.install()  # Ctrl+C exits 130 even when Python drops the KeyboardInterrupt
    if not sys.warnoptions:  # a library's warning (with its source line) is for developers who
        warnings.simplefilter("ignore")  # ask with -W or PYTHONWARNINGS, never for the user
    command = BY_NAME.get(args[0]) if args else None
    try:
        if command is None and args and _unknown_command(args[0]):
            say(
                f"gate-tui: unknown command '{visible(args[0], one_line=True)}' (commands: "
                f"{', '.join(BY_NAME)}; no config file of that name either)"
            )
            return EXIT_USAGE
        # The editor draws through Textual, which owns the terminal: only commands (and
        # the final flush, which also covers the editor's --help) get the guarded stdout.
        with guarded_stdout(active=command is not None):
            status = _dispatch(command, args)
            flush()  # a closed pipe or a full device shows up here, not as a warning at exit
        if interrupts.was_interrupted():
            return _interrupted()
        ended = interrupts.ended_by()  # a SIGTERM whose exception was lost on the way
        return _terminated(ended) if ended is not None and status < 128 else status
    except KeyboardInterrupt:
        return _interrupted()
    except interrupts.Terminated as exc:
        return _terminated(exc.signum)
    except BrokenPipeError:
        silence_stdout()
        return EXIT_BROKEN_PIPE
    except OutputFailed as exc:
        silence_stdout()  # the unwritten rest must not fail again at exit
        if interrupts.was_interrupted():
            return _interrupted()
        name = f"gate-tui {command.name}" if command is not None else "gate-tui"
        say(f"{name}: cannot write the output: {exc.strerror or exc}; the output is incomplete")
        return EXIT_USAGE
    except MemoryError:
        say(
            "gate-tui: out of memory: the input is too large for the memory available (nothing was "
            "written for it)"
        )
        return EXIT_INTERNAL
    except Exception as exc:  # noqa: BLE001 - the last guard before a user would see a traceback
        if interrupts.was_interrupted():
            return _interrupted()
        if os.environ.get("GATE_TUI_DEBUG"):
            raise
        say(
            f"gate-tui: internal error: {type(exc).__name__}: {exc} (set GATE_TUI_DEBUG=1 for "
            "details)"
        )
        return EXIT_INTERNAL


def _dispatch(command: Subcommand | None, args: list[str]) -> int:
    """The status of the command (or the editor); ``SystemExit`` (argparse) as a status."""
    try:
        return run_subcommand(command, args[1:]) if command is not None else _run_editor(args)
    except SystemExit as exc:
        return _interrupted() if interrupts.was_interrupted() else exit_code(exc.code)


def _unknown_command(word: str) -> bool:
    """A first word that is neither an option nor a file but reads like a command (``diff``).

    Without this, ``gate-tui diff a b`` reached the editor's parser and complained about
    ``a b``. A config path always has an extension or exists, so neither is taken for one.
    """
    path = Path(word)
    return (
        not word.startswith("-") and not path.suffix and len(path.parts) == 1 and not path.exists()
    )


def _terminated(signum: int) -> int:
    """SIGTERM / SIGHUP: what was written is whole lines; flush it and exit 128 + signum."""
    try:
        flush()
    except OSError:
        silence_stdout()
    name = signal.Signals(signum).name
    sys.stderr.write(
        f"gate-tui: stopped by {name}; the output so far is complete up to its last line\n"
    )
    return 128 + signum


def _interrupted() -> int:
    sys.stderr.write("gate-tui: interrupted\n")
    return EXIT_INTERRUPTED


def subcommand_parser(command: Subcommand) -> argparse.ArgumentParser:
    """The argument parser of one subcommand (imports its module)."""
    module = command.load()
    parser = Parser(
        prog=f"gate-tui {command.name}",
        description=getattr(module, "DESCRIPTION", command.help),
        epilog=getattr(module, "EPILOG", None),
    )
    module.configure(parser)
    return parser


def run_subcommand(command: Subcommand, args: list[str]) -> int:
    """Parse ``args`` with the command's own parser and run it."""
    ns = subcommand_parser(command).parse_args(args)
    return int(command.load().run(ns))


# --- the editor -----------------------------------------------------------------------


def editor_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="gate-tui",
        description=(
            "Edit a gate state in the terminal: a model's reply or your edit in, a validated state "
            "and the system's PASS / NO PASS out."
        ),
        epilog=epilog(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "config",
        nargs="?",
        metavar="CONFIG",
        help="gate config (YAML, JSON or TOML); default: the bundled ML project intake",
    )
    parser.add_argument("--state", metavar="FILE", help="state file to open or create")
    parser.add_argument(
        "--new", action="store_true", help="start a new session instead of resuming the last one"
    )
    parser.add_argument(
        "--files",
        metavar="DIR",
        help=(
            "keep the file commands (Save as, Open, Export) inside DIR; paths outside it are "
            "refused (gate-tui serve sets it)"
        ),
    )
    parser.add_argument(
        "--contract",
        metavar="FILE",
        help=(
            "open the editor in contract mode on a JSON Schema contract (a CONFIG with a $schema "
            "key does too)"
        ),
    )
    from gate_tui.cli.contract_options import add_contract_options

    add_contract_options(parser)
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
    from gate_tui.config.loading import default_config_path

    with guarded_stdout():  # --help and --version print; the editor itself draws through Textual
        ns = editor_parser().parse_args(args)
    if ns.files is not None and not Path(ns.files).is_dir():
        say(f"gate-tui: --files {visible(ns.files, one_line=True)}: not a folder")
        return EXIT_USAGE
    contract = _contract_path(ns)
    if contract is not None:
        return _start_contract_editor(contract, ns.new, ns)
    path = Path(ns.config) if ns.config else default_config_path()
    config, problems = open_config(path)  # from the cache when this text was validated before
    report_problems(problems, "gate-tui")
    if config is None:
        return EXIT_CONFIG
    try:
        from gate_tui.tui.startup import run_app
    except ImportError as exc:
        return cannot_start("the editor", exc)
    state_file = Path(ns.state) if ns.state else None
    return exit_code(
        run_app(
            config=config, config_path=path, state_file=state_file, new=ns.new, files=_files(ns)
        )
    )


def _contract_path(ns: argparse.Namespace) -> str | None:
    """``--contract FILE``, or a CONFIG that is a contract (it has a ``$schema`` key)."""
    if ns.contract:
        return str(ns.contract)
    if ns.config:
        from gate_tui.contracts.sniff import looks_like_contract

        return str(ns.config) if looks_like_contract(ns.config) else None
    return None


def _start_contract_editor(path: str, new: bool, ns: argparse.Namespace) -> int:
    from gate_tui.cli.contract_check import load_contract_or_report
    from gate_tui.cli.contract_options import load_options

    contract = load_contract_or_report(path, "gate-tui", load_options(ns))
    if contract is None:
        return EXIT_CONFIG
    try:
        from gate_tui.tui.contract.app import run_contract_app
    except ImportError as exc:
        return cannot_start("the contract editor", exc)
    return exit_code(run_contract_app(contract, new, files=_files(ns)))


def _files(ns: argparse.Namespace) -> Path | None:
    """``--files DIR``, resolved: the one folder the editor's file commands may use."""
    return Path(ns.files).resolve() if ns.files else None
