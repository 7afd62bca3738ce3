"""The config cache and the config spec: the editor's pydantic-free start.

A cached entry must describe exactly the config the models validated, any change to
the file must miss, and a damaged, foreign or unwritable cache must only ever cost
a validation, never a wrong config or an exception.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gate_tui.config import cache as config_cache
from gate_tui.config.cache import MAX_ENTRIES, cache_dir, cache_key, open_config
from gate_tui.config.loading import load_config
from gate_tui.config.spec import spec_from_data, spec_from_model
from tests.tui_helpers import CONFIGS, ML_CONFIG

SAMPLES = sorted(CONFIGS.glob("*.yaml"))


def entries() -> list[Path]:
    return sorted(cache_dir().glob("*.json"))


def validations(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Count the calls that validate a config text with the models."""
    calls: list[str] = []
    validate = config_cache.config_from_text

    def counting(text: str, suffix: str, name: str = "<config>") -> Any:
        calls.append(name)
        return validate(text, suffix, name)

    monkeypatch.setattr(config_cache, "config_from_text", counting)
    return calls


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_the_spec_is_the_validated_config(path: Path) -> None:
    model = load_config(path)
    spec = spec_from_model(model)
    assert spec.to_model() == model
    assert (spec.name, spec.description, list(spec.gate_order), dict(spec.keymap)) == (
        model.name,
        model.description,
        model.gate_order,
        model.keymap,
    )
    assert spec.policy.allow_user_override == model.policy.allow_user_override
    for key, gate in model.gates.items():
        seen = spec.gates[key]
        assert (
            seen.question,
            seen.required,
            list(seen.expected_categories),
            seen.label,
            seen.description,
            seen.categorical,
        ) == (
            gate.question,
            gate.required,
            gate.expected_categories,
            gate.label,
            gate.description,
            gate.categorical,
        )


def test_a_second_start_reads_the_cache_instead_of_validating(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls = validations(monkeypatch)
    first, problems = open_config(ML_CONFIG)
    assert problems == [] and first is not None and len(calls) == 1 and len(entries()) == 1
    second, problems = open_config(ML_CONFIG)
    assert problems == [] and second == first and len(calls) == 1


def test_any_edit_of_the_file_misses(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    config = tmp_path / "intake.yaml"
    text = ML_CONFIG.read_text(encoding="utf-8")
    config.write_text(text, encoding="utf-8")
    calls = validations(monkeypatch)
    before, _ = open_config(config)
    config.write_text(text.replace("ML project intake", "ML intake v2"), encoding="utf-8")
    after, _ = open_config(config)
    assert len(calls) == 2 and before is not None and after is not None
    assert (before.name, after.name) == ("ML project intake", "ML intake v2")


def test_the_key_covers_text_suffix_and_version(monkeypatch: pytest.MonkeyPatch) -> None:
    key = cache_key(".yaml", "a: 1")
    assert key != cache_key(".json", "a: 1") and key != cache_key(".yaml", "a: 2")
    monkeypatch.setattr(config_cache, "__version__", "99.0")
    assert cache_key(".yaml", "a: 1") != key


def test_an_invalid_config_is_reported_and_not_cached(tmp_path: Path) -> None:
    config = tmp_path / "broken.yaml"
    config.write_text("gates:\n  a:\n    required: true\n", encoding="utf-8")
    spec, problems = open_config(config)
    assert spec is None and entries() == []
    assert [(p.location, p.line) for p in problems] == [("gates.a.question", 2)]
    missing, problems = open_config(tmp_path / "nope.yaml")
    assert missing is None and [p.message for p in problems] == ["file not found"]


@pytest.mark.parametrize(
    "damage",
    [
        "",
        "not json",
        "[]",
        '{"format": 2, "config": {}}',
        '{"format": 1, "config": {"gates": {}}}',
        '{"format": 1}',
    ],
    ids=["empty", "garbage", "list", "other-format", "wrong-shape", "no-config"],
)
def test_a_damaged_entry_is_a_miss_and_is_rewritten(
    monkeypatch: pytest.MonkeyPatch, damage: str
) -> None:
    good, _ = open_config(ML_CONFIG)
    (entry,) = entries()
    entry.write_text(damage, encoding="utf-8")
    calls = validations(monkeypatch)
    again, problems = open_config(ML_CONFIG)
    assert problems == [] and again == good and len(calls) == 1
    assert json.loads(entry.read_text(encoding="utf-8"))["format"] == 1


def test_an_unwritable_cache_only_costs_a_validation(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("", encoding="utf-8")
    monkeypatch.setenv(config_cache.CACHE_ENV, str(blocker / "cache"))  # its parent is a file
    calls = validations(monkeypatch)
    for _ in range(2):
        spec, problems = open_config(ML_CONFIG)
        assert spec is not None and problems == []
    assert len(calls) == 2


def test_old_entries_are_pruned(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    text = ML_CONFIG.read_text(encoding="utf-8")
    for index in range(MAX_ENTRIES + 3):
        config = tmp_path / f"c{index}.yaml"
        config.write_text(f"{text}\n# edit {index}\n", encoding="utf-8")
        open_config(config)
    assert len(entries()) == MAX_ENTRIES


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=8,
)


@settings(max_examples=300, deadline=None)
@given(
    path=st.lists(
        st.sampled_from(
            [
                "gates",
                "1_data_availability",
                "question",
                "policy",
                "gate_order",
                "keymap",
                "name",
                0,
            ]
        ),
        max_size=3,
    ),
    value=JSON,
)
def test_spec_from_data_never_raises_on_a_damaged_dump(path: list[Any], value: Any) -> None:
    data: Any = load_config(ML_CONFIG).model_dump(mode="json")
    target = data
    for step in path[:-1]:
        if isinstance(target, dict) and step in target:
            target = target[step]
        elif isinstance(target, list) and isinstance(step, int) and step < len(target):
            target = target[step]
    if path and isinstance(target, (dict, list)):
        last = path[-1]
        if isinstance(target, dict) and isinstance(last, str):
            target[last] = value
        elif isinstance(target, list) and isinstance(last, int) and last < len(target):
            target[last] = value
    else:
        data = value
    spec = spec_from_data(data)
    if spec is not None:
        # Shape only: a rule the models hold (e.g. a supported schema_version) can still
        # fail, as a ValueError that the editor's boot reports (it never meets one: the
        # cache holds only what the models dumped).
        with contextlib.suppress(ValueError):
            assert spec.to_model().gate_order == list(spec.gate_order)
