"""docs/repairs.md cannot drift: every example in its tables does what the table says, and
every repair code the parser can report is in the table with the certainty it has."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from gate_tui import extract_json
from gate_tui.parsing.repair.vocabulary import KINDS

PAGE = Path(__file__).resolve().parents[2] / "docs" / "repairs.md"
_CELL = re.compile(r"^`(.*)`$")


def _rows(first_column: str) -> list[list[str]]:
    """The rows of the table whose header starts with ``first_column``, cells stripped."""
    rows: list[list[str]] = []
    inside = False
    for line in PAGE.read_text(encoding="utf-8").splitlines():
        if line.startswith(f"| {first_column} |"):
            inside = True
            continue
        if inside and line.startswith("|---"):
            continue
        if inside and line.startswith("|"):
            rows.append([cell.strip() for cell in line.strip("|").split(" | ")])
        elif inside:
            break
    assert rows, f"no table starting with {first_column!r} in {PAGE}"
    return rows


def _code(cell: str) -> str:
    found = _CELL.match(cell)
    assert found is not None, cell
    return found.group(1)


def _reply(cell: str) -> str:
    return _code(cell).replace("⏎", "\n")


def _check(reply: str, reads_as: str, **options: object) -> list[dict]:
    result = extract_json(reply, **options)
    if reads_as.startswith("refused"):
        assert result.error is not None, (reply, result.value)
        for word in reads_as.removeprefix("refused:").split():
            assert word in result.error, (reply, result.error)
    else:
        assert result.error is None, (reply, result.error)
        assert result.value == json.loads(_code(reads_as)), (reply, result.value)
    return result.repair_records


@pytest.mark.parametrize("row", _rows("code"), ids=lambda row: row[0] + " " + row[2][:30])
def test_each_repair_example_reads_as_the_table_says(row: list[str]) -> None:
    code, certainty, reply, reads_as = _code(row[0]), row[1], _reply(row[2]), row[3]
    assert KINDS[code][0] == certainty, (code, KINDS[code][0])
    records = _check(reply, reads_as)
    assert (code, certainty) in [(record["code"], record["certainty"]) for record in records], (
        records
    )


def test_every_repair_code_is_in_the_table() -> None:
    listed = {_code(row[0]) for row in _rows("code")}
    words = PAGE.read_text(encoding="utf-8")
    for code in KINDS:
        assert code in listed or f"`{code}`" in words, code


@pytest.mark.parametrize("row", _rows("rule"), ids=lambda row: row[0])
def test_each_never_a_wrong_object_example_is_refused(row: list[str]) -> None:
    _check(_reply(row[1]), row[2])


@pytest.mark.parametrize("row", _rows("want"), ids=lambda row: row[0] + " " + row[1])
def test_each_want_example_reads_as_the_table_says(row: list[str]) -> None:
    _check(_reply(row[1]), row[2], want=_code(row[0]))
