"""``python -m gate_tui.tui.screenshots DIR``: SVG screenshots of the editor's main states.

The same scenes drive the snapshot tests, so the README's pictures and the tested
screens are one and the same: empty, NO PASS with the next question, PASS, a reply
preview with repairs, a reply with errors, the Summary field typed in (the last field of
the gates pane, scrolled into view on a short terminal) and the history after two
replies. Each scene presses real keys on the real app (default config, in-memory
session) and waits for the state it shows.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any
from unittest import mock

from textual import events

from gate_tui.config.loading import bundled_config_dir, default_config_path, load_config
from gate_tui.session.live import Session
from gate_tui.tui.app import GateApp
from gate_tui.tui.scene_wait import until

SIZE = (120, 40)
BAD_REPLY = """Here is the state — everything looks good!
{"summary": "Fraud model for card payments",
 "gates": {"1_data_availability": {"raw": "Card transactions since 2021", "classified": "plenty"},
           "3_success_metric": {"raw": "Recall at 1% false positives", "classified": null},
           "4_data_privacy": {"raw": "Contains card holder names", "classified": "approved"}},
 "status": {"pass": true, "next_gate": null, "next_query": null},
 "priority": "high"}
"""
Scene = Callable[[Any], Awaitable[None]]


def sample_reply(name: str) -> str:
    """A bundled sample reply (``sample_configs/replies``)."""
    return (bundled_config_dir() / "replies" / name).read_text(encoding="utf-8")


def make_app(shown_path: Path | None = None) -> GateApp:
    """The editor on the default config with an in-memory session and no blinking.

    ``shown_path`` is the path the header shows (snapshots need one that does not
    depend on where the checkout lives).
    """
    path = default_config_path()
    config = load_config(path)
    shown = shown_path or path
    return GateApp(config, shown, session=Session.in_memory(config, shown), blink=False)


async def ready(pilot: Any) -> None:
    """Wait until the panes mounted after the first frame are there, and the scroll
    after the start's resize has run (else it lands between a scene's keys, and where
    the gates pane is scrolled to depends on the machine's speed)."""
    app: GateApp = pilot.app
    await until(
        pilot,
        lambda: (
            app.gate_screen.workspace.reply() is not None
            and app.gate_screen.workspace.history() is not None
            and app.gate_screen.workspace.settled
        ),
    )


async def paste_reply(pilot: Any, text: str) -> None:
    """F2, then paste ``text`` the way a terminal does, and wait for its preview."""
    app: GateApp = pilot.app
    await ready(pilot)
    await pilot.press("f2")
    await until(pilot, lambda: app.focused is app.gate_screen.reply_pane.text_area)
    app.post_message(events.Paste(text))
    await until(pilot, lambda: app.gate_screen.preview_result is not None)


async def scene_empty(pilot: Any) -> None:
    app: GateApp = pilot.app
    await ready(pilot)
    await until(pilot, lambda: app.gate_screen.decision_panel.word == "NO PASS")


async def scene_no_pass(pilot: Any) -> None:
    app: GateApp = pilot.app
    await ready(pilot)
    await pilot.press("f3")
    await until(pilot, lambda: app.focused is not None and app.focused.id == "classified-select")
    await pilot.press("enter", "down", "enter")
    await until(pilot, lambda: app.session.decision.next_gate == "2_use_case")
    await pilot.press("f3")
    await until(pilot, lambda: app.focused is not None and app.focused.id == "raw")


async def scene_pass(pilot: Any) -> None:
    app: GateApp = pilot.app
    await paste_reply(pilot, sample_reply("ml_good.md"))
    await pilot.press("ctrl+j")
    await until(
        pilot,
        lambda: app.session.decision.pass_ and app.gate_screen.reply_pane.text_area.text == "",
    )


async def scene_reply_preview(pilot: Any) -> None:
    await paste_reply(pilot, sample_reply("ml_repairable.md"))


async def scene_reply_errors(pilot: Any) -> None:
    app: GateApp = pilot.app
    await paste_reply(pilot, BAD_REPLY)
    await pilot.press("ctrl+j")
    await until(
        pilot,
        lambda: len(app._notifications) > 0 and app.gate_screen.history_pane.table.row_count == 1,
    )


async def scene_summary(pilot: Any) -> None:
    """The last field of the gates pane focused and typed in (below the fold at 60x20)."""
    app: GateApp = pilot.app
    await ready(pilot)
    await pilot.press("f3")
    await until(pilot, lambda: app.focused is not None and app.focused.id == "classified-select")
    await pilot.press("tab")
    await until(pilot, lambda: app.focused is not None and app.focused.id == "summary")
    await pilot.press(*"Ticket routing")
    await until(pilot, lambda: app.session.state.summary == "Ticket routing")


async def scene_history(pilot: Any) -> None:
    """Two replies applied, then the history pane: the last change and the timeline."""
    app: GateApp = pilot.app
    for name in ("ml_lying_pass.md", "ml_good.md"):
        count = len(app.session.timeline)
        await paste_reply(pilot, sample_reply(name))
        await pilot.press("ctrl+j")
        await until(
            pilot,
            lambda count=count: (
                len(app.session.timeline) == count + 1
                and app.gate_screen.reply_pane.text_area.text == ""
            ),
        )
    app.clear_notifications()
    await pilot.press("f4")
    await until(
        pilot,
        lambda: (
            app.focused is app.gate_screen.history_pane.table
            and app.gate_screen.history_pane.table.row_count == 2
        ),
    )


SCENES: dict[str, Scene] = {
    "empty": scene_empty,
    "no_pass": scene_no_pass,
    "pass": scene_pass,
    "reply_preview": scene_reply_preview,
    "reply_errors": scene_reply_errors,
    "summary": scene_summary,
    "history": scene_history,
}


FIXED_TIME = "2026-01-15T09:30:00.000+00:00"


@contextlib.contextmanager
def fixed_clock() -> Iterator[None]:
    """Every transition at 09:30:00 UTC, shown in UTC: the pictures do not change between runs."""
    old_tz = os.environ.get("TZ")
    os.environ["TZ"] = "UTC"
    time.tzset()
    try:
        with (
            mock.patch("gate_tui.session.history.now_iso", lambda: FIXED_TIME),
            mock.patch("gate_tui.session.records.now_iso", lambda: FIXED_TIME),
        ):
            yield
    finally:
        if old_tz is None:
            os.environ.pop("TZ", None)
        else:
            os.environ["TZ"] = old_tz
        time.tzset()


async def capture(directory: Path, size: tuple[int, int] = SIZE) -> list[Path]:
    """Write one SVG per scene into ``directory``; returns the files written."""
    directory.mkdir(parents=True, exist_ok=True)
    with fixed_clock():
        shots = [
            await capture_scene(directory, name, scene, size) for name, scene in SCENES.items()
        ]
    from gate_tui.tui.contract.scenes import capture_contract

    shots.append(await capture_contract(directory, size))
    try:
        import pyarrow  # noqa: F401 - the review scene needs gate-tui[data]
    except ImportError:
        return shots
    from gate_tui.tui.review.scenes import capture_review

    return [*shots, await capture_review(directory, size)]


async def capture_scene(directory: Path, name: str, scene: Scene, size: tuple[int, int]) -> Path:
    """Run one scene on a fresh app and save its screenshot."""
    app = make_app(Path("sample_configs") / default_config_path().name)
    async with app.run_test(size=size, notifications=True) as pilot:
        await scene(pilot)
        await pilot.pause(0.1)
        return Path(app.save_screenshot(f"{name}.svg", str(directory)))


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    directory = Path(args[0]) if args else Path("screenshots")
    for path in asyncio.run(capture(directory)):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
