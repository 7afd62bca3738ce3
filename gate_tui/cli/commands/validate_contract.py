"""``gate-tui validate-contract``: every problem of each contract file, with its location."""

from __future__ import annotations

import argparse
import sys

from gate_tui.exit_codes import EXIT_USAGE
from gate_tui.safe_text import visible

DESCRIPTION = (
    "Check each contract (a JSON Schema Draft 2020-12 file, JSON or YAML, with an optional "
    "x-gate-tui block) and print every problem with its file, line and JSON Pointer. "
    "Exit status: 0 all valid, 3 some invalid or a usage error."
)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("contracts", nargs="+", metavar="FILE", help="contract files")


def run(ns: argparse.Namespace) -> int:
    from gate_tui.contracts.loading import check_contract_file

    status = 0
    for name in ns.contracts:
        contract, problems = check_contract_file(name)
        if contract is None:
            status = EXIT_USAGE
            sys.stdout.writelines(f"{visible(str(problem))}\n" for problem in problems)
        else:
            count = len(contract.schema.get("properties") or {})
            sys.stdout.write(visible(f"{name}: OK ({contract.title}, {count} top-level field{'s' * (count != 1)})") + "\n")
    return status
