"""The data contract of gate-tui: configs, states, decisions, diffs and parse results.

Every value that crosses a boundary (config files, model replies, the journal, the CLI's
JSON output) is one of these pydantic v2 models, so that it round-trips through
``model_dump(mode="json", by_alias=True)`` / ``model_validate`` without loss.
The JSON key of the decision flag is ``"pass"``, which is a Python keyword; the
attribute is therefore ``pass_`` and every model serialises by alias.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, SkipValidation, model_validator
from typing_extensions import TypedDict

from gate_tui.safe_text import visible

SUPPORTED_SCHEMA_VERSIONS: tuple[str, ...] = ("1.0",)

ErrorCode = Literal[
    "invalid_json",
    "missing_key",
    "invalid_type",
    "invalid_value",
    "invalid_key",
    "missing_required_gate",
    "invalid_category",
    "invalid_gate_key",
    "deletion_not_allowed",
    "schema_version_mismatch",
]
Actor = Literal["assistant", "user"]
DecisionReason = Literal[
    "all_required_complete",
    "required_missing",
    "required_blocked",
    "required_ungrounded",
    "user_override",
]
Certainty = Literal["exact", "guess"]


class _Model(BaseModel):
    """Base for every model: aliases in and out, no silently accepted extra fields."""

    model_config = ConfigDict(
        populate_by_name=True,
        serialize_by_alias=True,
        extra="forbid",
    )


class Policy(_Model):
    """What a config allows each actor to do; the defaults are the strict ones."""

    allow_user_delete_gate_keys: bool = False
    allow_user_clear_values: bool = True
    strict_classified_validation: bool = True
    allow_user_extra_gate_keys: bool = False
    reject_unknown_top_level_keys: bool = True
    allow_user_override: bool = False
    allow_guessed_repairs: bool = True
    """A reply that needs a judgment call (an inner quote, an unquoted value, a missing
    quote) is accepted with the guess shown; False makes it ``invalid_json`` naming it."""
    # Left out of dumps when unset: a config's fingerprint (its dump's hash) stays what it was.
    grounding: Literal["off", "warn", "require"] | None = Field(
        default=None, exclude_if=lambda value: value is None
    )
    """Whether a ``raw`` answer must trace to the user's words (see docs/grounding.md):
    ``warn`` reports one that does not, ``require`` also lets it not count (NO PASS,
    ``required_ungrounded``). Unset: ``warn`` when a conversation is known, else ``off``."""
    accept_truncated_replies: bool = False
    """A reply cut off mid-JSON is rejected by default; True accepts what was recovered,
    with a warning naming every field the cut touched."""


class GateDef(_Model):
    """One question that must be answered before work may start."""

    question: str
    required: bool = True
    expected_categories: list[str] = Field(default_factory=list)
    label: str | None = None
    description: str | None = None
    blocking_categories: list[str] = Field(default_factory=list)
    """Categories that block: a required gate classified as one is NO PASS
    (``required_blocked``)."""

    @model_validator(mode="after")
    def _check_blocking(self) -> GateDef:
        problem = blocking_problem(self.blocking_categories, self.expected_categories)
        if problem:
            raise ValueError(problem)
        return self

    @property
    def categorical(self) -> bool:
        """A gate with categories is complete when ``classified`` is set, else when ``raw`` is."""
        return bool(self.expected_categories)


GATE_KEY_PATTERN = re.compile(r"\w[\w.-]{0,99}")


def gate_key_problem(key: str) -> str | None:
    """Why ``key`` cannot name a gate, or None: keys are shown on every surface and used in
    paths (``gates.K.raw``), so they are non-empty identifiers — letters, digits, ``_``, ``.``
    and ``-``, at most 100 characters — never controls, newlines, spaces or markup."""
    if not key:
        return "is empty"
    if GATE_KEY_PATTERN.fullmatch(key) is None:
        return "is not an identifier" if len(key) <= 100 else "is longer than 100 characters"
    return None


class GateConfig(_Model):
    """The list of gates, their order and the policy; loaded by
    :func:`gate_tui.config.loading.load_config`."""

    schema_version: str = "1.0"
    name: str | None = None
    description: str | None = None
    gate_order: list[str] = Field(default_factory=list)
    gates: dict[str, GateDef]
    policy: Policy = Field(default_factory=Policy)
    keymap: dict[str, str] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _check_order(self) -> GateConfig:
        problems = whole_config_problems(self.schema_version, list(self.gates), self.gate_order)
        if problems:
            # One error here (pydantic's after-validators raise one); the loader lists the
            # rest from the same function, so a config's problems all show in one pass.
            raise ValueError(problems[0])
        if not self.gate_order:
            self.gate_order = list(self.gates)
        return self


def whole_config_problems(
    schema_version: Any, gate_keys: list[str], gate_order: list[str]
) -> list[str]:
    """Every problem of the checks that span fields (version, gate keys, ``gate_order``),
    each as ``field: message``. The one source of these rules: :class:`GateConfig` raises
    the first, :func:`gate_tui.config.loading.config_from_text` reports them all."""
    problems: list[str] = []
    if schema_version not in SUPPORTED_SCHEMA_VERSIONS:
        problems.append(
            f"schema_version: {schema_version!r} is not supported (supported: "
            f"{', '.join(SUPPORTED_SCHEMA_VERSIONS)})"
        )
    if not gate_keys:
        return [*problems, "gates: a config needs at least one gate"]
    bad_keys = [
        f"{visible(key, one_line=True)!r} {why}"
        for key in gate_keys
        if (why := gate_key_problem(key))
    ]
    if bad_keys:
        problems.append(
            "gates: gate keys must be identifiers (letters, digits, _ . -): " + "; ".join(bad_keys)
        )
    if not gate_order:
        return problems
    wrong: list[str] = []
    seen: set[str] = set()
    known = set(gate_keys)
    for key in gate_order:
        if key in seen:
            wrong.append(f"{key!r} is listed twice")
        elif key not in known:
            wrong.append(f"{key!r} is not defined under 'gates'{near_name(key, gate_keys)}")
        seen.add(key)
    missing = [key for key in gate_keys if key not in seen]
    if missing:
        wrong.append("missing from gate_order: " + ", ".join(repr(k) for k in missing))
    if wrong:
        problems.append("gate_order: must name every gate exactly once: " + "; ".join(wrong))
    return problems


def blocking_problem(blocking: list[str], expected: list[str]) -> str | None:
    """Why a gate's ``blocking_categories`` are wrong (one not among its
    ``expected_categories``), or None. One source: :class:`GateDef` raises it, and
    ``validate-config`` checks raw gates with it when another field error stops the model."""
    unknown = [c for c in blocking if c not in expected]
    if not unknown:
        return None
    if len(unknown) == 1:
        return (
            f"blocking_categories: {unknown[0]!r} is not one of "
            f"expected_categories{near_name(unknown[0], expected)}"
        )
    return (
        "blocking_categories: "
        + ", ".join(repr(c) for c in unknown)
        + " are not among expected_categories"
    )


def near_name(name: str, names: Iterable[str]) -> str:
    """`` (did you mean 'required'?)`` when ``names`` holds one close to ``name``, else ``""``."""
    names = list(names)
    # Case first: 'Red' for 'red' is too short for difflib's ratio but plainly the same word.
    close = [
        known for known in names if known.casefold() == name.casefold()
    ] or difflib.get_close_matches(name, names, n=1, cutoff=0.75)
    return f" (did you mean {close[0]!r}?)" if close else ""


class GateValue(_Model):
    """A gate's answer: free text (``raw``) and, for categorical gates, a category."""

    raw: str | None = None
    classified: str | None = None


class StatusInfo(_Model):
    """The status block of a state. In a canonical state the system wrote it, not the model."""

    pass_: bool = Field(default=False, alias="pass")
    next_gate: str | None = None
    next_query: str | None = None


class GateState(_Model):
    """``{summary, gates, status}``: what the editor shows and the journal records."""

    summary: str = ""
    gates: dict[str, GateValue] = Field(default_factory=dict)
    status: StatusInfo = Field(default_factory=StatusInfo)


class GateDecision(_Model):
    """The system's PASS / NO PASS verdict and why."""

    pass_: bool = Field(alias="pass")
    reason: DecisionReason
    next_gate: str | None = None
    next_question: str | None = None
    blocked_value: str | None = None
    """With ``required_blocked``: the blocking category ``next_gate`` is classified as."""


class FieldChange(TypedDict):
    """One changed field for the diff pane:
    ``{"path": "gates.2_use_case.raw", "before": …, "after": …}``.

    A typed dict rather than a model: a first state has a change per field, and
    building a model for each tripled the cost of ``parse`` on a typical reply.
    """

    path: str
    before: Any
    after: Any


class GateDiff(_Model):
    """What a transition changed, from the previous canonical state to the new one."""

    actor: Actor
    summary_changed: bool = False
    gates_added: list[str] = Field(default_factory=list)
    gates_removed: list[str] = Field(default_factory=list)
    gates_raw_changed: list[str] = Field(default_factory=list)
    gates_classified_changed: list[str] = Field(default_factory=list)
    # Built by the diff code itself, so validation would only copy it (a first state has
    # a change per field, and copying them was most of parse()'s cost on a typical reply).
    changes: SkipValidation[list[FieldChange]] = Field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not self.changes


class ParseError(_Model):
    """One problem with a payload, with the path of the field it concerns.

    Errors are values: the parser collects every one of them instead of raising.
    """

    code: ErrorCode
    message: str
    field_path: str = ""
    expected: str | None = None
    actual: str | None = None


class ParseWarning(_Model):
    """Something the parser accepted but the user should know: a repair, a cleared value,
    a claimed status the system overruled."""

    code: str
    message: str
    field_path: str = ""
    line: int | None = None
    column: int | None = None


class Repair(_Model):
    """One fix the repair pass applied to a model's JSON, with its 1-based position."""

    code: str
    message: str
    line: int
    column: int
    certainty: Certainty = "exact"
    """``exact``: the fix preserves the meaning; ``guess``: a judgment call the reviewer should
    check."""


class CandidateInfo(_Model):
    """One object of a reply that could be the answer, as :func:`gate_tui.parse` judged it.

    ``index`` is what ``parse(..., candidate=K)`` takes; ``valid`` says whether parsing
    with that candidate would succeed, and ``problem`` why not.
    """

    index: int
    line: int
    column: int
    source: str
    used: bool
    valid: bool
    problem: str | None = None


class ParseResult(_Model):
    """Everything one call of :func:`gate_tui.parse` found out.

    ``ok`` is False exactly when ``errors`` is non-empty; then there is no state,
    decision or diff and the caller keeps its previous state.
    """

    ok: bool
    canonical_state: GateState | None = None
    decision: GateDecision | None = None
    diff: GateDiff | None = None
    errors: list[ParseError] = Field(default_factory=list)
    warnings: list[ParseWarning] = Field(default_factory=list)
    repairs: list[Repair] = Field(default_factory=list)
    claimed_status: StatusInfo | None = None
    source: str | None = None
    recovered: dict[str, Any] | None = None
    """What was read from a reply the policy refused (cut off, or needing a guess): for a
    preview only, never a state."""
    grounding: dict[str, Any] | None = Field(default=None, exclude_if=lambda value: value is None)
    """What :func:`gate_tui.grounding.ground` found (a ``GroundingReport`` as JSON); absent
    when the reply was not checked against a conversation."""
    candidates: list[CandidateInfo] = Field(default_factory=list)
    """Every object of a text reply that could be the answer, in text order; ``used`` marks
    the one this result read (``parse(..., candidate=K)`` reads another)."""
