"""The gate editor's screen: its keys, actions, commands and panes, on top of ``parse()``.

The one rule: the screen never computes a decision. Every user edit (``actor="user"``)
and every reply (``actor="assistant"``) goes through ``parse(…, previous_state=current)``;
only an ``ok`` result becomes the session's state (:mod:`gate_tui.tui.controller`).
The screen owns ``BINDINGS`` (:mod:`gate_tui.tui.keymap`), its actions and ``COMMANDS``.
Widgets own their behaviour and post messages: the gate form its live edits, the
workspace its pages, the reply workbench (:mod:`gate_tui.tui.workbench`) preview,
candidates, apply and the model's ask / stream / retry, knowing this host by a protocol.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, ClassVar

from textual import events, getters, on
from textual.app import ComposeResult
from textual.command import Provider
from textual.containers import Vertical
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Footer

from gate_tui.decision import decision_parts
from gate_tui.tui import keymap
from gate_tui.tui.controller import EditController, PendingEdit
from gate_tui.tui.file_commands import run_file
from gate_tui.tui.form import gate_value, state_to_form
from gate_tui.tui.gate_files import Kept, gate_file, kept_now, quit_or_ask
from gate_tui.tui.gate_reply import applied_message, apply_gate_reply, gate_previewed
from gate_tui.tui.render import number, overrule_line
from gate_tui.tui.widgets.decision_panel import DecisionPanel
from gate_tui.tui.widgets.gate_editor import GateEditor, SummaryEditor
from gate_tui.tui.widgets.gate_form import GateForm
from gate_tui.tui.widgets.gate_list import GateList
from gate_tui.tui.widgets.history_messages import HistoryReady, TimelineRowChosen
from gate_tui.tui.widgets.notice_bar import NoticeBar
from gate_tui.tui.widgets.page_bar import PageBar
from gate_tui.tui.widgets.title_bar import TitleBar
from gate_tui.tui.widgets.workspace import Workspace
from gate_tui.tui.workbench.messages import ChoiceChanged, ReplyApplied, ReplyRejected
from gate_tui.tui.workbench.target import Applied, Previewed

if TYPE_CHECKING:
    from gate_tui.llm.asking import Target
    from gate_tui.models import GateConfig, ParseResult
    from gate_tui.session.live import Session
    from gate_tui.session.provenance import ProvenanceTracker
    from gate_tui.tui.palette import ProviderSource
    from gate_tui.tui.widgets.history_pane import HistoryPane
    from gate_tui.tui.workbench.widget import Workbench
    from gate_tui.views import ConfigView, DecisionView, ValueView

FULL_FOOTER_WIDTH = 76  # columns for every shown key and the palette's; below, "-cramped"


def gate_commands() -> type[Provider]:
    """The command palette's provider, imported when the palette first opens."""
    from gate_tui.tui.commands import GateCommands

    return GateCommands


class GateScreen(Screen[None]):
    """The gate editor. ``session`` is None until the app's boot attaches one."""

    # The first answer field of the gate asked first: at start, typing answers it (#28).
    AUTO_FOCUS = "#raw"
    BINDINGS = keymap.bindings()
    COMMANDS: ClassVar[set[ProviderSource]] = {gate_commands}  # type: ignore[assignment]
    EDIT_COMMIT_DELAY: ClassVar[float] = 0.5

    def __init__(
        self,
        config: ConfigView,
        key_hints: keymap.KeyHints,
        notices: list[str],
        start: Callable[[], None],
    ) -> None:
        super().__init__(id="_default")
        self._start = start  # the app's start-up, run once the widgets are mounted
        self.config = config
        self.key_hints = key_hints
        self.session: Session = None  # type: ignore[assignment]  # set by attach
        self.controller: EditController = None  # type: ignore[assignment]  # made by attach
        self._kept: Kept | None = None  # how much of the session is in a file (file commands)
        self._provenance: ProvenanceTracker | None = None  # who said each answer (attach)
        self._notices = notices  # the app's own (an unknown keymap id): shown in the warning bar
        self._shown_before = False

    # ----------------------------------------------------------------- layout

    def compose(self) -> ComposeResult:
        yield TitleBar(icon="◆", id="title-bar")
        yield NoticeBar(id="notices")
        yield DecisionPanel(self.config, id="decision")
        yield PageBar(id="pages")
        with Workspace(id="workspace"):
            # "-focused" marks the pane holding the focus; its Raw field has it first (AUTO_FOCUS).
            with Vertical(id="gates-pane", classes="pane -focused") as gates:
                gates.border_title = (
                    f"Gates ({len(self.config.gate_order)}) · * required · ✓ done · ▶ next"
                )
                with GateForm(self, id="gates-body"):
                    yield GateList(
                        self.config, {}, decision_parts(self.config, {}).next_gate, id="gate-list"
                    )
                    with Vertical(id="editor-column"):
                        yield GateEditor(self.config, id="gate-editor")
                        yield SummaryEditor(id="summary-editor")
            # The reply and history panes are mounted right after the first frame
            # (Workspace.mount_panes): the decision and the gates show up at once.
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self._start()

    def on_resize(self, event: events.Resize) -> None:
        # The footer drops the palette key first when narrow (styles.tcss, "-cramped"); the
        # workspace keeps the focused field in view.
        self.set_class(event.size.width < FULL_FOOTER_WIDTH, "-cramped")

    def _on_screen_resume(self, event: events.ScreenResume) -> None:
        """Skip the first restyle: each widget was styled as it mounted, right before (a fifth
        of the time to the first frame; runs before Screen's own handler)."""
        if not self._shown_before:
            self._shown_before = True
            event.refresh_styles = False

    # ---------------------------------------------------------- widget access

    gate_list = getters.query_one(GateList)
    gate_editor = getters.query_one(GateEditor)
    summary_editor = getters.query_one(SummaryEditor)
    decision_panel = getters.query_one(DecisionPanel)
    workspace = getters.query_one(Workspace)
    gate_form = getters.query_one(GateForm)
    notice_bar = getters.query_one(NoticeBar)

    @property
    def reply_pane(self) -> Workbench:
        pane = self.workspace.reply()
        assert pane is not None, "the reply pane is not mounted yet"
        return pane

    workbench = reply_pane

    @property
    def history_pane(self) -> HistoryPane:
        pane = self.workspace.history()
        assert pane is not None, "the history pane is not mounted yet"
        return pane

    # ---------------------------------------------------------------- session

    def attach(self, session: Session, gate_config: GateConfig) -> None:
        """Show ``session``: its state in the form, its decision, its history and notices."""
        from gate_tui.session.provenance import ProvenanceTracker  # not before the first frame

        self.session = session
        self._provenance = ProvenanceTracker()
        self._kept = kept_now(session)
        if self.controller is None:
            self.controller = EditController(gate_config, session)
        else:
            self.controller.attach(session)
        if (history := self.workspace.history()) is not None:
            history.table.clear()
        self.notice_bar.show_session(session, self._notices)
        start = session.decision.next_gate or self.config.gate_order[0]
        self.gate_form.show_gate(start, gate_value(session.state, start))
        self.after_transition(reload_form=True)

    # ---------------------------------------------------------------- display

    def show_view(
        self, gates: Mapping[str, ValueView], decision: DecisionView, extra: list[Content]
    ) -> None:
        """Decision panel, gate list marks and the editor's title line for one state's gates."""
        self.decision_panel.show(decision, extra)
        tracker = self._provenance
        said = tracker.update(self.session.records) if tracker is not None else {}
        self.gate_form.show_marks(gates, decision.next_gate, said)

    def show_current(self) -> None:
        """Show the session's state and decision (plus the overrule notice of a reply behind it)."""
        extra: list[Content] = []
        last = self.session.timeline[-1] if self.session.timeline else None
        if last is not None and last.kind != "edit":  # a reply, or a move that restored one
            overruled = overrule_line(last.claimed_status, last.decision)
            extra = [overruled] if overruled is not None else []
        self.show_view(self.session.state.gates, self.session.decision, extra)

    def after_transition(self, *, reload_form: bool) -> None:
        """Refresh everything that depends on the session's current state.

        A toast shown now is about the state before ("Reply applied · Decision: PASS"):
        it goes, so it never stands beside a decision it no longer describes."""
        self.app.clear_notifications()
        if reload_form:
            state_to_form(
                self.session.state, self.gate_editor.key, self.gate_editor, self.summary_editor
            )
        self.show_current()
        self.show_history()
        if (reply := self.workspace.reply()) is not None:
            reply.refresh_preview()
        self.refresh_bindings()
        self.toast_new_notices()

    @on(ReplyRejected)  # the rejected attempt's row at once, not at the pane's next look
    def show_history(self) -> None:
        if (history := self.workspace.history()) is not None:
            history.show(self.session.timeline, self.session.records)

    def toast_new_notices(self) -> None:
        """Notices the session added since we last looked (e.g. a failed write) as toasts."""
        self.notice_bar.toast_new(self.session, self._notices)

    @on(NoticeBar.Shown)
    def _notices_shown(self) -> None:
        self.call_after_refresh(self.decision_panel.keep_clear)  # the bar above it came or went

    @on(HistoryReady)
    def _history_ready(self, event: HistoryReady) -> None:
        if event.pane.is_attached and self.session is not None:
            event.pane.show(self.session.timeline, self.session.records)

    # ------------------------------------------------------------- user edits

    @on(GateForm.GateHighlighted)
    def _gate_highlighted(self) -> None:
        # The list's cursor now (not the event's): several moves may have queued up.
        if self.session is not None and self.query(GateEditor):
            self.select_gate(self.gate_list.selected_key)

    @on(GateForm.GateChosen)
    def _gate_chosen(self) -> None:
        self.gate_form.focus_field()

    @property
    def pending(self) -> PendingEdit | None:  # the edit shown live, not recorded yet
        return None if self.session is None else self.controller.pending

    def commit_pending(self) -> None:
        """Record the pending edit now (before any other command acts)."""
        self.gate_form.commit()

    # ------------------------------------------- replies: the workbench's host

    @property
    def preview_result(self) -> ParseResult | None:  # the reply pane's last parse
        pane = self.workspace.reply()
        return None if pane is None else pane.preview_result

    def key_hint(self, action_id: str) -> str:
        return self.key_hints[action_id]

    def ask_target(self) -> Target | None:
        """What the model is asked about (the gate session); None before it is open."""
        from gate_tui.llm.gate_target import GateTarget

        return None if self.session is None else GateTarget(self.session)

    def preview_reply(
        self, text: str, candidate: int | None, parsed: ParseResult | None = None
    ) -> Previewed:
        """What applying ``text`` would do (None content: the empty-pane hint)."""
        if self.controller is None:  # not booted: previewed again once it is
            return Previewed(text, candidate, None, None, None)
        result = parsed if parsed is not None else self.controller.preview(text, candidate)
        return gate_previewed(self.controller, self.key_hints, self.config, text, candidate, result)

    def apply_reply(
        self, text: str, candidate: int | None, previewed: Previewed | None, call: int | None
    ) -> Applied:
        """Apply a reply through the controller; the workbench empties the pane if taken."""
        self.commit_pending()
        applied = apply_gate_reply(
            self.controller, self.key_hints, self.config, (text, candidate, previewed, call)
        )
        if applied.kind == "error":
            self.show_current()
        return applied

    @on(ReplyApplied)
    def _reply_applied(self, event: ReplyApplied) -> None:
        self.after_transition(reload_form=True)
        self.gate_editor.clear_messages()
        self.notify(applied_message(event.result), title="Reply applied", markup=False)

    @on(ChoiceChanged)
    def _choice_changed(self) -> None:
        self.refresh_bindings()  # the footer names the picker's key only while there is a choice

    def action_workbench(self, command: str) -> None:
        """A key of the workbench's (apply, next candidate, clear, ask…): it runs there."""
        pane = self.workspace.reply()
        if pane is None:  # it mounts right after the first frame: the key waits for it
            self.call_after_refresh(self.action_workbench, command)
            return
        pane.run_command(command)

    # ---------------------------------------------------------- pages, gates

    def action_page(self, page: str) -> None:
        """F2 / F4 / F5: show a pane and focus it."""
        self.workspace.open_page(page)

    def select_gate(self, key: str | None) -> None:
        """Show gate ``key`` in the editor (the list's cursor is the source of truth)."""
        self.gate_form.select_gate(key)

    def action_next_gate(self) -> None:
        """Go to the gate the system asks for next. The pending edit is recorded first: the
        answer just typed may complete the gate on show (else F3 stays put)."""
        self.commit_pending()
        key = self.session.decision.next_gate
        if key is None:
            self.notify("Nothing to jump to: the decision is PASS.", markup=False)
            return
        self.action_go_to_gate(key)

    def action_go_to_gate(self, key: str) -> None:
        """Select gate ``key`` (F3 or the palette's "Go to gate") and focus its field."""
        if key not in self.config.gates:
            return
        self.commit_pending()
        self.workspace.show_page("gates")
        self.select_gate(key)
        self.gate_form.focus_field()

    @on(PageBar.Chosen)
    def _page_chosen(self, event: PageBar.Chosen) -> None:
        self.action_page(event.page)

    @on(Workspace.PageShown)
    def _page_shown(self, event: Workspace.PageShown) -> None:
        self.query_one(PageBar).show(event.page)

    # ------------------------------------------------ decision and timeline

    def action_override(self, choice: str) -> None:
        """A user override of the decision (the form records it; the parser judges it)."""
        self.gate_form.override(choice)

    @on(TimelineRowChosen)
    def _timeline_row(self, event: TimelineRowChosen) -> None:
        """Enter on a timeline row restores the state after it (a new, undoable transition)."""
        if self.gate_form.move(lambda: self.controller.jump_to(event.index)):
            undo = self.key_hints["undo"]
            restored = f"Restored the state after {number(event.index)} ({undo} undoes this)."
            self.notify(restored, markup=False)

    def action_undo_transition(self) -> None:
        self.gate_form.move(self.controller.undo) or self.notify("Nothing to undo.", markup=False)

    def action_redo_transition(self) -> None:
        self.gate_form.move(self.controller.redo) or self.notify("Nothing to redo.", markup=False)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Grey out undo/redo when there is nothing to move to."""
        if action in ("undo_transition", "redo_transition"):
            moves, undo = self.controller, action == "undo_transition"  # no controller: no boot
            can = moves is not None and (moves.can_undo if undo else moves.can_redo)
            return True if can else None  # None greys the key out
        if action == "workbench" and parameters == ("next",):  # only while there is a choice
            shown = pane.shown if (pane := self.workspace.reply()) is not None else None
            return shown is not None and shown.next_choice is not None
        return True

    # ------------------------------------------------------ help, files, quit

    def action_help(self) -> None:
        from gate_tui.tui.screens.help import HelpScreen  # imported on first use: start-up

        self.app.push_screen(HelpScreen(self.config.keymap))

    def action_quit(self) -> None:
        """Quit, unless that would lose work: then ask (Save as… / Quit anyway / Cancel)."""
        self.commit_pending()
        quit_or_ask(self, self.session, self._kept, lambda then: self.action_file("save_as", then))

    def action_file(self, command: str, then: Callable[[], None] | None = None) -> None:
        """A file command (Ctrl+S, the palette's Save as…, Export…, Open…, Copy)."""
        self.commit_pending()
        file = gate_file(
            command,
            self.session,
            palette_key=self.key_hints["command_palette"],
            kept=self._mark_kept,
            reload=lambda: self.after_transition(reload_form=True),
        )
        if file is not None:
            run_file(self, file, then=then, after=self.toast_new_notices)

    def _mark_kept(self) -> None:
        self._kept = kept_now(self.session)
