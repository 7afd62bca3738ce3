"""``python -m gate_tui``: the same entry point as the ``gate-tui`` console script."""

from gate_tui.cli.main import main

raise SystemExit(main())
