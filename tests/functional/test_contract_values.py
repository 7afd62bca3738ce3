"""Values vs text: ``check_value`` (and ``check_contract(value=...)``) checks a decoded value of
any JSON type as it is, while a ``str`` given to ``check_contract`` stays reply text; and
``check --contract --format json`` / ``--envelope`` print bidi, C1 and zero-width characters
as JSON escapes (the data unchanged for a program, nothing raw for a terminal)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from gate_tui.contracts.checking import check_contract, check_value
from gate_tui.contracts.loading import contract_from_schema

ROOT = Path(__file__).resolve().parents[2]
GAME = ROOT / "sample_configs" / "contracts" / "llm_result_v1.yaml"
SCRIPT = Path(sys.executable).with_name("gate-tui")


def contract(schema: dict):
    loaded, problems = contract_from_schema(schema)
    assert loaded is not None, problems
    return loaded


def test_a_string_value_is_checked_as_that_string_and_a_str_reply_as_text() -> None:
    objects = contract({"type": "object"})
    url = "https://example.org/foobar{}.txt"
    as_text = check_contract(url, objects)
    assert as_text.ok and as_text.value == {} and as_text.source == "scan"  # the {} inside the text
    as_value = check_value(url, objects)
    assert not as_value.ok and as_value.value == url and as_value.source == "value"
    assert [(e.code, e.path, e.actual) for e in as_value.errors] == [("invalid_type", "", "string")]
    assert check_contract(value=url, contract=objects).model_dump() == as_value.model_dump()


@pytest.mark.parametrize(
    ("schema", "value", "ok"),
    [
        # Roots that admit no object are refused at load (no reply could pass them: a
        # non-object type, enum or const); keywords without "type" apply to values of any type.
        ({"maxItems": 2}, [1, 2], True),
        ({"maxItems": 2}, [1, 2, 3], False),
        ({"multipleOf": 3}, 3, True),
        ({"multipleOf": 2}, 3.5, False),
        ({"anyOf": [{"const": None}, {"type": "object"}]}, None, True),
        ({"enum": [0, 1, {}]}, False, False),
        ({"enum": [False, {}]}, False, True),
        ({"pattern": "^a"}, "abc", True),
        ({"type": "object", "required": ["a"]}, {}, False),
        ({"type": "object"}, [1], False),
    ],
)
def test_values_of_every_type_are_checked_as_they_are(schema, value, ok) -> None:
    result = check_value(value, contract(schema))
    assert result.ok is ok and result.value == value and result.source == "value"
    json.loads(result.model_dump_json())


def test_values_json_cannot_carry_are_errors_not_crashes() -> None:
    anything = contract({})
    result = check_value({"a": float("nan"), "b": (1, 2), 3: "x", "s": "\ud800"}, anything)
    assert sorted((e.code, e.path) for e in result.errors) == [
        ("invalid_value", "/3"),
        ("invalid_value", "/a"),
        ("invalid_value", "/b"),
        ("invalid_value", "/s"),
    ]
    assert "tuple is not a JSON value" in next(e.message for e in result.errors if e.path == "/b")
    json.loads(result.model_dump_json())
    with pytest.raises(TypeError):
        check_contract("{}")  # no contract: a programming error, said at once


def run(*args: str) -> subprocess.CompletedProcess[str]:
    base = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "gate_tui"]
    return subprocess.run(
        [*base, *args], capture_output=True, text=True, timeout=60, cwd=ROOT, encoding="utf-8"
    )


HOSTILE = "\u202etxt.exe\u202c \u0085\u009b31m \u200b end"


@pytest.mark.parametrize("flag", ["--format=json", "--envelope"])
def test_json_outputs_escape_bidi_c1_and_zero_width_and_keep_the_data(tmp_path, flag) -> None:
    reply = tmp_path / "reply.md"
    value = {
        "narrative": HOSTILE,
        "emotion": "sad",
        "choices": [{"id": "3f2b8c1e-9d4a-4e7b-8a6f-1c2d3e4f5a6b", "label": "ok"}],
        "extra" + HOSTILE: 1,
    }
    reply.write_text(json.dumps(value, ensure_ascii=False), encoding="utf-8")
    done = run("check", "--contract", str(GAME), flag, str(reply))
    assert done.returncode == 2, done.stderr
    for raw in ("\u202e", "\u202c", "\u0085", "\u009b", "\u200b"):
        assert raw not in done.stdout
    assert "\\u202e" in done.stdout and "\\u009b" in done.stdout
    data = json.loads(done.stdout)
    if flag == "--envelope":
        assert data["error"]["details"]["raw"] == reply.read_text(encoding="utf-8")
    else:
        assert (
            data["value"]["narrative"] == HOSTILE
            and data["errors"][0]["path"] == "/extra" + HOSTILE
        )
