"""Read-only shapes the editor draws from: a config, a gate, a gate's value, a decision.

The editor paints its first frame before pydantic is imported (importing it and building
our models costs more than Textual's whole start-up allows; see gate_tui.tui.app). So its
widgets read configs, values and decisions through these protocols, which the pydantic
models of :mod:`gate_tui.models` and the light start-up objects
(:class:`gate_tui.config.spec.ConfigSpec`, :class:`gate_tui.decision.DecisionParts`,
:data:`NO_VALUE`) all satisfy. Nothing here validates or decides anything.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple, Protocol


class GateView(Protocol):
    """One gate's definition (:class:`gate_tui.models.GateDef` or a ``GateSpec``)."""

    @property
    def question(self) -> str: ...
    @property
    def required(self) -> bool: ...
    @property
    def expected_categories(self) -> Sequence[str]: ...
    @property
    def label(self) -> str | None: ...
    @property
    def description(self) -> str | None: ...
    @property
    def blocking_categories(self) -> Sequence[str]: ...
    @property
    def categorical(self) -> bool: ...


class PolicyView(Protocol):
    """The part of a policy the editor shows (which commands it offers)."""

    @property
    def allow_user_override(self) -> bool: ...


class ConfigView(Protocol):
    """A validated config (:class:`gate_tui.models.GateConfig` or a ``ConfigSpec``)."""

    @property
    def name(self) -> str | None: ...
    @property
    def description(self) -> str | None: ...
    @property
    def gate_order(self) -> Sequence[str]: ...
    @property
    def gates(self) -> Mapping[str, GateView]: ...
    @property
    def policy(self) -> PolicyView: ...
    @property
    def keymap(self) -> Mapping[str, str]: ...


class ValueView(Protocol):
    """A gate's answer (:class:`gate_tui.models.GateValue` or :data:`NO_VALUE`)."""

    @property
    def raw(self) -> str | None: ...
    @property
    def classified(self) -> str | None: ...


class DecisionView(Protocol):
    """A decision the system made (:class:`gate_tui.models.GateDecision` or ``DecisionParts``)."""

    @property
    def pass_(self) -> bool: ...
    @property
    def reason(self) -> str: ...
    @property
    def next_gate(self) -> str | None: ...
    @property
    def next_question(self) -> str | None: ...
    @property
    def blocked_value(self) -> str | None: ...


class _Value(NamedTuple):
    raw: str | None
    classified: str | None


NO_VALUE: ValueView = _Value(None, None)
"""The value of a gate nobody answered yet."""
