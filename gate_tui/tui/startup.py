"""Starting the editor from the command line: :func:`run_app`.

Kept apart from :mod:`gate_tui.tui.app` so that the CLI names one small module, and so
that the garbage-collection policy of start-up (see :func:`run_app`) lives next to the
only call that needs it.
"""

from __future__ import annotations

import gc
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gate_tui.views import ConfigView


def run_app(
    config: ConfigView,
    config_path: Path | None,
    state_file: Path | None = None,
    new: bool = False,
    files: Path | None = None,
) -> int:
    """Open the editor on ``config`` (a GateConfig or the spec of one); returns the exit status.

    Garbage collection waits until start-up is over (the boot, after the first frame):
    start-up makes little garbage, and a full collection over everything the imports
    created costs 15–25 ms each time. What exists by then (modules, the config, the
    session) lives as long as the editor, so it is frozen out of later collections.
    """
    from gate_tui.tui.app import GateApp

    gc.disable()
    gc.freeze()
    app = GateApp(
        config, config_path, state_file=state_file, new=new, look_for_resumable=True, files=files
    )
    app._collect_after_first_frame = True
    try:
        result = app.run()
    finally:
        gc.enable()
    return result if isinstance(result, int) else (app.return_code or 0)
