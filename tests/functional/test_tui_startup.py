"""Start-up budget of the editor: what the first frame imports and mounts.

``bench/bench_tui.py`` measures the time; these tests hold the causes that are easy
to regress without noticing: pydantic, yaml or the parser imported before the first
frame (together they cost more than Textual's whole start-up), modules only needed
after the first frame imported up front, more widgets on the first screen (each
costs ~2–3 ms), and garbage collection left off after start-up.
"""

from __future__ import annotations

import asyncio
import gc
import subprocess
import sys
from pathlib import Path

import pytest

from gate_tui.config.cache import open_config
from gate_tui.config.loading import load_config
from gate_tui.session.live import Session
from gate_tui.tui.app import GateApp
from gate_tui.tui.startup import run_app
from tests.tui_helpers import ML_CONFIG, make_large_config, wait_for

ROOT = Path(__file__).resolve().parents[2]
AFTER_FIRST_FRAME = (
    "textual.widgets._data_table",  # the timeline
    "gate_tui.tui.widgets.reply_pane",
    "gate_tui.tui.widgets.history_pane",
    "gate_tui.tui.screens.help",
    "gate_tui.tui.screens.path_prompt",
    "gate_tui.tui.screens.resume",
    "gate_tui.tui.commands",
)
BEFORE_THE_BOOT = (
    "pydantic",
    "yaml",
    "gate_tui.models",
    "gate_tui.parsing.pipeline",
    "gate_tui.session",
    "gate_tui.session.history",
)
"""Loaded by the boot, right after the first frame (see gate_tui.tui.app)."""
FIRST_FRAME_PROBE = """
import os, sys
from textual.app import App
run = App.run
def headless(self, *args, **kwargs):
    display = self._display
    def first_frame(screen, renderable):
        display(screen, renderable)
        if renderable is not None and not getattr(self, "probed", False):
            self.probed = True
            loaded = sorted(name for name in sys.argv[2:] if name in sys.modules)
            os.write(1, ("loaded: %r\\n" % (loaded,)).encode())
            self.exit(0)
    self._display = first_frame
    return run(self, headless=True, size=(120, 40))
App.run = headless
from gate_tui.cli.main import main
raise SystemExit(main([sys.argv[1], "--new"]))
"""
FIRST_SCREEN_WIDGETS = 33
"""Widgets (screen included) of the first frame; raise it deliberately, it costs start-up time."""


def test_the_editor_module_leaves_secondary_screens_unimported() -> None:
    code = (
        "import sys, gate_tui.tui.app\nprint(sorted(m for m in sys.argv[1:] if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, *AFTER_FIRST_FRAME],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    assert out.stdout.strip() == "[]"


def first_frame_of_the_command(config: Path) -> str:
    """What ``gate-tui CONFIG --new`` had imported of :data:`BEFORE_THE_BOOT` when it painted."""
    args = [sys.executable, "-c", FIRST_FRAME_PROBE, str(config), *BEFORE_THE_BOOT]
    out = subprocess.run(args, capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def test_the_command_paints_before_loading_pydantic_when_the_config_is_cached() -> None:
    spec, problems = open_config(
        ML_CONFIG
    )  # what the first start does; the cache folder is the test's own
    assert spec is not None and problems == []
    assert first_frame_of_the_command(ML_CONFIG) == "loaded: []"


def test_a_config_seen_for_the_first_time_is_validated_before_the_first_frame(
    tmp_path: Path,
) -> None:
    config = tmp_path / "fresh.yaml"
    config.write_text(ML_CONFIG.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    loaded = first_frame_of_the_command(config)
    assert "pydantic" in loaded and "yaml" in loaded  # a cache miss: validated by the models
    assert first_frame_of_the_command(config) == "loaded: []"  # and remembered


async def first_frame_widgets(app: GateApp) -> int:
    counted: list[int] = []
    display = app._display

    def first(screen: object, renderable: object) -> None:
        display(screen, renderable)  # type: ignore[arg-type]
        if renderable is not None and not counted:
            counted.append(len(list(app.screen.walk_children(with_self=True))))
            app.exit()

    app._display = first  # type: ignore[method-assign]
    await app.run_async(headless=True, size=(120, 40))
    return counted[0]


async def test_the_first_frame_mounts_few_widgets() -> None:
    for config, path in ((load_config(ML_CONFIG), ML_CONFIG), (make_large_config(200), None)):
        app = GateApp(config, path, session=Session.in_memory(config, path), blink=False)
        assert await first_frame_widgets(app) <= FIRST_SCREEN_WIDGETS
    spec, _ = open_config(ML_CONFIG)
    assert spec is not None
    assert (
        await first_frame_widgets(GateApp(spec, ML_CONFIG, new=True, blink=False))
        <= FIRST_SCREEN_WIDGETS
    )


def test_run_app_collects_garbage_again_after_the_first_frame(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: dict[str, bool] = {}
    start = GateApp._start

    def on_start(self: GateApp) -> None:
        seen["while starting"] = gc.isenabled()
        start(self)

    def run(self: GateApp, **_: object) -> int:
        async def drive() -> None:
            async with self.run_test(size=(120, 40)) as pilot:
                await wait_for(
                    pilot,
                    lambda: self.gate_screen.workspace.reply() is not None,
                    message="the panes mounted after the first frame",
                )
                await wait_for(pilot, gc.isenabled, message="collection back on")
                seen["after the first frame"] = True
                self.exit(0)

        asyncio.run(drive())
        return 0

    monkeypatch.setattr(GateApp, "_start", on_start)
    monkeypatch.setattr(GateApp, "run", run)
    assert run_app(load_config(ML_CONFIG), ML_CONFIG, new=True) == 0
    assert seen == {"while starting": False, "after the first frame": True}
    assert gc.isenabled()
