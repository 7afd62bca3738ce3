"""Property tests: parse never raises, the decision matches the state, canonical is a fixed
point."""

from __future__ import annotations

import json
import string

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gate_tui import GateConfig, parse
from gate_tui.config.loading import load_config
from gate_tui.decision import decide
from gate_tui.models import GateState
from tests.conftest import CONFIGS

CONFIG: GateConfig = load_config(CONFIGS / "ml_project_intake.yaml")
SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

json_scalars = (
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30)
)
json_values = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4)
    ),
    max_leaves=20,
)
gate_keys = st.sampled_from([*CONFIG.gate_order, "unknown_gate"])
texts = (
    st.none()
    | st.text(max_size=40)
    | st.sampled_from(["available", "partial", "approved", "  ", ""])
)
gate_values = st.fixed_dictionaries({}, optional={"raw": texts | json_scalars, "classified": texts})
plausible_states = st.fixed_dictionaries(
    {},
    optional={
        "summary": st.text(max_size=220) | json_scalars,
        "gates": st.dictionaries(gate_keys, gate_values | st.none() | json_scalars, max_size=6),
        "status": st.fixed_dictionaries(
            {}, optional={"pass": st.booleans() | json_scalars, "next_gate": st.none() | gate_keys}
        ),
        "schema_version": st.sampled_from(["1.0", "2.0"]),
    },
)
payloads = plausible_states | st.dictionaries(st.text(max_size=10), json_values, max_size=5)
actors = st.sampled_from(["assistant", "user"])


def check_consistent(result) -> None:
    assert result.ok == (not result.errors)
    if not result.ok:
        assert result.canonical_state is None and result.decision is None and result.diff is None
        return
    state = result.canonical_state
    assert list(state.gates) == CONFIG.gate_order
    if result.decision.reason != "user_override":
        assert result.decision == decide(CONFIG, state.gates)
    assert state.status.pass_ == result.decision.pass_
    assert state.status.next_gate == result.decision.next_gate


@SETTINGS
@given(st.text(max_size=400), actors)
def test_parse_never_raises_on_any_text(text: str, actor: str) -> None:
    check_consistent(parse(text, CONFIG, actor=actor))


@SETTINGS
@given(payloads, actors)
def test_parse_never_raises_on_json_like_dicts(payload: dict, actor: str) -> None:
    check_consistent(parse(payload, CONFIG, actor=actor))


@SETTINGS
@given(payloads, actors)
def test_parse_of_dumped_json_text_agrees_with_dict(payload: dict, actor: str) -> None:
    from_dict = parse(payload, CONFIG, actor=actor)
    from_text = parse(json.dumps(payload), CONFIG, actor=actor)
    assert from_dict.ok == from_text.ok
    if from_dict.ok:
        assert from_dict.canonical_state == from_text.canonical_state


@SETTINGS
@given(plausible_states, actors)
def test_canonical_state_is_a_fixed_point(payload: dict, actor: str) -> None:
    first = parse(payload, CONFIG, actor=actor)
    if not first.ok or first.decision.reason == "user_override":
        return
    state = first.canonical_state
    again = parse(state.model_dump_json(), CONFIG, previous_state=state, actor="assistant")
    assert again.ok, again.errors
    assert again.canonical_state == state
    assert again.diff.changes == []
    assert [w for w in again.warnings if w.code == "claimed_status_overruled"] == []


@SETTINGS
@given(
    st.dictionaries(
        st.sampled_from(CONFIG.gate_order),
        st.text(alphabet=string.ascii_letters + " ", max_size=20),
        max_size=5,
    )
)
def test_user_edits_accumulate(raws: dict[str, str]) -> None:
    state: GateState | None = None
    for key, raw in raws.items():
        result = parse({"gates": {key: {"raw": raw}}}, CONFIG, state, "user")
        assert result.ok
        state = result.canonical_state
        assert state.gates[key].raw == (raw.strip() or None)
