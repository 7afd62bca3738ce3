"""``gate-tui validate-contract``: every problem of each contract file, with its location."""

from __future__ import annotations

import argparse
import sys

from gate_tui.exit_codes import EXIT_USAGE
from gate_tui.safe_text import visible

DESCRIPTION = (
    "Check each contract (a JSON Schema file of draft-04, -06, -07, 2019-09 or 2020-12, JSON or "
    "YAML, with an optional x-gate-tui block) and print every problem with its file, line and JSON "
    "Pointer. References are resolved offline only (the contract's folder, --schemas DIR). "
    "Exit status: 0 all valid, 3 some invalid or a usage error."
)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("contracts", nargs="+", metavar="FILE", help="contract files")
    from gate_tui.cli.contract_options import add_contract_options

    add_contract_options(parser)


def run(ns: argparse.Namespace) -> int:
    from gate_tui.cli.contract_options import load_options
    from gate_tui.contracts.loading import check_contract_file

    status = 0
    for name in ns.contracts:
        contract, problems = check_contract_file(name, load_options(ns))
        if contract is None:
            status = EXIT_USAGE
            sys.stdout.writelines(f"{visible(str(problem))}\n" for problem in problems)
            continue
        properties = contract.schema.get("properties")
        count = len(properties) if isinstance(properties, dict) else 0
        lines = [
            f"{name}: OK ({contract.title}, {count} top-level field{'s' * (count != 1)}, JSON "
            f"Schema {contract.draft_name})",
            f"{name}: {formats_note(contract.schema, contract.draft)}",
        ]
        lines += [f"{name}: warning: {warning}" for warning in contract.warnings]
        sys.stdout.writelines(visible(line) + "\n" for line in lines)
    return status


def formats_note(schema: dict, draft: int = 20) -> str:
    """The one line saying formats are enforced (which ones this contract uses, and which no
    validator knows)."""
    from gate_tui.contracts.drafts import subschemas
    from gate_tui.contracts.formats import unchecked_formats

    used = {
        node["format"]
        for _parts, node, _base in subschemas(schema)
        if isinstance(node.get("format"), str)
    }
    unknown = unchecked_formats(used, draft)
    enforced = sorted(used - set(unknown))
    named = f" (this contract uses: {', '.join(enforced)})" if enforced else ""
    unchecked = (
        f"; not checked, no JSON Schema draft defines them: {', '.join(unknown)}" if unknown else ""
    )
    return (
        'formats are enforced: a value that breaks its "format" is an error, not an '
        f"annotation{named}{unchecked}"
    )
