"""Crash-test worker: apply transitions through the session layer until killed.

Usage: ``python -m tests.helpers.crash_worker ROOT CONFIG DIRECTORY|new SEED COUNT``.
It prints ``session <directory>`` first, then ``accepted <index> <kind> <state hash>``
(flushed) after each accept / undo / redo / jump has *returned*, i.e. after the
session layer has journaled it. The parent kills it with SIGKILL at random moments.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from gate_tui.config.loading import load_config
from gate_tui.session.opening import open_session
from tests.helpers.session_steps import state_hash, step


def main(argv: list[str]) -> int:
    root, config_path, where, seed, count = (
        Path(argv[0]),
        Path(argv[1]),
        argv[2],
        int(argv[3]),
        int(argv[4]),
    )
    config = load_config(config_path)
    directory = None if where == "new" else Path(where)
    session = open_session(
        config, config_path, root=root, new=directory is None, directory=directory
    )
    if not session.persistent:
        print(f"error {session.notices}", flush=True)
        return 1
    print(f"session {session.directory}", flush=True)
    rng = random.Random(seed)
    made = 0
    while made < count:
        transition = step(session, config, rng)
        if transition is not None:
            made += 1
            print(
                f"accepted {transition.index} {transition.kind} {state_hash(transition.state)}",
                flush=True,
            )
    print("done", flush=True)
    return 0  # exits without close(): a finished worker looks like a crash too


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
