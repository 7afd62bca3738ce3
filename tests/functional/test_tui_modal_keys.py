"""A modal dialog takes every key (issue 18, item 16): with the resume question (or any
dialog) on screen, the editor's keys behind it — Ctrl+J, F2, F3, Ctrl+S, Ctrl+Z, Ctrl+L —
do nothing to the editor and say nothing about it."""

from __future__ import annotations

from textual.widgets import Input

from gate_tui.config.loading import load_config
from gate_tui.parsing.pipeline import parse
from gate_tui.session.catalog import find_resumable
from gate_tui.session.opening import open_session
from gate_tui.tui.app import GateApp
from gate_tui.tui.screens.path_prompt import PathScreen
from gate_tui.tui.screens.resume import ResumeScreen
from tests.tui_helpers import ML_CONFIG, make_app, reply, screen_text, wait_for

EDITOR_KEYS = ("ctrl+j", "f2", "f3", "f4", "ctrl+s", "ctrl+z", "ctrl+y", "ctrl+l", "ctrl+n")


def _toasts(app: GateApp) -> str:
    return " ".join(str(toast.render()) for toast in app.screen.query("Toast"))


async def test_the_resume_question_takes_the_editors_keys() -> None:
    config = load_config(ML_CONFIG)
    session = open_session(config, ML_CONFIG, new=True)
    session.accept(
        parse(reply("ml_lying_pass.md"), config, session.state, actor="assistant"),
        reply("ml_lying_pass.md"),
        "assistant",
    )
    session.close()
    info = find_resumable(config, ML_CONFIG)
    app = GateApp(config, ML_CONFIG, resumable=info, blink=False)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, ResumeScreen) and "Resume session" in screen_text(app),
            message="the resume question",
        )
        await pilot.press(*EDITOR_KEYS)
        await pilot.pause()
        assert isinstance(app.screen, ResumeScreen)
        assert "reply pane is empty" not in screen_text(app) + _toasts(app)
        await pilot.press("escape")  # start fresh
        await wait_for(
            pilot,
            lambda: (
                not isinstance(app.screen, ResumeScreen)
                and app.session is not None
                and app.session.persistent
            ),
            message="a fresh session",
        )
        await pilot.pause()
        assert app.session.timeline == [] and app.session.state.summary == ""
        assert "reply pane is empty" not in screen_text(app) + _toasts(app), (
            "no key from behind the dialog was replayed"
        )


async def test_a_path_prompt_takes_the_editors_keys() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        app.gate_screen.action_file("save_as")
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, PathScreen) and app.screen.query("#path-input"),
            message="the path prompt",
        )
        field = app.screen.query_one("#path-input", Input)
        before = field.value
        await pilot.press(*EDITOR_KEYS)
        await pilot.pause()
        assert isinstance(app.screen, PathScreen) and app.session.timeline == []
        assert "reply pane is empty" not in _toasts(app)
        assert field.value == before  # none of these keys edits a one-line field
