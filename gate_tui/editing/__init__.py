"""Textual-free editing sessions: the contract editor's state, undo/redo and session files,
used by the contract screen and by ``gate-tui check --contract`` reports."""
