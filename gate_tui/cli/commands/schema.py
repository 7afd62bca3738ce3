"""``gate-tui schema``: the JSON Schema of a valid gate state for a config."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from gate_tui.cli.common import load_config
from gate_tui.exit_codes import EXIT_USAGE
from gate_tui.safe_text import json_visible

DESCRIPTION = (
    "Print the JSON Schema (draft 2020-12) of a valid gate state for the config, usable as a "
    "structured-output schema."
)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", required=True, metavar="CFG", help="gate config file")
    parser.add_argument(
        "--decision-rules",
        action="store_true",
        help=(
            "also encode the PASS rule (allOf/if/then), so status must be the system's; not for "
            "structured-output modes"
        ),
    )


def run(ns: argparse.Namespace) -> int:
    from gate_tui.config.schema_export import state_schema

    config = load_config(Path(ns.config), "gate-tui schema")
    if config is None:
        return EXIT_USAGE
    sys.stdout.write(
        json_visible(
            json.dumps(state_schema(config, ns.decision_rules), indent=2, ensure_ascii=False)
        )
        + "\n"
    )
    return 0
