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

Start-up (the first frame before pydantic, then the boot) lives in :mod:`gate_tui.tui.boot`;
the panes and focus in :mod:`gate_tui.tui.panes`; replies in :mod:`gate_tui.tui.reply_actions`;
file commands in :mod:`gate_tui.tui.file_actions`; typed keys kept in order across a focus move in
:mod:`gate_tui.tui.key_order`; the edit rules in :mod:`gate_tui.tui.controller`.

``GATE_TUI_NO_BLINK=1`` (or ``GateApp(blink=False)``) turns cursor blinking off, for
tests, screenshots and recordings.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from textual import events
from textual.app import App, ComposeResult
from textual.command import Provider
from textual.containers import Container, Vertical
from textual.content import Content
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Footer, Input, Static

from gate_tui.config.loading import config_title
from gate_tui.config.spec import ConfigSpec
from gate_tui.decision import decision_parts
from gate_tui.tui import keymap
from gate_tui.tui.ask_actions import AskActions
from gate_tui.tui.controller import Commit, EditController, PendingEdit
from gate_tui.tui.form import SUMMARY, FieldRef, gate_value, state_to_form
from gate_tui.tui.key_order import InOrderKeys
from gate_tui.tui.render import DIM, field_messages, number, overrule_line
from gate_tui.tui.screens.editor import EditorScreen
from gate_tui.tui.text import line, visible
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
    from gate_tui.session.catalog import SessionInfo
    from gate_tui.session.history import Transition
    from gate_tui.session.live import Session
    from gate_tui.views import ConfigView, DecisionView, ValueView

EDITOR_INPUTS = {"raw", "summary"}


def gate_commands() -> type[Provider]:
    """The command palette's provider, imported when the palette first opens."""
    from gate_tui.tui.commands import GateCommands

    return GateCommands


class GateApp(AskActions, InOrderKeys):
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
        self.key_hints = keymap.KeyHints(config.keymap)  # every key named on screen comes from here
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

    # ---------------------------------------------------------------- session

    def attach(self, session: Session) -> None:
        """Show ``session``: its state in the form, its decision, its history and notices."""
        self.session = session
        self.mark_kept()
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

    # ---------------------------------------------------------------- display

    def show_view(self, gates: Mapping[str, ValueView], decision: DecisionView, extra: list[Content]) -> None:
        """Decision panel, gate list marks and the editor's title line for one state's gates."""
        self.decision_panel.show(decision, extra)
        self.gate_list.show(gates, decision.next_gate)
        key = self.gate_editor.key
        if key is not None:
            self.gate_editor.show_marks(gates.get(key) or NO_VALUE, key == decision.next_gate)

    def show_current(self) -> None:
        """Show the session's state and decision (plus the overrule notice of a reply behind it)."""
        extra: list[Content] = []
        last = self.session.timeline[-1] if self.session.timeline else None
        if last is not None and last.kind != "edit":  # a reply, or a move that restored one
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
        if self.session is not None:
            self.take_unreported_typing()
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

    # ----------------------------------------------------------------- replies

    def on_text_area_changed(self, event: TextArea.Changed) -> None:
        if event.text_area.id == "reply":
            self.schedule_preview()
            return
        field = self.field_for(event.text_area)
        if field is not None:
            event.stop()
            self.edit(field, event.text_area.text)

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
        self.notify(f"Restored the state after {number(index)} ({self.key_hints['undo']} undoes this).", markup=False)

    # ----------------------------------------------------------------- actions

    def action_help(self) -> None:
        from gate_tui.tui.screens.help import HelpScreen

        self.push_screen(HelpScreen(self.config.keymap))

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
        self.quit_or_ask()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Grey out undo/redo when there is nothing to move to; a modal keeps its own keys."""
        if action in ("apply_reply", "ask_model", "ask_again") and self.screen.is_modal:
            return False
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
