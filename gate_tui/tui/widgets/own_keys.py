"""A text field's own key bindings, run in the order the keys were typed.

Textual types a printable key into the focused field as soon as the field handles it,
but runs the field's *bindings* (Ctrl+N for a line break, the arrows, Ctrl+Z…) only once
the key has bubbled up to the app. In a burst of keys — fast typing, a terminal delivering
several at once — "one", Ctrl+N, "two" then becomes "onetwo⏎". The Raw field and the reply
pane call :func:`run_own_binding` first thing in ``_on_key``, so a bound key acts in turn.
"""

from __future__ import annotations

from textual import events
from textual.widget import Widget


async def run_own_binding(widget: Widget, event: events.Key) -> bool:
    """Run ``widget``'s binding of ``event.key`` now (the keymap applied); True when one ran
    (the key is then consumed: it does not bubble to run a second time)."""
    if event.is_printable and event.character is not None and len(event.key) == 1:
        return False  # a plain character: text fields bind none (and this runs per keystroke)
    for node, bindings in widget.screen._binding_chain:  # the keymap applied, as Textual does
        if node is not widget:
            continue
        for binding in bindings.key_to_bindings.get(event.key, ()):
            if binding.priority or widget.check_action(binding.action, ()) is False:
                continue
            event.stop()
            event.prevent_default()
            await widget.run_action(binding.action)  # (Widget.run_action returns nothing to go by)
            return True
        return False
    return False
