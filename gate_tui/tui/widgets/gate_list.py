"""The gate list: one cheap, virtualised row per gate (a single OptionList).

A widget row per gate does not scale (about nine DOM nodes each); an ``OptionList``
renders only the visible lines, so a 200-gate config opens as fast as a 5-gate one.
Rows are re-rendered only when their text changes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from textual.content import Content
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from gate_tui.tui.render import gate_row

if TYPE_CHECKING:
    from gate_tui.views import ConfigView, ValueView


class GateList(OptionList):
    """Key/label, required mark, complete mark and the next-gate pointer for every gate."""

    def __init__(
        self,
        config: ConfigView,
        values: Mapping[str, ValueView] | None = None,
        next_gate: str | None = None,
        **kwargs: object,
    ) -> None:
        """Rows for ``values`` and ``next_gate`` from the start (the state on show first),
        so the first :meth:`show` re-renders nothing."""
        self.config = config
        self._shown: dict[str, tuple[ValueView | None, bool, str | None]] = {}
        values = values or {}
        options = [
            Option(self._row(key, values.get(key), key == next_gate), id=key)
            for key in config.gate_order
        ]
        super().__init__(*options, markup=False, **kwargs)  # type: ignore[arg-type]

    def _row(
        self, key: str, value: ValueView | None, is_next: bool, said: str | None = None
    ) -> Content:
        self._shown[key] = (value, is_next, said)
        return gate_row(self.config, key, value, is_next, said)

    def show(
        self,
        values: Mapping[str, ValueView],
        next_gate: str | None,
        said: Mapping[str, str] | None = None,
    ) -> None:
        """Re-render only the rows whose value, next-gate mark or provenance (``said``: a
        kind per gate key) changed."""
        said = said or {}
        for index, key in enumerate(self.config.gate_order):
            value, is_next, kind = values.get(key), key == next_gate, said.get(key)
            if self._shown.get(key) != (value, is_next, kind):
                self.replace_option_prompt_at_index(index, self._row(key, value, is_next, kind))

    @property
    def selected_key(self) -> str | None:
        """The gate under the cursor."""
        option = self.highlighted_option
        return option.id if option is not None else None

    def select_key(self, key: str) -> None:
        """Move the cursor to gate ``key`` and scroll it into view."""
        self.highlighted = self.config.gate_order.index(key)
