"""Cheap widget updates: touch a ``Static`` only when its content really changed.

Every keystroke re-renders the decision panel and the editor's marks; updating a
widget whose size is fixed with ``layout=False`` (and skipping identical content)
keeps a keystroke from costing a full screen layout.
"""

from __future__ import annotations

from textual.content import Content
from textual.widgets import Static


def set_content(widget: Static, content: Content, *, layout: bool = False) -> bool:
    """Update ``widget`` if ``content`` differs from what it shows; True when it did."""
    current = widget.content
    if isinstance(current, Content) and current == content:
        return False
    widget.update(content, layout=layout)
    return True
