"""Contract mode on the command line, end to end: ``check --contract`` (FILEs, stdin,
``--format json``, ``--envelope``, ``--jsonl`` with ``-j 1`` and ``-j 2``), exit statuses,
``prompt --contract`` and ``validate-contract``."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from gate_tui.contracts.results import ContractResult
from tests.helpers.cli import gate_tui_in_root as gate_tui

ROOT = Path(__file__).resolve().parents[2]
CONTRACTS = ROOT / "sample_configs" / "contracts"
REPLIES = CONTRACTS / "replies"
GAME = str(CONTRACTS / "llm_result_v1.yaml")
GUARDIAN = str(CONTRACTS / "guardian_report.yaml")
SCRIPT = Path(sys.executable).with_name("gate-tui")


def reply(name: str) -> str:
    return str(REPLIES / name)


def test_check_text_lists_every_error_at_its_path_and_exits_2() -> None:
    done = gate_tui("check", "--contract", GAME, reply("llm_result_v1_lying.md"))
    assert done.returncode == 2, done.stderr
    assert "INVALID (6 errors)" in done.stdout
    for line in (
        "/emotion: missing key 'emotion' [missing_key]",
        "/choices/1/hint: unexpected key 'hint'",
        "/debug/tokenCount: expected integer, got string [invalid_type]",
    ):
        assert line in done.stdout


def test_check_valid_and_repaired_replies_exit_0_and_show_repairs() -> None:
    done = gate_tui(
        "check",
        "--contract",
        GAME,
        reply("llm_result_v1_good.md"),
        reply("llm_result_v1_repairable.md"),
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count(": VALID") == 2
    assert (
        "repairs applied (4):" in done.stdout
        and "line 11:85: removed a trailing comma" in done.stdout
    )


def test_check_shows_the_verdict_field_and_worst_status_of_several() -> None:
    done = gate_tui(
        "check",
        "--contract",
        GUARDIAN,
        reply("guardian_report_good.md"),
        reply("guardian_report_lying.md"),
    )
    assert done.returncode == 2
    assert 'guardian_report_lying.md: INVALID (1 error) — verdict: "PASS"' in done.stdout
    assert "rule broken: a PASS verdict must have no required_actions [rule_failed]" in done.stdout


def test_check_json_from_stdin_round_trips() -> None:
    text = (REPLIES / "analyst_plan_lying.md").read_text()
    done = gate_tui(
        "check",
        "--contract",
        str(CONTRACTS / "analyst_plan.yaml"),
        "--format",
        "json",
        "-",
        stdin=text,
    )
    assert done.returncode == 2
    record = json.loads(done.stdout)
    assert (
        record.pop("file") == "<stdin>"
    )  # the record names its file; the rest is the ContractResult
    result = ContractResult.model_validate(record)
    assert [(e.code, e.path) for e in result.errors] == [
        ("invalid_value", "/intent"),
        ("invalid_value", "/missing_info_questions"),
    ]


def test_check_envelope_per_reply() -> None:
    done = gate_tui(
        "check",
        "--contract",
        GUARDIAN,
        "--envelope",
        reply("guardian_report_broken.md"),
        reply("guardian_report_good.md"),
    )
    first, second = (json.loads(line) for line in done.stdout.splitlines())
    assert (
        first["error"]["code"] == "VALIDATION_FAILED" and "parseError" in first["error"]["details"]
    )
    assert second == {
        "ok": True,
        "data": json.loads(
            (REPLIES / "guardian_report_good.md").read_text().split("```json\n")[1].split("```")[0]
        ),
    }
    assert done.returncode == 2


def test_usage_and_contract_errors_exit_3(tmp_path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("$schema: https://json-schema.org/draft/2020-12/schema\ntype: objekt\n")
    done = gate_tui("check", "--contract", str(bad), reply("llm_result_v1_good.md"))
    assert done.returncode == 3 and "bad.yaml:2: /type:" in done.stderr
    assert gate_tui("check", "--contract", GAME, str(tmp_path / "missing.md")).returncode == 3
    assert gate_tui("check", "--contract", GAME, "--config", GAME, "-").returncode == 3
    assert gate_tui("check", "--contract", GAME, "--previous", GAME, "-").returncode == 3
    envelope_without_contract = gate_tui(
        "check",
        "--config",
        str(ROOT / "sample_configs" / "ml_project_intake.yaml"),
        "--envelope",
        "-",
    )
    assert (
        envelope_without_contract.returncode == 3
        and "--envelope applies only with --contract" in envelope_without_contract.stderr
    )


def write_jsonl(path: Path) -> list[str]:
    kinds = ["good", "lying", "broken", "repairable"] * 5
    with path.open("w", encoding="utf-8") as out:
        for index, kind in enumerate(kinds):
            out.write(
                json.dumps(
                    {"id": f"r{index}", "reply": (REPLIES / f"llm_result_v1_{kind}.md").read_text()}
                )
                + "\n"
            )
        out.write("not json\n\n")
        out.write(
            json.dumps(
                {
                    "id": 99,
                    "reply": {
                        "narrative": "x",
                        "emotion": "sad",
                        "choices": [{"id": "3f2b8c1e-9d4a-4e7b-8a6f-1c2d3e4f5a6b", "label": "go"}],
                    },
                }
            )
            + "\n"
        )
    return kinds


def test_jsonl_records_in_order_with_one_and_two_workers(tmp_path) -> None:
    source = tmp_path / "in.jsonl"
    kinds = write_jsonl(source)
    one = gate_tui("check", "--contract", GAME, "--jsonl", str(source), "-j", "1")
    two = gate_tui("check", "--contract", GAME, "--jsonl", str(source), "-j", "2")
    assert one.returncode == two.returncode == 2
    assert one.stdout == two.stdout
    records = [json.loads(line) for line in one.stdout.splitlines()]
    assert [r["id"] for r in records] == [f"r{i}" for i in range(len(kinds))] + [None, 99]
    assert [r["ok"] for r in records[:4]] == [True, False, False, True]
    assert set(records[0]) == {"id", "line", "ok", "result"}
    assert len(records[1]["result"]["errors"]) == 6
    assert (
        records[-2]["result"]["errors"][0]["code"] == "invalid_json" and records[-2]["line"] == 21
    )
    assert (
        records[-1] == {"id": 99, "line": 23, "ok": True, "result": records[-1]["result"]}
        and records[-1]["result"]["source"] == "object"
    )
    assert "22 replies: 11 VALID, 11 invalid" in one.stderr and "1 blank line skipped" in one.stderr


def test_jsonl_envelope_records(tmp_path) -> None:
    source = tmp_path / "in.jsonl"
    write_jsonl(source)
    done = gate_tui("check", "--contract", GAME, "--jsonl", str(source), "--envelope", "-q")
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert set(records[1]) == {"id", "line", "ok", "envelope"}
    assert len(records[1]["envelope"]["error"]["details"]["issues"]) == 6
    assert done.stderr == ""


def test_prompt_for_a_contract_lists_fields_rules_and_an_example() -> None:
    done = gate_tui("prompt", "--contract", GUARDIAN)
    assert done.returncode == 0
    assert "- verdict (required): one of \"PASS\", \"FAIL\", \"RETRY\"" in done.stdout
    assert "Rules across fields:\n- a PASS verdict must have no required_actions" in done.stdout
    example = done.stdout.split("```json\n")[1].split("```")[0]
    assert json.loads(example)["verdict"] == "FAIL"


def test_validate_contract_ok_and_every_problem(tmp_path) -> None:
    ok = gate_tui("validate-contract", *(str(p) for p in sorted(CONTRACTS.glob("*.yaml"))))
    assert ok.returncode == 0 and ok.stdout.count(": OK (") == 4
    bad = tmp_path / "bad.json"
    bad.write_text(
        json.dumps({"type": "objekt", "required": "x", "properties": {"a": {"maxLength": "3"}}})
    )
    done = gate_tui("validate-contract", str(bad))
    assert done.returncode == 3
    assert {line.split(": ", 2)[1] for line in done.stdout.splitlines()} == {
        "/type",
        "/required",
        "/properties/a/maxLength",
    }


def test_the_editor_refuses_an_invalid_contract_with_every_problem(tmp_path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(
        json.dumps(
            {
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "type": "objekt",
                "required": "x",
            }
        )
    )
    for args in (
        ("--contract", str(bad)),
        (str(bad),),
    ):  # a CONFIG with a $schema key is a contract too
        done = gate_tui(*args)
        assert done.returncode == 3
        assert "bad.json:1: /type:" in done.stderr and "bad.json:1: /required:" in done.stderr


def test_serve_refuses_a_bad_contract_and_runs_the_contract_editor_for_a_good_one(
    tmp_path: Path,
) -> None:
    from gate_tui.cli.commands.serve import editor_command

    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "$schema: https://json-schema.org/draft/2020-12/schema\ntype: 12\n", encoding="utf-8"
    )
    done = gate_tui("serve", "--contract", str(bad), "--port", "1")
    assert done.returncode == 3 and "bad.yaml" in done.stderr and "Traceback" not in done.stderr
    both = gate_tui(
        "serve",
        "--contract",
        str(CONTRACTS / "guardian_report.yaml"),
        "--state",
        str(tmp_path / "s.json"),
    )
    assert both.returncode == 3 and "--contract" in both.stderr
    command = editor_command(
        CONTRACTS / "guardian_report.yaml", None, tmp_path, contract=True
    )  # an argv list
    assert command[1:4] == ["-m", "gate_tui", "--contract"] and command[4].endswith(
        "guardian_report.yaml"
    )
