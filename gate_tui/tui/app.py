"""The gate editor: a Textual app on top of ``parse()`` and the :class:`Session` API.

The one rule: the app never computes a decision. Every user edit becomes a patch that
goes through ``parse(patch, config, previous_state=current, actor="user")``; every
reply goes through ``parse(text, config, previous_state=current, actor="assistant")``.
Only an ``ok`` result becomes the session's state (``session.accept``); a failed one
changes nothing and shows its errors (``session.reject``).

Typing is live but not noisy: each keystroke is parsed at once and the decision panel
shows that result marked "editing"; the edit is recorded as *one* transition when the
user pauses (:attr:`GateApp.EDIT_COMMIT_DELAY`), presses Enter, leaves the field or
runs any other command (save, undo, apply, quit, another gate). Loading a state into
the form (after a reply, undo, redo) happens with the widgets' ``Changed`` messages
prevented, so it never re-enters the user-edit path.

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

``GATE_TUI_NO_BLINK=1`` (or ``GateApp(blink=False)``) turns cursor blinking off, for
tests, screenshots and recordings.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.command import Provider
from textual.containers import Container, Vertical
from textual.content import Content
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Footer, Input, Static

from gate_tui.config.cache import cache_dir as config_cache_dir
from gate_tui.config.loading import config_title
from gate_tui.config.spec import ConfigSpec
from gate_tui.decision import decision_parts
from gate_tui.exit_codes import EXIT_EDITOR_FAILED
from gate_tui.tui import keymap
from gate_tui.tui.controller import Commit, EditController, PendingEdit
from gate_tui.tui.file_actions import FileActions
from gate_tui.tui.form import SUMMARY, FieldRef, gate_value, state_to_form
from gate_tui.tui.render import DIM, WARN_STYLE, field_messages, overrule_line, preview, verdict
from gate_tui.tui.screens.editor import EditorScreen
from gate_tui.tui.startup import display_path
from gate_tui.tui.text import line, lines, visible
from gate_tui.tui.widgets.choice_field import ChoiceField
from gate_tui.tui.widgets.decision_panel import DecisionPanel
from gate_tui.tui.widgets.gate_editor import NONE_CHOICE, GateEditor, SummaryEditor
from gate_tui.tui.widgets.gate_list import GateList
from gate_tui.tui.widgets.page_bar import PageBar
from gate_tui.tui.widgets.raw_area import RawArea
from gate_tui.tui.widgets.title_bar import TitleBar
from gate_tui.views import NO_VALUE

if TYPE_CHECKING:
    # Imported where they are first needed, after the first frame (see the module
    # docstring): the parser, the models and the session layer (pydantic), the reply
    # and history panes (DataTable alone takes ~4 ms to import), the modal screens and
    # the command palette's provider.
    from textual.widgets import DataTable, TextArea

    from gate_tui.models import GateConfig, ParseResult
    from gate_tui.session import Session, SessionInfo
    from gate_tui.session.history import Transition
    from gate_tui.tui.widgets.history_pane import HistoryPane
    from gate_tui.tui.widgets.reply_pane import ReplyPane
    from gate_tui.views import ConfigView, DecisionView, ValueView

PAGES = ("gates", "reply", "history")
PaneT = TypeVar("PaneT", bound=Widget)
EDITOR_INPUTS = {"raw", "classified-input", "summary"}


def gate_commands() -> type[Provider]:
    """The command palette's provider, imported when the palette first opens."""
    from gate_tui.tui.commands import GateCommands

    return GateCommands


class GateApp(FileActions):
    """The gate editor. Pass ``session`` to use one (tests); otherwise one is opened by
    :meth:`_boot`, right after the first frame.

    ``config`` is what the widgets draw from: a validated :class:`GateConfig`, or the
    :class:`~gate_tui.config.spec.ConfigSpec` of one (the CLI's fast start), which the
    boot turns into the model that :attr:`gate_config` returns for ``parse``.
    """

    CSS_PATH = Path(__file__).with_name("styles.tcss")  # absolute: subclasses live elsewhere
    AUTO_FOCUS = "#gate-list"
    BINDINGS = keymap.bindings()
    COMMANDS = App.COMMANDS | {gate_commands}
    HORIZONTAL_BREAKPOINTS: ClassVar[list[tuple[int, str]]] = [(0, "-narrow"), (100, "-wide")]
    EDIT_COMMIT_DELAY: ClassVar[float] = 0.5
    PREVIEW_DELAY: ClassVar[float] = 0.15

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
    ) -> None:
        super().__init__()
        self.config = config
        self.config_path = config_path
        self._gate_config: GateConfig | None = None if isinstance(config, ConfigSpec) else config  # type: ignore[assignment]
        # None until the boot (unless given): nothing that needs it runs before (see on_event).
        self.session: Session = session  # type: ignore[assignment]
        self._held: list[events.Event] | None = None
        self._open_args: tuple[Path | None, bool] | None = None if session else (state_file, new)
        self._resumable = resumable
        self._look_for_resumable = look_for_resumable and resumable is None and state_file is None and not new
        self.blink = os.environ.get("GATE_TUI_NO_BLINK") != "1" if blink is None else blink
        self.controller: EditController = None  # type: ignore[assignment]  # made by attach
        self.preview_result: ParseResult | None = None
        self._commit_timer: Timer | None = None
        self._preview_timer: Timer | None = None
        self._notices: list[str] = []
        self._collect_after_first_frame = False  # see run_app
        self.title = visible(config_title(config, config_path), one_line=True)

    # ----------------------------------------------------------------- layout

    def compose(self) -> ComposeResult:
        self._preset_breakpoint()
        yield TitleBar(icon="◆", id="title-bar")
        yield Static(id="notices")
        yield DecisionPanel(self.config, id="decision")
        yield PageBar(id="pages")
        with Container(id="workspace"):
            # "-focused" marks the pane holding the focus (see on_descendant_focus);
            # the gate list has it first (AUTO_FOCUS).
            with Vertical(id="gates-pane", classes="pane -focused") as gates:
                gates.border_title = f"Gates ({len(self.config.gate_order)}) · * required · ✓ done · ▶ next"
                with Container(id="gates-body"):
                    yield GateList(self.config, *self._first_rows(), id="gate-list")
                    with Vertical(id="editor-column"):
                        yield GateEditor(self.config, id="gate-editor")
                        yield SummaryEditor(id="summary-editor")
            # The reply and history panes are mounted right after the first frame
            # (see _mount_panes): the decision and the gates show up at once.
        yield Footer(compact=True)

    def get_default_screen(self) -> EditorScreen:
        return EditorScreen()

    def _preset_breakpoint(self) -> None:
        """Give the screen its breakpoint class now, so the first resize restyles nothing."""
        width = self.size.width
        active = max((bp for bp in self.HORIZONTAL_BREAKPOINTS if width >= bp[0]), default=None)
        for _minimum, name in self.HORIZONTAL_BREAKPOINTS:
            self.screen.set_class(active is not None and name == active[1], name)

    def _first_rows(self) -> tuple[Mapping[str, ValueView], str | None]:
        """The gate values and next gate the gate list starts with."""
        if self.session is not None:
            return self.session.state.gates, self.session.decision.next_gate
        return {}, decision_parts(self.config, {}).next_gate

    def on_mount(self) -> None:
        self._apply_keymap()
        if not self.blink:
            self.stop_blinking(self)
        if self.session is not None:
            self.attach(self.session)
            self.call_after_refresh(self._collect_garbage)
        else:
            self._show_start()
            self._held = []
            self.call_after_refresh(self._boot)
        self.call_after_refresh(self._mount_panes)

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
            from gate_tui.session import Session

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

    # ---------------------------------------------------------------- session

    def _open_real_session(self) -> None:
        if self._look_for_resumable:
            from gate_tui.session import find_resumable

            self._resumable = find_resumable(self.gate_config, self.config_path)
        if self._resumable is not None:
            from gate_tui.tui.screens.resume import ResumeScreen

            self.push_screen(ResumeScreen(self._resumable), callback=self._resume_or_fresh)
        else:
            self._open_session()

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
        from gate_tui.session import open_session

        session = open_session(
            self.gate_config, self.config_path, state_file=state_file, new=new or fresh, resume=not fresh, directory=directory
        )
        self.session.close()
        self.attach(session)

    def attach(self, session: Session) -> None:
        """Show ``session``: its state in the form, its decision, its history and notices."""
        self.session = session
        if self.controller is None:
            self.controller = EditController(self.gate_config, session)
        else:
            self.controller.attach(session)
        history = self._history()
        if history is not None:
            history.table.clear()
        self.sub_title = self._sub_title()
        self._show_notices()
        state = session.state
        start = session.decision.next_gate or self.config.gate_order[0]
        self.gate_list.select_key(start)
        self.gate_editor.load(start, gate_value(state, start))
        self.after_transition(reload_form=True)

    def _sub_title(self) -> str:
        parts = [display_path(self.config_path)]
        if self.session.directory is not None:
            parts.append(f"session {self.session.name}")
        if self.session.read_only:
            parts.append("READ-ONLY")
        elif self.session.directory is not None and not self.session.persistent:
            parts.append("NOT SAVING")
        return visible(" · ".join(parts), one_line=True)

    def _show_notices(self) -> None:
        """The warning bar: the persistence warning first, then the session's notices."""
        warning = self.session.persistence_warning
        notices = ([warning] if warning else []) + [n for n in self.session.notices if n != warning] + self._notices
        rows = [line(("⚠ ", WARN_STYLE), text) for text in notices[:3]]
        if len(notices) > 3:
            rows[-1] = line(("⚠ ", WARN_STYLE), f"… and {len(notices) - 2} more notices (they are in the review report)")
        bar = self.query_one("#notices", Static)
        bar.update(lines(rows))
        bar.display = bool(rows)
        self.session.take_notices()

    def _toast_new_notices(self) -> None:
        """Notices the session added since we last looked (e.g. a failed write) as toasts."""
        fresh = self.session.take_notices()
        for notice in fresh:
            self.notify(visible(notice), title="Session", severity="warning", markup=False, timeout=10)
        if fresh:
            self.sub_title = self._sub_title()
            self._show_notices()

    # ---------------------------------------------------------- widget access

    @property
    def gate_list(self) -> GateList:
        return self.query_one(GateList)

    @property
    def gate_editor(self) -> GateEditor:
        return self.query_one(GateEditor)

    @property
    def summary_editor(self) -> SummaryEditor:
        return self.query_one(SummaryEditor)

    @property
    def decision_panel(self) -> DecisionPanel:
        return self.query_one(DecisionPanel)

    @property
    def reply_pane(self) -> ReplyPane:
        return self.query_one("#reply-pane")  # type: ignore[return-value]

    @property
    def history_pane(self) -> HistoryPane:
        return self.query_one("#history-pane")  # type: ignore[return-value]

    def mounted(self, kind: type[PaneT]) -> PaneT | None:
        """A lazily mounted pane, or None while it is not mounted yet."""
        found = self.query(kind)
        return found.first() if found else None

    def _reply(self) -> ReplyPane | None:
        """The reply pane, or None before it is mounted (by id: its module loads after the first frame)."""
        found = self.query("#reply-pane")
        return found.first() if found else None  # type: ignore[return-value]

    def _history(self) -> HistoryPane | None:
        """The history pane, or None before it is mounted."""
        found = self.query("#history-pane")
        return found.first() if found else None  # type: ignore[return-value]

    def on_reply_pane_ready(self, event: ReplyPane.Ready) -> None:
        if event.pane.is_attached:
            if not self.blink:
                self.stop_blinking(event.pane)
            self.schedule_preview(now=True)

    def on_history_pane_ready(self, event: HistoryPane.Ready) -> None:
        if event.pane.is_attached:
            event.pane.show(self.session.timeline)

    # ---------------------------------------------------------------- display

    def show_view(self, gates: Mapping[str, ValueView], decision: DecisionView, extra: list[Content]) -> None:
        """Decision panel, gate list marks and the editor's title line for one state's gates."""
        self.decision_panel.show(decision, extra)
        self.gate_list.show(gates, decision.next_gate)
        key = self.gate_editor.key
        if key is not None:
            self.gate_editor.show_marks(gates.get(key) or NO_VALUE, key == decision.next_gate)

    def show_current(self) -> None:
        """Show the session's state and decision (plus the overrule notice of a last reply)."""
        extra: list[Content] = []
        last = self.session.timeline[-1] if self.session.timeline else None
        if last is not None and last.kind == "reply":
            overruled = overrule_line(last.claimed_status, last.decision)
            extra = [overruled] if overruled is not None else []
        self.show_view(self.session.state.gates, self.session.decision, extra)

    def after_transition(self, *, reload_form: bool) -> None:
        """Refresh everything that depends on the session's current state."""
        if reload_form:
            state_to_form(self.session.state, self.gate_editor.key, self.gate_editor, self.summary_editor)
        self.show_current()
        history = self._history()
        if history is not None:
            history.show(self.session.timeline)
        self.schedule_preview(now=True)
        self.refresh_bindings()
        self._toast_new_notices()

    # ------------------------------------------------------------- user edits

    def field_for(self, widget: Widget) -> FieldRef | None:
        """The form field an editor widget stands for (None for any other widget)."""
        if widget.id == "summary":
            return SUMMARY
        return self.gate_editor.field_for(widget.id)

    def on_input_changed(self, event: Input.Changed) -> None:
        field = self.field_for(event.input)
        if field is None:
            return
        event.stop()
        if field == SUMMARY:
            self.summary_editor.show_count(event.value)
        self.edit(field, event.value)

    def on_choice_field_changed(self, event: ChoiceField.Changed) -> None:
        field = self.field_for(event.field)
        if field is None:
            return
        event.stop()
        self.edit(field, None if event.value == NONE_CHOICE else event.value)
        self.commit_pending()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if self.field_for(event.input) is not None:
            event.stop()
            self.commit_pending()

    def on_raw_area_submitted(self, event: RawArea.Submitted) -> None:
        event.stop()
        self.commit_pending()

    def on_descendant_blur(self, event: events.DescendantBlur) -> None:
        if event.widget.id in EDITOR_INPUTS:
            self.commit_pending()

    def edit(self, field: FieldRef, value: str | None) -> None:
        """Parse one field's new value as a user patch and show the result live."""
        committed, pending = self.controller.edit(field, value)
        self.show_commit(committed)
        result = pending.result
        self.show_field_messages(field, result)
        self._restart_commit_timer()
        if result.ok and result.canonical_state is not None and result.decision is not None:
            marker = line(("✎ editing ", DIM), (field.path, "bold"), (" — recorded when you pause or press Enter", DIM))
            self.show_view(result.canonical_state.gates, result.decision, [marker])
        else:
            self.show_current()

    @property
    def pending(self) -> PendingEdit | None:
        """The edit shown live but not recorded yet (see :class:`EditController`)."""
        return None if self.session is None else self.controller.pending

    def show_field_messages(self, field: FieldRef, result: ParseResult) -> None:
        content = field_messages(result.errors, result.warnings, field.path)
        if field == SUMMARY:
            self.summary_editor.show_messages(content)
        else:
            self.gate_editor.show_messages(field, content)

    def _restart_commit_timer(self) -> None:
        if self._commit_timer is not None:
            self._commit_timer.stop()
        self._commit_timer = self.set_timer(self.EDIT_COMMIT_DELAY, self.commit_pending)

    def commit_pending(self) -> None:
        """Record the pending edit (the controller decides how) and show what happened."""
        if self._commit_timer is not None:
            self._commit_timer.stop()
            self._commit_timer = None
        if self.session is not None:
            self.show_commit(self.controller.commit())

    def show_commit(self, commit: Commit) -> None:
        """Render a commit's outcome: a new transition, an unchanged state or a session error."""
        if commit.kind == "accepted":
            self.after_transition(reload_form=False)
        elif commit.kind == "unchanged":
            self.show_current()
        elif commit.kind == "error":
            self.notify(visible(commit.error or ""), title="Session error", severity="error", markup=False)
            self.show_current()

    # ------------------------------------------------------------ gate choice

    def on_option_list_option_highlighted(self, event: GateList.OptionHighlighted) -> None:
        if event.option_list is self.gate_list:
            self.select_gate(self.gate_list.selected_key)

    def select_gate(self, key: str | None) -> None:
        """Show gate ``key`` in the editor (the list's cursor is the source of truth)."""
        if key is None or key == self.gate_editor.key:
            return
        self.commit_pending()
        if self.gate_list.selected_key != key:
            self.gate_list.select_key(key)
        self.gate_editor.load(key, gate_value(self.session.state, key))
        self.show_current()

    def on_option_list_option_selected(self, event: GateList.OptionSelected) -> None:
        if event.option_list.id == "gate-list":
            self.focus_gate_field()

    def focus_gate_field(self) -> None:
        """Focus the field that would complete the selected gate."""
        key = self.gate_editor.key
        if key is None:
            return
        categorical = self.config.gates[key].categorical
        self.query_one("#classified-select" if categorical else "#raw").focus()

    # ----------------------------------------------------------------- replies

    def on_text_area_changed(self, event: TextArea.Changed) -> None:
        if event.text_area.id == "reply":
            self.schedule_preview()
            return
        field = self.field_for(event.text_area)
        if field is not None:
            event.stop()
            self.edit(field, event.text_area.text)

    def schedule_preview(self, now: bool = False) -> None:
        """Re-run the reply preview after a short pause in typing (or at once)."""
        if self._preview_timer is not None:
            self._preview_timer.stop()
        if now:
            self.update_preview()
        else:
            self._preview_timer = self.set_timer(self.PREVIEW_DELAY, self.update_preview)

    def update_preview(self) -> None:
        """Parse the reply pane's text against the current state and show what it would do."""
        if self._reply() is None:
            return
        result = self.controller.preview(self.reply_pane.text_area.text)
        self.preview_result = result
        self.reply_pane.show_preview(None if result is None else preview(result), ok=result is not None and result.ok)

    def action_apply_reply(self) -> None:
        """Apply the reply in the reply pane; a failing reply stays in the pane."""
        self.commit_pending()
        if self._reply() is None:
            return
        outcome = self.controller.apply_reply(self.reply_pane.text_area.text)
        if outcome.kind == "empty":
            self.notify("The reply pane is empty: paste a model reply first (F2).", severity="warning", markup=False)
        elif outcome.kind == "rejected":
            assert outcome.result is not None
            self._show_rejected_reply(outcome.result)
        elif outcome.kind == "error":
            self.notify(visible(outcome.error or ""), title="Session error", severity="error", markup=False)
            self.show_current()
        else:
            assert outcome.result is not None
            self.reply_pane.clear()
            self.after_transition(reload_form=True)
            self.gate_editor.clear_messages()
            self._notify_applied(outcome.result)

    def _show_rejected_reply(self, result: ParseResult) -> None:
        self.preview_result = result
        self.reply_pane.show_preview(preview(result), ok=False)
        first = result.errors[0]
        count = len(result.errors)
        where = f"{first.field_path}: " if first.field_path else ""
        message = f"{count} error{'s' * (count != 1)}, state unchanged. {where}{first.message}"
        self.notify(visible(message), title="Reply rejected", severity="error", markup=False)

    def _notify_applied(self, result: ParseResult) -> None:
        assert result.decision is not None
        message = f"Decision: {verdict(result.decision)}"
        overruled = overrule_line(result.claimed_status, result.decision)
        if overruled is not None:
            message += f" ({overruled.plain})"
        self.notify(message, title="Reply applied", markup=False)

    # ---------------------------------------------------------------- override

    def action_override(self, choice: str) -> None:
        """A user override of the decision: a ``status`` patch that the parser judges."""
        self.commit_pending()
        outcome = self.controller.override(choice)
        assert outcome.result is not None
        if outcome.kind == "rejected":
            self.notify(visible(outcome.result.errors[0].message), title="Override refused", severity="error", markup=False)
        else:
            self.show_commit(outcome)
        for warning in outcome.result.warnings:
            self.notify(visible(warning.message), severity="warning", markup=False)

    # ---------------------------------------------------------------- timeline

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """Enter on a timeline row restores the state after it (a new, undoable transition)."""
        if event.data_table.id != "timeline" or event.row_key.value is None:
            return
        self.commit_pending()
        index = int(event.row_key.value)
        if self.controller.jump_to(index) is None:
            return
        self.gate_editor.clear_messages()
        self.after_transition(reload_form=True)
        self.notify(f"Restored the state after #{index} (Ctrl+Z undoes this).", markup=False)

    # ----------------------------------------------------------------- actions

    def action_help(self) -> None:
        from gate_tui.tui.screens.help import HelpScreen

        self.push_screen(HelpScreen(self.config.keymap))

    def action_focus_reply(self) -> None:
        if self._reply() is None:
            self.call_after_refresh(self.action_focus_reply)
            return
        self.show_page("reply")
        self.reply_pane.text_area.focus()

    def action_focus_gates(self) -> None:
        self.show_page("gates")
        self.gate_list.focus()

    def action_show_history(self) -> None:
        if self._history() is None:
            self.call_after_refresh(self.action_show_history)
            return
        self.show_page("history")
        self.history_pane.table.focus()

    def action_next_gate(self) -> None:
        """Select the gate the system asks for next and focus the field that completes it."""
        key = self.session.decision.next_gate
        if key is None:
            self.commit_pending()
            self.notify("Nothing to jump to: the decision is PASS.", markup=False)
            return
        self.go_to_gate(key)

    def go_to_gate(self, key: str) -> None:
        """Select gate ``key`` (from F3 or the palette's "Go to gate") and focus its field."""
        if key not in self.config.gates:
            return
        self.commit_pending()
        self.show_page("gates")
        self.select_gate(key)
        self.focus_gate_field()

    def action_undo_transition(self) -> None:
        self._step(self.controller.undo, "Nothing to undo.")

    def action_redo_transition(self) -> None:
        self._step(self.controller.redo, "Nothing to redo.")

    def _step(self, move: Callable[[], Transition | None], nothing: str) -> None:
        self.commit_pending()
        if move() is None:
            self.notify(nothing, markup=False)
            return
        self.gate_editor.clear_messages()
        self.after_transition(reload_form=True)

    async def action_quit(self) -> None:
        self.commit_pending()
        self.exit(0)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Grey out undo/redo when there is nothing to move to."""
        if self.session is None and action in ("undo_transition", "redo_transition"):
            return None  # not booted yet
        if action == "undo_transition":
            return True if self.controller.can_undo else None
        if action == "redo_transition":
            return True if self.controller.can_redo else None
        return True

    def on_unmount(self) -> None:
        if self.session is not None:
            self.session.close()

    # ------------------------------------------------------------------ pages

    def show_page(self, page: str) -> None:
        """Make ``page`` the active pane (only visible alone on narrow screens)."""
        bar = self.query_one(PageBar)
        if bar.active == page:
            return
        bar.show(page)
        for name in PAGES:
            self.query(f"#{name}-pane").set_class(name != page, "-inactive")

    def on_page_bar_chosen(self, event: PageBar.Chosen) -> None:
        {"gates": self.action_focus_gates, "reply": self.action_focus_reply, "history": self.action_show_history}[event.page]()

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """Show the focused widget's page, and mark its pane (a class, not ``:focus-within``:
        that pseudo-class restyles a pane's whole subtree on every focus move inside it)."""
        if not event.widget.is_attached:
            return  # focus went to a widget that is gone by now (a modal closed at once)
        ancestors = event.widget.ancestors_with_self
        for name in PAGES:
            for pane in self.query(f"#{name}-pane"):
                if pane in ancestors and pane.has_class("-inactive"):
                    self.show_page(name)
        if event.widget.screen is self.screen:
            for pane in self.screen.query(".pane"):
                pane.set_class(pane in ancestors, "-focused")
