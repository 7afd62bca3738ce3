"""Text → JSON → validated state: the parser's layer.

``pipeline`` is the entry point (:func:`parse`); it calls ``extraction`` (find the JSON
object in a model's text, using ``scanning`` for the linear scans and ``repair`` when
strict decoding fails), then ``validation`` (every error, with its path), then the
decision (:mod:`gate_tui.decision`) and ``diff``. Nothing here imports the config
files' loaders, the session, the CLI or the editor. This file imports nothing, so that
importing one module of the layer does not load the others.
"""
