"""The gate form: the gate list with the editor of the gate on show and the summary.

It owns what its fields mean (which field a widget stands for: a gate's Raw answer or
classification, or the summary) and the live edit: each change of a field is parsed at
once through its host's controller and shown marked "editing"; it is recorded as *one*
transition when the user pauses (the host's ``EDIT_COMMIT_DELAY``), presses Enter, leaves
the field or runs any other command (the host calls :meth:`GateForm.commit` first).
Overrides, undo, redo and jumps back are recorded changes too (:meth:`GateForm.override`,
:meth:`GateForm.move`): the pending edit goes first, the field messages go after. The
host (the gate editor's screen) is known only through :class:`FormHost`. The gate list's
moves go to the screen as :class:`GateForm.GateHighlighted` / :class:`GateForm.GateChosen`.
The Raw field's edits travel with the gate they were typed in
(:class:`~gate_tui.tui.widgets.raw_area.RawArea.Edited`): by the time the message
arrives, F3 may show another gate in the field.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Protocol

from textual import events, on
from textual.containers import Container
from textual.content import Content
from textual.message import Message
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Input, OptionList, TextArea

from gate_tui.tui.form import SUMMARY, FieldRef, gate_value
from gate_tui.tui.render import DIM, field_messages
from gate_tui.tui.text import line, visible
from gate_tui.tui.widgets.choice_field import ChoiceField
from gate_tui.tui.widgets.gate_editor import NONE_CHOICE, GateEditor, SummaryEditor
from gate_tui.tui.widgets.gate_list import GateList
from gate_tui.tui.widgets.raw_area import RawArea
from gate_tui.tui.widgets.workspace import focus_now
from gate_tui.views import NO_VALUE

if TYPE_CHECKING:
    from gate_tui.tui.controller import Commit, EditController
    from gate_tui.views import DecisionView, ValueView


class FormHost(Protocol):
    """What the form needs of its screen for the live edit."""

    controller: EditController
    EDIT_COMMIT_DELAY: float

    def show_view(
        self, gates: Mapping[str, ValueView], decision: DecisionView, extra: list[Content]
    ) -> None: ...

    def show_current(self) -> None: ...

    def after_transition(self, *, reload_form: bool) -> None: ...

    def notify(
        self, message: str, *, title: str = "", severity: Any = "information", markup: bool = True
    ) -> None: ...


EDITOR_INPUTS = {"raw", "summary"}
"""Fields whose edit is recorded when the focus leaves them."""


class GateForm(Container):
    """Gate list + gate editor + summary editor; posts what the user did to them."""

    def __init__(self, host: FormHost, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.host = host
        self._timer: Timer | None = None  # records the pending edit when the user pauses

    # --- the live edit ---------------------------------------------------------------

    def edit(self, field: FieldRef, value: str | None, *, commit: bool = False) -> None:
        """Parse one field's new value as a user patch and show the result live."""
        host = self.host
        if host.controller is None:
            return  # not booted yet
        committed, pending = host.controller.edit(field, value)
        self.show_commit(committed)
        result = pending.result
        self.show_messages(field, field_messages(result.errors, result.warnings, field.path))
        if self._timer is not None:
            self._timer.stop()
        self._timer = self.set_timer(host.EDIT_COMMIT_DELAY, self.commit)
        if result.ok and result.canonical_state is not None and result.decision is not None:
            marker = line(
                ("✎ editing ", DIM),
                (field.path, "bold"),
                (" — recorded when you pause or press Enter", DIM),
            )
            host.show_view(result.canonical_state.gates, result.decision, [marker])
        else:
            host.show_current()
        if commit:
            self.commit()

    def commit(self) -> None:
        """Record the pending edit now. Raw typing whose message is still on its way
        becomes the pending edit first, so what is recorded includes it."""
        booted = self.host.controller is not None
        typed = self.unreported_typing() if booted else None
        if typed is not None:
            self.edit(*typed)
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        if booted:
            self.show_commit(self.host.controller.commit())

    def show_commit(self, commit: Commit) -> None:
        """Render a commit's outcome: a new transition, an unchanged state or a session error."""
        if commit.kind == "accepted":
            self.host.after_transition(reload_form=False)
        elif commit.kind == "unchanged":
            self.host.show_current()
        elif commit.kind == "error":
            self.host.notify(
                visible(commit.error or ""), title="Session error", severity="error", markup=False
            )
            self.host.show_current()

    # --- moving among the recorded changes -------------------------------------------

    def move(self, step: Callable[[], object | None]) -> bool:
        """Undo, redo or a jump back (``step``, through the controller), the pending edit
        recorded first; False when there was nothing to move to."""
        self.commit()
        if step() is None:
            return False
        self.query_one(GateEditor).clear_messages()
        self.host.after_transition(reload_form=True)
        return True

    def override(self, choice: str) -> None:
        """A user override of the decision: a ``status`` patch that the parser judges."""
        self.commit()
        outcome = self.host.controller.override(choice)
        assert outcome.result is not None
        if outcome.kind == "rejected":
            message = visible(outcome.result.errors[0].message)
            self.host.notify(message, title="Override refused", severity="error", markup=False)
        else:
            self.show_commit(outcome)
        for warning in outcome.result.warnings:
            self.host.notify(visible(warning.message), severity="warning", markup=False)

    class GateHighlighted(Message):
        """The gate list's cursor moved."""

    class GateChosen(Message):
        """Enter on a gate in the list: its field is wanted."""

    def show_gate(self, key: str, value: ValueView) -> None:
        """Select gate ``key`` in the list and load its ``value`` into the editor."""
        gate_list = self.query_one(GateList)
        if gate_list.selected_key != key:
            gate_list.select_key(key)
        self.query_one(GateEditor).load(key, value)

    def select_gate(self, key: str | None) -> bool:
        """Show gate ``key`` in the editor (the pending edit recorded first); False when it
        is on show already."""
        if key is None or key == self.query_one(GateEditor).key:
            return False
        self.commit()
        self.show_gate(key, gate_value(self.host.controller.session.state, key))
        self.host.show_current()
        return True

    def show_marks(
        self, gates: Mapping[str, ValueView], next_gate: str | None, said: Mapping[str, Any]
    ) -> None:
        """The gate list's marks and the editor's title line for one state's gates; ``said``:
        who said each answer (:class:`~gate_tui.session.provenance.Provenance` per gate)."""
        self.query_one(GateList).show(gates, next_gate, {key: s.kind for key, s in said.items()})
        editor = self.query_one(GateEditor)
        key = editor.key
        if key is not None:
            told = said[key].describe(said[key].at[11:16] or said[key].at) if key in said else None
            editor.show_marks(gates.get(key) or NO_VALUE, key == next_gate, told)

    def focus_field(self) -> None:
        """Focus the field that completes the gate on show (its classification or Raw)."""
        editor = self.query_one(GateEditor)
        if editor.key is not None:
            focus_now(
                self.query_one(
                    "#classified-select" if editor.config.gates[editor.key].categorical else "#raw"
                )
            )

    def show_messages(self, field: FieldRef, content: Content) -> None:
        """A field's errors and warnings, under the field."""
        if field == SUMMARY:
            self.query_one(SummaryEditor).show_messages(content)
        else:
            self.query_one(GateEditor).show_messages(field, content)

    def unreported_typing(self) -> tuple[FieldRef, str] | None:
        """Raw typing whose message is still on its way (recorded before any command)."""
        found = self.query("#raw")
        typed = found.first(RawArea).unreported() if found else None
        return None if typed is None else (FieldRef("raw", typed[0]), typed[1])

    def field_for(self, widget: Widget) -> FieldRef | None:
        """The form field an editor widget stands for (None for any other widget)."""
        if widget.id == "summary":
            return SUMMARY
        return self.query_one(GateEditor).field_for(widget.id)

    def on_input_changed(self, event: Input.Changed) -> None:
        field = self.field_for(event.input)
        if field is None:
            return
        event.stop()
        if field == SUMMARY:
            self.query_one(SummaryEditor).show_count(event.value)
        self.edit(field, event.value)

    def on_text_area_changed(self, event: TextArea.Changed) -> None:
        field = self.field_for(event.text_area)
        if field is not None:
            event.stop()
            self.edit(field, event.text_area.text)

    def on_choice_field_changed(self, event: ChoiceField.Changed) -> None:
        field = self.field_for(event.field)
        if field is None:
            return
        event.stop()
        self.edit(field, None if event.value == NONE_CHOICE else event.value, commit=True)

    def on_raw_area_edited(self, event: RawArea.Edited) -> None:
        event.stop()
        if event.key is not None and event.area.claim(event.seq):
            self.edit(FieldRef("raw", event.key), event.text)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if self.field_for(event.input) is not None:
            event.stop()
            self.commit()

    def on_raw_area_submitted(self, event: RawArea.Submitted) -> None:
        event.stop()
        self.commit()

    def on_descendant_blur(self, event: events.DescendantBlur) -> None:
        if event.widget.id in EDITOR_INPUTS:
            self.commit()

    @on(OptionList.OptionHighlighted, "#gate-list")
    def _gate_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        self.post_message(self.GateHighlighted())

    @on(OptionList.OptionSelected, "#gate-list")
    def _gate_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.post_message(self.GateChosen())
