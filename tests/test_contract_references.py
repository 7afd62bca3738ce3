"""Contract references are offline (#17 item 2, #21 item 2): no ``$ref`` reaches the network (a real
loopback server counts requests and sees none), none reads an absolute path, a ``file://`` URL or
anything outside the contract's folder; a relative file beside the contract and a local schema
store (``--schemas DIR``, ``x-gate-tui: {schemas: DIR}``) answer; every refusal names the reference,
where it is used and what to do; a ``$ref`` cycle that never ends is a load error."""

from __future__ import annotations

import json
import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from gate_tui.contracts.checking import check_contract
from gate_tui.contracts.loading import LoadOptions, check_contract_file
from tests.test_contracts_cli import gate_tui

SECRET = "s3cr3t-token-value"


@pytest.fixture
def server():
    """A loopback HTTP server that answers every GET with a schema and counts the requests."""
    hits: list[str] = []

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - the http.server name
            hits.append(self.path)
            body = json.dumps({"type": "string", "const": SECRET}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}", hits
    httpd.shutdown()
    httpd.server_close()


def write(folder: Path, name: str, schema) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(schema, indent=2) if not isinstance(schema, str) else schema)
    return path


def refers_to(ref: str, **extra) -> dict:
    return {"type": "object", "properties": {"token": {"$ref": ref}}, **extra}


def problems(path: Path, **options) -> str:
    contract, found = check_contract_file(path, LoadOptions(**options))
    assert contract is None
    return "\n".join(map(str, found))


def test_no_reference_ever_reaches_the_network(tmp_path, server) -> None:
    url, hits = server
    contract = write(tmp_path, "c.json", refers_to(f"{url}/token.json"))
    text = problems(contract)
    assert f'/properties/token/$ref: $ref "{url}/token.json"' in text
    assert "never fetches schemas over the network" in text and "--schemas DIR" in text
    for args in (("validate-contract", str(contract)), ("check", "--contract", str(contract), "-"), ("prompt", "--contract", str(contract))):
        done = gate_tui(*args, stdin='{"token": "x"}')
        assert done.returncode == 3, (args, done.stdout, done.stderr)
        assert "never fetches schemas over the network" in done.stdout + done.stderr
    # a reference inside a referenced file, and one under a root $id of that server, stay offline too
    write(tmp_path, "common.json", {"$defs": {"t": {"$ref": f"{url}/deeper.json"}}})
    text = problems(write(tmp_path, "d.json", refers_to("common.json#/$defs/t")))
    assert "deeper.json" in text
    write(tmp_path, "e.json", refers_to("other.json", **{"$id": f"{url}/schemas/main.json"}))
    assert "other.json" in problems(tmp_path / "e.json")
    assert hits == []


def test_file_urls_and_absolute_paths_are_never_read(tmp_path) -> None:
    secret = tmp_path / "private" / "creds.json"
    secret.parent.mkdir()
    secret.write_text(json.dumps({"api_token": {"const": SECRET}}))
    folder = tmp_path / "contracts"
    for ref in (secret.as_uri() + "#/api_token", str(secret) + "#/api_token", "../private/creds.json#/api_token", "file:///dev/zero"):
        text = problems(write(folder, "c.json", refers_to(ref)))
        assert SECRET not in text and "No such file" not in text
        assert "/properties/token/$ref" in text and "copy" in text, text
    (folder / "link.json").symlink_to(secret)
    text = problems(write(folder, "c.json", refers_to("link.json#/api_token")))
    assert "outside the contract's folder" in text and SECRET not in text


def test_a_file_beside_the_contract_is_read_through_the_bounded_loader(tmp_path) -> None:
    write(tmp_path, "defs/common.yaml", "token:\n  type: string\n  pattern: '^tok-'\n")
    contract, found = check_contract_file(write(tmp_path, "c.json", refers_to("defs/common.yaml#/token")))
    assert contract is not None, found
    assert check_contract('{"token": "tok-1"}', contract).ok and not check_contract('{"token": "x"}', contract).ok
    write(tmp_path, "dup.yaml", "token:\n  type: string\ntoken:\n  type: integer\n")
    text = problems(write(tmp_path, "c.json", refers_to("dup.yaml#/token")))
    assert "names dup.yaml" in text and "duplicate key 'token' on lines 1 and 3" in text
    write(tmp_path, "big.json", '{"description": "' + "x" * (1024 * 1024) + '"}')
    assert "too large" in problems(write(tmp_path, "c.json", refers_to("big.json")))
    assert "not in the contract's folder" in problems(write(tmp_path, "c.json", refers_to("missing.json"))) or "file not found" in problems(
        tmp_path / "c.json"
    )


@pytest.mark.timeout(30)
def test_a_referenced_fifo_is_refused_without_blocking(tmp_path) -> None:
    os.mkfifo(tmp_path / "fifo.json")
    text = problems(write(tmp_path, "c.json", refers_to("fifo.json")))
    assert "not a regular file" in text and "fifo.json" in text


def test_a_schema_store_answers_remote_references_by_id(tmp_path, server) -> None:
    url, hits = server
    store = tmp_path / "store"
    write(store, "tsconfig.json", {"$schema": "http://json-schema.org/draft-04/schema#", "id": f"{url}/tsconfig.json", "definitions": {"target": {"enum": ["es5", "es2020"]}}})
    write(store, "broken.json", "{not json")
    contract_path = write(tmp_path / "c", "c.json", refers_to(f"{url}/tsconfig.json#/definitions/target"))
    text = problems(contract_path)
    assert "--schemas DIR" in text
    contract, found = check_contract_file(contract_path, LoadOptions(schemas=str(store)))
    assert contract is not None, found
    assert check_contract('{"token": "es5"}', contract).ok and not check_contract('{"token": "es3"}', contract).ok
    missing = problems(write(tmp_path / "c", "m.json", refers_to(f"{url}/other.json")), schemas=str(store))
    assert f"is not in the schema store {store}" in missing and "broken.json" in missing
    done = gate_tui("check", "--contract", str(contract_path), "--schemas", str(store), "-", stdin='{"token": "es2020"}')
    assert done.returncode == 0, done.stdout + done.stderr
    assert hits == []


def test_the_contracts_own_store_must_lie_in_its_folder(tmp_path) -> None:
    ident = "https://json.schemastore.org/base.json"
    write(tmp_path / "c" / "schemas", "base.json", {"$id": ident, "type": "string"})
    inside = write(tmp_path / "c", "in.json", refers_to(ident, **{"x-gate-tui": {"schemas": "schemas"}}))
    assert check_contract_file(inside)[0] is not None
    write(tmp_path / "elsewhere", "base.json", {"$id": ident, "type": "string"})
    outside = write(tmp_path / "c", "out.json", refers_to(ident, **{"x-gate-tui": {"schemas": "../elsewhere"}}))
    assert "leads outside the contract's folder" in problems(outside)


def test_a_file_beside_a_contract_with_a_remote_id_answers_its_relative_references(tmp_path) -> None:
    write(tmp_path, "common.json", {"$defs": {"code": {"type": "string", "maxLength": 3}}})
    path = write(tmp_path, "main.json", refers_to("common.json#/$defs/code", **{"$id": "https://example.org/schemas/main.json"}))
    contract, found = check_contract_file(path)
    assert contract is not None, found
    assert not check_contract('{"token": "abcd"}', contract).ok


def test_a_missing_pointer_names_the_reference_and_its_place(tmp_path) -> None:
    text = problems(write(tmp_path, "c.json", refers_to("#/$defs/nope")))
    assert '/properties/token/$ref: $ref "#/$defs/nope" points at /$defs/nope, which is not in the contract' in text


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "object", "$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"allOf": [{"$ref": "#/$defs/a"}]}}, "properties": {"x": {"$ref": "#/$defs/a"}}},
        {"type": "object", "allOf": [{"$ref": "#"}]},
    ],
)
def test_a_reference_cycle_that_never_ends_is_a_load_error(tmp_path, schema) -> None:
    assert "$ref cycle that never ends" in problems(write(tmp_path, "c.json", schema))


def test_recursive_schemas_that_read_into_the_value_load(tmp_path) -> None:
    tree = {"type": "object", "properties": {"name": {"type": "string"}, "children": {"type": "array", "items": {"$ref": "#"}}}}
    contract, found = check_contract_file(write(tmp_path, "tree.json", tree))
    assert contract is not None, found
    assert not check_contract('{"children": [{"children": [{"name": 1}]}]}', contract).ok
