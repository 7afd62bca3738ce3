"""Acceptance check of issue 14 items 1-2 on one more surface: the reply pane.

A pasted reply is the most direct way hostile text reaches the editor. The pane keeps the
exact text (that is what gets parsed), but what it draws for the terminal holds no control
byte, bidi control or zero-width character: each shows as one visible symbol.
"""

from __future__ import annotations

from textual import events
from textual.widgets import Input

from gate_tui.config.loading import load_config
from gate_tui.session.live import Session
from gate_tui.tui.app import GateApp
from tests.helpers.hostile_text import HOSTILE, forbidden_in, rendered
from tests.tui_helpers import ML_CONFIG, paste, screen_text, wait_for


async def test_a_pasted_reply_keeps_its_text_and_draws_no_control_characters() -> None:
    config = load_config(ML_CONFIG)
    app = GateApp(config, ML_CONFIG, session=Session.in_memory(config, ML_CONFIG), blink=False)
    # U+0085 is left out: Textual's document splits lines at it, as str.splitlines does.
    hostile = HOSTILE.replace("\x85", "")
    text = f'prose {hostile} end\n{{"summary": "s\u202e\x9b"}}'
    async with app.run_test(size=(160, 50)) as pilot:
        await paste(pilot, app, text)
        area = app.gate_screen.reply_pane.text_area
        assert area.text == text, "the pane keeps (and parses) the exact text"
        await wait_for(pilot, lambda: "prose" in rendered(area), message="the reply drawn")
        assert forbidden_in(rendered(area)) == []
        assert "␛[2J" in rendered(area)
        assert forbidden_in(screen_text(app).replace("\n", "")) == []


async def test_hostile_text_pasted_into_the_summary_field_is_drawn_as_symbols_and_stored_exactly() -> (  # noqa: E501 - the test's name
    None
):
    config = load_config(ML_CONFIG)
    app = GateApp(config, ML_CONFIG, session=Session.in_memory(config, ML_CONFIG), blink=False)
    hostile = "x" + HOSTILE.replace("\x85", "")  # an Input keeps one line; U+0085 would end it
    async with app.run_test(size=(160, 50)) as pilot:
        summary = app.query_one("#summary", Input)
        summary.focus()
        await wait_for(pilot, lambda: app.focused is summary, message="summary focused")
        app.post_message(events.Paste(hostile))
        await wait_for(pilot, lambda: summary.value == hostile, message="pasted into the summary")
        await wait_for(pilot, lambda: "␛[2J" in rendered(summary), message="drawn with symbols")
        assert forbidden_in(rendered(summary)) == []
        await pilot.press("enter")
        await wait_for(
            pilot, lambda: app.session.state.summary == hostile, message="stored exactly"
        )
        assert forbidden_in(screen_text(app).replace("\n", "")) == []
