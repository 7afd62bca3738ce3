"""A list of options that jumps to what is typed: the gate editor's Classified menu and
contract mode's enum and boolean lists use it, so the same shortcut works in both.

Letters typed within :data:`TYPE_AHEAD_SECONDS` of each other add up ("pa" → "partial");
the first option starting with them (any case) is highlighted, else the first containing
them. Keys that move or act (arrows, Enter, Escape) keep their list meaning.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from textual import events
from textual.widgets import OptionList

TYPE_AHEAD_SECONDS = 1.0


def option_matching(labels: Sequence[str], typed: str) -> int | None:
    """The first label starting with ``typed`` (any case), else the first containing it."""
    wanted = typed.casefold()
    folded = [label.casefold() for label in labels]
    for index, label in enumerate(folded):
        if label.startswith(wanted):
            return index
    for index, label in enumerate(folded):
        if wanted in label:
            return index
    return None


def typed_character(event: events.Key) -> str | None:
    """The character a key types into a search (None for keys that move or act)."""
    char = event.character
    return char if event.is_printable and char is not None and not char.isspace() else None


class TypeAheadList(OptionList):
    """An :class:`OptionList` whose typed letters move the highlight (``typed``: letters
    typed before it opened, e.g. the one that opened the gate editor's menu: its owner
    calls :meth:`show_typed` once it has set the starting highlight)."""

    def __init__(self, *options: object, typed: str = "", **kwargs: object) -> None:
        super().__init__(*options, **kwargs)  # type: ignore[arg-type]
        self._typed = typed
        self._typed_at = time.monotonic()

    def on_key(self, event: events.Key) -> None:
        char = typed_character(event)
        if char is None:
            return
        event.stop()
        event.prevent_default()
        now = time.monotonic()
        self._typed = (self._typed if now - self._typed_at <= TYPE_AHEAD_SECONDS else "") + char
        self._typed_at = now
        self.show_typed()

    def show_typed(self) -> None:
        """Highlight the option matching what was typed so far (nothing typed: no move)."""
        if not self._typed:
            return
        labels = [str(self.get_option_at_index(index).prompt) for index in range(self.option_count)]
        index = option_matching(labels, self._typed)
        if index is not None:
            self.highlighted = index
