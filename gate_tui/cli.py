"""Command line entry point (placeholder until the CLI issue lands): parse a reply and print it."""

from __future__ import annotations

import sys
from pathlib import Path

from gate_tui.config import check_config, default_config_path
from gate_tui.parser import parse


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    config_path = Path(args[0]) if args else default_config_path()
    loaded = check_config(config_path)
    if loaded.config is None:
        for problem in loaded.problems:
            print(f"gate-tui: {problem}", file=sys.stderr)
        return 2
    reply = (config_path.parent / "replies" / "ml_lying_pass.md").read_text(encoding="utf-8") if not args else sys.stdin.read()
    print(parse(reply, loaded.config).model_dump_json(indent=2))
    return 0
