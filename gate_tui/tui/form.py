"""The two explicit mappings between the gate state and the form.

* :func:`form_to_patch` turns one edited field into the *user patch* that goes through
  ``parse(patch, config, previous_state=current, actor="user")``.
* :func:`state_to_form` loads a state into the editors with their ``Changed`` messages
  prevented, so a state that came from the assistant (or from undo) never re-enters
  the user-edit path.

Every value the form shows passes through :func:`shown_text` here, the one place the
form is loaded from a state: control characters, bidi overrides and zero-width
characters (a reply can carry ``ESC[2J`` or ``ESC]52;…``) are shown as visible symbols
(``␛``, ``⟨U+202E⟩``) and never reach the terminal. The state keeps the exact text. A
field is only stored again when the user edits it, and then what the field holds —
the visible form plus the typing — is what is stored ("an edit stores what is typed");
the field's message line says "control characters shown as symbols" so that is no
surprise.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from gate_tui.safe_text import visible
from gate_tui.views import NO_VALUE

if TYPE_CHECKING:
    from gate_tui.models import GateState
    from gate_tui.views import ValueView

FieldName = Literal["raw", "classified", "summary"]


class FieldRef(
    NamedTuple
):  # a named tuple: created at import before the first frame, ~8x cheaper than a frozen dataclass
    """Which form field was edited: the summary, or ``raw``/``classified`` of one gate."""

    name: FieldName
    gate: str | None = None

    @property
    def path(self) -> str:
        """The ``field_path`` the parser uses for this field (``gates.K.raw``, ``summary``)."""
        return "summary" if self.gate is None else f"gates.{self.gate}.{self.name}"


SUMMARY = FieldRef("summary")


def form_to_patch(field: FieldRef, value: str | None) -> dict[str, Any]:
    """The user patch for one field; an empty value clears it (``null``)."""
    cleared = None if value is None or value == "" else value
    if field.gate is None:
        return {"summary": "" if cleared is None else cleared}
    return {"gates": {field.gate: {field.name: cleared}}}


SYMBOLS_NOTE = "control characters shown as symbols; editing this field stores what it shows"


class ShownValue(NamedTuple):
    """A gate's answer as the form shows it (see :func:`shown_text`)."""

    raw: str | None
    classified: str | None


def shown_text(text: str | None, *, one_line: bool = False) -> str | None:
    """``text`` as a form field shows it: controls, bidi and zero-width made visible."""
    return None if text is None else visible(text, one_line=one_line)


def gate_value(state: GateState, key: str) -> ValueView:
    """The value of one gate in a state as the form shows it (empty when the gate is absent)."""
    value = state.gates.get(key)
    if value is None:
        return NO_VALUE
    return ShownValue(shown_text(value.raw), shown_text(value.classified, one_line=True))


def has_symbols(text: str | None, *, one_line: bool = False) -> bool:
    """Whether the form shows ``text`` differently from what is stored."""
    return text is not None and shown_text(text, one_line=one_line) != text


def state_to_form(state: GateState, key: str | None, editor: Any, summary: Any) -> None:
    """Load ``state`` into the gate editor (for gate ``key``) and the summary editor.

    ``editor`` and ``summary`` are the widgets of :mod:`gate_tui.tui.widgets.gate_editor`;
    both set their values inside ``prevent(...Changed)``.
    """
    if key is not None:
        editor.load(key, gate_value(state, key))
        stored = state.gates.get(key)
        if stored is not None and has_symbols(stored.raw):
            editor.show_messages(FieldRef("raw", key), _note())
    summary.load(shown_text(state.summary, one_line=True) or "")
    if has_symbols(state.summary, one_line=True):
        summary.show_messages(_note())


def _note() -> Any:
    from textual.content import Content  # form.py itself stays free of Textual (used headless)

    return Content.styled(SYMBOLS_NOTE, "italic")
