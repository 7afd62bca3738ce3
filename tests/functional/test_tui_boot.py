"""The editor's two-step start: a first frame without pydantic, then the boot.

The first frame is drawn from a :class:`ConfigSpec` with no session; input that comes
before the boot has opened one is held and then handled in order. These tests hold
the boot back (it waits for the test) so that keys and pastes really arrive first.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from textual import events
from textual.widgets import TextArea

from gate_tui.config.cache import open_config
from gate_tui.config.spec import ConfigSpec
from gate_tui.tui.app import GateApp
from tests.tui_helpers import ML_CONFIG, REPLIES, WAIT, screen_text, wait_for


class HeldBackBoot(GateApp):
    """A GateApp whose boot waits until the test calls :meth:`release`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._go = asyncio.Event()
        self.boot_started = False

    def release(self) -> None:
        self._go.set()

    async def _boot(self) -> None:
        self.boot_started = True
        await self._go.wait()
        await super()._boot()


def send_keys(app: GateApp, *keys: str) -> None:
    """Post keys to the app as the terminal driver does (``pilot.press`` would wait for
    a refresh that the held-back boot holds up)."""
    named = {"down": None, " ": " "}
    for key in keys:
        app.post_message(events.Key("space" if key == " " else key, named.get(key, key)))


async def while_held(predicate: Callable[[], object], message: str) -> None:
    """Poll while the boot is held back (``pilot.pause`` waits for a refresh it holds up)."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        if predicate():
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"timed out waiting for {message}")


def spec() -> ConfigSpec:
    found, problems = open_config(ML_CONFIG)
    assert found is not None, problems
    return found


async def test_the_first_frame_shows_the_empty_state_and_its_decision_before_the_boot() -> None:
    app = HeldBackBoot(spec(), ML_CONFIG, new=True, blink=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await while_held(lambda: app.boot_started, message="the boot to be waiting")
        assert app.session is None
        text = screen_text(app)
        assert "NO PASS" in text and "required gate 1_data_availability is missing" in text
        assert "Is labelled data available" in text and "0/200" in text
        assert "opening the session" in text
        app.release()
        await wait_for(
            pilot, lambda: app.session is not None and app.session.persistent, message="the session"
        )
        await wait_for(
            pilot, lambda: "opening the session" not in screen_text(app), message="the marker gone"
        )
        assert app.gate_screen.decision_panel.word == "NO PASS"
        assert app.gate_config.gate_order == list(app.config.gate_order)


async def test_keys_pressed_before_the_boot_are_handled_after_it_in_order() -> None:
    app = HeldBackBoot(spec(), ML_CONFIG, new=True, blink=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await while_held(lambda: app.boot_started, message="the boot to be waiting")
        app.gate_screen.gate_list.focus()  # the Raw field has the focus at start (#28)
        await while_held(
            lambda: app.focused is app.gate_screen.gate_list, message="the gate list focused"
        )
        send_keys(app, "down", "down")
        await while_held(
            lambda: app._held is not None and len(app._held) == 2, message="the keys held"
        )
        assert (
            app.session is None and app.gate_screen.gate_list.selected_key == "1_data_availability"
        )  # nothing ran yet
        app.release()
        await wait_for(
            pilot,
            lambda: app.gate_screen.gate_list.selected_key == "3_success_metric",
            message="both moves, after the boot",
        )
        assert app.gate_screen.gate_editor.key == "3_success_metric"


async def test_text_typed_before_the_boot_is_not_lost() -> None:
    """Held keys go where Textual sends type-ahead: to the widget focused when each is handled."""
    app = HeldBackBoot(spec(), ML_CONFIG, new=True, blink=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await while_held(lambda: app.boot_started, message="the boot to be waiting")
        app.query_one("#raw", TextArea).focus()
        await while_held(
            lambda: app.focused is not None and app.focused.id == "raw",
            message="the raw field focused",
        )
        send_keys(app, *"Rank tickets")
        app.post_message(events.Paste(" by urgency"))
        await while_held(
            lambda: app._held is not None and len(app._held) == len("Rank tickets") + 1,
            message="keys and paste held",
        )
        app.release()
        raw = app.query_one("#raw", TextArea)
        await wait_for(
            pilot,
            lambda: raw.text == "Rank tickets by urgency",
            message="the typed answer, in order",
        )
        await wait_for(pilot, lambda: len(app.session.timeline) == 1, message="the edit recorded")
        assert app.session.state.gates["1_data_availability"].raw == "Rank tickets by urgency"


async def test_a_damaged_cache_entry_stops_the_editor_with_a_message() -> None:
    good = spec()
    damaged = good._replace(source=good.source.replace('"1.0"', '"9.9"'))
    app = GateApp(damaged, ML_CONFIG, new=True, blink=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: app.return_code is not None, message="the editor to stop")
    assert app.return_code == 2


async def test_f2_a_paste_and_ctrl_j_during_start_up_apply_the_paste_in_order() -> None:
    """#17: the paste is kept and lands where it was sent (the reply pane F2 asked for, even
    though that pane mounts only after the boot), and Ctrl+J after it applies it."""
    app = HeldBackBoot(spec(), ML_CONFIG, new=True, blink=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await while_held(lambda: app.boot_started, message="the boot to be waiting")
        send_keys(app, "f2")
        app.post_message(events.Paste((REPLIES / "ml_good.md").read_text(encoding="utf-8")))
        send_keys(app, "ctrl+j")
        await while_held(
            lambda: app._held is not None and len(app._held) == 3,
            message="F2, the paste and Ctrl+J held",
        )
        assert not app.query("#reply-pane"), "the reply pane is not there yet"
        app.release()
        await wait_for(
            pilot,
            lambda: app.session is not None and len(app.session.timeline) == 1,
            message="the pasted reply applied",
        )
        assert app.session.timeline[-1].actor == "assistant" and app.session.decision.pass_
        assert app.focused is app.gate_screen.reply_pane.text_area and app.focused.text == ""
        assert "The reply pane is empty" not in screen_text(app)
