"""#18 item 6 and #28: toasts never cover the verdict, its reason, the next gate's line
("Next ▶ …") or the model's overruled claim (they start on the row under them, right of
the big word), after an apply or at start, at any size; and, as before, never the
timeline rows below (tests/functional/test_tui_small.py)."""

from __future__ import annotations

import pytest
from textual import events
from textual.geometry import Region
from textual.widgets import Static
from textual.widgets._toast import Toast

from gate_tui import load_config
from gate_tui.session.live import Session
from gate_tui.tui.app import GateApp
from tests.tui_helpers import ML_CONFIG, REPLIES, screen_text, wait_for


@pytest.mark.parametrize("size", [(120, 40), (80, 24), (60, 20)])
async def test_a_toast_after_apply_leaves_the_decision_in_view(size: tuple[int, int]) -> None:
    config = load_config(ML_CONFIG)
    app = GateApp(config, ML_CONFIG, session=Session.in_memory(config, ML_CONFIG), blink=False)
    async with app.run_test(size=size, notifications=True) as pilot:
        await pilot.press("f2")
        await wait_for(
            pilot,
            lambda: app.focused is not None and app.focused.id == "reply",
            message="the reply pane",
        )
        app.post_message(events.Paste((REPLIES / "ml_lying_pass.md").read_text(encoding="utf-8")))
        await wait_for(pilot, lambda: "If applied" in screen_text(app), message="the preview")
        before = screen_text(app).splitlines()
        await pilot.press("ctrl+j")
        seen: list[str] = []

        def toast_shown() -> bool:  # the toast and the screen in one look (it times out later)
            text = screen_text(app)
            if app.screen.query(Toast) and "Reply applied" in text:
                seen[:] = [text]
            return bool(seen)

        await wait_for(pilot, toast_shown, message="the toast")
        panel = app.gate_screen.decision_panel.region
        rows = seen[0].splitlines()
        reason = rows[panel.y]
        assert "missing" in reason and "Reply applied" not in reason and "▌" not in reason
        word = app.query_one("#decision-word").content_region  # its letters
        assert all(
            not toast.region.overlaps(word) and toast.region.y > panel.y
            for toast in app.screen.query(Toast)
        )
        assert "Reply applied" in "".join(rows[panel.y + 1 :])
        assert len(before) == len(rows)
        kept = kept_lines(app)
        assert "Next ▶" in rows[kept[1].y] and "model claimed" in rows[kept[2].y]
        assert_clear(app, kept)


def kept_lines(app: GateApp) -> list[Region]:
    """The regions of the decision's lines no toast may cover: verdict, next gate, and the
    overruled claim when there is one (the row right under the next gate)."""
    details = app.gate_screen.decision_panel.query_one("#decision-details", Static).region
    return [Region(details.x, details.y + row, details.width, 1) for row in range(3)]


def assert_clear(app: GateApp, kept: list[Region]) -> None:
    toasts = list(app.screen.query(Toast))
    assert toasts
    for toast in toasts:
        assert not any(toast.region.overlaps(region) for region in kept), (toast.region, kept)


@pytest.mark.parametrize("size", [(120, 40), (80, 24), (60, 20)])
async def test_a_toast_at_start_leaves_the_next_gate_line_readable(
    size: tuple[int, int],
) -> None:
    config = load_config(ML_CONFIG)
    app = GateApp(config, ML_CONFIG, session=Session.in_memory(config, ML_CONFIG), blink=False)
    async with app.run_test(size=size, notifications=True) as pilot:
        panel = app.gate_screen.decision_panel
        await wait_for(pilot, lambda: panel.word == "NO PASS", message="the decision")
        app.notify(
            "The last session of this config finished at PASS on a day long ago; this one "
            "starts empty.",
            title="New session",
            markup=False,
        )
        await wait_for(pilot, lambda: "New session" in screen_text(app), message="the toast")
        await pilot.resize_terminal(*size)  # the place is kept after a resize too

        def clear() -> bool:  # "Next ▶ 1_data_…  F3", or "▶ 1_data_availability F3" when narrow
            next_row = screen_text(app).splitlines()[panel.region.y + 1]
            return "▶ 1_data_availability" in next_row and "▌" not in next_row

        await wait_for(pilot, clear, message="the next gate's line uncovered")
        assert_clear(app, kept_lines(app)[:2])


@pytest.mark.parametrize("size", [(120, 40), (60, 20)])
async def test_a_notice_about_a_state_goes_when_the_state_changes(size: tuple[int, int]) -> None:
    """#28: "Reply applied · Decision: PASS" stayed beside NO PASS after Ctrl+Z."""
    config = load_config(ML_CONFIG)
    app = GateApp(config, ML_CONFIG, session=Session.in_memory(config, ML_CONFIG), blink=False)
    async with app.run_test(size=size, notifications=True) as pilot:
        await pilot.press("f2")
        await wait_for(
            pilot,
            lambda: app.focused is not None and app.focused.id == "reply",
            message="the reply pane",
        )
        app.post_message(events.Paste((REPLIES / "ml_good.md").read_text(encoding="utf-8")))
        await wait_for(pilot, lambda: "If applied: PASS" in screen_text(app), message="the preview")
        await pilot.press("ctrl+j")
        await wait_for(pilot, lambda: "Reply applied" in screen_text(app), message="the toast")
        await pilot.press("ctrl+z")
        await wait_for(
            pilot, lambda: app.gate_screen.decision_panel.word == "NO PASS", message="undone"
        )
        await wait_for(
            pilot, lambda: "Reply applied" not in screen_text(app), message="the stale toast gone"
        )
        assert "Decision: PASS" not in screen_text(app)
