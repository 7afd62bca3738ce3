"""Small terminals: 80x24 comfortable, 60x20 usable.

* the focused field is always scrolled into view (the Summary field at 60x20 too);
* a gate's question wraps in the detail editor, never cut mid-sentence;
* the footer keeps the essential keys (Quit, Help, Reply, Apply, Next, Undo, Save);
* the timeline's decision column is never the one cut;
* notifications hide neither the timeline's newest rows nor the panes' borders;
* the Save-as prompt fits the screen.

The snapshot tests (``tests/functional/test_tui_snapshots.py``) hold the same screens as pictures.
"""

from __future__ import annotations

from typing import Any

import pytest
from textual import events
from textual.widgets import Input, TextArea

from gate_tui.config.loading import load_config
from gate_tui.session.live import Session
from gate_tui.tui.app import GateApp
from tests.tui_helpers import ML_CONFIG, reply, run_command, screen_text, wait_for

SMALL = [(60, 20), (80, 24)]
ESSENTIAL = ("Quit", "Help", "Reply", "Apply", "Next", "Undo", "Save")


def make_app() -> GateApp:
    config = load_config(ML_CONFIG)
    return GateApp(config, ML_CONFIG, session=Session.in_memory(config, ML_CONFIG), blink=False)


def rows(app: GateApp) -> list[str]:
    return screen_text(app).rstrip("\n").split("\n")


async def apply_reply(pilot: Any, app: GateApp, name: str) -> None:
    count = len(app.session.timeline)
    await pilot.press("f2")
    await wait_for(pilot, lambda: isinstance(app.focused, TextArea), message="the reply pane")
    app.post_message(events.Paste(reply(name)))
    await wait_for(pilot, lambda: app.gate_screen.preview_result is not None, message="the preview")
    await pilot.press("ctrl+j")
    await wait_for(
        pilot, lambda: len(app.session.timeline) == count + 1, message="the reply applied"
    )


@pytest.mark.parametrize("size", SMALL, ids=lambda s: f"{s[0]}x{s[1]}")
async def test_the_summary_field_scrolls_into_view_when_focused(size: tuple[int, int]) -> None:
    app = make_app()
    async with app.run_test(size=size, notifications=True) as pilot:
        await pilot.press("f3")
        await wait_for(
            pilot, lambda: app.focused is not None and app.focused.id == "classified-select"
        )
        await pilot.press("tab")
        await wait_for(
            pilot,
            lambda: app.focused is not None and app.focused.id == "summary",
            message="Summary focused",
        )
        await pilot.press(*"Seen here")
        await wait_for(pilot, lambda: app.query_one("#summary", Input).value == "Seen here")
        await wait_for(
            pilot, lambda: "Seen here" in screen_text(app), message="the summary on screen"
        )
        await pilot.press("shift+tab")
        await wait_for(
            pilot, lambda: app.focused is not None and app.focused.id == "classified-select"
        )
        await wait_for(
            pilot,
            lambda: "Classified" in screen_text(app),
            message="back up: the field scrolled into view",
        )


@pytest.mark.parametrize("size", SMALL, ids=lambda s: f"{s[0]}x{s[1]}")
async def test_the_gate_question_wraps_instead_of_being_cut(size: tuple[int, int]) -> None:
    app = make_app()
    async with app.run_test(size=size, notifications=True) as pilot:
        await pilot.press("f5", "down", "down", "down")  # the list's cursor shows 4_data_privacy
        await wait_for(pilot, lambda: app.gate_screen.gate_editor.key == "4_data_privacy")
        question = app.config.gates["4_data_privacy"].question
        column = app.query_one("#editor-column").region
        await wait_for(
            pilot,
            lambda: (
                question
                in " ".join(
                    " ".join(
                        row[column.x : column.right] for row in rows(app)[column.y : column.bottom]
                    ).split()
                )
            ),
            message=question,
        )


@pytest.mark.parametrize("size", SMALL, ids=lambda s: f"{s[0]}x{s[1]}")
async def test_the_footer_keeps_the_essential_keys(size: tuple[int, int]) -> None:
    app = make_app()
    async with app.run_test(size=size, notifications=True) as pilot:
        await wait_for(
            pilot,
            lambda: all(word in rows(app)[-1] for word in ESSENTIAL),
            message=f"the footer: {ESSENTIAL}",
        )
        footer = rows(app)[-1]
        assert "▏" not in footer.split("Save")[0], footer


@pytest.mark.parametrize("size", SMALL, ids=lambda s: f"{s[0]}x{s[1]}")
async def test_the_timeline_decision_column_is_never_cut(size: tuple[int, int]) -> None:
    app = make_app()
    async with app.run_test(size=size, notifications=True) as pilot:
        await apply_reply(pilot, app, "ml_lying_pass.md")
        await apply_reply(pilot, app, "ml_good.md")
        await pilot.press("f4")
        await wait_for(pilot, lambda: app.focused is app.gate_screen.history_pane.table)
        await wait_for(
            pilot,
            lambda: any(
                " 2 " in row and "PASS" in row and "NO PASS" not in row for row in rows(app)
            ),
            message="row 2: PASS",
        )
        assert any(" 1 " in row and "NO PASS" in row for row in rows(app)), screen_text(app)


@pytest.mark.parametrize("size", SMALL, ids=lambda s: f"{s[0]}x{s[1]}")
async def test_a_notification_hides_no_timeline_row_nor_border(size: tuple[int, int]) -> None:
    app = make_app()
    async with app.run_test(size=size, notifications=True) as pilot:
        await apply_reply(pilot, app, "ml_lying_pass.md")
        await pilot.press("f4")
        await wait_for(pilot, lambda: app.focused is app.gate_screen.history_pane.table)
        await wait_for(
            pilot,
            lambda: any("NO PASS" in row and " 1 " in row for row in rows(app)),
            message="the timeline row",
        )
        before = rows(app)
        app.notify(
            "State saved to /a/rather/long/path/of/a/state/file/gate-state.json.", markup=False
        )
        await wait_for(pilot, lambda: "State saved to" in screen_text(app), message="the toast")
        after = rows(app)
        changed = [i for i, (old, new) in enumerate(zip(before, after, strict=True)) if old != new]
        workspace = app.query_one("#workspace").region
        assert all(not workspace.y <= i < workspace.bottom for i in changed), (
            changed,
            workspace,
            "\n".join(before),
            "\n".join(after),
        )


@pytest.mark.parametrize("size", SMALL, ids=lambda s: f"{s[0]}x{s[1]}")
async def test_the_save_as_prompt_fits_the_screen(size: tuple[int, int]) -> None:
    app = make_app()
    async with app.run_test(size=size, notifications=True) as pilot:
        await run_command(pilot, app, "Save state as")
        await wait_for(pilot, lambda: app.focused is not None and app.focused.id == "path-input")
        await wait_for(
            pilot, lambda: "Enter to confirm" in screen_text(app), message="the prompt's last line"
        )
        box = app.screen.query_one("#path-box").region
        assert box.right <= size[0] and box.bottom <= size[1], box
