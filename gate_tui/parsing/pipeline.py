"""``parse()``: model text or a user's edit in, canonical state + system decision + diff out.

The pipeline is extraction (text only) → validation (per actor) → canonicalisation →
decision → diff. It is pure and deterministic: inputs are never mutated, nothing is
read from the clock or the environment, and the same inputs give a byte-identical
``model_dump_json()``. It never raises for bad input: every problem comes back as a
:class:`ParseError` in a result with ``ok=False``, and then no state is returned, so
the caller keeps the state it had.

Speed: the editor calls this on every keystroke and the batch checker on every line,
so the happy path works on plain dicts and builds the :class:`ParseResult` with a
single pydantic validation at the end.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from gate_tui.decision import decision_dict, status_dict
from gate_tui.limits import DEFAULT_MAX_CHARS
from gate_tui.models import (
    GateConfig,
    GateState,
    ParseError,
    ParseResult,
)
from gate_tui.parsing.assistant_check import validate_assistant
from gate_tui.parsing.candidates import Candidate, judged, listed
from gate_tui.parsing.extraction import extract_parts
from gate_tui.parsing.outcome import StateDict, error_of, failed, finish, result_of
from gate_tui.parsing.repair.vocabulary import RepairRecord
from gate_tui.parsing.text_checks import may_hold_surrogates, unstorable
from gate_tui.parsing.user_patch import apply_user_patch
from gate_tui.parsing.validation import describe

ACTORS = ("assistant", "user")


class GateJsonParser:
    """A parser with its own limits; :func:`parse` uses one with the defaults."""

    def __init__(self, max_chars: int = DEFAULT_MAX_CHARS) -> None:
        self.max_chars = max_chars

    def parse(
        self,
        payload: Any,
        gate_config: GateConfig,
        previous_state: GateState | Mapping[str, Any] | None = None,
        actor: str = "assistant",
        candidate: int | None = None,
    ) -> ParseResult:
        """See :func:`gate_tui.parse`."""
        fields, found, previous = self._parse(
            payload, gate_config, previous_state, actor, candidate
        )
        if found:
            errors = fields.get("errors")
            used_problem = errors[0].message if errors else None
            policy = gate_config.policy

            def problem_of(other: Candidate) -> str | None:
                return _candidate_problem(other, gate_config, previous, actor, policy)

            fields["candidates"] = judged(found, used_problem, problem_of)
        return result_of(fields)

    def _parse(
        self,
        payload: Any,
        gate_config: GateConfig,
        previous_state: GateState | Mapping[str, Any] | None,
        actor: str,
        candidate: int | None,
    ) -> tuple[dict[str, Any], list[Candidate], StateDict | None]:
        """The fields of the result, the reply's candidates and the previous state as a dict."""
        if not isinstance(gate_config, GateConfig):
            raise TypeError("gate_config must be a GateConfig (use load_config to read one)")
        if actor not in ACTORS:
            return (
                failed(
                    [
                        error_of(
                            "invalid_value",
                            f"actor must be 'assistant' or 'user', not {describe(actor)}",
                            "actor",
                        )
                    ]
                ),
                [],
                None,
            )
        previous, problem = _previous_dict(previous_state)
        if problem is not None:
            return failed([problem]), [], None
        policy = gate_config.policy
        # A cut-off text decides nothing for a model; a person's own edit is theirs to send.
        accept_truncated = policy.accept_truncated_replies or actor == "user"
        data, repairs, source, problem, extra = self._decode(
            payload, policy.allow_guessed_repairs, accept_truncated, candidate
        )
        found: list[Candidate] = extra.get("listed", [])
        if problem is not None:
            recovered = extra.get("recovered")
            if recovered is not None and may_hold_surrogates(payload) and unstorable(recovered):
                recovered = None  # a preview must never hold what no writer can encode
            return (
                failed(
                    [problem],
                    warnings=extra.get("warnings"),
                    repairs=repairs,
                    source=source,
                    recovered=recovered,
                ),
                found,
                previous,
            )
        assert data is not None
        bad = (
            unstorable(data)
            if not isinstance(payload, str) or may_hold_surrogates(payload)
            else None
        )
        if bad:
            errors = [
                error_of("invalid_value", f"{message} at {path or 'the top level'}", path)
                for path, message in bad
            ]
            return failed(errors, repairs=repairs, source=source), found, previous
        if actor == "assistant":
            status_cut = accept_truncated and _cut_at_status(extra)
            if status_cut:  # what the cut left of the status is not the model's claim
                data = {key: value for key, value in data.items() if key != "status"}
            proposal = validate_assistant(data, gate_config, status_cut=status_cut)
        else:
            proposal = apply_user_patch(data, base_dict(previous, gate_config), gate_config)
        return (
            finish(
                proposal.summarised(),
                gate_config,
                previous,
                actor,
                repairs,
                source,
                extra.get("warnings"),
            ),
            found,
            previous,
        )

    def _decode(
        self,
        payload: Any,
        allow_guesses: bool = True,
        accept_truncated: bool = False,
        candidate: int | None = None,
    ) -> tuple[
        Mapping[Any, Any] | None, list[RepairRecord], str | None, ParseError | None, dict[str, Any]
    ]:
        if not isinstance(
            payload, str
        ):  # text first: the commonest payload, and the ABC check is slow
            if candidate is not None and candidate != 0:
                message = (
                    f"there is no candidate {candidate!r}:"
                    " a payload that is not text is its own only candidate"
                )
                return None, [], None, error_of("invalid_value", message, ""), _NO_NOTES
            if isinstance(payload, dict):
                return payload, [], "object", None, _NO_NOTES
            if isinstance(payload, Mapping):
                return dict(payload), [], "object", None, _NO_NOTES
            message = f"payload must be text or a JSON object, not {_kind(payload)}"
            return (
                None,
                [],
                None,
                error_of("invalid_json", message, "", expected="string or object", actual=payload),
                _NO_NOTES,
            )
        value, error, source, span, repairs, notes = extract_parts(
            payload,
            self.max_chars,
            allow_guesses=allow_guesses,
            accept_truncated=accept_truncated,
            candidate=candidate,
        )
        notes["listed"] = listed(
            payload, span, source, repairs, notes, value
        )  # the notes are ours: a fresh dict
        if value is None:
            code = notes.get("error_code", "invalid_json")
            return (
                None,
                repairs,
                source,
                error_of(code, error or "No JSON object found in text", ""),
                notes,
            )
        return value, repairs, source, None, notes


_NO_NOTES: dict[str, Any] = {}


def _cut_at_status(notes: Mapping[str, Any]) -> bool:
    """Whether the reply was cut after its last complete gate: at the top level (before
    ``status``) or inside ``status``. The system writes the status anyway, so such a cut
    loses nothing the model owns; a cut anywhere else keeps its refusal or warning."""
    if notes.get("cut_at", -1) < 0:
        return False
    return all(
        path == "status" or path.startswith("status.") for path in notes.get("cut_paths") or ()
    )


_DEFAULT_PARSER = GateJsonParser()


def parse(
    payload: Any,
    gate_config: GateConfig,
    previous_state: GateState | Mapping[str, Any] | None = None,
    actor: str = "assistant",
    candidate: int | None = None,
) -> ParseResult:
    """Parse a model reply (``actor="assistant"``) or a user's patch (``actor="user"``).

    ``payload`` is reply text or an already-decoded object; ``previous_state`` is the
    state on screen (a user patch applies over it; the diff is taken against it).
    ``candidate=K`` reads the K-th (0-based) of the reply's objects (``result.candidates``)
    instead of the first gate-like one.
    """
    return _DEFAULT_PARSER.parse(payload, gate_config, previous_state, actor, candidate)


def _candidate_problem(
    other: Candidate, config: GateConfig, previous: StateDict | None, actor: str, policy: Any
) -> str | None:
    """Why parsing with ``other`` instead would fail, or None: the policy, then validation."""
    if other.cut and not (policy.accept_truncated_replies or actor == "user"):
        return "the reply is cut off inside it"
    if other.guessed and not policy.allow_guessed_repairs:
        return "reading it needs a guessed repair, and guessed repairs are not allowed"
    if actor == "assistant":
        proposal = validate_assistant(other.value, config)
    else:
        proposal = apply_user_patch(other.value, base_dict(previous, config), config)
    return proposal.errors[0].message if proposal.errors else None


def base_dict(previous: StateDict | None, config: GateConfig) -> StateDict:
    """``previous`` reshaped to ``config``: every gate in order, trimmed, empty → None."""
    old = previous["gates"] if previous is not None else {}
    gates: dict[str, dict[str, str | None]] = {}
    for key in config.gate_order:
        value = old.get(key)
        gates[key] = (
            {"raw": None, "classified": None}
            if value is None
            else {"raw": _clean(value.get("raw")), "classified": _clean(value.get("classified"))}
        )
    summary = previous["summary"].strip() if previous is not None else ""
    return {"summary": summary, "gates": gates, "status": status_dict(decision_dict(config, gates))}


def canonical_base(previous: GateState | None, config: GateConfig) -> GateState:
    """:func:`base_dict` for a model state, as a model."""
    before = None if previous is None else previous.model_dump(mode="json")
    return GateState.model_validate(base_dict(before, config))


def empty_state(config: GateConfig) -> GateState:
    """The state of a session before anyone said anything."""
    return canonical_base(None, config)












def _previous_dict(previous: Any) -> tuple[StateDict | None, ParseError | None]:
    """The previous state as a JSON-shaped dict (validated when it came as a dict)."""
    if previous is None:
        return None, None
    if isinstance(previous, GateState):
        return previous.model_dump(mode="json"), None
    if not isinstance(previous, Mapping):
        return None, error_of(
            "invalid_value",
            f"previous_state must be a state object, not {_kind(previous)}",
            "previous_state",
        )
    try:
        return GateState.model_validate(previous).model_dump(mode="json"), None
    except (ValidationError, ValueError, TypeError, RecursionError):
        return None, error_of(
            "invalid_value", "previous_state is not a valid gate state", "previous_state"
        )








def _clean(value: Any) -> str | None:
    if not isinstance(value, str):
        return None
    text = value.strip()
    return text or None


def _kind(value: Any) -> str:
    return {list: "an array", tuple: "an array", type(None): "null"}.get(
        type(value), type(value).__name__
    )
