"""Contracts tried from the outside, as their users meet them (issues #21 and #17).

Each test here was written from the issues' text against the public surfaces
(``gate-tui check --contract``, ``validate-contract``, ``prompt --contract`` and the library)
and failed before the fix it names in the commit that added it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from gate_tui.contracts.checking import check_contract, check_value
from gate_tui.contracts.loading import contract_from_schema
from gate_tui.json_text import model_json_bytes

SCRIPT = Path(sys.executable).with_name("gate-tui")
AMOUNT = {
    "type": "object",
    "properties": {
        "amount": {"type": "number", "minimum": 0, "maximum": 100},
        "n": {"type": ["number", "null"]},
    },
}


def contract(schema: dict):
    loaded, problems = contract_from_schema(schema)
    assert loaded is not None, problems
    return loaded


def gate_tui(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(SCRIPT), *args], input=stdin, capture_output=True, text=True, timeout=120
    )


# -- #17 item 3: numbers that overflow to infinity, in contract mode ------------------------


@pytest.mark.parametrize("literal", ["1e999", "-1e999", "1E400", "1" + "0" * 400 + ".5"])
def test_a_reply_number_that_overflows_is_invalid_value_at_its_path(literal: str) -> None:
    result = check_contract(f'{{"amount": {literal}}}', contract(AMOUNT))
    assert not result.ok
    [error] = result.errors
    # its position: the value's path, or the reply's line:column (the extraction's way, as for NaN)
    assert error.code == "invalid_value" and (
        error.path == "/amount" or "(at 1:12)" in error.message
    ), error
    assert "null" not in error.message and "overflow" in error.message
    dumped = result.model_dump_json()
    assert "Infinity" not in dumped and "inf," not in dumped
    json.loads(dumped)


def test_an_overflowing_number_under_a_nullable_type_names_no_null() -> None:
    result = check_contract('{"n": 1e999}', contract(AMOUNT))
    assert [e.code for e in result.errors] == ["invalid_value"]
    assert "got null" not in result.errors[0].message


def test_an_infinite_number_in_a_dict_is_invalid_value_at_its_path() -> None:
    result = check_contract({"amount": float("-inf"), "n": float("inf")}, contract(AMOUNT))
    assert [(e.code, e.path) for e in result.errors] == [
        ("invalid_value", "/amount"),
        ("invalid_value", "/n"),
    ]
    assert all("null" not in e.message for e in result.errors)


def test_overflow_on_every_contract_output_surface(tmp_path: Path) -> None:
    schema = tmp_path / "c.json"
    schema.write_text(json.dumps(AMOUNT))
    text = gate_tui("check", "--contract", str(schema), "-", stdin='{"amount": 1e999}')
    assert (
        text.returncode == 2 and "[invalid_value]" in text.stdout and "got null" not in text.stdout
    )
    for flag in ("--format", "--envelope"):
        args = ["--format", "json"] if flag == "--format" else ["--envelope"]
        out = gate_tui("check", "--contract", str(schema), *args, "-", stdin='{"amount": -1e999}')
        record = json.loads(out.stdout)  # strict JSON: no Infinity
        assert "got null" not in out.stdout, out.stdout
        assert record["ok"] is False


# -- values of any depth through the library -------------------------------------------------


@pytest.mark.parametrize("kind", ["list", "dict"])
def test_a_value_nested_deeper_than_json_allows_is_one_clear_error(kind: str) -> None:
    value: object = None
    for _ in range(3000):
        value = [value] if kind == "list" else {"a": value}
    result = check_value(value, contract({"type": "object"} if kind == "dict" else {}))
    assert not result.ok
    assert all("internal" not in e.message for e in result.errors), result.errors
    assert any("nested too deeply" in e.message for e in result.errors)
    json.loads(
        model_json_bytes(result)
    )  # what check --format json writes (pydantic alone stops at 255 levels)


def test_a_dict_that_contains_itself_is_one_clear_error() -> None:
    looped: dict = {}
    looped["a"] = looped
    result = check_contract(looped, contract({"type": "object"}))
    assert not result.ok and all("internal" not in e.message for e in result.errors), result.errors


def test_a_reply_nested_300_deep_is_written_by_every_output_surface(tmp_path: Path) -> None:
    # The extraction reads 512 levels; pydantic serialises 255: --format json and --jsonl exited 70.
    schema = tmp_path / "c.json"
    schema.write_text('{"type": "object"}')
    reply = '{"a":' * 300 + "1" + "}" * 300
    out = gate_tui("check", "--contract", str(schema), "--format", "json", "-", stdin=reply)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["ok"] is True
    batch = tmp_path / "in.jsonl"
    batch.write_text(json.dumps({"id": 1, "reply": reply}) + "\n")
    out = gate_tui("check", "--contract", str(schema), "--jsonl", str(batch))
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["result"]["ok"] is True


# -- #17 item 2: references never reach the network, and each refusal names the reference ----


def test_a_remote_dynamic_ref_is_refused_by_name_without_a_request(tmp_path: Path) -> None:
    import http.server
    import threading

    hits: list[str] = []

    class Counting(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - the http.server name
            hits.append(self.path)
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b'{"$dynamicAnchor": "meta", "type": "string"}')

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Counting)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/dyn.json#meta"
        schema = tmp_path / "c.json"
        schema.write_text(
            json.dumps(
                {
                    "$schema": "https://json-schema.org/draft/2020-12/schema",
                    "type": "object",
                    "properties": {"a": {"$dynamicRef": url}},
                }
            )
        )
        out = gate_tui("validate-contract", str(schema))
        assert out.returncode == 3
        assert (
            f'/properties/a/$dynamicRef: $dynamicRef "{url}" is a remote schema'
            in out.stdout + out.stderr
        )
        assert "registry" not in out.stdout + out.stderr  # not the library's own words
        for args in (
            ("prompt", "--contract", str(schema)),
            ("check", "--contract", str(schema), "-"),
        ):
            assert gate_tui(*args, stdin="{}").returncode == 3
    finally:
        server.shutdown()
    assert hits == []


def test_a_local_dynamic_ref_still_loads() -> None:
    loaded = contract(
        {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$dynamicAnchor": "node",
            "type": "object",
            "properties": {
                "kids": {"type": "array", "items": {"$dynamicRef": "#node"}},
                "n": {"type": "integer"},
            },
        }
    )
    assert [e.path for e in check_value({"kids": [{"n": "x"}]}, loaded).errors] == ["/kids/0/n"]


# -- #21 item 4 with item 1: a draft-07 tuple is described in the prompt ---------------------


@pytest.mark.parametrize(
    "field",
    [
        {
            "type": "array",
            "items": [{"type": "number"}, {"type": "string"}],
            "additionalItems": False,
        },
        {"type": "array", "prefixItems": [{"type": "number"}, {"type": "string"}], "items": False},
    ],
)
def test_a_tuple_is_described_item_by_item_in_every_draft(field: dict) -> None:
    from gate_tui.contracts.prompting import contract_prompt

    draft = "http://json-schema.org/draft-07/schema#" if isinstance(field["items"], list) else "https://json-schema.org/draft/2020-12/schema"
    text = contract_prompt(
        contract({"$schema": draft, "type": "object", "properties": {"point": field}})
    )
    assert "item 1: number" in text and "item 2: string" in text and "no other items" in text, text


# -- --draft / --schemas reach every command that reads a contract ---------------------------

TUPLE_07 = {
    "type": "object",
    "properties": {"point": {"type": "array", "items": [{"type": "number"}, {"type": "number"}]}},
}


def test_serve_reads_the_contract_with_draft_and_passes_both_options_to_each_editor(
    tmp_path: Path,
) -> None:
    from gate_tui.cli.commands.serve import editor_command

    schema = tmp_path / "c.json"
    schema.write_text(json.dumps(TUPLE_07))
    refused = gate_tui("serve", "--contract", str(schema), "--port", "0")
    assert (
        refused.returncode == 3 and "prefixItems" in refused.stderr
    )  # read as 2020-12 without --draft
    loaded = gate_tui("serve", "--contract", str(schema), "--draft", "7", "--port", "0")
    assert (
        loaded.returncode == 3
        and "not a port number" in loaded.stderr
        and "prefixItems" not in loaded.stderr
    )
    store = tmp_path / "store"
    store.mkdir()
    words = editor_command(
        schema, None, store, contract=True, draft=19, schemas="store"
    )  # an argv list
    assert words[words.index("--draft") + 1] == "2019-09"
    assert Path(words[words.index("--schemas") + 1]).is_absolute()


def test_report_reads_a_contract_session_with_draft(tmp_path: Path) -> None:
    import os

    from gate_tui.contracts.loading import LoadOptions, load_contract
    from gate_tui.editing.contract_editor import ContractEditor
    from gate_tui.editing.contract_sessions import open_session

    schema = tmp_path / "tuple.json"
    schema.write_text(json.dumps(TUPLE_07))
    editor = ContractEditor(load_contract(schema, LoadOptions(draft=7)))
    assert open_session(editor, new=True) is None
    editor.apply_reply('{"point": [1, "x"]}')
    editor.close()
    env = os.environ.copy()
    without = subprocess.run(
        [str(SCRIPT), "report", editor.folder.name],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert without.returncode == 3 and "prefixItems" in without.stderr
    done = subprocess.run(
        [str(SCRIPT), "report", editor.folder.name, "--draft", "7"],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    assert "INVALID" in done.stdout and "/point/1" in done.stdout


# -- #17 item 5: a contract file's values JSON cannot hold are named with their line ----------


def test_a_number_that_overflows_in_a_json_contract_is_named_with_its_line(tmp_path: Path) -> None:
    schema = tmp_path / "c.json"
    schema.write_text(
        '{\n  "type": "object",\n  "properties": {\n    "a": {"maximum": 1e999}\n  }\n}\n'
    )
    out = gate_tui("validate-contract", str(schema))
    assert out.returncode == 3
    assert (
        f"{schema}:4:" in out.stdout + out.stderr
        and "/properties/a/maximum" in out.stdout + out.stderr
    )


def test_the_contract_api_is_importable_from_the_package_root_without_textual() -> None:
    code = (
        "import sys\n"
        "from gate_tui import LoadOptions, check_contract, check_value, contract_prompt, "
        "load_contract\n"
        "c = load_contract('sample_configs/contracts/guardian_report.yaml', LoadOptions())\n"
        "assert check_value([], c).source == 'value' and not check_contract('{}', c).ok and "
        "contract_prompt(c)\n"
        "assert 'textual' not in sys.modules\n"
    )
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr


# -- #21 item 1: formats are enforced in every draft, and validate-contract says which are not -


@pytest.mark.parametrize(
    "draft",
    [
        "http://json-schema.org/draft-04/schema#",
        "http://json-schema.org/draft-07/schema#",
        "https://json-schema.org/draft/2019-09/schema",
    ],
)
def test_uuid_and_duration_are_enforced_in_every_draft(draft: str) -> None:
    loaded = contract(
        {
            "$schema": draft,
            "type": "object",
            "properties": {
                "id": {"type": "string", "format": "uuid"},
                "d": {"type": "string", "format": "duration"},
            },
        }
    )
    assert [
        (e.code, e.path) for e in check_value({"id": "choice-1", "d": "soon"}, loaded).errors
    ] == [("invalid_value", "/id"), ("invalid_value", "/d")]
    assert check_value({"id": "123e4567-e89b-12d3-a456-426614174000", "d": "P1D"}, loaded).ok


def test_validate_contract_does_not_claim_to_enforce_formats_no_draft_defines(
    tmp_path: Path,
) -> None:
    schema = tmp_path / "deployment.json"
    schema.write_text(
        json.dumps(
            {
                "$schema": "http://json-schema.org/draft-04/schema#",
                "type": "object",
                "properties": {
                    "replicas": {"type": "integer", "format": "int32"},
                    "at": {"type": "string", "format": "date-time"},
                },
            }
        )
    )
    out = gate_tui("validate-contract", str(schema))
    assert out.returncode == 0, out.stdout
    note = next(line for line in out.stdout.splitlines() if "formats are enforced" in line)
    assert (
        "(this contract uses: date-time)" in note
        and "not checked" in note
        and "int32" in note.split("not checked", 1)[1]
    )


# -- #21 item 5: never "OK" for a contract no reply can pass; #31 item 3: other roots load --------


@pytest.mark.parametrize(
    ("schema", "want"),
    [
        ({"oneOf": [{"type": "array"}, {"type": "string"}]}, "any"),
        ({"anyOf": [{"type": "string"}]}, "any"),
        ({"allOf": [{"type": "array"}]}, "any"),
        ({"type": "array"}, "array"),
        ({"enum": [1, 2]}, "any"),
        ({"const": "x"}, "any"),
        ({"not": {"type": "object"}}, "any"),
    ],
)
def test_a_root_that_admits_no_object_loads_and_reads_its_kind_of_reply(
    schema: dict, want: str
) -> None:
    loaded, problems = contract_from_schema(schema)
    assert loaded is not None, problems
    assert loaded.want == want


@pytest.mark.parametrize(
    ("schema", "at"),
    [
        (
            {
                "type": "object",
                "allOf": [{"$ref": "#/$defs/list"}],
                "$defs": {"list": {"type": "array"}},
            },
            "/$defs/list/type",
        ),
        ({"not": {}}, "/not"),
    ],
)
def test_a_root_that_admits_nothing_is_refused_at_load(schema: dict, at: str) -> None:
    loaded, problems = contract_from_schema(schema)
    assert loaded is None
    assert [problem.location for problem in problems] == [at]
    assert "no reply could ever pass" in problems[0].message


@pytest.mark.parametrize(
    "schema",
    [
        {"oneOf": [{"type": "array"}, {"type": "object"}]},
        {"anyOf": [{"$ref": "#"}, {"type": "string"}]},  # a cycle back to the root decides nothing
        {"enum": [{"a": 1}, 2]},
        {"not": {"type": "object", "required": ["a"]}},
        {
            "$schema": "http://json-schema.org/draft-07/schema#",
            "$ref": "#/definitions/o",
            "type": "array",
            "definitions": {"o": {"type": "object"}},
        },
    ],
)
def test_a_root_that_admits_some_object_loads(schema: dict) -> None:
    loaded, problems = contract_from_schema(schema)
    assert loaded is not None, problems


def test_a_draft_04_id_ending_in_a_hash_keeps_ref_to_the_root_working() -> None:
    # IPTC's ninjs 1.x schemas (JSON Schema Store): "id": "http://…/ninjs-schema_1.4.json#" and
    # "$ref": "#"
    loaded = contract(
        {
            "$schema": "http://json-schema.org/draft-04/schema#",
            "id": "http://www.iptc.org/std/ninjs/ninjs-schema_1.4.json#",
            "type": "object",
            "properties": {
                "uri": {"type": "string"},
                "associations": {"type": "object", "additionalProperties": {"$ref": "#"}},
            },
        }
    )
    assert [e.path for e in check_value({"associations": {"a": {"uri": 5}}}, loaded).errors] == [
        "/associations/a/uri"
    ]


def test_a_field_defined_in_another_schema_file_is_not_called_any_value(tmp_path: Path) -> None:
    from gate_tui.contracts.loading import load_contract
    from gate_tui.contracts.prompting import contract_prompt

    (tmp_path / "common.json").write_text(
        json.dumps(
            {
                "$defs": {
                    "step": {
                        "type": "object",
                        "required": ["seconds"],
                        "properties": {"seconds": {"type": "integer"}},
                    }
                }
            }
        )
    )
    (tmp_path / "c.json").write_text(
        json.dumps({"type": "object", "properties": {"step": {"$ref": "common.json#/$defs/step"}}})
    )
    loaded = load_contract(tmp_path / "c.json")
    assert [e.path for e in check_value({"step": {}}, loaded).errors] == [
        "/step/seconds"
    ]  # enforced
    line = next(line for line in contract_prompt(loaded).splitlines() if line.startswith("- step"))
    assert "any value" not in line and "common.json#/$defs/step" in line


def test_a_schemas_option_that_is_not_a_folder_is_not_placed_inside_the_file(
    tmp_path: Path,
) -> None:
    schema = tmp_path / "c.json"
    schema.write_text('{"type": "object"}')
    out = gate_tui("validate-contract", "--schemas", str(tmp_path / "nowhere"), str(schema))
    assert out.returncode == 3
    assert (
        "--schemas" in out.stdout
        and "x-gate-tui" not in out.stdout
        and f"{schema}:1" not in out.stdout
    ), out.stdout
