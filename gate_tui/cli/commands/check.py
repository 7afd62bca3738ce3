"""``gate-tui check``: model replies checked headlessly, one by one or as a JSON Lines batch.

This module parses the command's arguments, checks their combination and opens the
streams; the work is :func:`gate_tui.cli.check.run_check` (FILEs and stdin) and
:func:`gate_tui.runs.engine.run_batch` (``--jsonl``).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gate_tui.cli.check_streams import check_jsonl, to_text_output
from gate_tui.cli.common import isatty, load_config, same_file, usage
from gate_tui.exit_codes import EXIT_USAGE

if TYPE_CHECKING:
    from gate_tui.models import GateConfig, GateState

DESCRIPTION = (
    "Parse each reply with the config and print the result. Exit status: 0 all PASS, "
    "1 some NO PASS, 2 some reply not parsed or not valid, 3 usage or config error. "
    "With --contract: 0 all valid, 2 some invalid, 3 usage or contract error."
)
EPILOG = (
    '--jsonl: each input line is {"id": ..., "reply": "..."} (optionally "previous"); '
    'each output line is {"id", "line", "ok", "pass", "result"} in input order.'
)


def configure(parser: argparse.ArgumentParser) -> None:
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--config", metavar="CFG", help="gate config file")
    source.add_argument(
        "--contract",
        metavar="FILE",
        help="a JSON Schema contract instead of a gate config: exit 0 all valid, 2 some invalid",
    )
    parser.add_argument(
        "files", nargs="*", metavar="FILE", help="reply files; '-' or none reads stdin"
    )
    parser.add_argument(
        "--previous",
        metavar="STATE",
        help="JSON file with the previous state (or a ParseResult from --format json)",
    )
    parser.add_argument(
        "--conversation",
        metavar="FILE",
        help="a JSON list of chat messages (OpenAI format): each raw answer is checked"
        " against the user's words",
    )
    parser.add_argument(
        "--actor",
        choices=("assistant", "user"),
        default="assistant",
        help="who wrote the replies (user: a JSON object is a patch)",
    )
    parser.add_argument(
        "--format",
        choices=("text", "json", "github"),
        default=None,
        help="text (default): a summary; json: the ParseResult, one per line;"
        " github: workflow annotations (::error, ::warning)",
    )
    parser.add_argument(
        "--junit", metavar="FILE", help="also write JUnit XML: one test case per reply"
    )
    parser.add_argument(
        "--summary-md", metavar="FILE", help="also write a Markdown summary (a CI step summary)"
    )
    parser.add_argument(
        "--jsonl", metavar="IN", help="check a JSON Lines file ('-' for stdin) instead of FILEs"
    )
    parser.add_argument(
        "-o", "--output", metavar="OUT", help="write results to OUT instead of stdout"
    )
    parser.add_argument(
        "-j",
        "--jobs",
        type=jobs,
        default=None,
        metavar="N",
        help="worker processes for --jsonl (0: one per CPU; default 1)",
    )
    parser.add_argument(
        "-q",
        "--quiet",
        action="store_true",
        help="--jsonl: no progress bar and no summary on stderr",
    )
    parser.add_argument(
        "--no-guess",
        action="store_true",
        help="a reply whose JSON needs a guessed repair (inner quote, unquoted value,"
        " missing quote) is not parsed",
    )
    parser.add_argument(
        "--envelope",
        action="store_true",
        help="--contract: print the service error envelope of each reply",
    )
    data = parser.add_argument_group(
        "eval runs (Parquet or JSON Lines files; needs gate-tui[data])"
    )
    data.add_argument(
        "--input",
        metavar="PATH",
        help="check the replies of a Parquet or JSON Lines file; results go to --output",
    )
    data.add_argument(
        "--input-format",
        choices=("parquet", "jsonl"),
        help="the --input format (default: by extension)",
    )
    data.add_argument(
        "--reply-column",
        default="reply",
        metavar="NAME",
        help="--input: the column (or JSON key) of the replies (default: reply)",
    )
    data.add_argument(
        "--id-column",
        default="id",
        metavar="NAME",
        help="--input: the column (or JSON key) of the ids (default: id)",
    )
    data.add_argument(
        "--finish-reason-column",
        default="finish_reason",
        metavar="NAME",
        help="--input: the provider's finish reason (length: the reply is cut off)",
    )
    data.add_argument(
        "--usage-column",
        default="usage",
        metavar="NAME",
        help="--input: token usage (an object of *_tokens, or a number)",
    )
    data.add_argument(
        "--carry-columns",
        default=None,
        metavar="A,B",
        help="--input, --jsonl: the input columns (JSON keys) the results carry"
        " (default: all; '' none)",
    )
    data.add_argument(
        "--engine",
        choices=("local", "ray"),
        default="local",
        help="ray: run on the Ray cluster ray.init() finds (RAY_ADDRESS); Parquet in, Parquet out",
    )
    from gate_tui.cli.contract_options import add_contract_options

    add_contract_options(parser)


def run(ns: argparse.Namespace) -> int:
    problem = check_usage(ns)
    if problem is not None:
        return usage("check", problem)
    if ns.contract is not None:
        from gate_tui.cli.contract_check import check_against_contract

        return check_against_contract(ns)
    config = load_config(Path(ns.config), "gate-tui check")
    if config is None:
        return EXIT_USAGE
    if ns.no_guess:  # the policy of the config, tightened for this run only
        config = config.model_copy(
            update={"policy": config.policy.model_copy(update={"allow_guessed_repairs": False})}
        )
    from gate_tui.cli.check import load_previous

    previous: GateState | None = None
    if ns.previous:
        previous, trouble = load_previous(ns.previous)
        if trouble is not None:
            return usage("check", f"--previous {trouble}")
    conversation = None
    if getattr(ns, "conversation", None):
        from gate_tui.cli.check import load_conversation

        conversation, trouble = load_conversation(ns.conversation)
        if trouble is not None:
            return usage("check", f"--conversation {trouble}")
    from gate_tui.cli.check_ci import after_batch, run_files_ci, wants_ci

    if ns.jsonl is not None:
        return after_batch(ns, check_jsonl(ns, config, previous))
    if ns.input is not None:
        from gate_tui.cli.input_check import check_input
        from gate_tui.runs.arrow_rows import gate_settings

        return after_batch(ns, check_input(ns, gate_settings(config, previous, ns.actor)))
    if wants_ci(ns):
        return to_text_output(
            ns.output, lambda out: run_files_ci(ns, config, previous, out, conversation)
        )
    return check_files(ns, config, previous, conversation)


def jobs(text: str) -> int:
    """``-j N``: a whole number, 0 meaning one worker per CPU."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError("must be 0 (one per CPU) or more")
    return value or (os.cpu_count() or 1)


def check_usage(ns: argparse.Namespace) -> str | None:
    """What is wrong with this combination of arguments, or None."""
    inputs = (
        [ns.jsonl] if ns.jsonl is not None else [ns.input] if ns.input is not None else ns.files
    )
    if any(same_file(name, ns.output) for name in inputs):
        return f"-o {ns.output} is also an input; it would be overwritten before it is read"
    if getattr(ns, "conversation", None) and (ns.jsonl is not None or ns.input is not None):
        return "--conversation applies to FILEs; batches carry a messages column (key) per reply"
    from gate_tui.cli.check_ci import ci_usage

    problem = ci_usage(ns)
    if problem is not None:
        return problem
    if ns.contract is None and ns.envelope:
        return "--envelope applies only with --contract"
    if ns.contract is not None and (ns.previous or ns.actor != "assistant"):
        return "--previous and --actor apply to gate configs, not to --contract"
    if ns.input is not None:
        from gate_tui.cli.input_check import input_usage

        return input_usage(ns)
    signals = (ns.finish_reason_column, ns.usage_column) != ("finish_reason", "usage")
    if ns.carry_columns is not None and ns.jsonl is None:
        return "--carry-columns applies only with --input or --jsonl"
    if (
        ns.engine != "local"
        or ns.input_format
        or (ns.reply_column, ns.id_column) != ("reply", "id")
        or signals
    ):
        return "--engine, --input-format and the --*-column options apply only with --input"
    if ns.jsonl is not None:
        if ns.files:
            return "give either FILEs or --jsonl, not both"
        if ns.format == "text":
            return "--jsonl always writes JSON Lines; --format text applies to FILEs"
        return None
    if ns.jobs is not None:
        return "-j/--jobs applies only with --jsonl"
    if not ns.files and isatty(sys.stdin):
        return "no FILE given and stdin is a terminal (give FILEs, '-' for stdin, or --jsonl IN)"
    return None


def check_files(
    ns: argparse.Namespace, config: GateConfig, previous: GateState | None, conversation: Any = None
) -> int:
    from gate_tui.cli.check import run_check

    def write(out: Any) -> int:
        fmt = ns.format or "text"
        return run_check(
            ns.files or ["-"],
            config,
            previous,
            ns.actor,
            fmt,
            out,
            sys.stderr,
            sys.stdin.buffer,
            conversation,
        )

    return to_text_output(ns.output, write)
