"""``gate-tui validate-config``: every problem of each config file, with its location."""

from __future__ import annotations

import argparse
import sys

from gate_tui.exit_codes import EXIT_USAGE
from gate_tui.safe_text import visible

DESCRIPTION = (
    "Check each config and print every problem with its file, line and field. "
    "Exit status: 0 all valid, 3 some invalid or a usage error."
)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("configs", nargs="+", metavar="CFG", help="config files")


def run(ns: argparse.Namespace) -> int:
    from gate_tui.config.loading import check_config

    status = 0
    for name in ns.configs:
        loaded = check_config(name)
        if loaded.config is None:
            status = EXIT_USAGE  # an invalid config is a config error, as for every other command
            sys.stdout.writelines(f"{visible(str(problem))}\n" for problem in loaded.problems)
        else:
            count = len(loaded.config.gates)
            sys.stdout.write(visible(f"{name}: OK ({count} gate{'s' * (count != 1)})") + "\n")
    return status
