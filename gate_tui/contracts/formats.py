"""Formats are enforced in every draft alike, and a format nobody checks is named as such.

Contracts enforce ``format`` (what their authors expect), but jsonschema-rs knows each draft's
own list only: a draft-07 or draft-04 validator silently ignores ``"format": "uuid"`` and
``"duration"`` (added in 2019-09), so the bundled game protocol's uuid ids, written for
draft-07, would pass anything. :func:`format_checkers` lends such a draft the checker of
2020-12 for each format that draft lacks, so a format means the same in every draft.

Formats no draft defines (OpenAPI's ``int32``, ``int64``, ``byte``; Kubernetes'
``int-or-string``) cannot be checked: :func:`unchecked_formats` names them, and
``validate-contract`` says so rather than claiming they are enforced.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

_KNOWN_2020_12 = (
    "date",
    "date-time",
    "duration",
    "email",
    "hostname",
    "idn-email",
    "idn-hostname",
    "ipv4",
    "ipv6",
    "iri",
    "iri-reference",
    "json-pointer",
    "regex",
    "relative-json-pointer",
    "time",
    "uri",
    "uri-reference",
    "uri-template",
    "uuid",
)
"""The formats of JSON Schema 2020-12, every one of which its validator checks."""


def validator_class(draft: int) -> Any:
    import jsonschema_rs

    return {
        4: jsonschema_rs.Draft4Validator,
        6: jsonschema_rs.Draft6Validator,
        7: jsonschema_rs.Draft7Validator,
        19: jsonschema_rs.Draft201909Validator,
    }.get(draft, jsonschema_rs.Draft202012Validator)


def _knows(draft: int, name: str) -> bool:
    try:
        validator_class(draft)(
            {"format": name}, validate_formats=True, ignore_unknown_formats=False
        )
    except ValueError:
        return False
    return True


@cache
def format_checkers(draft: int) -> dict[str, Callable[[str], bool]]:
    """The checkers a ``draft`` validator lacks, borrowed from 2020-12 (``formats=`` of
    jsonschema-rs)."""
    borrowed: dict[str, Callable[[str], bool]] = {}
    for name in _KNOWN_2020_12:
        if not _knows(draft, name):
            borrowed[name] = validator_class(20)({"format": name}, validate_formats=True).is_valid
    return borrowed


def unchecked_formats(names: set[str], draft: int) -> list[str]:
    """The formats among ``names`` that no validator here checks (they stay annotations)."""
    return sorted(name for name in names if name not in _KNOWN_2020_12 and not _knows(draft, name))
