"""Outside-tester findings for issues 17, 18 and 20 (round 3), each tried as a user would:
through the public CLI (``python -m gate_tui``) and the public Python API.

Each test here failed before its fix; the fix is in the commit that added the test.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from gate_tui import extract_json

ROOT = Path(__file__).resolve().parents[2]


def gate_tui(
    *args: str, cwd: Path | None = None, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gate_tui", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        input=stdin,
        timeout=120,
    )


# --- #17 item 4: a key given twice with values that only Python thinks equal ----------------

# Python says True == 1 and False == 0 == 0.0, but JSON's true and 1 are different values
# (a boolean schema accepts one and refuses the other): the model said two different things.
@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("1", "true"),
        ("true", "1"),
        ("false", "0"),
        ("0.0", "false"),
        ("[0]", "[false]"),
        ('{"ok": 1}', '{"ok": true}'),
    ],
)
def test_true_and_1_given_for_one_key_are_different_values(
    tmp_path: Path, first: str, second: str
) -> None:
    reply = (
        "The reviewer approved it, I think. Final answer:\n"
        f'{{"ticket": "OPS-4471", "approved": {first}, "reason": "rollback plan present", '
        f'"approved": {second}}}\n'
    )
    found = extract_json(reply)
    assert found.value is None
    assert "approved" in (found.error or "") and "different values" in (found.error or "")

    contract = tmp_path / "approval.yaml"
    contract.write_text(
        "type: object\nproperties:\n  approved: {type: boolean}\n  ticket: {type: string}\n",
        encoding="utf-8",
    )
    (tmp_path / "reply.md").write_text(reply, encoding="utf-8")
    done = gate_tui(
        "check", "--contract", str(contract), "--format", "json", "reply.md", cwd=tmp_path
    )
    record = json.loads(done.stdout)
    assert done.returncode == 2, done.stdout
    assert record["errors"][0]["code"] == "invalid_json"


def test_1_and_1_point_0_for_one_key_stay_the_same_number() -> None:
    # JSON Schema calls 1 and 1.0 the same number: a warning, not a refusal.
    found = extract_json('{"score": 1, "score": 1.0}')
    assert found.value == {"score": 1.0}
    assert [w["code"] for w in found.warnings] == ["duplicate_key"]


# --- #17 item 3: a --jsonl id that overflows to infinity -------------------------------------

def test_a_jsonl_id_that_overflows_is_an_error_for_its_line_not_a_silent_null(
    tmp_path: Path,
) -> None:
    contract = tmp_path / "c.yaml"
    contract.write_text("type: object\nproperties:\n  amount: {type: number}\n", encoding="utf-8")
    lines = [
        '{"id": 1e999, "reply": "{\\"amount\\": 3}"}',
        '{"id": [1, -1E400], "reply": "{\\"amount\\": 3}"}',
        '{"id": 3, "reply": "{\\"amount\\": 3}"}',
    ]
    (tmp_path / "in.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    done = gate_tui("check", "--contract", str(contract), "--jsonl", "in.jsonl", "-q", cwd=tmp_path)
    assert "Infinity" not in done.stdout and "NaN" not in done.stdout
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["ok"] for r in records] == [False, False, True]
    for record in records[:2]:
        assert record["result"]["errors"][0]["code"] == "invalid_value"
        assert "id" in record["result"]["errors"][0]["message"]
    assert done.returncode == 2


# --- #17 item 8: a report that cannot be written is exit 3, like every other output ----------

def test_report_to_a_full_device_exits_3_with_a_clear_line(tmp_path: Path) -> None:
    from gate_tui import load_config, parse
    from gate_tui.session.opening import open_session

    config_path = ROOT / "sample_configs" / "ml_project_intake.yaml"
    config = load_config(config_path)
    session = open_session(config, config_path, state_file=tmp_path / "intake.json")
    payload = {"gates": {"2_use_case": {"raw": "Route at-risk accounts\nto the CSM team"}}}
    result = parse(payload, config, session.state, actor="user")
    session.accept(result, payload, "user")
    session.close()
    for target in ("/dev/full", str(tmp_path / "no-such-folder" / "r.html")):
        done = gate_tui("report", str(tmp_path / "intake.json"), "-o", target)
        assert done.returncode == 3, done.stderr
        assert (
            done.stderr.startswith("gate-tui report: cannot write")
            and "Traceback" not in done.stderr
        )
        assert len(done.stderr.strip().splitlines()) == 1


# --- #18 item 13: validate-config lists every problem in one pass ----------------------------

RELEASE_WITH_TYPOS = """\
schema_version: "1.0"
name: Release go/no-go
gate_order: [1_tests, 2_changelog, 3_rollback]
gates:
  1_tests:
    label: Tests
    question: Is the test suite green on every target?
    requird: true
    expected_categories: [green, amber, red]
    blocking_categories: [rd]
  2_changelog:
    label: Changelog
    question: Is the changelog written?
policy:
  allow_user_override: false
"""


def test_a_typo_in_a_gate_does_not_hide_its_blocking_category_problem(tmp_path: Path) -> None:
    (tmp_path / "release.yaml").write_text(RELEASE_WITH_TYPOS, encoding="utf-8")
    done = gate_tui("validate-config", "release.yaml", cwd=tmp_path)
    assert done.returncode == 3
    lines = done.stdout.splitlines()
    assert any("requird" in line and "did you mean 'required'" in line for line in lines), lines
    assert any("'3_rollback' is not defined" in line for line in lines), lines
    blocking = [line for line in lines if "blocking_categories" in line]
    assert len(blocking) == 1, lines  # hidden until the typo was fixed
    assert (
        blocking[0].startswith("release.yaml:5: gates.1_tests")
        and "(did you mean 'red'?)" in blocking[0]
    )


# --- #17 items 3 and 5: a contract number that overflows names its place, not "Infinity" -------

@pytest.mark.parametrize(
    ("name", "text"),
    [
        (
            "refund.json",
            '{\n  "type": "object",\n  "properties": {\n    "amount": {"type": "number", '
            '"maximum": 1e999}\n  }\n}\n',
        ),
        (
            "refund.yaml",
            "type: object\nproperties:\n  amount:\n    type: number\n    maximum: 1.0e+999\n",
        ),
    ],
)
def test_a_contract_number_that_overflows_names_its_pointer_and_line(
    tmp_path: Path, name: str, text: str
) -> None:
    (tmp_path / name).write_text(text, encoding="utf-8")
    done = gate_tui("validate-contract", name, cwd=tmp_path)
    assert done.returncode == 3
    line = (done.stdout + done.stderr).strip()
    assert "Infinity" not in line and "inf" not in line.replace("infinity", "")
    want = 4 if name.endswith(".json") else 5
    assert line.startswith(f"{name}:{want}: /properties/amount/maximum: "), line
    assert "overflows to infinity" in line


# --- #18 item 13: YAML's yes/no are booleans; the message says so instead of "a valid string" --

def test_unquoted_yes_no_categories_get_a_message_that_says_quote_them(tmp_path: Path) -> None:
    (tmp_path / "signoff.yaml").write_text(
        "schema_version: '1.0'\nname: Sign-off\ngates:\n  legal:\n    question: Has legal signed "
        "off?\n"
        "    expected_categories: [yes, no, pending]\n    blocking_categories: [no]\n",
        encoding="utf-8",
    )
    done = gate_tui("validate-config", "signoff.yaml", cwd=tmp_path)
    assert done.returncode == 3
    lines = done.stdout.splitlines()
    assert lines and all("valid string" not in line for line in lines), lines
    assert any(
        line.startswith("signoff.yaml:6: gates.legal.expected_categories.0:")
        and "'yes'" in line
        and "quote" in line
        for line in lines
    ), lines
    assert any(
        line.startswith("signoff.yaml:7: gates.legal.blocking_categories.0:") and "'no'" in line
        for line in lines
    ), lines


# --- #17 item 4: a JSON config that gives a gate twice names both lines, as YAML does ---------

def test_a_json_config_giving_a_gate_twice_names_both_lines(tmp_path: Path) -> None:
    (tmp_path / "release.json").write_text(
        '{\n  "schema_version": "1.0",\n  "name": "Release",\n  "gates": {\n'
        '    "1_tests": {"question": "Green?"},\n    "1_tests": {"question": "Green on arm64 '
        'too?"}\n  }\n}\n',
        encoding="utf-8",
    )
    done = gate_tui("validate-config", "release.json", cwd=tmp_path)
    assert done.returncode == 3
    assert (
        done.stdout.strip()
        == "release.json:6: duplicate key '1_tests' on lines 5 and 6 (the first one would be lost)"
    )


# --- #17 item 3: a --jsonl reply given as an object with 1e999 ---------------------------------

def test_a_jsonl_reply_object_holding_1e999_is_invalid_at_its_path_and_says_no_infinity(
    tmp_path: Path,
) -> None:
    contract = tmp_path / "refund.yaml"
    contract.write_text(
        "type: object\nproperties:\n  amount: {type: number, minimum: 0, maximum: 100}\n",
        encoding="utf-8",
    )
    (tmp_path / "in.jsonl").write_text(
        '{"id": "r-1", "reply": {"amount": 1e999}}\n{"id": "r-2", "reply": {"amount": -1E400}}\n',
        encoding="utf-8",
    )
    done = gate_tui("check", "--contract", str(contract), "--jsonl", "in.jsonl", "-q", cwd=tmp_path)
    assert done.returncode == 2
    assert "Infinity" not in done.stdout and "NaN" not in done.stdout, done.stdout
    for line in done.stdout.splitlines():
        error = json.loads(line)["result"]["errors"][0]
        assert (error["code"], error["path"]) == ("invalid_value", "/amount")
        assert "overflows to" in error["message"] and "infinity" in error["message"]


# --- #17 item 10: the out-of-memory notice of a --state session names a command that works ----

def test_a_state_file_journal_too_large_for_memory_names_the_report_command_for_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import shlex

    from gate_tui import load_config, parse
    from gate_tui.session import replay as replay_module
    from gate_tui.session.opening import open_session

    config_path = ROOT / "sample_configs" / "ml_project_intake.yaml"
    config = load_config(config_path)
    state = tmp_path / "my reviews" / "intake.json"
    state.parent.mkdir()
    session = open_session(config, config_path, state_file=state)
    payload = {"gates": {"2_use_case": {"raw": "Route at-risk accounts to CSMs"}}}
    session.accept(parse(payload, config, session.state, actor="user"), payload, "user")
    session.close()

    def out_of_memory(self: object, record: dict) -> None:
        raise MemoryError

    monkeypatch.setattr(replay_module.Replayer, "add", out_of_memory)
    reopened = open_session(config, config_path, state_file=state, read_only=True)
    notice = " ".join([*reopened.notices, reopened.persistence_warning or ""])
    assert "too large to open" in notice and "report None" not in notice, notice
    command = notice[notice.index("`gate-tui report ") + 1 :].split("`")[0]
    monkeypatch.undo()
    done = gate_tui(*shlex.split(command)[1:], "--format", "text")
    assert done.returncode == 0 and "Route at-risk accounts to CSMs" in done.stdout, done.stderr


# --- #18 item 13: near names ignore case; JSON configs name lines too -------------------------

def test_a_category_differing_only_in_case_gets_a_near_name(tmp_path: Path) -> None:
    (tmp_path / "release.yaml").write_text(
        "schema_version: '1.0'\nname: Release\ngates:\n  1_tests:\n    question: Is the suite "
        "green?\n"
        "    expected_categories: [green, amber, red]\n    blocking_categories: [Red]\n",
        encoding="utf-8",
    )
    done = gate_tui("validate-config", "release.yaml", cwd=tmp_path)
    assert done.returncode == 3
    assert "'Red' is not one of expected_categories (did you mean 'red'?)" in done.stdout


def test_a_json_config_names_the_line_of_each_problem(tmp_path: Path) -> None:
    (tmp_path / "release.json").write_text(
        '{\n  "schema_version": "1.0",\n  "name": "Release",\n  "gate_order": ["1_test"],\n  '
        '"gates": {\n'
        '    "1_tests": {\n      "question": "Green?",\n      "requird": true\n    }\n  }\n}\n',
        encoding="utf-8",
    )
    done = gate_tui("validate-config", "release.json", cwd=tmp_path)
    assert done.returncode == 3
    lines = done.stdout.splitlines()
    assert (
        "release.json:8: gates.1_tests.requird: unknown field 'requird' (did you mean 'required'?)"
        in lines
    ), lines
    assert any(line.startswith("release.json:4: gate_order:") for line in lines), lines


# --- hostile numbers in --jsonl lines: no Python advice in a record ---------------------------

def test_a_jsonl_line_with_a_5000_digit_number_is_refused_in_plain_words(tmp_path: Path) -> None:
    contract = tmp_path / "c.yaml"
    contract.write_text("type: object\nproperties:\n  amount: {type: number}\n", encoding="utf-8")
    (tmp_path / "in.jsonl").write_text(
        '{"id": 1, "reply": {"amount": 1' + "0" * 5000 + "}}\n", encoding="utf-8"
    )
    done = gate_tui("check", "--contract", str(contract), "--jsonl", "in.jsonl", "-q", cwd=tmp_path)
    error = json.loads(done.stdout)["result"]["errors"][0]
    assert error["code"] == "invalid_json"
    assert (
        "sys.set_int_max_str_digits" not in error["message"] and "4,300 digits" in error["message"]
    ), error


# --- #17 item 4: a user's JSON patch and a --previous file that give a key twice --------------

ML_CONFIG = ROOT / "sample_configs" / "ml_project_intake.yaml"


def test_a_user_patch_giving_gates_twice_is_refused_not_last_wins(tmp_path: Path) -> None:
    (tmp_path / "patch.json").write_text(
        '{"gates": {"2_use_case": {"raw": "Route at-risk accounts to CSMs"}},\n'
        ' "gates": {"2_use_case": {"raw": "Forecast demand per store"}}}\n',
        encoding="utf-8",
    )
    done = gate_tui(
        "check",
        "--config",
        str(ML_CONFIG),
        "--actor",
        "user",
        "--format",
        "json",
        "patch.json",
        cwd=tmp_path,
    )
    record = json.loads(done.stdout)
    assert done.returncode == 2 and record["ok"] is False
    assert (
        record["errors"][0]["code"] == "invalid_json"
        and "'gates' is given twice" in record["errors"][0]["message"]
    )


def test_a_previous_state_file_giving_a_key_twice_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "previous.json").write_text(
        '{"summary": "Churn model",\n "summary": "Fraud model"}\n', encoding="utf-8"
    )
    (tmp_path / "reply.md").write_text('{"summary": "x"}', encoding="utf-8")
    done = gate_tui(
        "check", "--config", str(ML_CONFIG), "--previous", "previous.json", "reply.md", cwd=tmp_path
    )
    assert done.returncode == 3
    assert "previous.json" in done.stderr and "'summary' twice" in done.stderr, done.stderr


# --- #20 item 3: doubled braces from a prompt template are a restart ---------------------------

# Prompt templates escape braces ({{ }} in f-strings, LangChain, Jinja), and models copy them:
# `{{"verdict": "PASS"}}` is an opener immediately followed by a complete object that holds the
# whole answer -- the restart the issue allows as a `restarted_object` guess. The closed outer
# brace hid the inner object and the error said there was no JSON object at all.
def test_doubled_template_braces_are_a_restart_guess_not_no_object() -> None:
    found = extract_json('Here is the verdict:\n{{"verdict": "PASS", "score": 82}}\n')
    assert found.value == {"verdict": "PASS", "score": 82}
    assert [(r.code, r.certainty) for r in found.repairs] == [("restarted_object", "guess")]
    assert found.warnings == []  # the abandoned outer brace is not "1 more object ignored"


def test_doubled_template_braces_never_give_a_wrong_object() -> None:
    # Only an outer brace holding nothing else: anything more beside the inner object is refused.
    assert extract_json('{{"verdict": "PASS"}, "score": 82}').value != {"verdict": "PASS"}
    assert extract_json('{"note": "x", {"verdict": "PASS"}}').value != {"verdict": "PASS"}
    assert extract_json('{{"verdict": "PASS"} trailing}').value != {"verdict": "PASS"}
