"""The editor served to web browsers (``gate-tui serve``), with the textual-serve package.

Kept in the UI package because it is the editor's other front end; the command line
(:mod:`gate_tui.cli.commands.serve`) checks the arguments and the port, then calls
:func:`serve_editor`. Each browser connection runs ``command`` in a process of its own.
"""

from __future__ import annotations


def serve_editor(command: str, host: str, port: int, url: str) -> None:
    """Serve ``command`` (an editor) at ``host:port`` until Ctrl+C. Raises ImportError
    when textual-serve is not installed."""
    from textual_serve.server import Server

    Server(command, host=host, port=port, title="gate-tui", public_url=url).serve()
