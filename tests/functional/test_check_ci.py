"""``check``'s CI outputs: ``--format github`` lines parsed against the documented grammar
of workflow commands, ``--junit`` read back by an XML parser, ``--summary-md`` — for reply
files and for a batch (the annotation points at the input's line)."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tests.conftest import CONFIGS, REPLIES
from tests.helpers.cli import gate_tui

ML = CONFIGS / "ml_project_intake.yaml"
# ::KIND file=F,line=L,col=C,title=T::MESSAGE — property values escape % \r \n : , and the
# message % \r \n (GitHub's toolkit, command.ts).
PROPERTY = r"(?:[^%\r\n:,]|%25|%0D|%0A|%3A|%2C)*"
ANNOTATION = re.compile(
    rf"^::(?P<kind>error|warning|notice) "
    rf"file=(?P<file>{PROPERTY}),line=(?P<line>[1-9]\d*),col=(?P<col>[1-9]\d*),"
    rf"title=(?P<title>{PROPERTY})::(?P<message>(?:[^%\r\n]|%25|%0D|%0A)*)$"
)


def _unescape(text: str) -> str:
    return (
        text.replace("%0D", "\r")
        .replace("%0A", "\n")
        .replace("%3A", ":")
        .replace("%2C", ",")
        .replace("%25", "%")
    )


def _parsed(stdout: str) -> list[dict[str, str]]:
    found = []
    for line in stdout.splitlines():
        match = ANNOTATION.match(line)
        assert match, f"not a workflow command: {line!r}"
        found.append({key: _unescape(value) for key, value in match.groupdict().items()})
    return found


def test_reply_files_as_github_annotations_junit_and_markdown(tmp_path: Path) -> None:
    guessed = tmp_path / "guess, 100%: a.md"  # a name with the characters the grammar escapes
    guessed.write_text('Intro line\n{"summary": hi there,\n "gates": {}}\n', encoding="utf-8")
    junit, summary = tmp_path / "junit.xml", tmp_path / "summary.md"
    files = [
        str(REPLIES / "ml_garbage.md"),
        str(REPLIES / "ml_lying_pass.md"),
        str(REPLIES / "ml_good.md"),
        str(guessed),
    ]
    done = gate_tui(
        "check",
        "--config",
        str(ML),
        "--format",
        "github",
        *files,
        "--junit",
        str(junit),
        "--summary-md",
        str(summary),
    )
    assert done.returncode == 2, done.stderr
    annotations = _parsed(done.stdout)
    kinds = [(item["kind"], Path(item["file"]).name) for item in annotations]
    assert ("error", "ml_garbage.md") in kinds and ("notice", "ml_lying_pass.md") in kinds
    assert not any(name == "ml_good.md" for _kind, name in kinds)
    warning = next(item for item in annotations if item["kind"] == "warning")
    assert (
        warning["file"] == str(guessed)
        and (warning["line"], warning["col"]) == ("2", "13")
        and "hi there" in warning["message"]
    )
    suite = ET.parse(junit).getroot().find("testsuite")
    assert suite is not None and suite.get("tests") == "4" and suite.get("failures") == "1"
    cases = {case.get("name"): case for case in suite.iter("testcase")}
    assert cases[str(REPLIES / "ml_garbage.md")].find("error") is not None
    assert cases[str(REPLIES / "ml_lying_pass.md")].find("failure") is not None
    assert len(cases[str(REPLIES / "ml_good.md")]) == 0
    table = summary.read_text(encoding="utf-8")
    assert "| NO PASS | 2\\_use\\_case |" in table


def test_a_batch_points_annotations_at_the_input_line(tmp_path: Path) -> None:
    good, garbage = (REPLIES / "ml_good.md").read_text(), (REPLIES / "ml_garbage.md").read_text()
    hostile = "::error file=x::injected\n%0A"
    rows = [
        {"id": "a", "reply": good},
        {"id": "b\n::warning::x", "reply": garbage},
        {"id": "c", "reply": hostile},
    ]
    source = tmp_path / "in.jsonl"
    source.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    junit, summary = tmp_path / "junit.xml", tmp_path / "summary.md"
    done = gate_tui(
        "check",
        "--config",
        str(ML),
        "--jsonl",
        str(source),
        "-o",
        str(tmp_path / "out.jsonl"),
        "-q",
        "--format",
        "github",
        "--junit",
        str(junit),
        "--summary-md",
        str(summary),
    )
    assert done.returncode == 2, done.stderr
    annotations = _parsed(done.stdout)
    assert {item["line"] for item in annotations} == {"2", "3"} and all(
        item["file"] == str(source) for item in annotations
    )
    assert ET.parse(junit).getroot().find("testsuite").get("errors") == "2"  # type: ignore[union-attr]
    assert "| all rows | 3 |" in summary.read_text(encoding="utf-8")


def test_a_batch_needs_a_results_file_for_the_ci_outputs() -> None:
    done = gate_tui("check", "--config", str(ML), "--jsonl", "-", "--format", "github", stdin="")
    assert done.returncode == 3 and "-o RESULTS" in done.stderr


@pytest.mark.parametrize("flag", ["--junit", "--summary-md"])
def test_an_unwritable_report_is_a_clear_error(flag: str, tmp_path: Path) -> None:
    done = gate_tui(
        "check",
        "--config",
        str(ML),
        str(REPLIES / "ml_good.md"),
        flag,
        str(tmp_path / "missing" / "x"),
    )
    assert done.returncode == 3 and "Traceback" not in done.stderr


def test_the_ci_outputs_say_they_do_not_apply_to_contracts(tmp_path: Path) -> None:
    contract = CONFIGS / "contracts" / "analyst_plan.yaml"
    done = gate_tui(
        "check",
        "--contract",
        str(contract),
        str(REPLIES / "ml_good.md"),
        "--junit",
        str(tmp_path / "j.xml"),
    )
    assert done.returncode == 3 and "not to --contract" in done.stderr
