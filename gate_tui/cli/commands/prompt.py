"""``gate-tui prompt``: a system-prompt block describing a config's gates and JSON shape."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from gate_tui.cli.common import load_config
from gate_tui.exit_codes import EXIT_USAGE
from gate_tui.safe_text import visible

DESCRIPTION = "Print plain text for a model's system prompt: the gates, their questions and categories, and the exact JSON shape."


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", required=True, metavar="CFG", help="gate config file")


def run(ns: argparse.Namespace) -> int:
    from gate_tui.config.prompt_export import prompt_text

    config = load_config(Path(ns.config), "gate-tui prompt")
    if config is None:
        return EXIT_USAGE
    sys.stdout.write(visible(prompt_text(config)))
    return 0
