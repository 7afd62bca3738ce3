"""#28: rejected attempts and model calls appear in the timeline, marked and not
restorable; any timeline row opens in full (``o`` / Space) without restoring it."""

from __future__ import annotations

from textual import events
from textual.widgets import DataTable, TextArea

from gate_tui import load_config
from gate_tui.session.history import History
from gate_tui.session.live import Session
from gate_tui.session.timeline_rows import detail_text, row_key, timeline_rows
from gate_tui.tui.app import GateApp
from gate_tui.tui.screens.timeline_detail import RowDetail
from tests.tui_helpers import ML_CONFIG, REPLIES, screen_text, wait_for

BAD_REPLY = '{"gates": {"1_data_availability": {"raw": 5}}, "status": {"pass": true}}'


def make_app() -> GateApp:
    config = load_config(ML_CONFIG)
    return GateApp(config, ML_CONFIG, session=Session.in_memory(config, ML_CONFIG), blink=False)


async def paste_and_apply(pilot, app: GateApp, text: str) -> None:
    await pilot.press("f2")
    await wait_for(pilot, lambda: app.focused is not None and app.focused.id == "reply")
    app.post_message(events.Paste(text))
    await wait_for(
        pilot,
        lambda: any(w in screen_text(app) for w in ("If applied", "Cannot apply")),
        message="the preview",
    )
    await pilot.press("ctrl+j")


def keys(table: DataTable) -> list[str]:
    return [
        str(table.coordinate_to_cell_key((row, 0)).row_key.value) for row in range(table.row_count)
    ]


async def test_attempts_are_in_the_timeline_marked_and_open_in_full() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await paste_and_apply(pilot, app, BAD_REPLY)
        await wait_for(pilot, lambda: app.session.rejected, message="the rejection journaled")
        good = (REPLIES / "ml_good.md").read_text(encoding="utf-8")
        await pilot.press("ctrl+l")
        await paste_and_apply(pilot, app, good)
        await wait_for(pilot, lambda: len(app.session.timeline) == 1, message="the reply")
        app.session.record_model_call(
            call_kind="retry", model="tiny", endpoint="127.0.0.1:9", message="Fix gate 2",
            reply="no JSON here", outcome="invalid", error="no JSON object",
        )
        await pilot.press("f4")
        pane = app.gate_screen.history_pane
        await wait_for(pilot, lambda: app.focused is pane.table, message="the timeline")
        # The model call journaled after the last screen update shows up by itself.
        await wait_for(pilot, lambda: pane.table.row_count == 3, message="three rows")
        assert keys(pane.table)[1] == "0" and all(k.startswith("r") for k in keys(pane.table)[::2])
        text = screen_text(app)
        assert "✗ " in text and "rejected" in text and "↗" in text and "retry" in text
        # Enter on the rejected row restores nothing.
        pane.table.move_cursor(row=0, animate=False)
        await pilot.press("enter")
        await wait_for(
            pilot,
            lambda: any("nothing to restore" in n.message for n in app._notifications),
            message="why nothing is restored",
        )
        assert len(app.session.timeline) == 1
        await pilot.press("o")
        await wait_for(pilot, lambda: isinstance(app.screen, RowDetail), message="the detail")
        detail = app.screen.query_one("#row-detail-text", TextArea).text
        assert "Rejected model reply" in detail and "Errors" in detail and BAD_REPLY in detail
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, RowDetail), message="closed")
        # The model call: its message and its reply, in full.
        pane.table.move_cursor(row=2, animate=False)
        await pilot.press("space")
        await wait_for(pilot, lambda: isinstance(app.screen, RowDetail), message="the call")
        detail = app.screen.query_one("#row-detail-text", TextArea).text
        assert "Fix gate 2" in detail and "no JSON here" in detail and "not valid" in detail
        await pilot.press("o")  # the key that opened it closes it
        # The reply's row: every changed field with its value, without a jump.
        await wait_for(pilot, lambda: not isinstance(app.screen, RowDetail), message="closed")
        pane.table.move_cursor(row=1, animate=False)
        await pilot.press("o")
        await wait_for(pilot, lambda: isinstance(app.screen, RowDetail), message="the reply row")
        detail = app.screen.query_one("#row-detail-text", TextArea).text
        assert "#1 · Model reply" in detail and "after" in detail
        assert len(app.session.timeline) == 1  # opening restored nothing


def test_rows_are_in_time_order_and_a_reply_in_its_call_is_shown() -> None:
    config = load_config(ML_CONFIG)
    session = Session.in_memory(config, ML_CONFIG)
    call = session.record_model_call(
        call_kind="ask", model="m", endpoint="h:1", message="go", reply="{bad", outcome="invalid"
    )
    from gate_tui import parse

    result = parse("{bad", config, session.state, "assistant")
    assert not result.ok
    session.reject(result, "{bad", "assistant", call=call)
    good = parse((REPLIES / "ml_good.md").read_text(encoding="utf-8"), config, None, "assistant")
    session.accept(good, "x", "assistant")
    rows = timeline_rows(session.timeline, session.records)
    assert [row_key(r) for r in rows] == ["r1", "r2", "0"]
    # The rejected record keeps no copy of the reply: its detail finds it in the call.
    assert session.records[1].get("payload_in_call")
    assert "{bad" in detail_text(rows[1], session.records)
    assert timeline_rows(History.start(config).timeline, []) == []


async def scene_attempts(pilot) -> None:
    """A rejected reply, a model call, an applied reply; the timeline; the call opened."""
    from gate_tui.tui.screenshots import paste_reply, sample_reply, until

    app: GateApp = pilot.app
    await paste_reply(pilot, BAD_REPLY)
    await pilot.press("ctrl+j")
    await until(pilot, lambda: bool(app.session.rejected))
    app.session.record_model_call(
        call_kind="ask", model="tiny", endpoint="127.0.0.1:9", message="Fill gate 2",
        reply='{"summary": "x"}', outcome="invalid", error="gates missing",
    )
    await pilot.press("ctrl+l")
    await paste_reply(pilot, sample_reply("ml_good.md"))
    await pilot.press("ctrl+j")
    await until(pilot, lambda: len(app.session.timeline) == 1)
    await pilot.press("f4")
    pane = app.gate_screen.history_pane
    await until(pilot, lambda: pane.table.row_count == 3)
    app.clear_notifications()
    pane.table.move_cursor(row=1, animate=False)
    await pilot.press("o")
    await until(pilot, lambda: isinstance(app.screen, RowDetail))


def test_an_opened_model_call_looks_right(snap_compare) -> None:
    from pathlib import Path

    from gate_tui.tui.screenshots import fixed_clock
    from gate_tui.tui.screenshots import make_app as shown_app

    with fixed_clock():
        assert snap_compare(
            shown_app(Path("sample_configs/ml_project_intake.yaml")),
            terminal_size=(100, 30),
            run_before=scene_attempts,
        )
