"""Keys in the order they were typed, across a focus move.

Textual hands each typed key to the focused widget's own message queue; a key bound by
the editor (F3, F2, Ctrl+S…) only reaches its screen after it has bubbled back up through
the widget's ancestors. In a burst of keys (fast typing, a terminal delivering several at
once) the field therefore types the keys that came *after* F3 before the screen has moved
the focus, and F3 judges a state that lacks the keys that came *before* it.

The app therefore runs the editor's own keys when they arrive (:func:`run_in_order`),
after the focused field has typed (or pasted) what it was given (:func:`settle`): F3 sees
the whole answer, every key after it goes to the field F3 focused, and Ctrl+J right after
a paste applies that paste. A Raw edit still on its way when the screen records or moves
is taken at once (:meth:`~gate_tui.tui.screens.editor.GateScreen.take_unreported_typing`).
"""

from __future__ import annotations

import asyncio
import time

from textual import events
from textual.app import App
from textual.widget import Widget

SETTLE_LIMIT = 10.0
"""Seconds to wait at most for a field to take its keys. The wait ends as soon as the field
has handled them (a few ms); the limit only guards against a field that never does. It is
generous because a first paste during start-up on a busy machine can take well over half a
second, and a Ctrl+J that ran before it would find the pane empty."""

TYPED = (events.Key, events.Paste)


def app_key(app: App[object], event: events.Event) -> bool:
    """Whether ``event`` is a key the editor binds itself (its screen or the app, priority or
    not, the keymap applied), pressed on the main screen (modal screens keep their own keys)."""
    if (
        not isinstance(event, events.Key)
        or event.is_forwarded
        or app.screen is not app.screen_stack[0]
    ):
        return False
    screen = app.screen
    return any(
        node in (screen, app) and event.key in bindings.key_to_bindings
        for node, bindings in screen._binding_chain
    )


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


async def run_in_order(app: App[object], event: events.Event) -> bool:
    """Run the binding of one of the editor's own keys now, after the focused field has
    settled; True when a binding ran (the app then drops the event)."""
    if not app_key(app, event):
        return False
    assert isinstance(event, events.Key)
    await settle(app.focused)
    return await app._check_bindings(event.key, priority=True) or await app._check_bindings(
        event.key
    )
