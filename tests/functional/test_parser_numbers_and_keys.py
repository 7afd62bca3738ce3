"""Numbers that overflow to infinity and keys given twice (issue 17, items 3 and 4), in gate
mode, in contract mode and in ``--jsonl`` items: never a silent Infinity, never last-wins.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from gate_tui import GateConfig, extract_json, parse
from gate_tui.contracts.checking import check_contract
from gate_tui.contracts.errors import schema_errors
from gate_tui.contracts.loading import load_contract

ROOT = Path(__file__).resolve().parents[2]
GATES, RAW = '"gates"', '"raw"'

CONTRACT = """\
type: object
required: [verdict, amount]
properties:
  verdict: {enum: [PASS, NO_PASS]}
  amount: {type: [number, "null"], minimum: 0, maximum: 100}
  note: {type: string}
"""


@pytest.fixture
def contract(tmp_path: Path):  # noqa: ANN201 - the Contract type lives in the contracts layer
    path = tmp_path / "refund.yaml"
    path.write_text(CONTRACT, encoding="utf-8")
    return load_contract(path)


def refund_reply(amount: str, extra: str = "") -> str:
    return (
        "I checked the order history and the refund policy.\n\n"
        "```json\n"
        "{\n"
        '  "verdict": "PASS",\n'
        f'  "amount": {amount},{extra}\n'
        '  "note": "customer was charged twice for the same order"\n'
        "}\n"
        "```\n"
    )


def position(text: str, needle: str, nth: int = 1) -> str:
    at = -1
    for _ in range(nth):
        at = text.index(needle, at + 1)
    return f"{text.count(chr(10), 0, at) + 1}:{at - (text.rfind(chr(10), 0, at) + 1) + 1}"


# --- numbers that overflow to infinity --------------------------------------------------------


@pytest.mark.parametrize("number", ["1e999", "-1e999", "1E400", "2.5e+308"])
def test_an_overflowing_number_is_an_invalid_value_in_contract_mode(number: str, contract) -> None:  # noqa: ANN001
    reply = refund_reply(number)
    result = check_contract(reply, contract)
    assert not result.ok
    [error] = result.errors
    assert error.code == "invalid_value"
    assert (
        error.message == f"{number} is not a number JSON allows: it overflows to infinity (at "
        f"{position(reply, number)})"
    )
    assert result.value is None
    assert "Infinity" not in result.model_dump_json() and "NaN" not in result.model_dump_json()


@pytest.mark.parametrize("number", ["1e999", "-1e999", "1E400"])
def test_an_overflowing_number_is_an_invalid_value_in_gate_mode(
    number: str, ml_config: GateConfig
) -> None:
    reply = (
        "Here is the state:\n```json\n"
        '{"summary": "Budget check", "gates": {"1_data_availability": {"raw": "ok", "classified": '
        '"available"}},\n'
        f' "status": {{"pass": false, "score": {number}}}}}\n```'
    )
    result = parse(reply, ml_config)
    assert not result.ok
    assert result.errors[0].code == "invalid_value"
    assert result.errors[0].message.endswith(
        f"overflows to infinity (at {position(reply, number)})"
    )
    assert "Infinity" not in result.model_dump_json()


def test_an_overflow_needing_repairs_too_keeps_its_position() -> None:
    reply = "{summary: 'Costs', 'gates': {}, 'status': {'pass': False, 'budget': 1e999,}}"
    found = extract_json(reply)
    assert found.error_code == "invalid_value"
    assert (
        found.error == f"1e999 is not a number JSON allows: it overflows to infinity (at "
        f"{position(reply, '1e999')})"
    )


def test_large_finite_numbers_and_underflow_stay_numbers() -> None:
    found = extract_json(
        '{"summary": "s", "big": 1.7e308, "tiny": 1e-999, "long": ' + "9" * 300 + ".5}"
    )
    assert found.value is not None
    assert found.value["big"] == 1.7e308 and found.value["tiny"] == 0.0


def test_the_type_message_names_the_real_type(contract) -> None:  # noqa: ANN001
    # A dict handed over by a caller can still hold an infinity; the validator sees null.
    [message] = [
        e.message for e in schema_errors(contract, {"verdict": "PASS", "amount": float("inf")})
    ]
    assert message == "expected null or number, got inf (not a JSON number)"
    [message] = [e.message for e in schema_errors(contract, {"verdict": "PASS", "amount": "12"})]
    assert message == "expected null or number, got string"


def test_the_envelope_never_prints_infinity(tmp_path: Path) -> None:
    (tmp_path / "refund.yaml").write_text(CONTRACT, encoding="utf-8")
    (tmp_path / "reply.md").write_text(refund_reply("1e999"), encoding="utf-8")
    for flags in (["--envelope"], ["--format", "json"]):
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "gate_tui",
                "check",
                "--contract",
                str(tmp_path / "refund.yaml"),
                *flags,
                str(tmp_path / "reply.md"),
            ],
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=120,
        )
        assert done.returncode == 2, done.stderr
        assert "Infinity" not in done.stdout and "overflows to infinity" in done.stdout
        json.loads(done.stdout)  # still JSON


# --- keys given twice ---------------------------------------------------------------------------


def test_a_repeated_key_with_different_values_is_refused_in_contract_mode(contract) -> None:  # noqa: ANN001
    reply = (
        "Decision below.\n\n```json\n{\n"
        '  "verdict": "NO_PASS",\n  "amount": 40,\n  "note": "refund above the agent limit",\n'
        '  "verdict": "PASS"\n}\n```'
    )
    result = check_contract(reply, contract)
    assert not result.ok
    [error] = result.errors
    assert error.code == "invalid_json"
    first, second = position(reply, '"verdict"'), position(reply, '"verdict"', 2)
    assert (
        error.message
        == f"key 'verdict' is given twice with different values (at {first}, {second}): which one "
        f"the model meant is unknowable"
    )


def test_a_second_gates_block_never_decides_in_gate_mode(ml_config: GateConfig) -> None:
    gates = {"1_data_availability": {"raw": "none yet", "classified": "unavailable"}}
    passing = {key: {"raw": "done", "classified": None} for key in ml_config.gate_order}
    passing["1_data_availability"]["classified"] = "available"
    passing["4_data_privacy"]["classified"] = "approved"
    reply = (
        "Updated state:\n```json\n{\n"
        f'  "summary": "Churn model",\n  "gates": {json.dumps(gates)},\n'
        '  "status": {"pass": false, "next_gate": "1_data_availability", "next_query": null},\n'
        f'  "gates": {json.dumps(passing)}\n}}\n```'
    )
    result = parse(reply, ml_config)
    assert not result.ok
    assert result.errors[0].code == "invalid_json"
    spots = f"{position(reply, GATES)}, {position(reply, GATES, 2)}"
    assert result.errors[0].message.startswith(
        f"key 'gates' is given twice with different values (at {spots})"
    )


def test_identical_repeats_are_a_warning_with_both_positions(ml_config: GateConfig) -> None:
    state = {
        "summary": "Churn model",
        "gates": {key: {"raw": "done", "classified": None} for key in ml_config.gate_order},
        "status": {"pass": True, "next_gate": None, "next_query": None},
    }
    state["gates"]["1_data_availability"]["classified"] = "available"
    state["gates"]["4_data_privacy"]["classified"] = "approved"
    body = json.dumps(state, indent=2)
    body = body.replace(
        '"raw": "done",\n      "classified": "approved"',
        '"raw": "done",\n      "classified": "approved",\n      "raw": "done"',
        1,
    )
    reply = f"Final answer:\n```json\n{body}\n```"
    result = parse(reply, ml_config)
    assert result.ok, result.errors
    [warning] = [w for w in result.warnings if w.code == "duplicate_key"]
    spots = f"{position(reply, RAW, 4)}, {position(reply, RAW, 5)}"
    assert (
        warning.message
        == f"key 'gates.4_data_privacy.raw' is given twice with the same value (at {spots})"
    )
    assert warning.field_path == "gates.4_data_privacy.raw"


def test_a_repeated_key_in_a_repaired_reply_is_caught_too(contract) -> None:  # noqa: ANN001
    reply = "{verdict: 'NO_PASS', amount: 40, note: 'limit', verdict: 'PASS',}"
    result = check_contract(reply, contract)
    assert not result.ok
    assert result.errors[0].message.startswith(
        "key 'verdict' is given twice with different values (at 1:2, 1:49)"
    )


def test_jsonl_item_keys_given_twice_are_an_error_for_that_line(tmp_path: Path) -> None:
    good = json.dumps({"id": "a", "reply": refund_reply("12")})
    twice = (
        '{"id": "b", "reply": "{\\"verdict\\": \\"NO_PASS\\", \\"amount\\": 1}", "reply": '
        '"{\\"verdict\\": \\"PASS\\", \\"amount\\": 1}"}'
    )
    (tmp_path / "in.jsonl").write_text(good + "\n" + twice + "\n", encoding="utf-8")
    (tmp_path / "refund.yaml").write_text(CONTRACT, encoding="utf-8")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "gate_tui",
            "check",
            "--contract",
            str(tmp_path / "refund.yaml"),
            "--jsonl",
            str(tmp_path / "in.jsonl"),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    first, second = (json.loads(line) for line in done.stdout.splitlines())
    assert first["ok"] is True
    assert second["ok"] is False
    assert (
        second["result"]["errors"][0]["message"]
        == "line 2 gives the key 'reply' twice: which value was meant is unknowable"
    )
