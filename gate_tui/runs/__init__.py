"""The headless run engine: batches of replies checked line by line, as Arrow rows, in
worker processes or on Ray, spilled to disk, written as results. Used by ``gate-tui check``
and by the public API (:func:`gate_tui.check_arrow`); it imports neither ``cli`` nor ``tui``."""
