"""The Textual editor of gate-tui (the only package that imports Textual).

The CLI calls :func:`gate_tui.tui.startup.run_app`; the app itself is
:class:`gate_tui.tui.app.GateApp`. This file imports nothing, so that importing one
module of the package (``gate_tui.tui.render``, the controller) does not load the app.
"""
