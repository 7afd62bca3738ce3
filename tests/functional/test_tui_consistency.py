"""The editor tells one story: transition numbers, the overrule notice and "Last change".

* Transition numbers are 1-based everywhere: the timeline's # column, the "Last change"
  heading, the "restored #n" wording and the review report agree.
* The claimed status travels with a transition through undo, redo and restore, so a
  lying reply stays "overruled" on screen and in the report after undo then redo.
* "Last change" shortens long values in the middle, keeps "→ after" and never shows
  two ellipses in a row.
"""

from __future__ import annotations

import re
from typing import Any

from textual import events
from textual.widgets import Static, TextArea

from gate_tui.config.loading import load_config
from gate_tui.session.live import Session
from gate_tui.tui.app import GateApp
from gate_tui.tui.text import middle
from tests.tui_helpers import ML_CONFIG, reply, screen_text, wait_for

OVERRULED = "model claimed PASS — overruled: 2_use_case missing"


def make_app() -> GateApp:
    config = load_config(ML_CONFIG)
    return GateApp(config, ML_CONFIG, session=Session.in_memory(config, ML_CONFIG), blink=False)


async def apply(pilot: Any, app: GateApp, text: str) -> None:
    """Paste ``text`` into the reply pane and apply it (one more transition)."""
    count = len(app.session.timeline)
    await pilot.press("f2")
    await wait_for(pilot, lambda: isinstance(app.focused, TextArea), message="reply pane focused")
    app.gate_screen.reply_pane.text_area.clear()
    app.post_message(events.Paste(text))
    await wait_for(
        pilot, lambda: app.gate_screen.reply_pane.text_area.text == text, message="the pasted reply"
    )
    await pilot.press("ctrl+j")
    await wait_for(
        pilot, lambda: len(app.session.timeline) == count + 1, message="the reply applied"
    )


def diff_text(app: GateApp) -> str:
    return str(app.query_one("#diff", Static).render())


async def test_transition_numbers_start_at_one_on_screen_and_in_the_report() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await apply(pilot, app, reply("ml_lying_pass.md"))
        await apply(pilot, app, reply("ml_good.md"))
        await pilot.press("f4")
        await wait_for(pilot, lambda: app.focused is app.gate_screen.history_pane.table)
        table = app.gate_screen.history_pane.table
        await wait_for(pilot, lambda: table.row_count == 2)
        assert [str(table.get_row_at(row)[0]) for row in range(2)] == ["1", "2"]
        assert diff_text(app).startswith("#2 reply")
        await pilot.press("up", "enter")
        await wait_for(pilot, lambda: app.session.timeline[-1].kind == "jump", message="a jump")
        await wait_for(
            pilot,
            lambda: "Restored the state after #1" in screen_text(app),
            message="the restore toast",
        )
        await wait_for(
            pilot, lambda: diff_text(app).startswith("#3 jump"), message="the jump's heading"
        )
        assert "(restored #1)" in diff_text(app)
        report = app.session.report_markdown()
        assert "### #1 · Model reply" in report and "### #3 · Jump on the timeline" in report
        assert "Restored the state after #1" in report


async def test_undo_then_redo_of_a_lying_reply_stays_overruled() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await apply(pilot, app, reply("ml_lying_pass.md"))
        await pilot.press("f5")
        await wait_for(pilot, lambda: app.focused is app.gate_screen.gate_list)
        await pilot.press("ctrl+z")
        await wait_for(pilot, lambda: app.session.timeline[-1].kind == "undo")
        await wait_for(
            pilot, lambda: OVERRULED not in screen_text(app), message="the undo shows no claim"
        )
        await pilot.press("ctrl+y")
        await wait_for(pilot, lambda: app.session.timeline[-1].kind == "redo")
        top = lambda: "\n".join(screen_text(app).split("\n")[:7])  # noqa: E731 - the decision panel
        await wait_for(pilot, lambda: OVERRULED in top(), message="the decision panel after redo")
        assert "model claimed PASS — overruled" in diff_text(app)
        report = app.session.report_markdown()
        redo = report[report.index("· Redo ·") :]
        assert "The model claimed: **PASS — overruled" in redo


async def test_restoring_a_lying_reply_from_the_timeline_stays_overruled() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await apply(pilot, app, reply("ml_lying_pass.md"))
        await apply(pilot, app, reply("ml_good.md"))
        await pilot.press("f4")
        await wait_for(pilot, lambda: app.focused is app.gate_screen.history_pane.table)
        await pilot.press("up", "enter")
        await wait_for(pilot, lambda: app.session.timeline[-1].kind == "jump")
        await wait_for(
            pilot, lambda: OVERRULED in screen_text(app), message="the overrule after a restore"
        )


def test_middle_keeps_both_ends() -> None:
    text = "Rank support tickets by urgency so the on-call engineer sees the worst first"
    short = middle(text, 30)
    assert len(short) == 30 and short.count("…") == 1
    assert short.startswith("Rank support") and short.endswith("worst first")
    assert middle("short", 30) == "short"
    assert middle(text, 1) == "…"


async def test_last_change_keeps_the_after_part_of_long_values() -> None:
    app = make_app()
    long_before = (
        "Two years of labelled tickets in the warehouse, refreshed nightly by the data team"
    )
    long_after = (
        "Three years of labelled tickets in the lake, refreshed hourly by the platform team"
    )
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        for text in (long_before, long_after):
            count = len(app.session.timeline)
            app.gate_screen.select_gate("2_use_case")
            area = app.query_one("#raw", TextArea)
            area.focus()
            area.load_text(text)
            # The edit is pending, or (on a loaded machine) its commit timer recorded it already.
            await wait_for(
                pilot,
                lambda count=count: app.gate_screen.pending is not None
                or len(app.session.timeline) > count,
                message="the pending edit",
            )
            app.gate_screen.commit_pending()
            await wait_for(
                pilot,
                lambda count=count: len(app.session.timeline) == count + 1,
                message="the edit",
            )
        await pilot.press("f4")
        await wait_for(pilot, lambda: app.focused is app.gate_screen.history_pane.table)
        await wait_for(
            pilot, lambda: "2_use_case.raw" in screen_text(app), message="the last change"
        )
        row = next(r for r in screen_text(app).split("\n") if "2_use_case.raw" in r)
        assert "→" in row, row
        assert (
            "“Two years" in row
            and "data team”" in row
            and "“Three years" in row
            and "team”" in row.split("→")[1]
        ), row
        assert not re.search("…[^“”]*…", row.split("→")[0]) and "……" not in row, row


def test_a_short_side_of_a_change_keeps_its_full_text() -> None:
    from gate_tui.tui.history_render import change_row

    row = change_row(
        {"path": "gates.1_data_availability.classified", "before": None, "after": "available"},
        width=54,
    ).plain
    assert row.endswith("— → “available”") and "…" not in row.split("  ")[-1], row
    long = "x" * 30 + " middle " + "y" * 30
    row = change_row(
        {"path": "gates.2_use_case.raw", "before": "short", "after": long}, width=54
    ).plain
    assert "“short” → “xxx" in row and row.endswith("yy”") and len(row) <= 54, row
