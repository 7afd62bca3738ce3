"""Hostile text in the editor's form fields never reaches the terminal as control bytes.

A reply may carry ``ESC[2J`` (clear screen), ``ESC]52;c;…BEL`` (write the clipboard),
``ESC]8;;…`` (a hyperlink), bidi overrides and zero-width characters. The Summary field
(an ``Input``) and the Raw field (a ``TextArea``) show them as visible symbols (see
:mod:`gate_tui.tui.form`); the session keeps the exact text until the user edits the field.
"""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input, TextArea

from gate_tui.config.loading import load_config
from gate_tui.models import GateState
from gate_tui.session.live import Session
from gate_tui.tui.app import GateApp
from gate_tui.tui.form import SYMBOLS_NOTE
from tests.helpers.hostile_text import (
    HOSTILE,
    forbidden_in,
    rendered,
)
from tests.tui_helpers import (
    ML_CONFIG,
    answer_path,
    run_command,
    screen_text,
    type_answer,
    wait_for,
)

SIZE = (160, 50)
def hostile_state(config: Any) -> GateState:
    return GateState.model_validate(
        {
            "summary": f"sum {HOSTILE}",
            "gates": {
                "1_data_availability": {
                    "raw": f"line one {HOSTILE}\nline two",
                    "classified": "available",
                }
            },
            "status": {"pass": False, "next_gate": None, "next_query": None},
        }
    )


async def test_summary_and_raw_show_escapes_as_symbols_and_keep_the_stored_text() -> None:
    config = load_config(ML_CONFIG)
    state = hostile_state(config)
    app = GateApp(
        config, ML_CONFIG, session=Session.in_memory(config, ML_CONFIG, initial=state), blink=False
    )
    async with app.run_test(size=SIZE) as pilot:
        summary = app.query_one("#summary", Input)
        raw = app.query_one("#raw", TextArea)
        await wait_for(
            pilot, lambda: summary.value.startswith("sum a␛[2Jb"), message="summary loaded"
        )
        app.gate_screen.select_gate("1_data_availability")
        await wait_for(pilot, lambda: raw.text.startswith("line one a␛[2Jb"), message="raw loaded")
        assert forbidden_in(summary.value) == [] and forbidden_in(raw.text.replace("\n", "")) == []
        assert "⟨U+202E⟩" in summary.value and "⟨U+200B⟩" in raw.text and "␛]52;c;" in summary.value
        assert raw.text.endswith("\nline two"), "line feeds in raw stay line feeds"
        await wait_for(
            pilot, lambda: rendered(summary) and rendered(raw), message="fields rendered"
        )
        assert forbidden_in(rendered(summary)) == []
        assert forbidden_in(rendered(raw)) == []
        assert forbidden_in(screen_text(app).replace("\n", "")) == []
        assert SYMBOLS_NOTE in str(app.query_one("#summary-msg").content)
        # Nothing was stored again: the session keeps the exact text.
        assert app.session.state.summary == f"sum {HOSTILE}"
        assert app.session.state.gates["1_data_availability"].raw == f"line one {HOSTILE}\nline two"
        assert app.session.timeline == []


async def test_editing_a_field_with_symbols_stores_what_it_shows() -> None:
    config = load_config(ML_CONFIG)
    app = GateApp(
        config,
        ML_CONFIG,
        session=Session.in_memory(config, ML_CONFIG, initial=hostile_state(config)),
        blink=False,
    )
    async with app.run_test(size=SIZE) as pilot:
        summary = app.query_one("#summary", Input)
        await wait_for(pilot, lambda: summary.value.startswith("sum a␛"), message="summary loaded")
        shown = summary.value
        summary.focus()
        await wait_for(pilot, lambda: app.focused is summary)
        await pilot.press("end", "!", "enter")
        await wait_for(pilot, lambda: len(app.session.timeline) == 1, message="the edit recorded")
        assert app.session.state.summary == shown + "!"
        assert forbidden_in(app.session.state.summary) == []
        # The raw value nobody edited is still exact.
        assert app.session.state.gates["1_data_availability"].raw == f"line one {HOSTILE}\nline two"


async def test_a_full_disk_mid_session_shows_not_saving_and_save_as_rescues(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = load_config(ML_CONFIG)
    app = GateApp(config, ML_CONFIG, state_file=tmp_path / "intake.json", blink=False)
    journal = tmp_path / "intake.json.journal.jsonl"
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await wait_for(pilot, lambda: app.session.persistent, message="a persistent session")
        await type_answer(pilot, app, "2_use_case", "Rank tickets")
        before = journal.read_bytes()
        real_write = os.write

        def full_disk(fd: int, data: Any) -> int:
            if os.fstat(fd).st_ino == os.stat(journal).st_ino:
                real_write(fd, bytes(data[:10]))  # a few bytes land, then the disk is full
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            return real_write(fd, data)

        monkeypatch.setattr(os, "write", full_disk)
        await type_answer(pilot, app, "3_success_metric", "Faster replies")
        await wait_for(
            pilot, lambda: "NOT SAVING" in str(app.sub_title), message="the title says NOT SAVING"
        )
        bar = app.query_one("#notices")
        await wait_for(
            pilot,
            lambda: bar.display and "No space left on device" in str(bar.content),
            message="the persistent warning",
        )
        assert "cannot write journal" in screen_text(app)
        monkeypatch.undo()
        assert not app.session.persistent
        assert journal.read_bytes() == before, (
            "no half line, and the failed transition is not on disk"
        )
        rescue = tmp_path / "rescue.json"
        await run_command(pilot, app, "Save state as")
        await answer_path(pilot, app, rescue)
        await wait_for(pilot, lambda: rescue.exists(), message="Save state as… rescued the work")
        assert (
            json.loads(rescue.read_text())["state"]["gates"]["3_success_metric"]["raw"]
            == "Faster replies"
        )
        assert bar.display and "No space left on device" in str(bar.content), "the warning stays"
