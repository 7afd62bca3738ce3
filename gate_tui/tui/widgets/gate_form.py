"""The gate form: the gate list with the editor of the gate on show and the summary.

It owns what its fields mean: which field a widget stands for (a gate's Raw answer or
classification, or the summary), and turns the fields' own messages into three of its
own for the screen, which applies the edit rules: :class:`GateForm.Edited` (a field's new
value, live), :class:`GateForm.Done` (Enter in a field, or the focus left it: record the
edit now), and the gate list's :class:`GateForm.GateHighlighted` / :class:`GateForm.GateChosen`.

The Raw field's edits travel with the gate they were typed in
(:class:`~gate_tui.tui.widgets.raw_area.RawArea.Edited`): by the time the message
arrives, F3 may show another gate in the field.
"""

from __future__ import annotations

from textual import events
from textual.containers import Container
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Input, OptionList, TextArea

from gate_tui.tui.form import SUMMARY, FieldRef
from gate_tui.tui.widgets.choice_field import ChoiceField
from gate_tui.tui.widgets.gate_editor import NONE_CHOICE, GateEditor, SummaryEditor
from gate_tui.tui.widgets.raw_area import RawArea

EDITOR_INPUTS = {"raw", "summary"}
"""Fields whose edit is recorded when the focus leaves them."""


class GateForm(Container):
    """Gate list + gate editor + summary editor; posts what the user did to them."""

    class Edited(Message):
        """``field`` now holds ``value`` (None: no classification); ``commit``: record it now."""

        def __init__(self, field: FieldRef, value: str | None, *, commit: bool = False) -> None:
            super().__init__()
            self.field = field
            self.value = value
            self.commit = commit

    class Done(Message):
        """The user finished an edit (Enter, or the focus left the field)."""

    class GateHighlighted(Message):
        """The gate list's cursor moved."""

    class GateChosen(Message):
        """Enter on a gate in the list: its field is wanted."""

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
        self.post_message(self.Edited(field, event.value))

    def on_text_area_changed(self, event: TextArea.Changed) -> None:
        field = self.field_for(event.text_area)
        if field is not None:
            event.stop()
            self.post_message(self.Edited(field, event.text_area.text))

    def on_choice_field_changed(self, event: ChoiceField.Changed) -> None:
        field = self.field_for(event.field)
        if field is None:
            return
        event.stop()
        self.post_message(self.Edited(field, None if event.value == NONE_CHOICE else event.value, commit=True))

    def on_raw_area_edited(self, event: RawArea.Edited) -> None:
        event.stop()
        if event.key is not None and event.area.claim(event.seq):
            self.post_message(self.Edited(FieldRef("raw", event.key), event.text))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if self.field_for(event.input) is not None:
            event.stop()
            self.post_message(self.Done())

    def on_raw_area_submitted(self, event: RawArea.Submitted) -> None:
        event.stop()
        self.post_message(self.Done())

    def on_descendant_blur(self, event: events.DescendantBlur) -> None:
        if event.widget.id in EDITOR_INPUTS:
            self.post_message(self.Done())

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option_list.id == "gate-list":
            event.stop()
            self.post_message(self.GateHighlighted())

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option_list.id == "gate-list":
            event.stop()
            self.post_message(self.GateChosen())
