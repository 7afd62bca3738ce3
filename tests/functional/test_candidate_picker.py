"""#18 item 3: a reply holding a draft and a correction shows both candidates in the
preview (position, valid or not, which one is used), the warning stands out, F9 switches
to the next one and Ctrl+J applies the one chosen."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual import events

from gate_tui import load_config
from gate_tui.session.live import Session
from gate_tui.tui.app import GateApp
from gate_tui.tui.screenshots import make_app, paste_reply, sample_reply, until
from tests.tui_helpers import ML_CONFIG, screen_text, wait_for

SELF_CORRECTING = "ml_self_correcting.md"


def editor() -> GateApp:
    config = load_config(ML_CONFIG)
    return GateApp(config, ML_CONFIG, session=Session.in_memory(config, ML_CONFIG), blink=False)


async def paste(pilot: Any, app: GateApp, text: str) -> None:
    await pilot.press("f2")
    await wait_for(
        pilot,
        lambda: app.focused is not None and app.focused.id == "reply",
        message="the reply pane",
    )
    app.post_message(events.Paste(text))
    await wait_for(pilot, lambda: "If applied" in screen_text(app), message="the preview")


async def test_f9_picks_the_correction_and_ctrl_j_applies_it() -> None:
    app = editor()
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await paste(pilot, app, sample_reply(SELF_CORRECTING))
        await wait_for(
            pilot,
            lambda: "▶ #1 at 3:1  valid → PASS (used)" in screen_text(app),
            message="the picker, with what each candidate would decide",
        )
        text = screen_text(app)
        assert "⚠ This reply holds different states" in text
        assert "#2 at 7:1  valid → NO PASS · next 4_data_privacy" in text
        assert "If applied: PASS" in text and "F9 uses the next one." in text
        await wait_for(
            pilot,
            lambda: "f9 Object" in screen_text(app),
            message="the footer names the key while there is a choice",
        )
        await pilot.press("f9")
        await wait_for(
            pilot,
            lambda: "▶ #2 at 7:1  valid → NO PASS · next 4_data_privacy (used)" in screen_text(app),
            message="the correction picked",
        )
        assert "If applied: NO PASS · 4_data_privacy blocked: not_approved" in screen_text(app)
        await pilot.press("f9")  # round again to the draft
        await wait_for(
            pilot,
            lambda: "▶ #1 at 3:1  valid → PASS (used)" in screen_text(app),
            message="back to the draft",
        )
        await pilot.press("f9", "ctrl+j")
        await wait_for(pilot, lambda: len(app.session.timeline) == 1, message="the reply applied")
        assert app.session.state.gates["4_data_privacy"].classified == "not_approved"
        assert not app.session.decision.pass_


async def test_a_changed_reply_drops_the_pick_and_one_object_offers_none() -> None:
    app = editor()
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await paste(pilot, app, sample_reply(SELF_CORRECTING))
        await pilot.press("f9")
        await wait_for(
            pilot, lambda: "▶ #2 at 7:1" in screen_text(app), message="the correction picked"
        )
        await pilot.press("end", "x")  # the text changed: the parser's own choice again
        await wait_for(pilot, lambda: "▶ #1 at 3:1" in screen_text(app), message="the pick dropped")
        await pilot.press("ctrl+l")
        app.post_message(events.Paste(sample_reply("ml_good.md")))
        await wait_for(
            pilot,
            lambda: (
                "This reply holds" not in screen_text(app)
                and "If applied: PASS" in screen_text(app)
            ),
            message="a one-object reply",
        )
        await wait_for(
            pilot,
            lambda: "f9 Object" not in screen_text(app),
            message="no picker key in the footer",
        )


async def scene_two_candidates(pilot: Any) -> None:
    await paste_reply(pilot, sample_reply(SELF_CORRECTING))
    await pilot.press("f9")
    await until(pilot, lambda: "▶ #2 at 7:1" in screen_text(pilot.app))


def test_the_picker_looks_right(snap_compare) -> None:
    assert snap_compare(
        make_app(Path("sample_configs/ml_project_intake.yaml")),
        terminal_size=(120, 40),
        run_before=scene_two_candidates,
    )
