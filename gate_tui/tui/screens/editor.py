"""The gate editor's screen: its keys, actions, commands and panes, on top of ``parse()``.

The one rule: the screen never computes a decision. Every user edit becomes a patch that
goes through ``parse(patch, config, previous_state=current, actor="user")``; every reply
goes through ``parse(text, config, previous_state=current, actor="assistant")``. Only an
``ok`` result becomes the session's state; a failed one changes nothing and shows its
errors. The rules themselves live in the Textual-free :mod:`gate_tui.tui.controller`.

The screen owns ``BINDINGS`` (the key table of :mod:`gate_tui.tui.keymap`), the actions
they run and the palette's ``COMMANDS``, as Textual's guide has screens do; the app
(:mod:`gate_tui.tui.app`) only starts the editor. Widgets keep their own behaviour and
post messages (the gate form its edits, the workspace its pages, the reply pane its
preview's timing). Helpers the screen holds do one job each: ``live``
(:mod:`gate_tui.tui.live_edit`), ``replies`` (:mod:`gate_tui.tui.reply_commands`),
``navigation`` (:mod:`gate_tui.tui.navigation`), ``asking`` (F6, :mod:`gate_tui.tui.ask_actions`), ``timeline``
(:mod:`gate_tui.tui.timeline_commands`) and ``files`` (:mod:`gate_tui.tui.gate_files`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, ClassVar

from textual import events
from textual.app import ComposeResult
from textual.command import Provider
from textual.containers import Vertical
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Footer

from gate_tui.decision import decision_parts
from gate_tui.session.provenance import ProvenanceTracker
from gate_tui.tui import keymap
from gate_tui.tui.ask_actions import AskActions
from gate_tui.tui.controller import EditController, PendingEdit
from gate_tui.tui.form import FieldRef, gate_value, state_to_form
from gate_tui.tui.gate_files import GateFiles
from gate_tui.tui.live_edit import LiveEdit
from gate_tui.tui.navigation import Navigation
from gate_tui.tui.render import overrule_line
from gate_tui.tui.reply_commands import ReplyCommands
from gate_tui.tui.text import visible
from gate_tui.tui.timeline_commands import TimelineCommands
from gate_tui.tui.widgets.decision_panel import DecisionPanel
from gate_tui.tui.widgets.gate_editor import GateEditor, SummaryEditor
from gate_tui.tui.widgets.gate_form import GateForm
from gate_tui.tui.widgets.gate_list import GateList
from gate_tui.tui.widgets.notice_bar import NoticeBar, session_title
from gate_tui.tui.widgets.page_bar import PageBar
from gate_tui.tui.widgets.title_bar import TitleBar
from gate_tui.tui.widgets.workspace import Workspace
from gate_tui.views import NO_VALUE

if TYPE_CHECKING:
    from textual.widgets import DataTable

    from gate_tui.models import GateConfig, ParseResult
    from gate_tui.session.live import Session
    from gate_tui.tui.widgets.history_pane import HistoryPane
    from gate_tui.tui.widgets.reply_pane import ReplyPane
    from gate_tui.views import ConfigView, DecisionView, ValueView

FULL_FOOTER_WIDTH = 76
"""Columns the footer needs for every shown key and the palette's; below, ``-cramped``."""


def gate_commands() -> type[Provider]:
    """The command palette's provider, imported when the palette first opens."""
    from gate_tui.tui.commands import GateCommands

    return GateCommands


class GateScreen(AskActions, Screen[None]):
    """The gate editor. ``session`` is None until the app's boot attaches one."""

    AUTO_FOCUS = "#gate-list"
    BINDINGS = keymap.bindings()
    COMMANDS: ClassVar[set[Callable[[], type[Provider]]]] = {gate_commands}  # type: ignore[assignment]
    EDIT_COMMIT_DELAY: ClassVar[float] = 0.5

    def __init__(self, config: ConfigView, key_hints: keymap.KeyHints, notices: list[str], start: Callable[[], None]) -> None:
        super().__init__(id="_default")
        self._start = start  # the app's start-up, run once the widgets are mounted
        self.config = config
        self.key_hints = key_hints
        self.session: Session = None  # type: ignore[assignment]  # set by attach
        self.controller: EditController = None  # type: ignore[assignment]  # made by attach
        self.files = GateFiles(self)
        self.live = LiveEdit(self)
        self.replies = ReplyCommands(self)
        self.navigation = Navigation(self)
        self.timeline = TimelineCommands(self)
        self._provenance = ProvenanceTracker()  # who said each answer, from the journal
        self._notices = notices  # the app's own (an unknown keymap id): shown in the warning bar
        self._shown_before = False

    # ----------------------------------------------------------------- layout

    def compose(self) -> ComposeResult:
        yield TitleBar(icon="◆", id="title-bar")
        yield NoticeBar(id="notices")
        yield DecisionPanel(self.config, id="decision")
        yield PageBar(id="pages")
        with Workspace(id="workspace"):
            # "-focused" marks the pane holding the focus; the gate list has it first (AUTO_FOCUS).
            with Vertical(id="gates-pane", classes="pane -focused") as gates:
                gates.border_title = f"Gates ({len(self.config.gate_order)}) · * required · ✓ done · ▶ next"
                with GateForm(id="gates-body"):
                    yield GateList(self.config, {}, decision_parts(self.config, {}).next_gate, id="gate-list")
                    with Vertical(id="editor-column"):
                        yield GateEditor(self.config, id="gate-editor")
                        yield SummaryEditor(id="summary-editor")
            # The reply and history panes are mounted right after the first frame
            # (see mount_panes): the decision and the gates show up at once.
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self._start()

    def on_resize(self, event: events.Resize) -> None:
        # The footer drops the palette key first when narrow (styles.tcss, "-cramped").
        self.set_class(event.size.width < FULL_FOOTER_WIDTH, "-cramped")

    def _on_screen_resume(self, event: events.ScreenResume) -> None:
        """Skip the first restyle: each widget was styled as it mounted, right before (about
        a fifth of the time to the first frame). Later resumes (a modal closed) restyle."""
        # Runs before Screen._on_screen_resume (Textual calls each class's handler, subclass first).
        if not self._shown_before:
            self._shown_before = True
            event.refresh_styles = False

    async def mount_panes(self) -> None:
        """Mount the panes that are not needed for the first frame."""
        from gate_tui.tui.widgets.history_pane import HistoryPane
        from gate_tui.tui.widgets.reply_pane import ReplyPane

        workspace = self.query_one(Workspace)
        if not workspace.is_attached or self.app._exit_renderables or self.app._closing or self.query("#reply-pane"):
            return  # the app is already on its way out, or they are there
        await workspace.mount(
            ReplyPane(self.replies.preview, id="reply-pane", classes="pane -inactive"),
            HistoryPane(id="history-pane", classes="pane -inactive"),
        )

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
    def workspace(self) -> Workspace:
        return self.query_one(Workspace)

    @property
    def reply_pane(self) -> ReplyPane:
        return self.query_one("#reply-pane")  # type: ignore[return-value]

    @property
    def history_pane(self) -> HistoryPane:
        return self.query_one("#history-pane")  # type: ignore[return-value]

    def reply(self) -> ReplyPane | None:
        """The reply pane, or None before it is mounted and ready (by id: its module loads
        after the first frame)."""
        return self.workspace.ready_pane("#reply-pane")  # type: ignore[return-value]

    def history(self) -> HistoryPane | None:
        """The history pane, or None before it is mounted and ready (its Ready message
        then shows the timeline: edits made meanwhile are not lost)."""
        return self.workspace.ready_pane("#history-pane")  # type: ignore[return-value]

    # ---------------------------------------------------------------- session

    def attach(self, session: Session, gate_config: GateConfig) -> None:
        """Show ``session``: its state in the form, its decision, its history and notices."""
        self.session = session
        self.files.mark_kept()
        if self.controller is None:
            self.controller = EditController(gate_config, session)
        else:
            self.controller.attach(session)
        history = self.history()
        if history is not None:
            history.table.clear()
        self.app.sub_title = session_title(self.app.config_path, session)  # type: ignore[attr-defined]
        self.query_one(NoticeBar).show(session, self._notices)
        self.call_after_refresh(self.decision_panel.keep_clear)  # the bar above it may have come or gone
        start = session.decision.next_gate or self.config.gate_order[0]
        self.gate_list.select_key(start)
        self.gate_editor.load(start, gate_value(session.state, start))
        self.after_transition(reload_form=True)

    # ---------------------------------------------------------------- display

    def show_view(self, gates: Mapping[str, ValueView], decision: DecisionView, extra: list[Content]) -> None:
        """Decision panel, gate list marks and the editor's title line for one state's gates."""
        self.decision_panel.show(decision, extra)
        said = self._provenance.update(self.session.records) if self.session is not None else {}
        self.gate_list.show(gates, decision.next_gate, {key: s.kind for key, s in said.items()})
        key = self.gate_editor.key
        if key is not None:
            told = said[key].describe(said[key].at[11:16] or said[key].at) if key in said else None
            self.gate_editor.show_marks(gates.get(key) or NO_VALUE, key == decision.next_gate, told)

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
        history = self.history()
        if history is not None:
            history.show(self.session.timeline)
        reply = self.reply()
        if reply is not None:
            reply.refresh_preview()
        self.refresh_bindings()
        self.toast_new_notices()

    def toast_new_notices(self) -> None:
        """Notices the session added since we last looked (e.g. a failed write) as toasts."""
        fresh = self.session.take_notices()
        for notice in fresh:
            self.notify(visible(notice), title="Session", severity="warning", markup=False, timeout=10)
        if fresh:
            self.app.sub_title = session_title(self.app.config_path, self.session)  # type: ignore[attr-defined]
            self.query_one(NoticeBar).show(self.session, self._notices)
            self.call_after_refresh(self.decision_panel.keep_clear)

    def on_history_pane_ready(self, event: HistoryPane.Ready) -> None:
        if event.pane.is_attached and self.session is not None:
            event.pane.show(self.session.timeline)

    # ------------------------------------------------------------- user edits

    def on_gate_form_edited(self, event: GateForm.Edited) -> None:
        """A field of the form changed (typed, pasted or picked): a live user edit."""
        if self.session is None:
            return
        self.edit(event.field, event.value)
        if event.commit:
            self.commit_pending()

    def on_gate_form_done(self, _event: GateForm.Done) -> None:
        """Enter in a field, or the focus left it: record the pending edit now."""
        self.commit_pending()

    def on_gate_form_gate_highlighted(self, _event: GateForm.GateHighlighted) -> None:
        # The list's cursor now (not the event's): several moves may have queued up.
        if self.session is not None and self.query(GateEditor):
            self.select_gate(self.gate_list.selected_key)

    def on_gate_form_gate_chosen(self, _event: GateForm.GateChosen) -> None:
        self.focus_gate_field()

    def edit(self, field: FieldRef, value: str | None) -> None:
        """Parse one field's new value as a user patch and show the result live."""
        self.live.edit(field, value)

    @property
    def pending(self) -> PendingEdit | None:
        """The edit shown live but not recorded yet (see :class:`EditController`)."""
        return None if self.session is None else self.controller.pending

    def commit_pending(self) -> None:
        """Record the pending edit now (before any other command acts)."""
        self.live.commit()

    # ----------------------------------------------------------------- replies

    @property
    def preview_result(self) -> ParseResult | None:
        """The reply pane's last parse (what the preview shows)."""
        return self.replies.preview_result

    def action_apply_reply(self) -> None:
        self.replies.apply()

    def action_next_candidate(self) -> None:
        self.replies.next_candidate()

    def action_clear_reply(self) -> None:
        pane = self.reply()
        if pane is not None:
            pane.clear_text(self.key_hints["undo"])

    # ---------------------------------------------------------- pages, gates

    def action_focus_reply(self) -> None:
        self.navigation.focus_reply()

    def action_focus_gates(self) -> None:
        self.navigation.focus_gates()

    def action_show_history(self) -> None:
        self.navigation.show_history()

    def action_next_gate(self) -> None:
        self.navigation.next_gate()

    def action_go_to_gate(self, key: str) -> None:
        self.navigation.go_to_gate(key)

    def select_gate(self, key: str | None) -> None:
        self.navigation.select_gate(key)

    def focus_gate_field(self) -> None:
        self.navigation.focus_gate_field()

    def on_page_bar_chosen(self, event: PageBar.Chosen) -> None:
        {"gates": self.action_focus_gates, "reply": self.action_focus_reply, "history": self.action_show_history}[event.page]()

    def on_workspace_page_shown(self, event: Workspace.PageShown) -> None:
        self.query_one(PageBar).show(event.page)

    # ------------------------------------------------ decision and timeline

    def action_override(self, choice: str) -> None:
        self.timeline.override(choice)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        if event.data_table.id == "timeline" and event.row_key.value is not None:
            self.timeline.jump_to(int(event.row_key.value))

    def action_undo_transition(self) -> None:
        self.timeline.undo()

    def action_redo_transition(self) -> None:
        self.timeline.redo()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Grey out undo/redo when there is nothing to move to."""
        if self.session is None and action in ("undo_transition", "redo_transition"):
            return None  # not booted yet
        if action == "undo_transition":
            return True if self.controller.can_undo else None
        if action == "redo_transition":
            return True if self.controller.can_redo else None
        if action == "next_candidate":  # in the footer only while a reply holds a choice
            result = self.replies.preview_result
            return result is not None and len(result.candidates) > 1
        return True

    # ------------------------------------------------------ help, files, quit

    def action_help(self) -> None:
        from gate_tui.tui.screens.help import HelpScreen

        self.app.push_screen(HelpScreen(self.config.keymap))

    def action_quit(self) -> None:
        self.commit_pending()
        self.files.quit_or_ask()

    def action_save_state(self) -> None:
        self.files.save()

    def action_save_state_as(self) -> None:
        self.files.save_as()

    def action_export_state(self) -> None:
        self.files.export_state()

    def action_export_report(self) -> None:
        self.files.export_report()

    def action_open_state(self) -> None:
        self.files.open_state()

    def action_copy_state(self) -> None:
        self.files.copy_state()
