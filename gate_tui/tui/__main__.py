"""``python -m gate_tui.tui [CONFIG] [--state FILE] [--new]``: open the editor directly.

A thin development entry point (the real command line is ``gate-tui``): it exits with
status 2 and one line per problem when the config cannot be loaded.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from gate_tui.config.loading import check_config, default_config_path
from gate_tui.tui.startup import run_app


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m gate_tui.tui")
    parser.add_argument("config", nargs="?", type=Path, default=None)
    parser.add_argument("--state", type=Path, default=None)
    parser.add_argument("--new", action="store_true")
    args = parser.parse_args(argv)
    path = args.config or default_config_path()
    loaded = check_config(path)
    if loaded.config is None:
        for problem in loaded.problems:
            print(f"gate-tui: {problem}", file=sys.stderr)
        return 2
    return run_app(loaded.config, path, state_file=args.state, new=args.new)


if __name__ == "__main__":
    raise SystemExit(main())
