"""Check a decoded payload against a gate config and build the proposed gate values.

JSON objects arrive as ``dict`` (``parse`` converts other mappings first), so the
hot path tests ``isinstance(x, dict)``: the ``Mapping`` ABC check is several times slower.

Two actors, two rules:

* ``assistant`` sends a *full state*: ``summary``, ``gates`` and ``status`` must all be
  there, every required gate must be present, and the claimed ``status`` is kept only
  to tell the user when the model disagreed with the system.
* ``user`` sends a *patch* over the previous state: absent keys keep their value,
  ``null``/``""`` clears a value, a gate set to ``null`` is a deletion request, and
  ``status`` is ignored unless the policy allows a user override.

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
_TOP_LEVEL_SET = frozenset(TOP_LEVEL_KEYS)
GATE_FIELDS = ("raw", "classified")
_GATE_FIELD_SET = frozenset(GATE_FIELDS)
STATUS_FIELDS = ("pass", "next_gate", "next_query")
_STATUS_FIELD_SET = frozenset(STATUS_FIELDS)
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
            more = f"and {self.more_warnings:,} more warnings (only the first {MAX_REPORTED} are listed)"
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


def validate_assistant(
    data: Mapping[Any, Any], config: GateConfig, *, status_cut: bool = False
) -> Proposal:
    """Check a full state sent by a model. ``status_cut``: the reply was cut before (or inside)
    its ``status`` block and the caller accepts cut replies: the system writes the status."""
    plain = _plain_assistant_state(data, config)
    return (
        plain if plain is not None else check_assistant_fully(data, config, status_cut=status_cut)
    )


def check_assistant_fully(
    data: Mapping[Any, Any], config: GateConfig, *, status_cut: bool = False
) -> Proposal:
    """:func:`validate_assistant` without its one-pass shortcut: every check, every message."""
    out = Proposal()
    check_envelope(data, config, out)
    if "summary" in data:
        out.summary = check_summary(data["summary"], out) or ""
    else:
        out.error("missing_key", "summary is missing", "summary", expected="string")
    gates = data.get("gates", ABSENT)
    if gates is ABSENT:
        out.error("missing_key", "gates is missing", "gates", expected="object")
    elif not isinstance(gates, dict):
        out.error(
            "invalid_type", "gates must be an object", "gates", expected="object", actual=gates
        )
    else:
        _assistant_gates(gates, config, out)
    status = data.get("status", ABSENT)
    if status is ABSENT and not status_cut:
        out.error("missing_key", "status is missing", "status", expected="object")
    elif status is ABSENT:
        out.claimed_status = {}  # nothing claimed: the decision writes the status
    else:
        _assistant_status(status, config, out)
    if not out.errors:
        out.gates = {
            key: out.gates.get(key) or {"raw": None, "classified": None}
            for key in config.gate_order
        }
    return out


def _plain_assistant_state(data: Mapping[Any, Any], config: GateConfig) -> Proposal | None:
    """The whole check of a model's state in one pass, when nothing about it needs words.

    Most replies are a state exactly as asked for: known top-level keys, a string
    summary, every gate object plain (see :func:`_plain_gate_value`) and a gate of the
    config, every required gate present, a status with a boolean ``pass``. The full
    check finds no error and no warning in such a state, after walking it in several
    passes and building the gates in reply order before putting them in config order;
    this builds the canonical gates directly. Anything else, however harmless, returns
    None and the full check decides (and words the errors). Tests check the two agree.
    """
    if not data.keys() <= _TOP_LEVEL_SET:
        return None
    version = data.get("schema_version", ABSENT)
    if version is not ABSENT and version not in SUPPORTED_SCHEMA_VERSIONS:
        return None
    summary = data.get("summary", ABSENT)
    if type(summary) is not str:
        return None  # absent, null or not a string: errors
    else:
        summary = summary.strip()
        if len(summary) > SUMMARY_MAX_CHARS:
            return None
    gates, status = data.get("gates"), data.get("status")
    if (
        type(gates) is not dict
        or type(status) is not dict
        or not status.keys() <= _STATUS_FIELD_SET
    ):
        return None
    passed, next_gate, next_query = (
        status.get("pass"),
        status.get("next_gate"),
        status.get("next_query"),
    )
    if type(passed) is not bool or (next_query is not None and type(next_query) is not str):
        return None
    defs = config.gates
    if next_gate is not None and (type(next_gate) is not str or next_gate not in defs):
        return None
    canonical: dict[str, dict[str, str | None]] = {}
    matched = 0
    for key in config.gate_order:
        value = gates.get(key)
        if value is None:
            if key in gates or defs[key].required:
                return None  # a null gate, or a required gate missing: errors
            canonical[key] = {"raw": None, "classified": None}
            continue
        # _plain_gate_value, inlined: this runs for every gate of every reply.
        if type(value) is not dict or not _GATE_FIELD_SET.issuperset(value):
            return None
        raw, classified = value.get("raw"), value.get("classified")
        if raw is not None and type(raw) is not str:
            return None
        categories = defs[key].expected_categories
        if classified is not None and (
            type(classified) is not str or (categories and classified not in categories)
        ):
            return None
        canonical[key] = {
            "raw": (raw.strip() or None) if raw else None,
            "classified": classified or None,
        }
        matched += 1
    if matched != len(gates):
        return None  # a key that is not a gate of this config
    claimed = {"pass": passed, "next_gate": next_gate, "next_query": next_query}
    return Proposal(summary=summary, gates=canonical, claimed_status=claimed)


def _assistant_gates(gates: dict[Any, Any], config: GateConfig, out: Proposal) -> None:
    known = config.gates
    for key, value in gates.items():
        gate = known.get(key) if isinstance(key, str) else None
        if gate is None:
            unknown_gate(key, "assistant", config, out)
        elif type(value) is dict and _plain_gate_value(value, gate):
            # The common case, checked cheaply: only raw/classified, strings or null,
            # a category spelled exactly as configured.
            raw, classified = value.get("raw"), value.get("classified")
            out.gates[key] = {
                "raw": (raw.strip() or None) if raw else None,
                "classified": classified or None,
            }
        else:
            _assistant_gate(key, gate, value, config, out)
    for key in config.gate_order:
        if known[key].required and key not in gates:
            out.error(
                "missing_required_gate",
                f"required gate {key!r} is missing",
                f"gates.{key}",
                expected="object",
            )


def _plain_gate_value(value: dict[Any, Any], gate: GateDef) -> bool:
    """True when a gate object needs no work beyond trimming ``raw``."""
    if not value.keys() <= _GATE_FIELD_SET:
        return False
    raw, classified = value.get("raw"), value.get("classified")
    if raw is not None and type(raw) is not str:
        return False
    return classified is None or (
        type(classified) is str
        and (not gate.expected_categories or classified in gate.expected_categories)
    )


def _assistant_gate(key: str, gate: GateDef, value: Any, config: GateConfig, out: Proposal) -> None:
    """The full check of one gate object, with an error or warning for each problem."""
    path = f"gates.{key}"
    if not isinstance(value, dict):
        out.error(
            "invalid_type",
            f"gate {key!r} must be an object with raw and classified",
            path,
            expected="object",
            actual=value,
        )
        return
    check_gate_fields(value, path, out)
    raw_ok, raw = check_text(value.get("raw"), f"{path}.raw", out)
    cls_ok, classified = check_text(value.get("classified"), f"{path}.classified", out)
    if cls_ok:
        cls_ok, classified = resolve_category(gate, classified, f"{path}.classified", config, out)
    if raw_ok and cls_ok:
        out.gates[key] = {"raw": raw, "classified": classified}


def _assistant_status(status: Any, config: GateConfig, out: Proposal) -> None:
    if not isinstance(status, dict):
        out.error(
            "invalid_type", "status must be an object", "status", expected="object", actual=status
        )
        return
    for name in status:
        if name not in STATUS_FIELDS:
            shown = name if isinstance(name, str) else describe(name)
            out.error(
                "invalid_key",
                f"unknown field {shown!r} in status",
                f"status.{shown}",
                expected="pass, next_gate or next_query",
                actual=name,
            )
    claimed: dict[str, Any] = {}
    if "pass" not in status:
        out.error("missing_key", "status.pass is missing", "status.pass", expected="boolean")
    elif not isinstance(status["pass"], bool):
        out.error(
            "invalid_type",
            "status.pass must be true or false",
            "status.pass",
            expected="boolean",
            actual=status["pass"],
        )
    else:
        claimed["pass"] = status["pass"]
    next_gate = status.get("next_gate")
    if next_gate is not None and not isinstance(next_gate, str):
        out.error(
            "invalid_type",
            "status.next_gate must be a gate key or null",
            "status.next_gate",
            expected="string or null",
            actual=next_gate,
        )
    elif isinstance(next_gate, str) and next_gate not in config.gates:
        out.error(
            "invalid_gate_key",
            f"status.next_gate {next_gate!r} is not a gate of this config",
            "status.next_gate",
            expected="one of " + ", ".join(config.gate_order),
            actual=next_gate,
        )
    else:
        claimed["next_gate"] = next_gate
    next_query = status.get("next_query")
    if next_query is not None and not isinstance(next_query, str):
        out.error(
            "invalid_type",
            "status.next_query must be a string or null",
            "status.next_query",
            expected="string or null",
            actual=next_query,
        )
    else:
        claimed["next_query"] = next_query
    out.claimed_status = claimed


