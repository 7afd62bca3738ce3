"""Untrusted text is data, never markup: every dangerous string renders literally everywhere.

For each string (unbalanced tags, a click action, a pydantic-shaped message, ANSI
escapes) the test puts it in a gate's raw value, the summary, a reply (preview, errors,
notification), the diff pane and the timeline, and checks that the app still runs,
shows the literal text, and that ``[@click=app.quit]x[/]`` quits nothing when clicked.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from textual import events
from textual.command import CommandList
from textual.widgets import DataTable, Static, TextArea

from gate_tui.config.loading import load_config
from gate_tui.models import GateConfig
from gate_tui.session.live import Session
from gate_tui.tui.app import GateApp
from gate_tui.tui.text import visible
from tests.tui_helpers import DANGEROUS, ML_CONFIG, palette_highlight, screen_text, wait_for

SIZE = (200, 50)


def make_app(config: GateConfig) -> GateApp:
    return GateApp(config, ML_CONFIG, session=Session.in_memory(config, ML_CONFIG), blink=False)


def shown_as(text: str) -> str:
    """How the editor displays ``text``: literally, with control characters made visible."""
    return visible(text, one_line=True)


def content_of(app: GateApp, selector: str) -> str:
    return str(app.query_one(selector, Static).content)


def timeline_text(app: GateApp) -> str:
    table = app.query_one("#timeline", DataTable)
    return "\n".join(
        " ".join(str(cell) for cell in table.get_row_at(row)) for row in range(table.row_count)
    )


async def type_into(pilot: Any, app: GateApp, selector: str, text: str) -> None:
    """Focus a field and paste ``text`` into it, then record it with Enter."""
    field = app.query_one(selector)
    field.focus()
    await wait_for(pilot, lambda: app.focused is field)
    app.post_message(events.Paste(text))
    await wait_for(
        pilot, lambda: field_text(field) == text, message=f"{selector} holds the pasted text"
    )
    await pilot.press("enter")


def field_text(field: object) -> str:
    """What an editor field holds (an ``Input``'s value, a ``TextArea``'s text)."""
    return field.text if isinstance(field, TextArea) else field.value  # type: ignore[attr-defined]


async def click_text(pilot: Any, app: GateApp, needle: str) -> bool:
    """Click the first place ``needle`` is on screen; False when it is not visible."""
    for y, row in enumerate(screen_text(app).split("\n")):
        x = row.find(needle)
        if x >= 0:
            await pilot.click(offset=(x + len(needle) - 4, y))
            return True
    return False


def still_running(app: GateApp) -> bool:
    return app.is_running and app.return_code is None


@pytest.mark.parametrize(
    "danger", DANGEROUS, ids=["open-close", "bold", "click", "pydantic", "ansi"]
)
async def test_dangerous_text_in_fields_diff_timeline_and_replies(danger: str) -> None:
    config = load_config(ML_CONFIG)
    app = make_app(config)
    literal = shown_as(danger)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        app.gate_screen.select_gate("2_use_case")
        await type_into(pilot, app, "#raw", danger)
        await wait_for(
            pilot,
            lambda: app.session.state.gates["2_use_case"].raw == danger.strip(),
            message="raw recorded",
        )
        await wait_for(
            pilot,
            lambda: literal.strip() in content_of(app, "#diff"),
            message="diff shows the literal",
        )
        await type_into(pilot, app, "#summary", f"sum {danger}")
        await wait_for(pilot, lambda: app.session.state.summary == f"sum {danger}".strip())
        await wait_for(pilot, lambda: len(app.session.timeline) == 2)
        await wait_for(
            pilot, lambda: literal.strip() in screen_text(app), message="the literal on screen"
        )
        assert still_running(app)
        good = {
            "summary": f"reply {danger}",
            "gates": {
                "1_data_availability": {"raw": danger, "classified": "available"},
                "2_use_case": {"raw": "x", "classified": None},
                "3_success_metric": {"raw": danger, "classified": None},
                "4_data_privacy": {"raw": "y", "classified": "approved"},
            },
            "status": {"pass": False, "next_gate": None, "next_query": danger},
        }
        await pilot.press("f2")
        app.post_message(events.Paste(json.dumps(good)))
        await wait_for(
            pilot,
            lambda: "If applied: PASS" in content_of(app, "#preview"),
            message="preview of a good reply",
        )
        assert literal.strip() in content_of(app, "#preview")
        await pilot.press("ctrl+j")
        await wait_for(
            pilot,
            lambda: app.session.decision.pass_ and app.gate_screen.reply_pane.text_area.text == "",
        )
        assert literal.strip() in content_of(app, "#diff")
        assert "assistant" in timeline_text(app)
        bad = {"summary": "s", "gates": {danger: {"raw": danger}}, "status": {"pass": True}}
        app.post_message(events.Paste(json.dumps(bad)))
        await wait_for(
            pilot, lambda: "Cannot apply" in content_of(app, "#preview"), message="errors preview"
        )
        assert literal.strip() in content_of(app, "#preview")
        await pilot.press("ctrl+j")
        await wait_for(
            pilot, lambda: "Reply rejected" in screen_text(app), message="rejection notification"
        )
        toast_text = " ".join(str(toast.render()) for toast in app.screen.query("Toast"))
        assert (
            "see the preview" in toast_text
        )  # the toast quotes no value: the preview lists the errors
        assert literal.strip() in content_of(app, "#preview"), "the preview shows the literal"
        assert still_running(app)
        if "@click" in danger:
            assert await click_text(pilot, app, literal)
            await pilot.pause(0.2)
        assert still_running(app)
        assert app.session.decision.pass_


async def test_dangerous_labels_and_questions_from_a_config() -> None:
    # Gate keys themselves must be identifiers (tests/functional/test_config_hostile.py); labels and
    # questions may hold anything and are shown literally.
    gates = {
        f"k{index}": {"label": f"label {danger}", "question": f"question {danger}?"}
        for index, danger in enumerate(DANGEROUS)
    }
    config = GateConfig.model_validate({"name": "[b]config[/", "gates": gates})
    app = make_app(config)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await wait_for(pilot, lambda: app.gate_screen.decision_panel.word == "NO PASS")
        text = screen_text(app)
        prompts = " ".join(str(option.prompt) for option in app.gate_screen.gate_list.options)
        for danger in DANGEROUS:
            assert shown_as(f"label {danger}") in prompts
            assert shown_as(f"label {danger}")[:14] in text
        assert shown_as(f"question {DANGEROUS[0]}?") in text
        assert "[b]config[/" in text
        for key in config.gate_order:
            await pilot.press("f3")
            await wait_for(
                pilot,
                lambda key=key: (
                    app.gate_screen.gate_editor.key == key
                    and app.focused is not None
                    and app.focused.id == "raw"
                ),
            )
            await pilot.press("a", "enter")
            await wait_for(pilot, lambda key=key: app.session.state.gates[key].raw == "a")
        await wait_for(pilot, lambda: app.gate_screen.decision_panel.word == "PASS")
        rows = timeline_text(app)
        for index in range(len(DANGEROUS)):
            assert f"k{index}" in rows
        assert still_running(app)
        assert await click_text(pilot, app, shown_as("label [@click=app.quit]x[/]"))
        await pilot.pause(0.2)
        assert still_running(app)
        await pilot.press("ctrl+p")
        await wait_for(pilot, lambda: app.screen.query(CommandList), message="the palette")
        await pilot.press(*"go to gate k4")
        ansi = shown_as(f"label {DANGEROUS[4]}")
        await wait_for(
            pilot, lambda: ansi in palette_highlight(app), message="the gate hit, literally"
        )
        for index, danger in enumerate(DANGEROUS[:4]):
            await pilot.press(*["backspace"] * 13, *f"go to gate k{index}")
            await wait_for(
                pilot,
                lambda danger=danger: shown_as(f"label {danger}") in palette_highlight(app),
                message=f"gate hit {danger!r}",
            )
            assert shown_as(f"question {danger}?") in palette_highlight(app)
        await pilot.press("escape")
        assert still_running(app)
