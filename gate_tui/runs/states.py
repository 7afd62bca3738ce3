"""A gate state from decoded JSON, as ``--previous`` files and results rows carry it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from gate_tui.models import GateState


def state_from_json(value: Any) -> tuple[GateState | None, str | None]:
    """A state from decoded JSON: a state object, or a ParseResult carrying one."""
    if isinstance(value, Mapping) and "canonical_state" in value:
        value = value["canonical_state"]
        if value is None:
            return None, "that result has no canonical_state (it was not ok)"
    if not isinstance(value, Mapping):
        return None, "must be a JSON object holding a gate state"
    try:
        return GateState.model_validate(value), None
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first.get("loc", ())) or "(top level)"
        return None, f"not a valid gate state: {where}: {first.get('msg', 'invalid')}"
    except (ValueError, TypeError, RecursionError):
        return None, "not a valid gate state"
