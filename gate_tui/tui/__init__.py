"""The Textual editor of gate-tui (the only package that imports Textual).

``run_app(config, config_path, state_file=None, new=False)`` is what the CLI calls.
"""

from gate_tui.tui.app import GateApp, run_app

__all__ = ["GateApp", "run_app"]
