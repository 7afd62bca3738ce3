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
from tests.helpers.cli import gate_tui_in_root as gate_tui

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
    for args in (
        ("validate-contract", str(contract)),
        ("check", "--contract", str(contract), "-"),
        ("prompt", "--contract", str(contract)),
    ):
        done = gate_tui(*args, stdin='{"token": "x"}')
        assert done.returncode == 3, (args, done.stdout, done.stderr)
        assert "never fetches schemas over the network" in done.stdout + done.stderr
    # a reference inside a referenced file, and one under a root $id of that server, stay offline
    # too
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
    for ref in (
        secret.as_uri() + "#/api_token",
        str(secret) + "#/api_token",
        "../private/creds.json#/api_token",
        "file:///dev/zero",
    ):
        text = problems(write(folder, "c.json", refers_to(ref)))
        assert SECRET not in text and "No such file" not in text
        assert "/properties/token/$ref" in text and "copy" in text, text
    (folder / "link.json").symlink_to(secret)
    for ref in (
        "link.json#/api_token",
        "link#/api_token",
    ):  # "link" finds link.json: the same rule holds
        text = problems(write(folder, "c.json", refers_to(ref)))
        assert "outside the contract's folder" in text and SECRET not in text, text


def test_hidden_files_and_values_that_are_not_schemas_are_never_quoted(tmp_path) -> None:
    # a contract in a home folder: ~/.config holds tokens
    write(tmp_path, ".config/hosts.yml", f"github.com:\n  oauth_token: {SECRET}\n")
    for ref in (
        ".config/hosts.yml#/github.com/oauth_token",
        ".config/hosts.yml#/github.com",
        "sub/../.config/hosts.yml",
    ):
        text = problems(write(tmp_path, "c.json", refers_to(ref)))
        assert "hidden file or folder" in text and SECRET not in text, text
    write(tmp_path, "visible.yaml", f"token: {SECRET}\n")
    text = problems(write(tmp_path, "c.json", refers_to("visible.yaml#/token")))
    assert "points at /token in visible.yaml, which is not a schema" in text and SECRET not in text


def test_a_file_beside_the_contract_is_read_through_the_bounded_loader(tmp_path) -> None:
    write(tmp_path, "defs/common.yaml", "token:\n  type: string\n  pattern: '^tok-'\n")
    contract, found = check_contract_file(
        write(tmp_path, "c.json", refers_to("defs/common.yaml#/token"))
    )
    assert contract is not None, found
    assert (
        check_contract('{"token": "tok-1"}', contract).ok
        and not check_contract('{"token": "x"}', contract).ok
    )
    write(tmp_path, "dup.yaml", "token:\n  type: string\ntoken:\n  type: integer\n")
    text = problems(write(tmp_path, "c.json", refers_to("dup.yaml#/token")))
    assert "names dup.yaml" in text and "duplicate key 'token' on lines 1 and 3" in text
    write(tmp_path, "big.json", '{"description": "' + "x" * (1024 * 1024) + '"}')
    assert "too large" in problems(write(tmp_path, "c.json", refers_to("big.json")))
    assert "not in the contract's folder" in problems(
        write(tmp_path, "c.json", refers_to("missing.json"))
    ) or "file not found" in problems(tmp_path / "c.json")


@pytest.mark.timeout(30)
def test_a_referenced_fifo_is_refused_without_blocking(tmp_path) -> None:
    os.mkfifo(tmp_path / "fifo.json")
    text = problems(write(tmp_path, "c.json", refers_to("fifo.json")))
    assert "not a regular file" in text and "fifo.json" in text


def test_a_schema_store_answers_remote_references_by_id(tmp_path, server) -> None:
    url, hits = server
    store = tmp_path / "store"
    write(
        store,
        "tsconfig.json",
        {
            "$schema": "http://json-schema.org/draft-04/schema#",
            "id": f"{url}/tsconfig.json",
            "definitions": {"target": {"enum": ["es5", "es2020"]}},
        },
    )
    write(store, "broken.json", "{not json")
    contract_path = write(
        tmp_path / "c", "c.json", refers_to(f"{url}/tsconfig.json#/definitions/target")
    )
    text = problems(contract_path)
    assert "--schemas DIR" in text
    contract, found = check_contract_file(contract_path, LoadOptions(schemas=str(store)))
    assert contract is not None, found
    assert (
        check_contract('{"token": "es5"}', contract).ok
        and not check_contract('{"token": "es3"}', contract).ok
    )
    missing = problems(
        write(tmp_path / "c", "m.json", refers_to(f"{url}/other.json")), schemas=str(store)
    )
    assert f"is not in the schema store {store}" in missing and "broken.json" in missing
    done = gate_tui(
        "check",
        "--contract",
        str(contract_path),
        "--schemas",
        str(store),
        "-",
        stdin='{"token": "es2020"}',
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert hits == []


def test_the_contracts_own_store_must_lie_in_its_folder(tmp_path) -> None:
    ident = "https://json.schemastore.org/base.json"
    write(tmp_path / "c" / "schemas", "base.json", {"$id": ident, "type": "string"})
    inside = write(
        tmp_path / "c", "in.json", refers_to(ident, **{"x-gate-tui": {"schemas": "schemas"}})
    )
    assert check_contract_file(inside)[0] is not None
    write(tmp_path / "elsewhere", "base.json", {"$id": ident, "type": "string"})
    outside = write(
        tmp_path / "c", "out.json", refers_to(ident, **{"x-gate-tui": {"schemas": "../elsewhere"}})
    )
    assert "leads outside the contract's folder" in problems(outside)
    # a file in the contract's own store that links out of its folder is skipped, and said so
    write(tmp_path / "c" / "linked", "readme.txt", "")
    (tmp_path / "c" / "linked" / "base.json").symlink_to(tmp_path / "elsewhere" / "base.json")
    linked = write(
        tmp_path / "c", "linked.json", refers_to(ident, **{"x-gate-tui": {"schemas": "linked"}})
    )
    assert "base.json: leads outside the contract's folder" in problems(linked)
    # while --schemas DIR is the user's own choice: there the same link is followed
    assert (
        check_contract_file(linked, LoadOptions(schemas=str(tmp_path / "c" / "linked")))[0]
        is not None
    )


def test_a_file_beside_a_contract_with_a_remote_id_answers_its_relative_references(
    tmp_path,
) -> None:
    write(tmp_path, "common.json", {"$defs": {"code": {"type": "string", "maxLength": 3}}})
    path = write(tmp_path, "main.json", refers_to("common.json#/$defs/code", **{"$id": "https://example.org/schemas/main.json"}))
    contract, found = check_contract_file(path)
    assert contract is not None, found
    assert not check_contract('{"token": "abcd"}', contract).ok


@pytest.mark.parametrize("ref", ["a%00b.json", "%2e%2e/x.json", "?x=1", "sub/%2e%2e/%2e%2e/x.json"])
def test_odd_file_references_are_refusals_not_crashes(tmp_path, ref) -> None:
    text = problems(write(tmp_path / "c", "c.json", refers_to(ref)))
    assert f'$ref "{ref}"' in text and "internal" not in text


def test_a_missing_pointer_names_the_reference_and_its_place(tmp_path) -> None:
    text = problems(write(tmp_path, "c.json", refers_to("#/$defs/nope")))
    assert (
        '/properties/token/$ref: $ref "#/$defs/nope" points at /$defs/nope, which is not in the '
        "contract" in text
    )
    assert 'points at the anchor "nope", which is not in the contract' in problems(
        write(tmp_path, "c.json", refers_to("#nope"))
    )
    write(tmp_path, "common.json", {"$defs": {"code": {"$anchor": "code", "type": "string"}}})
    assert "points at /$defs/other, which is not in common.json" in problems(
        write(tmp_path, "c.json", refers_to("common.json#/$defs/other"))
    )
    assert (
        check_contract_file(write(tmp_path, "c.json", refers_to("common.json#code")))[0] is not None
    )


@pytest.mark.parametrize(
    "schema",
    [
        {
            "type": "object",
            "$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"allOf": [{"$ref": "#/$defs/a"}]}},
            "properties": {"x": {"$ref": "#/$defs/a"}},
        },
        {"type": "object", "allOf": [{"$ref": "#"}]},
    ],
)
def test_a_reference_cycle_that_never_ends_is_a_load_error(tmp_path, schema) -> None:
    assert "$ref cycle that never ends" in problems(write(tmp_path, "c.json", schema))


def test_a_cycle_in_a_definition_nothing_uses_never_runs_and_loads(tmp_path) -> None:
    # as in the published cloudify.json: a definition whose allOf refers to itself, used by nothing
    schema = {
        "type": "object",
        "definitions": {"loop": {"allOf": [{"$ref": "#/definitions/loop"}]}},
        "properties": {"a": {"type": "string"}},
    }
    assert check_contract_file(write(tmp_path, "c.json", schema))[0] is not None


def test_meta_schemas_and_sibling_schemas_named_by_id_resolve_offline(tmp_path, server) -> None:
    url, hits = server
    # a schema of schemas refers to the meta-schema: answered from the local copies
    describing = refers_to("http://json-schema.org/draft-07/schema#", **{"$schema": "http://json-schema.org/draft-07/schema#"})
    contract, found = check_contract_file(write(tmp_path, "meta.json", describing))
    assert contract is not None, found
    assert (
        check_contract('{"token": {"type": "string"}}', contract).ok
        and not check_contract('{"token": {"type": 5}}', contract).ok
    )
    # "grunt-task#/definitions/x" beside grunt-task.json (schema sets name files by their $id's last
    # word)
    write(tmp_path, "grunt-task.json", {"definitions": {"x": {"type": "integer"}}})
    assert (
        check_contract_file(write(tmp_path, "g.json", refers_to("grunt-task#/definitions/x")))[0]
        is not None
    )
    # a reference inside a referenced file is checked too, and reported where the contract uses that
    # file
    write(tmp_path, "base.json", {"$defs": {"licence": {"$ref": f"{url}/osi-license.json"}}})
    text = problems(write(tmp_path, "b.json", refers_to("base.json#/$defs/licence")))
    assert (
        f'/properties/token/$ref: $ref "{url}/osi-license.json" in base.json (at /$defs/licence)'
        in text
    )
    assert hits == []


def test_recursive_schemas_that_read_into_the_value_load(tmp_path) -> None:
    tree = {
        "type": "object",
        "properties": {
            "name": {"type": "string"},
            "children": {"type": "array", "items": {"$ref": "#"}},
        },
    }
    contract, found = check_contract_file(write(tmp_path, "tree.json", tree))
    assert contract is not None, found
    assert not check_contract('{"children": [{"children": [{"name": 1}]}]}', contract).ok
