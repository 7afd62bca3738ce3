"""A validated config as plain frozen objects, built without pydantic.

:class:`ConfigSpec` is what the editor's first frame is drawn from. It is made only
from the canonical JSON of a config that :class:`gate_tui.models.GateConfig` already
validated (``model_dump(mode="json")``, kept by :mod:`gate_tui.config.cache`), so it
checks *shape*, not rules: any key, type or order that a GateConfig dump could not have
makes :func:`spec_from_data` return None and the caller validates the file again.
The editor turns the spec back into a GateConfig (:meth:`ConfigSpec.to_model`) once
pydantic is loaded, after the first frame.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from gate_tui.models import GateConfig

_GATE_KEYS = frozenset(
    {"question", "required", "expected_categories", "label", "description", "blocking_categories"}
)
_CONFIG_KEYS = frozenset(
    {"schema_version", "name", "description", "gate_order", "gates", "policy", "keymap"}
)
_POLICY_KEYS = (
    "allow_user_delete_gate_keys",
    "allow_user_clear_values",
    "strict_classified_validation",
    "allow_user_extra_gate_keys",
    "reject_unknown_top_level_keys",
    "allow_user_override",
    "allow_guessed_repairs",
    "accept_truncated_replies",
)


# Named tuples rather than frozen dataclasses: this module is imported before the first
# frame, and creating a frozen dataclass class costs ~0.9 ms against ~0.1 ms for these.


class GateSpec(NamedTuple):
    """One gate (the fields of :class:`gate_tui.models.GateDef`)."""

    question: str
    required: bool
    expected_categories: tuple[str, ...]
    label: str | None
    description: str | None
    blocking_categories: tuple[str, ...] = ()

    @property
    def categorical(self) -> bool:
        return bool(self.expected_categories)


class PolicySpec(NamedTuple):
    """The policy flags (the fields of :class:`gate_tui.models.Policy`)."""

    allow_user_delete_gate_keys: bool
    allow_user_clear_values: bool
    strict_classified_validation: bool
    allow_user_extra_gate_keys: bool
    reject_unknown_top_level_keys: bool
    allow_user_override: bool
    allow_guessed_repairs: bool
    accept_truncated_replies: bool
    grounding: str | None = None


class ConfigSpec(NamedTuple):
    """A whole config; ``source`` is the canonical JSON it was built from."""

    schema_version: str
    name: str | None
    description: str | None
    gate_order: tuple[str, ...]
    gates: Mapping[str, GateSpec]
    policy: PolicySpec
    keymap: Mapping[str, str]
    source: str

    def to_model(self) -> GateConfig:
        """The pydantic config (imports pydantic; validates the canonical JSON again)."""
        from gate_tui.models import GateConfig

        return GateConfig.model_validate_json(self.source)


def canonical_json(data: Mapping[str, Any]) -> str:
    """The one spelling of a config dump that specs and fingerprints are made from."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def spec_from_model(config: GateConfig) -> ConfigSpec:
    """The spec of a validated config (always succeeds)."""
    spec = spec_from_data(config.model_dump(mode="json"))
    assert spec is not None, "a GateConfig dump has the shape spec_from_data checks"
    return spec


def spec_from_data(data: Any) -> ConfigSpec | None:
    """A spec from a GateConfig's JSON dump, or None when ``data`` does not have its shape."""
    if not isinstance(data, dict) or data.keys() != _CONFIG_KEYS:
        return None
    gates = _gates(data["gates"])
    policy = _policy(data["policy"])
    order = data["gate_order"]
    keymap = data["keymap"]
    if gates is None or policy is None or not _strings(order) or not isinstance(keymap, dict):
        return None
    if (
        len(order) != len(gates)
        or set(order) != gates.keys()
        or not _strings(list(keymap.values()))
    ):
        return None
    if not isinstance(data["schema_version"], str) or not all(
        _optional_str(data[k]) for k in ("name", "description")
    ):
        return None
    return ConfigSpec(
        schema_version=data["schema_version"],
        name=data["name"],
        description=data["description"],
        gate_order=tuple(order),
        gates=MappingProxyType(gates),
        policy=policy,
        keymap=MappingProxyType(dict(keymap)),
        source=canonical_json(data),
    )


def _gates(raw: Any) -> dict[str, GateSpec] | None:
    if not isinstance(raw, dict) or not raw:
        return None
    gates: dict[str, GateSpec] = {}
    for key, gate in raw.items():
        if not isinstance(gate, dict) or gate.keys() != _GATE_KEYS:
            return None
        categories = gate["expected_categories"]
        if (
            not isinstance(gate["question"], str)
            or not isinstance(gate["required"], bool)
            or not _strings(categories)
        ):
            return None
        if not _strings(gate["blocking_categories"]):
            return None
        if not (_optional_str(gate["label"]) and _optional_str(gate["description"])):
            return None
        gates[key] = GateSpec(
            gate["question"],
            gate["required"],
            tuple(categories),
            gate["label"],
            gate["description"],
            tuple(gate["blocking_categories"]),
        )
    return gates


def _policy(raw: Any) -> PolicySpec | None:
    if not isinstance(raw, dict) or raw.keys() - {"grounding"} != set(_POLICY_KEYS):
        return None
    if not all(isinstance(raw[key], bool) for key in _POLICY_KEYS):
        return None
    grounding = raw.get("grounding")
    if grounding not in (None, "off", "warn", "require"):
        return None
    return PolicySpec(**{key: raw[key] for key in _POLICY_KEYS}, grounding=grounding)


def _strings(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


def _optional_str(value: Any) -> bool:
    return value is None or isinstance(value, str)
