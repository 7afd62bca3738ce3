"""A served editor's file commands stay inside its files folder (issue 17, item 1): Save as,
Export and Open with ``../x``, ``/tmp/x`` or a symlink out write and read nothing, in the
gate editor and in contract mode; a plain name lands inside the folder."""

from __future__ import annotations

import json
import os
import uuid
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input, Static

from gate_tui.config.loading import load_config
from gate_tui.contracts.loading import load_contract
from gate_tui.session.live import Session
from gate_tui.tui.app import GateApp
from gate_tui.tui.contract.app import ContractApp
from gate_tui.tui.screens.path_prompt import PathScreen
from tests.tui_helpers import CONFIGS, ML_CONFIG, wait_for

OUTSIDE_NAMES = ("../x", "../../etc-x", "door/x.json")


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    files = tmp_path / "files"
    files.mkdir()
    (tmp_path / "elsewhere").mkdir()
    os.symlink(tmp_path / "elsewhere", files / "door")
    return files


def _gate_app(folder: Path) -> GateApp:
    config = load_config(ML_CONFIG)
    return GateApp(
        config, ML_CONFIG, session=Session.in_memory(config, ML_CONFIG), blink=False, files=folder
    )


def _prompt_text(app: Any) -> str:
    return " ".join(str(part.render()) for part in app.screen.query(Static))


async def _refused(pilot: Any, app: Any, path: str) -> None:
    """Type ``path`` into the open path prompt: it stays open and says the path is outside."""
    await wait_for(pilot, lambda: app.screen.query("#path-input"), message="the path prompt")
    app.screen.query_one("#path-input", Input).value = path
    await pilot.press("enter")  # type: ignore[attr-defined]
    await wait_for(
        pilot, lambda: "outside the files folder" in _prompt_text(app), message=f"{path} refused"
    )
    assert isinstance(app.screen, PathScreen)  # type: ignore[attr-defined]


def _everything_under(root: Path) -> set[Path]:
    return {path for path in root.rglob("*")}


async def test_save_as_export_and_open_outside_the_folder_write_and_read_nothing(
    folder: Path, tmp_path: Path
) -> None:
    stray = Path("/tmp") / f"gate-tui-serve-{uuid.uuid4().hex}.json"
    outside_state = tmp_path / "outside-state.json"
    outside_state.write_text(json.dumps({"summary": "from outside", "gates": {}}), encoding="utf-8")
    app = _gate_app(folder)
    async with app.run_test(size=(120, 40)) as pilot:
        before = _everything_under(tmp_path)
        screen = app.gate_screen
        for action in (
            lambda: screen.action_file("save_as"),
            lambda: screen.action_file("export_state"),
            lambda: screen.action_file("export_report"),
        ):
            action()
            await wait_for(
                pilot,
                lambda: str(folder.resolve()) in _prompt_text(app),
                message="the prompt names the folder",
            )
            for name in (*OUTSIDE_NAMES, str(stray), "~/.bashrc"):
                await _refused(pilot, app, name)
            await pilot.press("escape")
            await wait_for(
                pilot, lambda: not isinstance(app.screen, PathScreen), message="prompt closed"
            )
        screen.action_file("open_state")
        for name in ("../outside-state.json", str(outside_state)):
            await _refused(pilot, app, name)
        await pilot.press("escape")
        assert _everything_under(tmp_path) == before and not stray.exists()
        assert app.session.state.summary != "from outside"
        # A plain name is taken inside the folder.
        screen.action_file("save_as")
        await wait_for(pilot, lambda: app.screen.query("#path-input"), message="the path prompt")
        app.screen.query_one("#path-input", Input).value = "kept.json"
        await pilot.press("enter")
        await wait_for(
            pilot, lambda: (folder / "kept.json").exists(), message="saved inside the folder"
        )


async def test_contract_mode_keeps_its_files_in_the_folder_too(
    folder: Path, tmp_path: Path
) -> None:
    contract = load_contract(CONFIGS / "contracts" / "guardian_report.yaml")
    app = ContractApp(contract, journal=False, blink=False, files=folder)
    async with app.run_test(size=(120, 40)) as pilot:
        before = _everything_under(tmp_path)
        app.contract_screen.action_file("export_report")
        for name in (*OUTSIDE_NAMES, "/tmp/gate-tui-serve-report.md"):
            await _refused(pilot, app, name)
        assert _everything_under(tmp_path) == before
        app.screen.query_one("#path-input", Input).value = "report.md"
        await pilot.press("enter")
        await wait_for(
            pilot, lambda: (folder / "report.md").exists(), message="the report inside the folder"
        )


def test_the_editor_refuses_a_files_folder_that_is_not_one(tmp_path: Path) -> None:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "gate_tui", "--files", str(tmp_path / "absent")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 3 and "--files" in done.stderr and "not a folder" in done.stderr
