"""Blocking categories: a required gate classified as one makes the decision NO PASS."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from gate_tui import ConfigError, GateConfig, load_config, parse
from gate_tui.decision import decision_parts

ROOT = Path(__file__).resolve().parents[2]
ML = ROOT / "sample_configs" / "ml_project_intake.yaml"
GOOD = json.loads(
    (ROOT / "sample_configs" / "replies" / "ml_good.md")
    .read_text()
    .split("```json", 1)[1]
    .split("```", 1)[0]
)


def blocked_reply(value: str = "unavailable") -> dict:
    reply = json.loads(json.dumps(GOOD))
    reply["gates"]["1_data_availability"]["classified"] = value
    return reply


def test_a_blocking_category_on_a_required_gate_is_no_pass_naming_gate_and_value() -> None:
    config = load_config(ML)
    result = parse(blocked_reply(), config)
    assert result.ok
    decision = result.decision
    assert (decision.pass_, decision.reason, decision.next_gate, decision.blocked_value) == (
        False, "required_blocked", "1_data_availability", "unavailable",
    )
    assert result.canonical_state.status.next_gate == "1_data_availability"
    assert "1_data_availability is blocked (unavailable)" in " ".join(
        w.message for w in result.warnings
    )


def test_a_non_blocking_category_passes_and_the_first_frame_rule_agrees() -> None:
    config = load_config(ML)
    assert parse(blocked_reply("partial"), config).decision.pass_ is True
    gates = {k: v for k, v in blocked_reply()["gates"].items()}
    parts = decision_parts(
        config, {k: {"raw": v["raw"], "classified": v["classified"]} for k, v in gates.items()}
    )
    assert parts.reason == "required_blocked" and parts.blocked_value == "unavailable"


def test_an_optional_gate_never_blocks() -> None:
    config = GateConfig.model_validate(
        {
            "gates": {
                "a": {"question": "A?"},
                "b": {
                    "question": "B?",
                    "required": False,
                    "expected_categories": ["ok", "no"],
                    "blocking_categories": ["no"],
                },
            }
        }
    )
    result = parse(
        {
            "summary": "",
            "gates": {"a": {"raw": "x"}, "b": {"classified": "no"}},
            "status": {"pass": True},
        },
        config,
    )
    assert result.ok and result.decision.pass_ is True


def test_a_blocking_category_that_is_not_a_category_is_a_config_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "gates:\n  a:\n    question: A?\n    expected_categories: [go, stop]\n    "
        "blocking_categories: [maybe]\n"
    )
    with pytest.raises(ConfigError) as caught:
        load_config(bad)
    assert "blocking_categories" in str(caught.value) and "'maybe'" in str(caught.value)


def test_check_says_the_gate_is_blocked(tmp_path: Path) -> None:
    reply = tmp_path / "reply.json"
    reply.write_text(json.dumps(blocked_reply()))
    done = subprocess.run(
        [sys.executable, "-m", "gate_tui", "check", "--config", str(ML), str(reply)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 1
    assert (
        "NO PASS" in done.stdout
        and "blocking category" in done.stdout
        and "blocked: classified 'unavailable'" in done.stdout
    )
    as_json = subprocess.run(
        [
            sys.executable,
            "-m",
            "gate_tui",
            "check",
            "--config",
            str(ML),
            "--format",
            "json",
            str(reply),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    decision = json.loads(as_json.stdout)["decision"]
    assert decision["reason"] == "required_blocked" and decision["blocked_value"] == "unavailable"


def test_the_report_says_the_gate_is_blocked() -> None:
    from gate_tui.session.live import Session

    config = load_config(ML)
    session = Session.in_memory(config)
    session.accept(parse(blocked_reply(), config), "reply", "assistant")
    assert "1\\_data\\_availability is blocked (unavailable)" in session.report_markdown()


def test_the_decision_panel_says_the_gate_is_blocked() -> None:
    from gate_tui.tui.render import reason_text

    decision = parse(blocked_reply(), load_config(ML)).decision
    assert reason_text(decision) == "required gate 1_data_availability is blocked: unavailable"
