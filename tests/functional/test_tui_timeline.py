"""#18 item 7: the timeline's newest row is always in view (no horizontal scrollbar over
it), however many rows came before, at 120x40 and on small terminals."""

from __future__ import annotations

import pytest
from textual import events

from gate_tui import load_config, parse
from gate_tui.session.live import Session
from gate_tui.tui.app import GateApp
from tests.tui_helpers import ML_CONFIG, REPLIES, screen_text, wait_for


def session_with_edits(count: int) -> Session:
    config = load_config(ML_CONFIG)
    session = Session.in_memory(config, ML_CONFIG)
    for number in range(count):
        result = parse({"summary": f"draft {number}"}, config, session.state, actor="user")
        session.accept(result, {"summary": f"draft {number}"}, "user")
    return session


@pytest.mark.parametrize("size", [(120, 40), (80, 24), (60, 20)])
async def test_the_newest_timeline_row_is_in_view_after_an_apply(size: tuple[int, int]) -> None:
    config = load_config(ML_CONFIG)
    app = GateApp(config, ML_CONFIG, session=session_with_edits(5), blink=False)
    async with app.run_test(size=size) as pilot:
        await pilot.press("f2")
        await wait_for(
            pilot,
            lambda: app.focused is not None and app.focused.id == "reply",
            message="the reply pane",
        )
        app.post_message(events.Paste((REPLIES / "ml_good.md").read_text(encoding="utf-8")))
        await wait_for(pilot, lambda: "If applied: PASS" in screen_text(app), message="the preview")
        await pilot.press("ctrl+j")
        await wait_for(pilot, lambda: len(app.session.timeline) == 6, message="applied")
        await pilot.press("f4")
        table = app.gate_screen.history_pane.table
        await wait_for(pilot, lambda: app.focused is table, message="the timeline")
        await wait_for(
            pilot,
            lambda: any(row.split()[:2] == ["6", "PASS"] for row in rows(app)),
            message="row 6 on screen",
        )
        assert table.scrollbars_enabled[1] is False, "no horizontal scrollbar in the timeline"


def rows(app: GateApp) -> list[str]:
    """The timeline rows on screen, each from its number on (border characters dropped)."""
    found = []
    for row in screen_text(app).splitlines():
        cells = row.replace("│", " ").replace("▶", " ").split()
        if len(cells) >= 2 and cells[0].isdigit() and cells[1] in ("PASS", "NO"):
            found.append(" ".join(cells))
    return found


@pytest.mark.parametrize("size", [(120, 40), (80, 24), (60, 20)])
async def test_an_opened_session_shows_its_latest_change_in_the_timeline(
    size: tuple[int, int],
) -> None:
    """#28: after resume the timeline showed #7-#11 while the last change was #12."""
    config = load_config(ML_CONFIG)
    app = GateApp(config, ML_CONFIG, session=session_with_edits(12), blink=False)
    async with app.run_test(size=size) as pilot:
        await wait_for(pilot, lambda: app.gate_screen.history_pane.ready, message="the timeline")
        await pilot.press("f4")  # the history tab on a small terminal (the same pane on a wide one)
        await wait_for(
            pilot,
            lambda: any(row.split()[0] == "12" for row in rows(app)),
            message="row 12 on screen",
        )
