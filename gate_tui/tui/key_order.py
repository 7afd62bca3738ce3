"""Keys in the order they were typed, across a focus move.

Textual hands each typed key to the focused widget's own message queue; a key bound by
the app (F3, F2, Ctrl+S…) only reaches the app after it has bubbled back up through the
widget's ancestors. In a burst of keys (fast typing, a terminal delivering several at
once) the field therefore types the keys that came *after* F3 before the app has moved
the focus, and F3 judges a state that lacks the keys that came *before* it.

The editor handles its own keys when they arrive instead (:func:`app_key`), after the
focused field has typed (or pasted) what it was given (:func:`settle`): F3 sees the whole
answer, every key after it goes to the field F3 focused, and Ctrl+J right after a paste
applies that paste. The Raw field's edits travel with
the gate they were typed in (:class:`~gate_tui.tui.widgets.raw_area.RawArea.Edited`),
and one still on its way when the app records or moves is taken at once
(:meth:`InOrderKeys.take_unreported_typing`).
"""

from __future__ import annotations

import asyncio
import time

from textual import events
from textual.app import App
from textual.widget import Widget

from gate_tui.tui.form import FieldRef
from gate_tui.tui.reply_actions import ReplyActions
from gate_tui.tui.widgets.raw_area import RawArea

SETTLE_LIMIT = 0.5
"""Seconds to wait at most for a field to take its keys (it never takes that long)."""


def app_key(app: App[object], event: events.Event) -> bool:
    """Whether ``event`` is a key the app binds itself (priority or not), pressed on the
    main screen (modal screens keep their own keys)."""
    if not isinstance(event, events.Key) or event.is_forwarded or app.screen is not app.screen_stack[0]:
        return False
    return event.key in app._bindings.key_to_bindings


TYPED = (events.Key, events.Paste)


def _keys_waiting(widget: Widget) -> bool:
    if isinstance(widget._pending_message, TYPED):
        return True
    waiting = getattr(widget._message_queue, "_queue", ())  # asyncio.Queue's deque
    return any(isinstance(message, TYPED) for message in list(waiting))


async def settle(widget: Widget | None) -> None:
    """Return once ``widget`` has handled the keys and pastes already handed to it."""
    if widget is None:
        return
    deadline = time.monotonic() + SETTLE_LIMIT
    while _keys_waiting(widget) and time.monotonic() < deadline:
        await asyncio.sleep(0.001)
    await asyncio.sleep(0)  # the last key's handler finishes


class InOrderKeys(ReplyActions):
    """The base of :class:`gate_tui.tui.app.GateApp` that keeps typed keys in order."""

    def edit(self, field: FieldRef, value: str | None) -> None:
        raise NotImplementedError  # GateApp's

    async def on_event(self, event: events.Event) -> None:
        """The app's own keys act when they arrive, after the focused field has typed
        the keys before them."""
        if self.session is not None and isinstance(event, events.Key) and app_key(self, event):
            await settle(self.focused)
            if await self._check_bindings(event.key, priority=True) or await self._check_bindings(event.key):
                return
        await super().on_event(event)

    def on_raw_area_edited(self, event: RawArea.Edited) -> None:
        """A Raw answer typed: edit the gate it was typed in (by the time the message
        arrives, F3 may show another gate in the field)."""
        event.stop()
        if event.key is not None and event.area.claim(event.seq):
            self.edit(FieldRef("raw", event.key), event.text)

    def take_unreported_typing(self) -> None:
        """Raw typing whose message is still on its way becomes the pending edit now, so
        what is recorded, and the gate asked next, include it."""
        stack = self.screen_stack  # the editor's screen, even under a modal; none at shutdown
        found = stack[0].query("#raw") if stack else None
        typed = found.first(RawArea).unreported() if found else None
        if typed is not None:
            key, text = typed
            self.edit(FieldRef("raw", key), text)
