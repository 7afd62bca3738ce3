"""The editor's widgets, one idea per module: gate list, gate and summary editors,
decision panel, reply pane with its preview, history (last change + timeline)."""
