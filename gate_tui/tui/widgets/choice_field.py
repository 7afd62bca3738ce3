"""A compact drop-down for a gate's category: one widget at rest, a list when opened.

Textual's ``Select`` is six widgets (value line, label, two arrows, the list that is
hidden until it opens) and the most expensive widget of the first screen (~15 ms of
start-up). This field draws the chosen option and ``▼`` itself, looks like a compact
``Select``, and opens a :class:`ChoiceMenu` (a list drawn over the editor, right under
the field) only when asked: Enter, Space, ↑ or ↓, a click, or typing. In the list, Enter
or a click chooses, Esc or a click elsewhere closes it, and typing moves to the first
option that starts with what was typed (letters typed within a second add up, as in a
native drop-down; failing a prefix, the first option that contains it). The app's undo and
redo keys close the list and undo/redo the last transition, as they do everywhere else.

Setting :attr:`ChoiceField.value` from code posts nothing; only a choice the user
made in the menu posts :class:`ChoiceField.Changed` (so loading a state is never
mistaken for an edit).
"""

from __future__ import annotations

from collections.abc import Sequence

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.content import Content
from textual.geometry import Region
from textual.message import Message
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from gate_tui.tui.keymap import field_binding
from gate_tui.tui.widgets.type_ahead import TypeAheadList, typed_character

ARROW = "▼"


class ChoiceField(Widget, can_focus=True):
    """The chosen option's label and a ``▼``; posts :class:`Changed` when the user chooses."""

    BINDINGS = [Binding("enter,space,down,up", "open", "Show choices", show=False)]
    DEFAULT_CSS = """
    ChoiceField {
        width: 1fr;
        height: 1;
        padding: 0 1 0 0;
        background: $surface;
        color: $foreground;
        pointer: pointer;
    }
    /* a shade that shows in 256 colours too (a 5% tint was 235 on 234: invisible) */
    ChoiceField:focus {
        background: $accent 40%;
        text-style: bold;
    }
    """

    class Changed(Message):
        """The user chose ``value`` (one of the field's option values)."""

        def __init__(self, field: ChoiceField, value: str) -> None:
            super().__init__()
            self.field = field
            self.value = value

        @property
        def control(self) -> ChoiceField:
            return self.field

    def __init__(
        self, options: Sequence[tuple[Content, str]], value: str, **kwargs: object
    ) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self._options = list(options)
        self._value = value
        self._menu_open = False

    @property
    def options(self) -> list[tuple[Content, str]]:
        return list(self._options)

    @property
    def value(self) -> str:
        return self._value

    @value.setter
    def value(self, value: str) -> None:
        """Show ``value`` (no message: only a user's choice posts :class:`Changed`)."""
        if value not in (option for _label, option in self._options):
            raise ValueError(f"{value!r} is not one of the choices")
        if value != self._value:
            self._value = value
            self.refresh()

    def set_options(self, options: Sequence[tuple[Content, str]], value: str) -> None:
        """Replace the options and show ``value`` (no message)."""
        self._options = list(options)
        self._value = ""  # force the setter's check and refresh
        self.value = value
        self.refresh()

    def label(self) -> Content:
        for label, option in self._options:
            if option == self._value:
                return label
        return Content(self._value)

    def render(self) -> Content:
        width = self.content_region.width
        label = self.label().truncate(max(0, width - 2), ellipsis=True)
        gap = max(0, width - 1 - label.cell_length)
        return Content.assemble(label, " " * gap, (ARROW, "$foreground 50%"))

    def action_open(self, typed: str = "") -> None:
        """Show the options in a menu under the field (nothing if it is open already);
        ``typed`` starts its search."""
        if self._menu_open or not self._options:
            return
        self._menu_open = True
        values = [option for _label, option in self._options]
        current = values.index(self._value) if self._value in values else 0
        self.app.push_screen(
            ChoiceMenu(self._options, current, self.region, typed), callback=self._chosen
        )

    def on_key(self, event: events.Key) -> None:
        char = typed_character(event)
        if char is not None and not self._menu_open:
            event.stop()
            self.action_open(char)

    def _chosen(self, value: str | None) -> None:
        self._menu_open = False
        if value is None or value == self._value:
            return
        self.value = value
        self.post_message(self.Changed(self, value))

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.focus()
        self.action_open()


class ChoiceMenu(ModalScreen[str | None]):
    """The options of a :class:`ChoiceField`, drawn right under it; dismisses with the chosen
    value."""

    BINDINGS = [
        Binding("escape", "close", "Close", show=False),
        # A modal cuts the app's bindings off: bring undo/redo (by their ids) into the menu.
        field_binding("undo", "close_then('undo_transition')", show=False),
        field_binding("redo", "close_then('redo_transition')", show=False),
    ]
    DEFAULT_CSS = """
    ChoiceMenu {
        background: transparent;
    }
    ChoiceMenu > OptionList {
        position: absolute;
        height: auto;
        max-height: 12;
        border: tall $border-blurred;
        background: $surface;
        color: $foreground;
        constrain: none inside;
        &:focus {
            border: tall $border;
            background-tint: $foreground 5%;
        }
        & > .option-list--option {
            padding: 0 1;
        }
    }
    """

    def __init__(
        self, options: Sequence[tuple[Content, str]], current: int, under: Region, typed: str = ""
    ) -> None:
        super().__init__()
        self._options = list(options)
        self._current = current
        self._under = under
        self._typed = typed

    def compose(self) -> ComposeResult:
        menu = TypeAheadList(
            *[Option(label, id=str(index)) for index, (label, _value) in enumerate(self._options)],
            typed=self._typed,
            markup=False,
        )
        region = self._under
        menu.styles.offset = (region.x, region.y + 1)
        menu.styles.width = region.width
        yield menu

    def on_mount(self) -> None:
        menu = self.query_one(TypeAheadList)
        menu.highlighted = self._current
        menu.focus()
        menu.show_typed()  # the letters that opened the menu, before any key after them

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(self._options[event.option_index][1])

    def on_click(self, event: events.Click) -> None:
        if event.widget is self:  # a click beside the menu closes it
            self.dismiss(None)

    def action_close(self) -> None:
        self.dismiss(None)

    async def action_close_then(self, action: str) -> None:
        """Close the menu, then run the editor's ``action`` (undo/redo reloads the field)."""
        self.dismiss(None)
        await self.app.run_action(action, self.app.screen_stack[0])
