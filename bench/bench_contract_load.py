"""Loading a large contract: the meta-schema check and the whole load of a ~100 KB schema.

Goal (issue 21, item 8): checking a 100 KB schema against its draft's meta-schema takes
≤ 50 ms. The schema is generated here in the shape of SARIF 2.1.0 (a draft-07 log schema
made of ~100 definitions that refer to each other, with patterns, formats and enums), so
no third-party file is needed. Informational rows: the same meta-schema check with the
pure-Python ``jsonschema`` (what loading used before), the whole load of the file as JSON
and as YAML with the cache missed (a fresh cache folder each round), and loaded again
unchanged (from the cache keyed by its text).

Run alone: ``python bench/bench_contract_load.py``; ``bench_contract.py`` includes its rows.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from timing import median_time  # noqa: E402  (bench/ is the script folder)

GOAL_META_MS = 50.0
TARGET_BYTES = 100 * 1024


def big_schema(target: int = TARGET_BYTES) -> dict:
    """A draft-07, SARIF-shaped schema of at least ``target`` bytes as compact JSON (about twice
    that indented)."""
    definitions: dict = {}
    schema = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "$id": "https://example.org/bench/sarif-shaped.json",
        "title": "A SARIF-shaped log",
        "type": "object",
        "properties": {
            "version": {"enum": ["2.1.0"]},
            "runs": {"type": "array", "items": {"$ref": "#/definitions/run0"}},
        },
        "required": ["version", "runs"],
        "definitions": definitions,
    }
    index = 0
    while len(json.dumps(schema, separators=(",", ":"))) < target:
        following = f"#/definitions/run{index + 1}"
        definitions[f"run{index}"] = {
            "description": f"Run number {index}: the tool, its results and the artifacts it "
            f"looked at, as in a SARIF run object.",
            "type": "object",
            "properties": {
                "tool": {"$ref": f"#/definitions/tool{index}"},
                "results": {
                    "type": ["array", "null"],
                    "items": {"$ref": f"#/definitions/result{index}"},
                },
                "next": {"$ref": following},
                "columnKind": {"enum": ["utf16CodeUnits", "unicodeCodePoints"]},
            },
            "required": ["tool"],
            "additionalProperties": False,
        }
        definitions[f"tool{index}"] = {
            "type": "object",
            "properties": {
                "name": {"type": "string", "minLength": 1, "pattern": r"^\p{L}[\p{L}\p{N} _.-]*$"},
                "informationUri": {"type": "string", "format": "uri"},
                "rules": {
                    "type": "array",
                    "uniqueItems": True,
                    "items": {"$ref": f"#/definitions/rule{index}"},
                },
            },
            "required": ["name"],
        }
        definitions[f"rule{index}"] = {
            "type": "object",
            "properties": {
                "id": {"type": "string", "pattern": "^[A-Z]{1,4}[0-9]{3,5}$"},
                "helpUri": {"type": "string", "format": "uri"},
                "defaultLevel": {
                    "enum": ["none", "note", "warning", "error"],
                    "default": "warning",
                },
            },
            "required": ["id"],
        }
        definitions[f"result{index}"] = {
            "type": "object",
            "properties": {
                "ruleId": {"type": "string"},
                "level": {"enum": ["none", "note", "warning", "error"]},
                "message": {
                    "type": "object",
                    "properties": {"text": {"type": "string", "maxLength": 4000}},
                    "required": ["text"],
                },
                "locations": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {
                            "uri": {"type": "string", "format": "uri-reference"},
                            "startLine": {"type": "integer", "minimum": 1},
                            "endLine": {"type": "integer", "minimum": 1},
                        },
                    },
                },
                "fingerprints": {
                    "type": "object",
                    "patternProperties": {"^[a-z]+/v[0-9]+$": {"type": "string"}},
                    "additionalProperties": False,
                },
            },
            "required": ["message"],
        }
        index += 1
    definitions[f"run{index}"] = {"type": "object"}
    return schema


def as_2020_12(schema: dict) -> dict:
    """The same schema written for 2020-12 ($defs), the draft whose meta-schema costs most to
    walk."""
    moved = json.loads(json.dumps(schema).replace('"#/definitions/', '"#/$defs/'))
    moved["$defs"] = moved.pop("definitions")
    moved["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    return moved


def row(name: str, measured: str, goal: str, ok: bool | None) -> tuple[str, str, str, str]:
    return (name, measured, goal, "" if ok is None else ("PASS" if ok else "MISS"))


def bench_load(repeat: int, given: Path | None = None) -> list[tuple[str, str, str, str]]:
    import jsonschema
    import yaml

    from gate_tui.contracts.loading import check_contract_file
    from gate_tui.contracts.meta_check import meta_problems, meta_validator

    schema = big_schema() if given is None else json.loads(given.read_text(encoding="utf-8"))
    text = json.dumps(schema, indent=2)
    rows = []
    drafts = (
        (7, schema, jsonschema.Draft7Validator),
        (20, as_2020_12(schema), jsonschema.Draft202012Validator),
    )
    for draft, variant, python_class in drafts[:1] if given is not None else drafts:
        size = f"{len(json.dumps(variant, separators=(',', ':'))) / 1024:.0f} KB"
        start = time.perf_counter()
        meta_validator(
            draft
        )  # compiled once per process, its $refs on first use: the CLI pays both
        assert meta_problems(variant, draft) == []
        first = time.perf_counter() - start
        ours = median_time(
            lambda variant=variant, draft=draft: meta_problems(variant, draft), repeat, 3
        )
        python = python_class(python_class.META_SCHEMA, format_checker=jsonschema.FormatChecker())
        theirs = median_time(
            lambda variant=variant, python=python: list(python.iter_errors(variant)),
            max(1, repeat // 2),
            1,
        )
        name = {7: "draft-07", 20: "2020-12"}[draft]
        measured = (
            f"{first * 1e3:.1f} ms first in the process (compiling the meta-schema "
            f"included), {ours * 1e3:.1f} ms after"
        )
        rows.append(
            row(
                f"meta-schema check, {size} {name} schema (compact JSON)",
                measured,
                f"≤ {GOAL_META_MS:.0f} ms",
                first * 1e3 <= GOAL_META_MS,
            )
        )
        rows.append(
            row(
                f"same check with pure-Python jsonschema ({name})",
                f"{theirs * 1e3:.0f} ms = {theirs / ours:.0f}× slower",
                "(info: before)",
                None,
            )
        )
    old = os.environ.get("GATE_TUI_CACHE_DIR")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        files = {"JSON": folder / "big.json", "YAML": folder / "big.yaml"}
        files["JSON"].write_text(text)
        files["YAML"].write_text(yaml.safe_dump(schema, sort_keys=False, allow_unicode=True))
        counter = iter(range(10**9))

        def cold(path: Path) -> None:
            os.environ["GATE_TUI_CACHE_DIR"] = str(folder / f"cache{next(counter)}")
            assert check_contract_file(path)[0] is not None

        try:
            for kind, path in files.items():
                miss = median_time(lambda path=path: cold(path), repeat, 1)
                os.environ["GATE_TUI_CACHE_DIR"] = str(folder / "warm")
                check_contract_file(path)
                hit = median_time(lambda path=path: check_contract_file(path), repeat, 3)
                rows.append(
                    row(
                        f"load {kind} file ({path.stat().st_size / 1024:.0f} KB): first / again",
                        f"{miss * 1e3:.0f} ms / {hit * 1e3:.0f} ms (cache)",
                        "(info)",
                        None,
                    )
                )
        finally:
            if old is None:
                os.environ.pop("GATE_TUI_CACHE_DIR", None)
            else:
                os.environ["GATE_TUI_CACHE_DIR"] = old
    return rows


def main() -> int:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--schema",
        type=Path,
        help="time this draft-07 JSON schema file instead of the generated one (e.g. the "
        "published SARIF 2.1.0 schema)",
    )
    args = parser.parse_args()
    rows = bench_load(7, args.schema)
    for current in rows:
        print(" | ".join(current))
    return 1 if any(r[3] == "MISS" for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
