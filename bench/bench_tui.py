"""Editor benchmark: first paint and key-to-decision latency, against baselines in the same run.

Goals (issue: the editor):
1. time to first paint of the default config ≤ 1.5× a minimal Textual app showing one label;
2. time to first paint of a 200-gate config ≤ 3× that minimal app;
3. median time from a key press in a gate field to the decision panel showing the new
   decision, on the 200-gate config: ≤ 50 ms (headless).

First paint is the first frame an app hands to the terminal (``App._display``), headless
at 120x40, from spawning ``python`` to that frame: what a user waits for after typing
the command. The goal rows run the real command, ``gate-tui CONFIG --new`` (the CLI, the
config cache, a session on disk in a temporary state folder), against a child that
shows one label the same way:

* *warm*: the config was opened before, so its validated copy is in the config cache
  (``GATE_TUI_CACHE_DIR``, one folder per bench run, warmed by the warm-up run). This is
  every start but the first after installing gate-tui or editing the config;
* *cold* (information): an empty cache folder each time, so the config is validated with
  yaml and pydantic before the first frame.

For information, *in-process* rows time an app from its construction to its first frame
with everything imported: the cost of the widgets alone against one label. No goal applies
to them (a user waits for the whole process).

Before measuring, the package is byte-compiled: a user's ``pip install`` writes the
``.pyc`` files (as it did for Textual, which the baseline imports), whereas an editable
install on a machine with ``PYTHONDONTWRITEBYTECODE`` set recompiles gate_tui on every start.

Runs alternate between the variants so that a busy machine hurts them alike; medians are
reported. The key latency is measured from a key event entering the driver's queue to the
first frame after the decision panel changed, next to the same measure for a trivial app
(an Input whose changes update a Label) to show Textual's own frame pacing.

Run: ``make bench`` or ``python bench/bench_tui.py [--quick] [--strict]``. Prints a table;
with ``--strict`` it exits non-zero when a goal is missed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import select
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from textual import events  # noqa: E402
from textual.app import App, ComposeResult  # noqa: E402
from textual.widgets import Input, Label  # noqa: E402

from gate_tui.config.loading import default_config_path, load_config  # noqa: E402
from gate_tui.models import GateConfig  # noqa: E402
from gate_tui.parsing.pipeline import parse  # noqa: E402
from gate_tui.session.live import Session  # noqa: E402
from gate_tui.tui.app import GateApp  # noqa: E402
from tests.tui_helpers import full_state_for, make_large_config  # noqa: E402

SIZE = (120, 40)
CHILD_TIMEOUT = 30.0
CHILD = r"""
import os, sys
which, config = sys.argv[1], sys.argv[2]
from textual.app import App
def report_first_frame(app):
    display = app._display
    def first_frame(screen, renderable):
        display(screen, renderable)
        if renderable is not None and not getattr(app, "painted", False):
            app.painted = True
            os.write(1, b"painted\n")
            app.exit(0)
    app._display = first_frame
if which == "minimal":
    from textual.widgets import Label
    class Minimal(App):
        def compose(self):
            yield Label("Hello")
    app = Minimal()
    report_first_frame(app)
    app.run(headless=True, size=(120, 40))
else:
    run = App.run
    def headless(self, *args, **kwargs):
        report_first_frame(self)
        return run(self, headless=True, size=(120, 40))
    App.run = headless
    from gate_tui.cli.main import main
    raise SystemExit(main([config, "--new"]))
"""



class MinimalApp(App[None]):
    """The first-paint baseline: one label."""

    def compose(self) -> ComposeResult:
        yield Label("Hello")


class EchoApp(App[None]):
    """The latency baseline: an Input whose every change updates a Label."""

    def compose(self) -> ComposeResult:
        yield Input(id="field")
        yield Label("empty", id="echo")

    def on_input_changed(self, event: Input.Changed) -> None:
        self.query_one("#echo", Label).update(event.value or "empty")


def on_frames(app: App[Any], callback: Callable[[float], None]) -> None:
    """Call ``callback(time)`` for every frame ``app`` hands to the terminal."""
    display = app._display

    def frame(screen: Any, renderable: Any) -> None:
        display(screen, renderable)
        if renderable is not None:
            callback(time.perf_counter())

    app._display = frame  # type: ignore[method-assign]


async def first_paint(factory: Callable[[], App[Any]]) -> float:
    """Seconds from constructing an app to its first frame."""
    start = time.perf_counter()
    app = factory()
    painted: list[float] = []

    def first(at: float) -> None:
        if not painted:
            painted.append(at)
            app.exit()

    on_frames(app, first)
    await app.run_async(headless=True, size=SIZE)
    return painted[0] - start


def process_paint(which: str, config: Path, cache: Path | None) -> float:
    """Seconds from spawning a Python process to its app's first frame.

    ``cache`` is the config cache folder to use (None: a new, empty one). Sessions go to a
    temporary state folder that is removed afterwards.
    """
    with tempfile.TemporaryDirectory(prefix="gate-tui-bench-") as scratch:
        env = {**os.environ, "GATE_TUI_STATE_DIR": str(Path(scratch) / "state")}
        env["GATE_TUI_CACHE_DIR"] = str(cache if cache is not None else Path(scratch) / "cache")
        start = time.perf_counter()
        child = subprocess.Popen(
            [sys.executable, "-c", CHILD, which, str(config)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            cwd=ROOT,
        )
        assert child.stdout is not None and child.stderr is not None
        ready, _, _ = select.select([child.stdout], [], [], CHILD_TIMEOUT)
        line = child.stdout.readline() if ready else b""
        elapsed = time.perf_counter() - start
        if line.strip() != b"painted":
            child.kill()
            _, errors = child.communicate()
            sys.stderr.write(
                f"bench_tui: the {which} child did not paint within {CHILD_TIMEOUT:.0f} s:\n"
                f"{errors.decode(errors='replace')}\n"
            )
            raise SystemExit(2)
        child.communicate(timeout=CHILD_TIMEOUT)
    return elapsed


def compile_package() -> None:
    """Write the .pyc files a user's install has (see the module docstring)."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    targets = [str(ROOT / "gate_tui"), str(ROOT / "tests" / "tui_helpers.py")]
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", *targets],
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
    )


def editor(config: GateConfig, path: Path | None = None) -> Callable[[], App[Any]]:
    def make() -> App[Any]:
        return GateApp(config, path, session=Session.in_memory(config, path), blink=False)

    return make


def interleaved(measures: dict[str, Callable[[], float]], repeat: int) -> dict[str, float]:
    """Median of each measure, the measures taken in turn ``repeat`` times."""
    samples: dict[str, list[float]] = {name: [] for name in measures}
    for _ in range(repeat):
        for name, measure in measures.items():
            samples[name].append(measure())
    return {name: statistics.median(values) for name, values in samples.items()}


async def key_to_frame(
    app: App[Any],
    focus: str,
    key_for: Callable[[int], tuple[str, str | None]],
    shown: Callable[[int], bool],
    presses: int,
) -> list[float]:
    """Per key press: from the key entering the driver's queue to the first frame showing its
    effect."""
    frames: list[float] = []
    on_frames(app, frames.append)
    samples: list[float] = []
    async with app.run_test(size=SIZE) as pilot:
        await focus_field(pilot, app, focus)
        for index in range(presses):
            key, char = key_for(index)
            await pilot.pause(0.05)
            start = time.perf_counter()
            app._driver.send_message(events.Key(key, char))  # type: ignore[union-attr]
            while not shown(index):
                await asyncio.sleep(0.0002)
            changed = time.perf_counter()
            while not frames or frames[-1] < changed:
                await asyncio.sleep(0.0002)
            samples.append(frames[-1] - start)
    return samples


async def focus_field(pilot: Any, app: App[Any], focus: str) -> None:
    if focus == "f3":
        await pilot.press("f3")
    while app.focused is None or app.focused.id not in ("raw", "field"):
        await pilot.pause(0.01)


def toggle_key(index: int) -> tuple[str, str | None]:
    return ("x", "x") if index % 2 == 0 else ("backspace", None)


def editor_latency(config: GateConfig, presses: int) -> float:
    """The 200-gate editor: typing into the last missing gate flips NO PASS ↔ PASS."""
    initial = parse(full_state_for(config, skip="g199"), config, None, actor="user").canonical_state
    app = GateApp(
        config, None, session=Session.in_memory(config, None, initial=initial), blink=False
    )

    def shown(index: int) -> bool:
        return app.gate_screen.decision_panel.word == ("PASS" if index % 2 == 0 else "NO PASS")

    return statistics.median(asyncio.run(key_to_frame(app, "f3", toggle_key, shown, presses)))


def echo_latency(presses: int) -> float:
    app = EchoApp()

    def shown(index: int) -> bool:
        return str(app.query_one("#echo", Label).content) == ("x" if index % 2 == 0 else "empty")

    return statistics.median(asyncio.run(key_to_frame(app, "", toggle_key, shown, presses)))


def row(name: str, value: str, goal: str = "", ok: bool | None = None) -> str:
    verdict = "" if ok is None else ("PASS" if ok else "MISS")
    return f"{name:<66} {value:>10} {goal:>8}  {verdict}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    parser.add_argument("--strict", action="store_true", help="exit 1 when a goal is missed")
    args = parser.parse_args(argv)
    repeat, presses = (3, 10) if args.quick else (9, 30)
    compile_package()
    default_path = default_config_path()
    default, large = load_config(default_path), make_large_config(200)
    with tempfile.TemporaryDirectory(prefix="gate-tui-bench-") as scratch:
        large_path = Path(scratch) / "large_200_gates.json"
        large_path.write_text(json.dumps(large.model_dump(mode="json")), encoding="utf-8")
        warm = Path(scratch) / "cache"
        processes: dict[str, Callable[[], float]] = {
            "minimal": lambda: process_paint("minimal", default_path, warm),
            "default": lambda: process_paint("command", default_path, warm),
            "large": lambda: process_paint("command", large_path, warm),
            "default cold": lambda: process_paint("command", default_path, None),
        }
        for (
            measure
        ) in processes.values():  # warm-up: OS caches, and the config cache for the warm runs
            measure()
        proc = interleaved(processes, repeat)
    apps = {"minimal": MinimalApp, "default": editor(default, default_path), "large": editor(large)}
    for factory in apps.values():  # warm up imports and caches
        asyncio.run(first_paint(factory))
    inproc = interleaved(
        {name: (lambda f=f: asyncio.run(first_paint(f))) for name, f in apps.items()}, repeat
    )
    latency, baseline_latency = editor_latency(large, presses), echo_latency(presses)
    ratio = {name: proc[name] / proc["minimal"] for name in proc}
    rows = [
        row("first paint: one-label Textual app (process)", f"{proc['minimal'] * 1000:.0f} ms"),
        row(
            "first paint: gate-tui, default config, warm cache (× one-label)",
            f"{ratio['default']:.2f}×",
            "≤ 1.5×",
            ratio["default"] <= 1.5,
        ),
        row(
            "first paint: gate-tui, 200-gate config, warm cache (× one-label)",
            f"{ratio['large']:.2f}×",
            "≤ 3×",
            ratio["large"] <= 3.0,
        ),
        row(
            "first paint: gate-tui, default config, cold cache (× one-label)",
            f"{ratio['default cold']:.2f}×",
        ),
        row(
            "first paint in-process, widgets only: one-label app",
            f"{inproc['minimal'] * 1000:.0f} ms",
        ),
        row(
            "first paint in-process, widgets only: default (× one-label)",
            f"{inproc['default'] / inproc['minimal']:.2f}×",
        ),
        row(
            "first paint in-process, widgets only: 200 gates (× one-label)",
            f"{inproc['large'] / inproc['minimal']:.2f}×",
        ),
        row(
            "key → frame, trivial Input→Label app (Textual's pacing)",
            f"{baseline_latency * 1000:.1f} ms",
        ),
        row(
            "key → decision panel frame, 200 gates (median)",
            f"{latency * 1000:.1f} ms",
            "≤ 50 ms",
            latency <= 0.050,
        ),
    ]
    print(row("editor benchmark", "measured", "goal", None).rstrip() + "  result")
    print("\n".join(rows))
    absolute = ", ".join(f"{name} {proc[name] * 1000:.0f} ms" for name in proc)
    widgets = ", ".join(f"{name} {inproc[name] * 1000:.0f} ms" for name in inproc)
    print(
        f"(first paint, process: {absolute}; in-process: {widgets}; {repeat} runs each, {presses} "
        f"key presses)"
    )
    missed = any(line.endswith("MISS") for line in rows)
    return 1 if args.strict and missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
