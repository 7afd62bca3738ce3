"""The ``gate-tui`` subcommands, one module each (see :mod:`gate_tui.cli.registry`)."""
