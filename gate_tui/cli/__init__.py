"""The ``gate-tui`` command line: the entry point (:mod:`gate_tui.cli.main`) and one
module per subcommand. This file imports nothing: the editor's start-up path must not
load the headless commands' dependencies.
"""
