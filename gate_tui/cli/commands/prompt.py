"""``gate-tui prompt``: a system-prompt block describing a config's gates and JSON shape."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from gate_tui.cli.common import load_config
from gate_tui.exit_codes import EXIT_USAGE
from gate_tui.safe_text import visible

DESCRIPTION = (
    "Print plain text for a model's system prompt: the gates, their questions and categories, and "
    "the exact JSON shape (or, with --contract, the contract's fields, rules and an example)."
)


def configure(parser: argparse.ArgumentParser) -> None:
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--config", metavar="CFG", help="gate config file")
    source.add_argument(
        "--contract",
        metavar="FILE",
        help="a JSON Schema contract: its shape, each field's rule and an example",
    )
    from gate_tui.cli.contract_options import add_contract_options

    add_contract_options(parser)


def run(ns: argparse.Namespace) -> int:
    if ns.contract is not None:
        from gate_tui.cli.common import say
        from gate_tui.cli.contract_check import load_contract_or_report
        from gate_tui.cli.contract_options import load_options
        from gate_tui.contracts.prompting import prompt_report

        contract = load_contract_or_report(ns.contract, "gate-tui prompt", load_options(ns))
        if contract is None:
            return EXIT_USAGE
        report = prompt_report(contract)
        sys.stdout.write(visible(report.text))
        say(f"gate-tui prompt: {report.note}")  # stderr: stdout stays the text to paste
        return 0
    from gate_tui.config.prompt_export import prompt_text

    config = load_config(Path(ns.config), "gate-tui prompt")
    if config is None:
        return EXIT_USAGE
    sys.stdout.write(visible(prompt_text(config)))
    return 0
