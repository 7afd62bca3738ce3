"""How the editor starts: the first frame before pydantic, then the boot.

Start-up comes in two steps, so that the editor shows up about as fast as a one-label
Textual app (``bench/bench_tui.py``):

1. *The first frame* is drawn without pydantic, the parser or the session layer
   (importing pydantic and building our models alone takes longer than Textual's whole
   start-up). The CLI hands over a :class:`~gate_tui.config.spec.ConfigSpec` from the
   config cache; the frame shows the state every start begins with, the empty one,
   and its decision by the same rule the parser uses (:func:`gate_tui.decision.decision_parts`).
   It holds the title bar, the decision, the gate list, the gate and summary editors
   and the footer, as few widgets as possible (``tests/functional/test_tui_startup.py`` holds the
   budget).
2. *The boot* (:meth:`GateApp._boot <gate_tui.tui.app.GateApp._boot>`, right after that frame) loads
   the rest, builds the validated :class:`~gate_tui.models.GateConfig`, opens the session (or asks
   whether to resume one) and shows it. Key presses, pastes and clicks that arrive
   before it has finished are held and then handled in order: none is lost, and no
   handler ever runs without a session.

The reply and history panes are mounted right after the boot; the modal screens and
the command palette's provider are imported when first used.
``tests/functional/test_tui_startup.py`` checks that the first step imports neither
pydantic nor yaml.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from rich.text import Text
from textual.app import App
from textual.widget import Widget

from gate_tui.config.cache import cache_dir as config_cache_dir
from gate_tui.config.spec import ConfigSpec
from gate_tui.decision import decision_parts
from gate_tui.exit_codes import EXIT_EDITOR_FAILED
from gate_tui.tui.render import DIM
from gate_tui.tui.session_words import display_path
from gate_tui.tui.text import line, visible
from gate_tui.views import NO_VALUE

if TYPE_CHECKING:
    from gate_tui.models import GateConfig
    from gate_tui.session.catalog import SessionInfo
    from gate_tui.session.live import Session
    from gate_tui.tui.screens.editor import GateScreen
    from gate_tui.views import ConfigView


class GateApp(Protocol):
    """What the boot needs of the gate editor's app (:class:`gate_tui.tui.app.GateApp`),
    named here so that the boot imports no app: the app imports the boot."""

    config: ConfigView | ConfigSpec
    config_path: Path | None
    open_args: tuple[Path | None, bool] | None
    resumable: SessionInfo | None
    look_for_resumable: bool
    sub_title: str

    @property
    def gate_screen(self) -> GateScreen: ...

    @property
    def session(self) -> Session: ...

    @property
    def gate_config(self) -> GateConfig: ...

    def push_screen(self, screen: Any, callback: Any = None) -> Any: ...

    def notify(
        self, message: str, *, title: str = "", markup: bool = True, timeout: float | None = None
    ) -> None: ...

    def exit(self, result: Any = None, return_code: int = 0, message: Any = None) -> None: ...


def preset_breakpoint(app: App[Any]) -> None:
    """Give the screen its breakpoint class now, so the first resize restyles nothing."""
    width = app.size.width
    active = max((bp for bp in app.HORIZONTAL_BREAKPOINTS if width >= bp[0]), default=None)
    for _minimum, name in app.HORIZONTAL_BREAKPOINTS:
        app.screen.set_class(active is not None and name == active[1], name)


def stop_blinking(root: Widget | App[Any]) -> None:
    """Turn cursor blink off (tests and screenshots need stable frames)."""
    for widget in root.query("Input, TextArea"):
        widget.cursor_blink = False  # type: ignore[attr-defined]


def show_start(app: GateApp) -> None:
    """The first frame without a session: the empty state and its decision."""
    screen = app.gate_screen
    decision = decision_parts(app.config, {})
    start = decision.next_gate or app.config.gate_order[0]
    screen.gate_list.select_key(start)
    screen.gate_editor.load(start, NO_VALUE)
    app.sub_title = visible(display_path(app.config_path), one_line=True)
    # Said, because a resumed session or a --state file may well decide otherwise.
    screen.show_view({}, decision, [line(("… opening the session", DIM))])


def gate_config_of(app: GateApp) -> GateConfig | None:
    """The validated config (built from the spec the first frame was drawn from); None
    after stopping the editor with a message when the cached spec is damaged."""
    if not isinstance(app.config, ConfigSpec):
        return app.config  # type: ignore[return-value]
    try:
        return app.config.to_model()
    except ValueError:  # only a hand-edited cache entry gets here
        message = (
            f"gate-tui: the cached copy of the config is damaged; delete {config_cache_dir()} and "
            "start again"
        )
        app.exit(EXIT_EDITOR_FAILED, EXIT_EDITOR_FAILED, Text(message))
        return None


def open_sessions(app: GateApp) -> None:
    """Show an in-memory session at once, then open the real one (or ask to resume one)."""
    from gate_tui.session.live import Session

    app.gate_screen.attach(Session.in_memory(app.gate_config, app.config_path), app.gate_config)
    if app.open_args is None:
        return
    finished = None
    if app.look_for_resumable:
        from gate_tui.session.catalog import find_resumable

        app.resumable = find_resumable(app.gate_config, app.config_path)
        if app.resumable is None:
            finished = _newest_finished(app)
    if app.resumable is not None:
        from gate_tui.tui.screens.resume import ResumeScreen

        info = app.resumable

        def resume_or_fresh(resume: bool | None) -> None:
            if resume:
                _open_session(app, directory=info.directory)
            else:
                _open_session(app, fresh=True)

        app.push_screen(ResumeScreen(info), callback=resume_or_fresh)
    else:
        _open_session(app)
        if finished is not None:
            from gate_tui.tui.session_words import finished_note

            app.notify(
                visible(finished_note(finished)), title="New session", markup=False, timeout=8
            )


def _newest_finished(app: GateApp) -> SessionInfo | None:
    """The newest session of this config when it finished at PASS (so none was offered)."""
    from gate_tui.session.catalog import list_sessions
    from gate_tui.tui.session_words import newest_finished

    if app.config_path is None:
        return None
    return newest_finished(list_sessions(None, app.config_path, app.gate_config))


def _open_session(app: GateApp, *, directory: Path | None = None, fresh: bool = False) -> None:
    """Open the real session (journal, state file, lock) and show it."""
    assert app.open_args is not None
    state_file, new = app.open_args
    from gate_tui.session.opening import open_session

    session = open_session(
        app.gate_config,
        app.config_path,
        state_file=state_file,
        new=new or fresh,
        resume=not fresh,
        directory=directory,
    )
    app.session.close()
    app.gate_screen.attach(session, app.gate_config)
