"""Config loading: every format, every problem reported with where it is."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gate_tui import ConfigError, check_config, config_fingerprint, default_config_path, load_config
from tests.conftest import CONFIGS


@pytest.mark.parametrize("path", sorted(CONFIGS.glob("*.yaml")))
def test_bundled_configs_load(path: Path) -> None:
    config = load_config(path)
    assert config.gate_order == list(config.gates) or set(config.gate_order) == set(config.gates)
    assert all(gate.question for gate in config.gates.values())


def test_default_config_is_bundled() -> None:
    assert default_config_path().is_file()
    assert "1_data_availability" in load_config(default_config_path()).gates


def test_gate_order_defaults_to_the_order_of_gates(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    path.write_text(json.dumps({"gates": {"b": {"question": "B?"}, "a": {"question": "A?"}}}))
    assert load_config(path).gate_order == ["b", "a"]


def test_toml_config(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    path.write_text('gate_order = ["x"]\n[gates.x]\nquestion = "X?"\nrequired = false\n')
    config = load_config(path)
    assert config.gates["x"].required is False


def test_gate_order_must_name_every_gate_exactly_once(tmp_path: Path) -> None:
    path = tmp_path / "c.yaml"
    path.write_text(
        "gate_order: [a, a, c]\ngates:\n  a:\n    question: A?\n  b:\n    question: B?\n"
    )
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    message = str(caught.value)
    assert message.startswith(f"{path}:1: gate_order: must name every gate exactly once")
    assert "'a' is listed twice" in message
    assert "'c' is not defined under 'gates'" in message
    assert "missing from gate_order: 'b'" in message


def test_yaml_problems_carry_their_line(tmp_path: Path) -> None:
    path = tmp_path / "c.yaml"
    path.write_text("gates:\n  a:\n    question: A?\n    required: maybe\n    colour: red\n")
    problems = check_config(path).problems
    assert {(p.location, p.line) for p in problems} == {
        ("gates.a.required", 4),
        ("gates.a.colour", 5),
    }
    assert all(str(path) in str(p) for p in problems)


def test_syntax_errors_are_reported_not_raised(tmp_path: Path) -> None:
    bad_yaml = tmp_path / "bad.yaml"
    bad_yaml.write_text("gates: [unclosed\n")
    bad_json = tmp_path / "bad.json"
    bad_json.write_text('{"gates": }')
    [yaml_problem] = check_config(bad_yaml).problems
    [json_problem] = check_config(bad_json).problems
    assert yaml_problem.message.startswith("invalid YAML") and yaml_problem.line == 2
    assert json_problem.message.startswith("invalid JSON") and json_problem.line == 1


@pytest.mark.parametrize(
    ("name", "content", "expected"),
    [
        ("missing.yaml", None, "file not found"),
        ("c.ini", "x", "unsupported file type"),
        ("list.yaml", "- a\n- b\n", "top level must be a mapping"),
        ("empty.yaml", "", "top level must be a mapping, not nothing"),
        ("nogates.yaml", "gates: {}\n", "gates: a config needs at least one gate"),
        (
            "version.yaml",
            "schema_version: '9'\ngates: {a: {question: 'A'}}\n",
            "schema_version: '9' is not supported",
        ),
        ("binary.yaml", b"\xff\xfe\x00", "not UTF-8"),
    ],
)
def test_each_problem_has_a_clear_message(
    tmp_path: Path, name: str, content, expected: str
) -> None:
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif content is not None:
        path.write_text(content)
    loaded = check_config(path)
    assert loaded.config is None
    assert any(expected in str(problem) for problem in loaded.problems), loaded.problems


def test_fingerprint_changes_with_content(tmp_path: Path) -> None:
    first = load_config(CONFIGS / "ml_project_intake.yaml")
    second = first.model_copy(update={"gate_order": list(reversed(first.gate_order))})
    assert config_fingerprint(first) == config_fingerprint(
        load_config(CONFIGS / "ml_project_intake.yaml")
    )
    assert config_fingerprint(first) != config_fingerprint(second)
