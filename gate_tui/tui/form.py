"""The two explicit mappings between the gate state and the form.

* :func:`form_to_patch` turns one edited field into the *user patch* that goes through
  ``parse(patch, config, previous_state=current, actor="user")``.
* :func:`state_to_form` loads a state into the editors with their ``Changed`` messages
  prevented, so a state that came from the assistant (or from undo) never re-enters
  the user-edit path.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from gate_tui.views import NO_VALUE

if TYPE_CHECKING:
    from gate_tui.models import GateState
    from gate_tui.views import ValueView

FieldName = Literal["raw", "classified", "summary"]


class FieldRef(NamedTuple):  # a named tuple: created at import before the first frame, ~8x cheaper than a frozen dataclass
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


def gate_value(state: GateState, key: str) -> ValueView:
    """The value of one gate in a state (an empty value when the gate is absent)."""
    return state.gates.get(key) or NO_VALUE


def state_to_form(state: GateState, key: str | None, editor: Any, summary: Any) -> None:
    """Load ``state`` into the gate editor (for gate ``key``) and the summary editor.

    ``editor`` and ``summary`` are the widgets of :mod:`gate_tui.tui.widgets.gate_editor`;
    both set their values inside ``prevent(...Changed)``.
    """
    if key is not None:
        editor.load(key, gate_value(state, key))
    summary.load(state.summary)
