"""``gate-tui validate-config`` lists every problem of a config in one pass (the checks that
span fields, such as ``gate_order``, too), suggests near names for misspelt fields, and
exits with the status the docs say."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from gate_tui.config.loading import check_config
from tests.conftest import ROOT

BAD = """\
schema_version: "1.0"
gate_order: [a, b, c]
gates:
  a:
    question: A?
    requird: true
  b:
    question: B?
    expected_categories: [x, y]
    blocking_categories: [z]
policy:
  allow_user_overide: true
"""


def gate_tui(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gate_tui", *args], capture_output=True, text=True, timeout=60
    )


@pytest.fixture
def bad(tmp_path: Path) -> Path:
    path = tmp_path / "bad.yaml"
    path.write_text(BAD, encoding="utf-8")
    return path


def test_every_problem_in_one_pass(bad: Path) -> None:
    lines = gate_tui("validate-config", str(bad)).stdout.splitlines()
    assert len(lines) == 4, lines
    assert any(
        line.endswith(
            ":2: gate_order: must name every gate exactly once: 'c' is not defined under 'gates'"
        )
        for line in lines
    )
    assert any("blocking_categories: 'z'" in line for line in lines)


def test_misspelt_fields_get_a_near_name(bad: Path) -> None:
    out = gate_tui("validate-config", str(bad)).stdout
    assert ":6: gates.a.requird: unknown field 'requird' (did you mean 'required'?)" in out
    assert "(did you mean 'allow_user_override'?)" in out


def test_a_gate_order_typo_gets_a_near_gate_key(tmp_path: Path) -> None:
    path = tmp_path / "order.yaml"
    path.write_text(
        "gate_order: [use_case]\ngates:\n  use_cases: {question: 'Q?'}\n", encoding="utf-8"
    )
    messages = [problem.message for problem in check_config(path).problems]
    assert messages == [
        "must name every gate exactly once: 'use_case' is not defined under 'gates' (did you mean "
        "'use_cases'?); missing from gate_order: 'use_cases'"
    ]


def test_a_gate_order_problem_alone_is_listed_once(tmp_path: Path) -> None:
    path = tmp_path / "order.yaml"
    path.write_text("gate_order: [a, a]\ngates:\n  a: {question: 'Q?'}\n", encoding="utf-8")
    assert len(check_config(path).problems) == 1


def test_docs_and_code_agree_on_the_exit_status(bad: Path) -> None:
    editor_page = (ROOT / "docs" / "editor.md").read_text(encoding="utf-8")
    checks_page = (ROOT / "docs" / "checks.md").read_text(encoding="utf-8")
    editor = re.search(r"field, what is wrong\) and exits with status (\d)", editor_page)
    validate = re.search(
        r"validate-config CFG\.\.\..*\n(?:.*\n){0,3}?.*# exit 0 all valid, (\d) some invalid",
        checks_page,
    )
    assert editor and validate
    assert gate_tui("validate-config", str(bad)).returncode == int(validate.group(1))
    assert gate_tui(str(bad)).returncode == int(editor.group(1))
