"""Helpers for the editor's tests and benchmark: polling, screen text, a large config.

* :func:`wait_for` polls a condition every 20 ms (``pilot.pause()`` alone guesses
  idleness and returns early under load). Its timeout is generous on purpose: the
  machines running the suite are shared, a test must wait out a busy core (it returns
  as soon as the condition holds, so a passing test is no slower).
* :func:`screen_text` is what the terminal shows, as plain text.
* :func:`make_large_config` builds an n-gate config for the scale tests and the bench.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gate_tui.models import GateConfig

ROOT = Path(__file__).resolve().parent.parent
CONFIGS = ROOT / "sample_configs"
REPLIES = CONFIGS / "replies"
ML_CONFIG = CONFIGS / "ml_project_intake.yaml"

DANGEROUS = (
    "[/",
    "[b]",
    "[@click=app.quit]x[/]",
    "[type=x, input_value={'a[0]': 1}]",
    "\x1b[31mred\x1b[0m",
)
"""Strings that must render literally everywhere (markup, click actions, ANSI)."""


WAIT = 30.0
"""Seconds any test waits for a condition before it fails (a busy machine, not a slow editor)."""


async def wait_for(
    pilot: Any, predicate: Callable[[], object], timeout: float = WAIT, message: str = ""
) -> None:
    """Poll ``predicate`` every 20 ms until it is truthy; fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            if predicate():
                return
        except Exception:  # noqa: BLE001 - widgets may not be mounted yet
            pass
        if time.monotonic() > deadline:
            raise AssertionError(
                f"timed out after {timeout}s waiting for "
                f"{message() if callable(message) else message or predicate}"
            )
        await pilot.pause(0.02)
        await asyncio.sleep(0)


def screen_text(app: Any) -> str:
    """The current screen as plain text, one line per terminal row."""
    from rich.console import Console

    width, height = app.size
    console = Console(
        width=width,
        height=height,
        record=True,
        file=_Null(),
        color_system=None,
        legacy_windows=False,
    )
    console.print(app.screen._compositor.render_update(full=True))
    return console.export_text(styles=False)


class _Null:
    def write(self, _text: str) -> int:
        return 0

    def flush(self) -> None:
        return None


def palette_highlight(app: Any) -> str:
    """The command palette entry under the cursor ('' when there is none)."""
    from textual.command import CommandList

    lists = app.screen.query(CommandList)
    option = lists.first().highlighted_option if lists else None
    return str(option.prompt) if option is not None else ""


async def run_command(pilot: Any, app: Any, name: str) -> None:
    """Open the command palette, type ``name`` and run the entry once it is highlighted."""
    from textual.command import CommandList

    await pilot.press("ctrl+p")
    await wait_for(pilot, lambda: app.screen.query(CommandList), message="the palette")
    await pilot.press(*name)
    await wait_for(
        pilot, lambda: palette_highlight(app).startswith(name), message=f"{name} highlighted"
    )
    await pilot.press("enter")


async def answer_path(pilot: Any, app: Any, path: Path) -> None:
    """Fill the path prompt of a file command with ``path`` and confirm it."""
    from textual.widgets import Input

    await wait_for(
        pilot,
        lambda: app.focused is not None and app.focused.id == "path-input",
        message="the path prompt",
    )
    app.screen.query_one("#path-input", Input).value = str(path)
    await pilot.press("enter")


def reply(name: str) -> str:
    """A bundled sample reply."""
    return (REPLIES / name).read_text(encoding="utf-8")


def make_large_config(n: int = 200) -> GateConfig:
    """A config with ``n`` gates: every third categorical, every fifth optional."""
    order = [f"g{index:03d}" for index in range(1, n + 1)]
    gates: dict[str, Any] = {}
    for index, key in enumerate(order, start=1):
        gate: dict[str, Any] = {
            "label": f"Gate {index}",
            "question": f"What is the answer to question {index}?",
        }
        if index % 3 == 0:
            gate["expected_categories"] = ["yes", "no", "unknown"]
        if index % 5 == 0:
            gate["required"] = False
        gates[key] = gate
    return GateConfig.model_validate(
        {"name": f"Large config ({n} gates)", "gate_order": order, "gates": gates}
    )


def full_state_for(config: GateConfig, skip: str | None = None) -> dict[str, Any]:
    """A user patch answering every gate of ``config`` (except ``skip``)."""
    gates: dict[str, Any] = {}
    for key in config.gate_order:
        if key == skip:
            continue
        gate = config.gates[key]
        gates[key] = {
            "raw": f"answer {key}",
            "classified": gate.expected_categories[0] if gate.categorical else None,
        }
    return {"summary": "filled for a test", "gates": gates}


def make_app(config: GateConfig | None = None, initial: Any = None) -> Any:
    """The editor on an in-memory session of ``config`` (the ML intake by default)."""
    from gate_tui.config.loading import load_config
    from gate_tui.session.live import Session
    from gate_tui.tui.app import GateApp

    config = config or load_config(ML_CONFIG)
    session = Session.in_memory(config, ML_CONFIG, initial=initial)
    return GateApp(config, ML_CONFIG, session=session, blink=False)


def state_after(config: GateConfig, patch: dict[str, Any]) -> Any:
    """The canonical state a user's ``patch`` leads to from nothing (it must be valid)."""
    from gate_tui.parsing.pipeline import parse

    result = parse(patch, config, None, actor="user")
    assert result.ok and result.canonical_state is not None, result.errors
    return result.canonical_state


def word(app: Any) -> str:
    """The decision panel's big word: PASS or NO PASS."""
    return app.gate_screen.decision_panel.word


async def paste(pilot: Any, app: Any, text: str) -> None:
    """Focus the reply pane with F2 and paste ``text`` the way a terminal does."""
    from textual import events

    await pilot.press("f2")
    await wait_for(
        pilot,
        lambda: app.focused is not None and app.focused.id == "reply",
        message="reply pane focused",
    )
    app.post_message(events.Paste(text))
    await wait_for(
        pilot,
        lambda: app.gate_screen.reply_pane.text_area.text == text,
        message="pasted text in the reply pane",
    )


async def type_answer(pilot: object, app: Any, gate: str, text: str) -> None:
    """Type ``text`` into the raw field of ``gate`` and press Enter (one user transition)."""
    from textual.widgets import TextArea
    app.gate_screen.select_gate(gate)
    app.query_one("#raw", TextArea).focus()
    await pilot.press(*text, "enter")  # type: ignore[attr-defined]
    await wait_for(
        pilot, lambda: app.session.state.gates[gate].raw == text, message=f"{gate} recorded"
    )
