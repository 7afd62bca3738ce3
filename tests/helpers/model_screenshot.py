"""The README's screenshot of a model reply streaming into the reply pane.

``python -m tests.helpers.model_screenshot OUT.svg`` (run by ``make screenshots``): the real
editor at 120x40, asked with F6, the scripted OpenAI-compatible server on loopback
streaming ``ml_lying_pass.md`` slowly, captured while the "so far" preview shows what the
partial reply already says (and no decision).
"""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

from textual import events

from tests.helpers.scripted_openai import ScriptedServer, Step
from tests.tui_helpers import make_app, reply, wait_for


async def capture(out: Path) -> Path:
    text = reply("ml_lying_pass.md")
    with ScriptedServer([Step(text=text, chunk=6, delay=0.12)]) as server:
        os.environ.update(OPENAI_BASE_URL=server.base_url, GATE_TUI_MODEL="gemma3-270m")
        app = make_app()
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.press("f6")
            await wait_for(pilot, lambda: app.screen.query("#ask-input"))
            await pilot.press(*"Two years of labelled tickets, in the warehouse")
            app.post_message(events.Key("enter", "\r"))  # Pilot.press would wait for an idle app
            await wait_for(
                pilot,
                lambda: (
                    app.gate_screen.workbench.asking.run is not None
                    and '"4_data_privacy"' in app.gate_screen.reply_pane.text_area.text
                ),
                timeout=60,
            )
            await wait_for(
                pilot,
                lambda: (
                    "so far: gates.1_data_availability.classified"
                    in str(app.gate_screen.reply_pane.query_one("#preview").render())
                ),
                timeout=30,
            )
            path = Path(app.save_screenshot(out.name, str(out.parent)))
            app.gate_screen.workbench.cancel_ask()
            await asyncio.sleep(0.3)
    return path


def main(argv: list[str]) -> int:
    out = Path(argv[0] if argv else "screenshots/model_stream.svg").resolve()
    print(asyncio.run(capture(out)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
