"""Grounded answers end to end: ``gate-tui ask`` against scripted models on loopback.

A model that invents every answer and claims PASS; one that quotes the user; one that
fixes a typo; one that answers gate 3 with the user's words for gate 2. Asserted on what
the user sees (exit status, output), the journal's provenance and the report.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

pytest.importorskip("openai")

from tests.conftest import CONFIGS  # noqa: E402
from tests.helpers.scripted_openai import ScriptedServer, Step  # noqa: E402

MESSAGE = (
    "The labelled data is in the warehouse. It will route support tickets. Success means "
    "90% of tickets routed right."
)


def config_file(tmp_path: Path, policy: str | None) -> Path:
    data = yaml.safe_load((CONFIGS / "ml_project_intake.yaml").read_text(encoding="utf-8"))
    if policy is not None:
        data["policy"]["grounding"] = policy
    path = tmp_path / "config.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path


def model_reply(
    data: str | None, use: str | None, metric: str | None, privacy: str | None = None
) -> str:
    gates = {
        "1_data_availability": {"raw": data, "classified": "available" if data else None},
        "2_use_case": {"raw": use, "classified": None},
        "3_success_metric": {"raw": metric, "classified": None},
        "4_data_privacy": {"raw": privacy, "classified": "no_personal_data" if privacy else None},
        "5_stakeholder": {"raw": None, "classified": None},
    }
    status = {"pass": True, "next_gate": None, "next_query": None}
    return json.dumps({"summary": "intake", "gates": gates, "status": status}, indent=2)


INVENTED = model_reply(
    "A data lake on S3 with ten million rows",
    "Fraud detection for card payments",
    "AUC above 0.95",
    "Cleared by legal",
)


def ask(
    server: ScriptedServer, config: Path, state: Path, message: str, *extra: str
) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "GATE_TUI_MODEL"))}
    env.update(OPENAI_API_KEY="sk-test", XDG_CONFIG_HOME=str(state.parent / "xdg"))
    command = [
        sys.executable,
        "-m",
        "gate_tui",
        "ask",
        str(config),
        "--state",
        str(state),
        "--model",
        "scripted",
        "--base-url",
        server.base_url,
        *extra,
        message,
    ]
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=120)


def journal(state: Path) -> list[dict]:
    return [
        json.loads(line)
        for line in state.with_name(state.name + ".journal.jsonl")
        .read_text(encoding="utf-8")
        .splitlines()
    ]


def test_an_inventing_model_passes_with_warnings_under_warn(tmp_path: Path) -> None:
    state = tmp_path / "s.json"
    with ScriptedServer([Step(text=INVENTED)]) as server:
        done = ask(server, config_file(tmp_path, None), state, MESSAGE)
    assert done.returncode == 0, done.stderr
    assert "PASS" in done.stdout and "grounding: ungrounded (policy warn)" in done.stdout
    for key in ("1_data_availability", "2_use_case", "3_success_metric", "4_data_privacy"):
        assert f"gates.{key}.raw: " in done.stdout and "[ungrounded_raw]" in done.stdout
    applied = next(r for r in journal(state) if r["kind"] == "reply")
    assert {f["kind"] for f in applied["grounding"]["findings"] if f["path"].endswith(".raw")} == {
        "ungrounded"
    }


def test_an_inventing_model_gets_no_pass_under_require_naming_the_first_gate(
    tmp_path: Path,
) -> None:
    state = tmp_path / "s.json"
    with ScriptedServer([Step(text=INVENTED)]) as server:
        done = ask(server, config_file(tmp_path, "require"), state, MESSAGE, "--format", "json")
    assert done.returncode == 1, done.stderr
    result = json.loads(done.stdout)
    assert (
        result["decision"]["pass"] is False
        and result["decision"]["reason"] == "required_ungrounded"
    )
    assert result["decision"]["next_gate"] == "1_data_availability"


def test_a_model_that_quotes_the_user_is_grounded(tmp_path: Path) -> None:
    state = tmp_path / "s.json"
    quoting = model_reply(
        "The labelled data is in the warehouse",
        "route support tickets",
        "90% of tickets routed right",
        None,
    )
    with ScriptedServer([Step(text=quoting)]) as server:
        done = ask(server, config_file(tmp_path, "require"), state, MESSAGE, "--format", "json")
    result = json.loads(done.stdout)
    assert result["grounding"]["summary"] == "grounded"
    assert (
        result["decision"]["reason"] == "required_missing"
        and result["decision"]["next_gate"] == "4_data_privacy"
    )
    assert all(f["closest"]["turn"] == 1 for f in result["grounding"]["findings"])


def test_a_fixed_typo_is_near_and_shows_both_texts(tmp_path: Path) -> None:
    state = tmp_path / "s.json"
    fixed = model_reply("The labeled data is in the warehouse", None, None)
    with ScriptedServer([Step(text=fixed)]) as server:
        done = ask(server, config_file(tmp_path, None), state, MESSAGE)
    assert (
        "[near_grounded]" in done.stdout
        and "The labeled data" in done.stdout
        and "labelled data" in done.stdout
    )


def test_words_for_gate_2_used_for_gate_3_are_grounded_and_name_the_turn(tmp_path: Path) -> None:
    state = tmp_path / "s.json"
    config = config_file(tmp_path, None)
    first = model_reply(None, "route support tickets", None)
    second = model_reply(None, "route support tickets", "route support tickets")
    with ScriptedServer([Step(text=first), Step(text=second)]) as server:
        ask(server, config, state, "It will route support tickets.")
        done = ask(server, config, state, "The data lives in the warehouse.", "--format", "json")
    findings = json.loads(done.stdout)["grounding"]["findings"]
    assert [(f["path"], f["kind"], f["closest"]["turn"]) for f in findings] == [
        ("gates.3_success_metric.raw", "grounded", 1)
    ]
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path / "xdg")}
    report = subprocess.run(
        [sys.executable, "-m", "gate_tui", "report", str(state)],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert "said by" in report.stdout and "message #1" in report.stdout, report.stderr


def test_ask_again_sends_the_grounding_findings_back(tmp_path: Path) -> None:
    state = tmp_path / "s.json"
    grounded = model_reply(
        "The labelled data is in the warehouse",
        "route support tickets",
        "90% of tickets routed right",
        None,
    )
    with ScriptedServer([Step(text=INVENTED), Step(text=grounded)]) as server:
        ask(server, config_file(tmp_path, "require"), state, MESSAGE, "--retries", "1")
        sent = server.requests[-1]["messages"][-1]["content"]
    assert (
        len(server.requests) == 2
        and "Not the user's words" in sent
        and "gates.2_use_case.raw" in sent
    )
