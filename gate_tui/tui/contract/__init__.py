"""The editor in contract mode: a reply pane, a tree of the value, leaf edits, VALID / INVALID.

:mod:`gate_tui.editing.contract_editor` holds the rules and the session (no Textual);
:mod:`gate_tui.tui.contract.app` the Textual app; :mod:`gate_tui.tui.contract.views` what
the panes show. Nothing is imported eagerly.
"""
