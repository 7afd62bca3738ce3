"""``gate-tui sessions``: the saved editor sessions (open, locked, finished, foreign…)."""

from __future__ import annotations

import argparse
from pathlib import Path

from gate_tui.cli.common import cannot_start, exit_code

DESCRIPTION = "List saved editor sessions."


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--config", metavar="CFG", help="only sessions of this config (or contract)"
    )


def run(ns: argparse.Namespace) -> int:
    try:
        from gate_tui.contracts.sniff import looks_like_contract
        from gate_tui.session.commands import sessions_command
    except ImportError as exc:
        return cannot_start("the sessions command", exc)
    path = Path(ns.config) if ns.config else None
    if path is not None and looks_like_contract(path):
        # A contract has no gate fingerprint to compare: its sessions are found by file name.
        return exit_code(sessions_command(path, gate_config=False))
    return exit_code(sessions_command(path))
