"""One decision rule, stated identically everywhere: ``gate-tui prompt``, the docs,
help (F1) and ``gate-tui schema --decision-rules`` all show the text of
:mod:`gate_tui.decision_rules`; and the prompt teaches blocking categories, so a model that
classifies a blocking answer honestly is not overruled."""

from __future__ import annotations

import json
import re
import subprocess
import sys

from rich.console import Console

from gate_tui import load_config, parse
from gate_tui.decision_rules import (
    DECISION_RULES,
    decision_rules_lines,
    decision_rules_text,
    readme_block,
)
from tests.conftest import CONFIGS, ROOT

ML = CONFIGS / "ml_project_intake.yaml"


def gate_tui(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gate_tui", *args], capture_output=True, text=True, timeout=60
    )


def squeezed(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def test_prompt_states_the_rule() -> None:
    done = gate_tui("prompt", "--config", str(ML))
    assert done.returncode == 0, done.stderr
    assert decision_rules_text() in done.stdout
    assert "blocking categories" in done.stdout


def test_schema_with_decision_rules_states_the_rule() -> None:
    done = gate_tui("schema", "--config", str(ML), "--decision-rules")
    assert done.returncode == 0, done.stderr
    assert decision_rules_text() in json.loads(done.stdout)["description"]


def test_help_states_the_rule() -> None:
    from gate_tui.tui.screens.help import help_renderable

    console = Console(width=2000, record=True, file=open("/dev/null", "w"))  # noqa: SIM115 - closed with the console
    console.print(help_renderable({}))
    shown = squeezed(console.export_text())
    console.file.close()
    for line in decision_rules_lines():
        assert squeezed(line) in shown


def test_the_docs_hold_the_generated_block() -> None:
    page = (ROOT / "docs" / "decision-rules.md").read_text(encoding="utf-8")
    assert readme_block() in page, (
        "run `python -m gate_tui.decision_rules` and paste its output into docs/decision-rules.md"
    )


def test_every_rule_is_one_plain_line() -> None:
    # One line each, nothing a Markdown viewer, a terminal or markup would read differently.
    for rule in DECISION_RULES:
        assert "\n" not in rule and not re.search(r"[`*\[\]<>\\]", rule)


def test_prompt_names_each_gates_blocking_categories() -> None:
    done = gate_tui("prompt", "--config", str(ML))
    assert "Blocking: unavailable." in done.stdout
    assert "Blocking: pending_review, not_approved." in done.stdout


def test_a_model_that_follows_the_prompt_on_a_blocked_gate_is_not_overruled() -> None:
    config = load_config(ML)
    blocked = config.gates["1_data_availability"].question
    reply = {
        "summary": "No labelled data yet",
        "gates": {
            "1_data_availability": {"raw": "We have no labels at all", "classified": "unavailable"},
            "2_use_case": {"raw": "Churn offers", "classified": None},
            "3_success_metric": {"raw": "AUC 0.8", "classified": None},
            "4_data_privacy": {"raw": "Approved by legal", "classified": "approved"},
            "5_stakeholder": {"raw": None, "classified": None},
        },
        # Rule: the blocked gate is the next gate, NO PASS.
        "status": {"pass": False, "next_gate": "1_data_availability", "next_query": blocked},
    }
    result = parse(json.dumps(reply), config)
    assert result.ok
    assert (result.decision.pass_, result.decision.reason) == (False, "required_blocked")
    assert [w.code for w in result.warnings if "claimed" in w.message] == []


def test_the_ml_sample_blocks_on_a_pending_privacy_review() -> None:
    config = load_config(ML)
    for value in ("pending_review", "not_approved"):
        reply = {
            "summary": "Everything but privacy",
            "gates": {
                "1_data_availability": {
                    "raw": "Two years in the warehouse",
                    "classified": "available",
                },
                "2_use_case": {"raw": "Churn offers", "classified": None},
                "3_success_metric": {"raw": "AUC 0.8", "classified": None},
                "4_data_privacy": {"raw": "Legal has not signed off", "classified": value},
                "5_stakeholder": {"raw": None, "classified": None},
            },
            "status": {"pass": True, "next_gate": None, "next_query": None},
        }
        result = parse(json.dumps(reply), config)
        assert (result.decision.pass_, result.decision.next_gate) == (False, "4_data_privacy")


def test_the_vendor_sample_blocks_without_single_sign_on() -> None:
    config = load_config(CONFIGS / "vendor_security_review.yaml")
    assert "none" in config.gates["3_sso"].blocking_categories
