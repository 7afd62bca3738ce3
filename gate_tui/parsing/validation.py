"""The checks both actors' rules share, and the proposal they build.

JSON objects arrive as ``dict`` (``parse`` converts other mappings first), so the
hot path tests ``isinstance(x, dict)``: the ``Mapping`` ABC check is several times slower.

Two actors, two rules, each in its module on top of this one:
:mod:`~gate_tui.parsing.assistant_check` (``assistant`` sends a *full state*) and
:mod:`~gate_tui.parsing.user_patch` (``user`` sends a *patch* over the previous state:
absent keys keep their value, ``null``/``""`` clears a value, a gate set to ``null`` is
a deletion request, and ``status`` is ignored unless the policy allows a user override).

Every problem is collected (never only the first) as a :class:`ParseError` with the
dotted path of its field, so the editor can show each one at its field.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from gate_tui import warning_codes as codes
from gate_tui.limits import SUMMARY_MAX_CHARS
from gate_tui.models import (
    SUPPORTED_SCHEMA_VERSIONS,
    ErrorCode,
    GateConfig,
    GateDef,
    ParseError,
    ParseWarning,
)

TOP_LEVEL_KEYS = ("summary", "gates", "status", "schema_version")
TOP_LEVEL_SET = frozenset(TOP_LEVEL_KEYS)
GATE_FIELDS = ("raw", "classified")
GATE_FIELD_SET = frozenset(GATE_FIELDS)
STATUS_FIELDS = ("pass", "next_gate", "next_query")
STATUS_FIELD_SET = frozenset(STATUS_FIELDS)
ABSENT = object()


@dataclass
class Proposal:
    """Gate values an actor proposes, plus everything found wrong or worth saying.

    When ``errors`` is empty, ``gates`` holds every gate of the config in ``gate_order``
    (one nobody answered as ``{"raw": None, "classified": None}``): the gates of the
    canonical state, which ``parse`` uses as they are.
    """

    summary: str = ""
    gates: dict[str, dict[str, str | None]] = field(default_factory=dict)
    errors: list[ParseError] = field(default_factory=list)
    warnings: list[ParseWarning] = field(default_factory=list)
    claimed_status: dict[str, Any] | None = None
    override: bool | None = None
    more_errors: int = 0
    """Errors beyond :data:`MAX_REPORTED`, only counted (a hostile reply can have a million)."""
    more_error_code: ErrorCode = "invalid_value"
    more_warnings: int = 0

    def error(
        self,
        code: ErrorCode,
        message: str,
        path: str,
        expected: str | None = None,
        actual: Any = ABSENT,
        shown: str | None = None,
    ) -> None:
        """Record an error; ``actual`` is described for people, ``shown`` is used as given."""
        if len(self.errors) >= MAX_REPORTED:
            if not self.more_errors:
                self.more_error_code = code
            self.more_errors += 1
            return
        if shown is None and actual is not ABSENT:
            shown = describe(actual)
        self.errors.append(
            ParseError(code=code, message=message, field_path=path, expected=expected, actual=shown)
        )

    def warn(self, code: str, message: str, path: str = "") -> None:
        if len(self.warnings) >= MAX_REPORTED:
            self.more_warnings += 1
            return
        self.warnings.append(ParseWarning(code=code, message=message, field_path=path))


    def summarised(self) -> Proposal:
        """The proposal with one record counting the errors and warnings beyond the limit."""
        if self.more_errors:
            more = (
                f"and {self.more_errors:,} more errors (only the first {MAX_REPORTED} are listed)"
            )
            self.errors.append(ParseError(code=self.more_error_code, message=more, field_path=""))
            self.more_errors = 0
        if self.more_warnings:
            more = (
                f"and {self.more_warnings:,} more warnings"
                f" (only the first {MAX_REPORTED} are listed)"
            )
            self.warnings.append(
                ParseWarning(code=codes.MORE_WARNINGS, message=more, field_path="")
            )
            self.more_warnings = 0
        return self


MAX_REPORTED = 200
"""How many errors, and how many warnings, one reply lists; the rest are counted."""


def describe(value: Any, limit: int = 80) -> str:
    """A short, bounded, non-recursive description of any value for error messages.

    ``repr`` of a deeply nested payload would recurse (and could be megabytes), so
    containers are described by their size only.
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        text = value if len(value) <= limit else value[: limit - 1] + "…"
        return '"' + text + '"'
    if isinstance(value, int | float):
        return str(value)[:limit]
    if isinstance(value, Mapping):
        return f"object with {len(value)} key{'s' * (len(value) != 1)}"
    if isinstance(value, list | tuple):
        return f"array of {len(value)} item{'s' * (len(value) != 1)}"
    return type(value).__name__


def _type_name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, str):
        return "string"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, Mapping):
        return "object"
    if isinstance(value, list | tuple):
        return "array"
    return type(value).__name__


def check_envelope(data: Mapping[Any, Any], config: GateConfig, out: Proposal) -> None:
    """Top-level keys and ``schema_version``, the same for both actors."""
    for key in data:
        if key in TOP_LEVEL_KEYS:
            continue
        name = key if isinstance(key, str) else describe(key)
        if config.policy.reject_unknown_top_level_keys:
            out.error(
                "invalid_key",
                f"unknown top-level key {name!r}",
                str(name),
                expected="one of " + ", ".join(TOP_LEVEL_KEYS[:3]),
                actual=key,
            )
        else:
            out.warn(
                codes.UNKNOWN_KEY_IGNORED, f"unknown top-level key {name!r} ignored", str(name)
            )
    version = data.get("schema_version", ABSENT)
    if version is not ABSENT and version not in SUPPORTED_SCHEMA_VERSIONS:
        out.error(
            "schema_version_mismatch",
            f"schema_version {describe(version)} is not supported",
            "schema_version",
            expected=" or ".join(SUPPORTED_SCHEMA_VERSIONS),
            actual=version,
        )


def check_summary(value: Any, out: Proposal, *, null_clears: bool = False) -> str | None:
    """A valid trimmed summary, or None after recording why it is not valid.

    ``null`` clears the summary in a user's patch (``null_clears``); a model must send a string.
    """
    if value is None and null_clears:
        return ""
    if value is None:
        out.error(
            "invalid_type",
            "summary must be a string, not null",
            "summary",
            expected="string",
            actual=value,
        )
        return None
    if not isinstance(value, str):
        out.error(
            "invalid_type", "summary must be a string", "summary", expected="string", actual=value
        )
        return None
    text = value.strip()
    if len(text) > SUMMARY_MAX_CHARS:
        out.error(
            "invalid_value",
            f"summary is {len(text)} characters; at most {SUMMARY_MAX_CHARS} allowed",
            "summary",
            expected=f"at most {SUMMARY_MAX_CHARS} characters",
            shown=f"{len(text)} characters",
        )
        return None
    return text


def check_text(value: Any, path: str, out: Proposal) -> tuple[bool, str | None]:
    """(valid, trimmed value or None for empty) for a ``raw``/``classified`` value."""
    if value is None:
        return True, None
    if not isinstance(value, str):
        out.error(
            "invalid_type",
            f"{path.rsplit('.', 1)[-1]} must be a string or null",
            path,
            expected="string or null",
            actual=value,
        )
        return False, None
    text = value.strip()
    return True, (text or None)


def resolve_category(
    gate: GateDef, value: str | None, path: str, config: GateConfig, out: Proposal
) -> tuple[bool, str | None]:
    """Match ``classified`` to the gate's categories (case-insensitively, to their spelling)."""
    if value is None:
        return True, None
    if not gate.expected_categories:
        return True, value  # categories are checked only where a gate has them: kept as written
    for category in gate.expected_categories:
        if category == value:
            return True, category
    folded = value.casefold()
    for category in gate.expected_categories:
        if category.casefold() == folded:
            out.warn(codes.CATEGORY_NORMALISED, f"{path}: {value!r} read as {category!r}", path)
            return True, category
    expected = (
        "one of " + ", ".join(gate.expected_categories)
        if gate.expected_categories
        else "null (this gate has no categories)"
    )
    if config.policy.strict_classified_validation:
        out.error(
            "invalid_category",
            f"{value!r} is not a category of this gate",
            path,
            expected=expected,
            actual=value,
        )
        return False, None
    out.warn(
        codes.CATEGORY_CLEARED,
        f"{path}: {value!r} is not a category of this gate; set to null",
        path,
    )
    return True, None


def check_gate_fields(obj: Mapping[Any, Any], path: str, out: Proposal) -> None:
    for name in obj:
        if name not in GATE_FIELDS:
            shown = name if isinstance(name, str) else describe(name)
            out.error(
                "invalid_gate_key",
                f"unknown field {shown!r} in a gate",
                f"{path}.{shown}",
                expected="raw or classified",
                actual=name,
            )


def unknown_gate(key: Any, actor: str, config: GateConfig, out: Proposal) -> None:
    shown = key if isinstance(key, str) else describe(key)
    path = f"gates.{shown}"
    if actor == "user" and config.policy.allow_user_extra_gate_keys:
        out.warn(
            codes.UNKNOWN_GATE_IGNORED, f"{shown!r} is not a gate of this config; ignored", path
        )
        return
    out.error(
        "invalid_key",
        f"{shown!r} is not a gate of this config",
        path,
        expected="one of " + ", ".join(config.gate_order),
        actual=key,
    )
