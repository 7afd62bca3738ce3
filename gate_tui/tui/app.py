"""The gate editor's app: it starts the editor and nothing more.

Everything the user works with is the editor screen's (:mod:`gate_tui.tui.screens.editor`:
its keys, actions, commands and panes); the rules are the Textual-free controller's
(:mod:`gate_tui.tui.controller`). The app keeps what belongs to the whole program:

* start-up in two steps (the first frame, then the boot that opens the session:
  :mod:`gate_tui.tui.boot`), holding the input that arrives in between and handling it
  afterwards, in order;
* the editor's keys acting in the order they were typed (:mod:`gate_tui.tui.key_order`);
* the config's keymap (Textual's keymap is the app's) and compact toasts (a notice's
  title becomes the start of its one line, and a new toast replaces the one shown, so
  toasts never stack down over the decision panel).

``GATE_TUI_NO_BLINK=1`` (or ``GateApp(blink=False)``) turns cursor blinking off, for
tests, screenshots and recordings.
"""

from __future__ import annotations

import gc
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from textual import events
from textual.binding import BindingType
from textual.notifications import SeverityLevel

from gate_tui.config.loading import config_title
from gate_tui.config.spec import ConfigSpec
from gate_tui.tui import boot, key_order, keymap
from gate_tui.tui.screens.editor import GateScreen
from gate_tui.tui.shell import SHELL_BINDINGS, AppShell
from gate_tui.tui.text import visible

if TYPE_CHECKING:
    from gate_tui.models import GateConfig
    from gate_tui.session.catalog import SessionInfo
    from gate_tui.session.live import Session
    from gate_tui.views import ConfigView


class GateApp(AppShell[int], inherit_bindings=False):
    """The gate editor. Pass ``session`` to use one (tests); otherwise one is opened by
    :meth:`_boot`, right after the first frame.

    ``config`` is what the widgets draw from: a validated :class:`GateConfig`, or the
    :class:`~gate_tui.config.spec.ConfigSpec` of one (the CLI's fast start), which the
    boot turns into the model that :attr:`gate_config` returns for ``parse``.
    """

    CSS_PATH = Path(__file__).with_name("styles.tcss")
    BINDINGS: ClassVar[list[BindingType]] = SHELL_BINDINGS  # the rest are the screen's
    HORIZONTAL_BREAKPOINTS: ClassVar[list[tuple[int, str]]] = [(0, "-narrow"), (100, "-wide")]

    def __init__(
        self,
        config: ConfigView,
        config_path: Path | None = None,
        *,
        session: Session | None = None,
        state_file: Path | None = None,
        new: bool = False,
        resumable: SessionInfo | None = None,
        look_for_resumable: bool = False,
        blink: bool | None = None,
        files: Path | None = None,
    ) -> None:
        super().__init__(blink=blink, files=files)
        self.config = config
        self.config_path = config_path
        gate_config = None if isinstance(config, ConfigSpec) else config
        self._gate_config: GateConfig | None = gate_config  # type: ignore[assignment]
        self._given_session = session
        self._held: list[events.Event] | None = None
        self.open_args: tuple[Path | None, bool] | None = None if session else (state_file, new)
        self.resumable = resumable
        self.look_for_resumable = (
            look_for_resumable and resumable is None and state_file is None and not new
        )
        self.key_hints = keymap.KeyHints(
            config.keymap, web=keymap.served()
        )  # every key named on screen comes from here
        self._notices: list[str] = []
        self._collect_after_first_frame = False  # see run_app
        self._gate_screen: GateScreen | None = None
        self.title = visible(config_title(config, config_path), one_line=True)

    def get_default_screen(self) -> GateScreen:
        self._gate_screen = GateScreen(self.config, self.key_hints, self._notices, self._start)
        return self._gate_screen

    @property
    def gate_screen(self) -> GateScreen:
        """The editor's screen (the bottom of the stack, under any modal)."""
        assert self._gate_screen is not None, "the editor is not running"
        return self._gate_screen

    @property
    def session(self) -> Session:
        """The session the editor shows (None before the boot opened one)."""
        shown = self._gate_screen.session if self._gate_screen is not None else None
        return shown if shown is not None else self._given_session  # type: ignore[return-value]

    @property
    def gate_config(self) -> GateConfig:
        """The validated config ``parse`` needs (set by the boot when started from a spec)."""
        assert self._gate_config is not None, "the editor has not booted yet"
        return self._gate_config

    # ---------------------------------------------------------------- start-up

    def _start(self) -> None:
        """Start-up, once the editor screen has mounted its widgets (before the first frame)."""
        self._apply_keymap()
        screen = self.gate_screen
        boot.preset_breakpoint(self)
        if not self.blink:
            boot.stop_blinking(screen)
        self._held = []  # until the session is open and the panes are there (see _release)
        if self._given_session is not None:
            screen.attach(self._given_session, self.gate_config)
            self.call_after_refresh(self._release)
        else:
            boot.show_start(self)
            self.call_after_refresh(self._boot)

    async def _boot(self) -> None:
        """Load what the first frame did without and open the session, then mount the
        panes and handle held input (:meth:`_release`)."""
        try:
            gate_config = boot.gate_config_of(self)
            if gate_config is not None:
                self._gate_config = gate_config
                boot.open_sessions(self)
        finally:
            await self._release()

    async def _release(self) -> None:
        """Mount the panes the first frame did without, then handle the input held until
        now as if it came now, in order: F2 pressed during start-up focuses the reply
        pane, a paste after it lands there, and Ctrl+J after that applies the paste."""
        try:
            if self._exit_renderables or self._closing or self.session is None:
                return  # on its way out (a damaged cache entry): nothing to show
            screen = self.gate_screen
            await screen.workspace.mount_panes(screen)
        finally:
            held, self._held = self._held or [], None
            self._collect_garbage()
        for event in held:
            await self.on_event(event)

    def _collect_garbage(self) -> None:
        """Turn the collector back on once start-up is over (see :func:`run_app`)."""
        if self._collect_after_first_frame:
            self._collect_after_first_frame = False
            gc.freeze()  # what start-up built lives as long as the editor
            gc.enable()

    def _apply_keymap(self) -> None:
        known, unknown = keymap.split_keymap(self.config.keymap)
        self.set_keymap(known)
        if unknown:
            ids = ", ".join(sorted(keymap.BINDING_IDS))
            self._notices.append(
                f"keymap: unknown binding id(s) {', '.join(unknown)} ignored (known: {ids})"
            )

    # ------------------------------------------------------------------ input

    async def on_event(self, event: events.Event) -> None:
        """Hold input that arrives before the boot has opened the session; the editor's
        own keys act when they arrive, after the focused field has typed the keys before them."""
        if (
            self._held is not None
            and isinstance(event, (events.InputEvent, events.Paste))
            and not event.is_forwarded
        ):
            self._held.append(event)
            return
        if self.session is not None and await key_order.run_in_order(self, event):
            return
        await super().on_event(event)

    # ---------------------------------------------------------------- program

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """A compact toast: the title inline ("Reply applied · NO PASS"), one at a time."""
        if title and not markup:  # markup text is Textual's own: left as it is
            message, title = f"{title} · {message}", ""
        self.clear_notifications()
        for holder in self.screen.query(
            "ToastHolder"
        ):  # Textual leaves each emptied holder in place: the new toast would stack under it
            holder.remove()
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=markup)
        # Placed under the decision's kept lines once laid out: a toast of the first frames
        # ("New session…") comes before the panel's first place is known.
        from gate_tui.tui.widgets.decision_panel import DecisionPanel

        for panel in self.screen.query(DecisionPanel):
            self.call_after_refresh(panel.keep_clear)

    async def action_quit(self) -> None:
        """Textual's own "Quit" command: the editor's quit (it may ask first)."""
        if self._gate_screen is None or self.session is None:
            self.exit(0)
            return
        self.gate_screen.action_quit()

    def on_unmount(self) -> None:
        if self.session is not None:
            self.session.close()
