"""How the editor starts: the first frame before pydantic, then the boot.

Start-up comes in two steps, so that the editor shows up about as fast as a one-label
Textual app (``bench/bench_tui.py``):

1. *The first frame* is drawn without pydantic, the parser or the session layer
   (importing pydantic and building our models alone takes longer than Textual's whole
   start-up). The CLI hands over a :class:`~gate_tui.config.spec.ConfigSpec` from the
   config cache; the frame shows the state every start begins with, the empty one,
   and its decision by the same rule the parser uses (:func:`gate_tui.decision.decision_parts`).
   It holds the title bar, the decision, the gate list, the gate and summary editors
   and the footer, as few widgets as possible (``tests/test_tui_startup.py`` holds the budget).
2. *The boot* (:meth:`GateApp._boot`, right after that frame) loads the rest, builds
   the validated :class:`~gate_tui.models.GateConfig`, opens the session (or asks
   whether to resume one) and shows it. Key presses, pastes and clicks that arrive
   before it has finished are held and then handled in order: none is lost, and no
   handler ever runs without a session.

The reply and history panes are mounted right after the boot; the modal screens and
the command palette's provider are imported when first used. ``tests/test_startup_imports.py``
checks that the first step imports neither pydantic nor yaml.
"""

from __future__ import annotations

import gc
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import events
from textual.app import App
from textual.widget import Widget

from gate_tui.config.cache import cache_dir as config_cache_dir
from gate_tui.config.spec import ConfigSpec
from gate_tui.decision import decision_parts
from gate_tui.exit_codes import EXIT_EDITOR_FAILED
from gate_tui.tui import keymap
from gate_tui.tui.panes import PaneApp
from gate_tui.tui.render import DIM
from gate_tui.tui.startup import display_path
from gate_tui.tui.text import line, visible
from gate_tui.views import NO_VALUE

if TYPE_CHECKING:
    from gate_tui.models import GateConfig
    from gate_tui.session.catalog import SessionInfo


class BootApp(PaneApp):
    """Start-up and session opening for :class:`gate_tui.tui.app.GateApp`."""

    def _preset_breakpoint(self) -> None:
        """Give the screen its breakpoint class now, so the first resize restyles nothing."""
        width = self.size.width
        active = max((bp for bp in self.HORIZONTAL_BREAKPOINTS if width >= bp[0]), default=None)
        for _minimum, name in self.HORIZONTAL_BREAKPOINTS:
            self.screen.set_class(active is not None and name == active[1], name)

    def _show_start(self) -> None:
        """The first frame without a session: the empty state and its decision."""
        decision = decision_parts(self.config, {})
        start = decision.next_gate or self.config.gate_order[0]
        self.gate_list.select_key(start)
        self.gate_editor.load(start, NO_VALUE)
        self.sub_title = visible(display_path(self.config_path), one_line=True)
        # Said, because a resumed session or a --state file may well decide otherwise.
        self.show_view({}, decision, [line(("… opening the session", DIM))])

    async def _boot(self) -> None:
        """Load what the first frame did without, open the session, then handle held input."""
        try:
            from gate_tui.session.live import Session

            if isinstance(self.config, ConfigSpec):
                try:
                    self._gate_config = self.config.to_model()
                except ValueError:  # only a hand-edited cache entry gets here
                    message = f"gate-tui: the cached copy of the config is damaged; delete {config_cache_dir()} and start again"
                    self.exit(EXIT_EDITOR_FAILED, EXIT_EDITOR_FAILED, Text(message))
                    return
            self.attach(Session.in_memory(self.gate_config, self.config_path))
            if self._open_args is not None:
                self._open_real_session()
        finally:
            held, self._held = self._held or [], None
            self._collect_garbage()
        for event in held:
            await super().on_event(event)

    def _collect_garbage(self) -> None:
        """Turn the collector back on once start-up is over (see :func:`run_app`)."""
        if self._collect_after_first_frame:
            self._collect_after_first_frame = False
            gc.freeze()  # what start-up built lives as long as the editor
            gc.enable()

    async def on_event(self, event: events.Event) -> None:
        """Hold input that arrives before the boot has opened the session (see :meth:`_boot`)."""
        if self._held is not None and isinstance(event, (events.InputEvent, events.Paste)) and not event.is_forwarded:
            self._held.append(event)
            return
        await super().on_event(event)

    @property
    def gate_config(self) -> GateConfig:
        """The validated config ``parse`` needs (set by the boot when started from a spec)."""
        assert self._gate_config is not None, "the editor has not booted yet"
        return self._gate_config

    async def _mount_panes(self) -> None:
        """Mount the panes that are not needed for the first frame."""
        from gate_tui.tui.widgets.history_pane import HistoryPane
        from gate_tui.tui.widgets.reply_pane import ReplyPane

        workspace = self.query_one("#workspace")
        if not workspace.is_attached or self._exit_renderables or self._closing:
            return  # the app is already on its way out
        await workspace.mount(
            ReplyPane(id="reply-pane", classes="pane -inactive"),
            HistoryPane(id="history-pane", classes="pane -inactive"),
        )

    def stop_blinking(self, root: Widget | App[Any]) -> None:
        """Turn cursor blink off (tests and screenshots need stable frames)."""
        for widget in root.query("Input, TextArea"):
            widget.cursor_blink = False  # type: ignore[attr-defined]

    def _apply_keymap(self) -> None:
        known, unknown = keymap.split_keymap(self.config.keymap)
        self.set_keymap(known)
        if unknown:
            ids = ", ".join(sorted(keymap.BINDING_IDS))
            self._notices.append(f"keymap: unknown binding id(s) {', '.join(unknown)} ignored (known: {ids})")

    def _open_real_session(self) -> None:
        finished = None
        if self._look_for_resumable:
            from gate_tui.session.catalog import find_resumable

            self._resumable = find_resumable(self.gate_config, self.config_path)
            if self._resumable is None:
                finished = self._newest_finished()
        if self._resumable is not None:
            from gate_tui.tui.screens.resume import ResumeScreen

            self.push_screen(ResumeScreen(self._resumable), callback=self._resume_or_fresh)
        else:
            self._open_session()
            if finished is not None:
                from gate_tui.tui.session_words import finished_note

                self.notify(visible(finished_note(finished)), title="New session", markup=False, timeout=8)

    def _newest_finished(self) -> SessionInfo | None:
        """The newest session of this config when it finished at PASS (so none was offered)."""
        from gate_tui.session.catalog import list_sessions
        from gate_tui.tui.session_words import newest_finished

        if self.config_path is None:
            return None
        return newest_finished(list_sessions(None, self.config_path, self.gate_config))

    def _resume_or_fresh(self, resume: bool | None) -> None:
        info = self._resumable
        if resume and info is not None:
            self._open_session(directory=info.directory)
        else:
            self._open_session(fresh=True)

    def _open_session(self, *, directory: Path | None = None, fresh: bool = False) -> None:
        """Open the real session (journal, state file, lock) and show it."""
        assert self._open_args is not None
        state_file, new = self._open_args
        from gate_tui.session.opening import open_session

        session = open_session(
            self.gate_config, self.config_path, state_file=state_file, new=new or fresh, resume=not fresh, directory=directory
        )
        self.session.close()
        self.attach(session)
