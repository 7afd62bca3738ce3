"""The exit statuses of the ``gate-tui`` command, in one place.

Kept apart from :mod:`gate_tui.cli.check` (which loads the parser and pydantic) so that
the CLI can name them while it starts the editor, which must not load either before
its first frame.
"""

EXIT_PASS = 0
"""check: every reply PASSes."""
EXIT_NO_PASS = 1
"""check: some reply is NO PASS."""
EXIT_INVALID = 2
"""check: some reply could not be parsed or is not valid."""
EXIT_USAGE = 3
"""Usage or config error (also: the output could not be written)."""
EXIT_EDITOR_FAILED = 2
"""The editor's config is missing or invalid, or the editor cannot start."""
EXIT_INTERNAL = 70
"""An internal error (a bug): the message says how to see the traceback."""
EXIT_INTERRUPTED = 130
"""Ctrl+C."""
EXIT_BROKEN_PIPE = 141
"""The reader of standard output went away (``| head``)."""
