"""``gate-tui check`` over several files: each JSON record names its file, and the text
summary ends with a total."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.conftest import CONFIGS, REPLIES

ML = str(CONFIGS / "ml_project_intake.yaml")
FILES = [str(REPLIES / name) for name in ("ml_good.md", "ml_lying_pass.md", "ml_garbage.md")]


def gate_tui(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gate_tui", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_json_records_carry_their_file_name_in_order() -> None:
    done = gate_tui("check", "--config", ML, "--format", "json", *FILES)
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert [record["file"] for record in records] == FILES
    assert [record["ok"] for record in records] == [True, True, False]
    assert list(records[0])[0] == "file"


def test_stdin_is_named_in_json() -> None:
    done = gate_tui(
        "check", "--config", ML, "--format", "json", "-", stdin=(REPLIES / "ml_good.md").read_text()
    )
    assert json.loads(done.stdout)["file"] == "<stdin>"


def test_a_json_record_still_chains_as_previous(tmp_path) -> None:  # noqa: ANN001
    first = gate_tui("check", "--config", ML, "--format", "json", FILES[0])
    previous = tmp_path / "previous.json"
    previous.write_text(first.stdout)
    done = gate_tui(
        "check",
        "--config",
        ML,
        "--previous",
        str(previous),
        "--actor",
        "user",
        "-",
        stdin='{"summary": "x"}',
    )
    assert done.returncode == 0, done.stderr


def test_text_mode_prints_a_total_over_several_files(tmp_path) -> None:  # noqa: ANN001
    missing = str(tmp_path / "missing.md")
    done = gate_tui("check", "--config", ML, *FILES, missing)
    assert (
        done.stdout.rstrip().splitlines()[-1]
        == "total: 4 files: 1 PASS, 1 NO PASS, 1 INVALID, 1 unreadable"
    )
    assert done.returncode == 3


def test_one_file_has_no_total() -> None:
    done = gate_tui("check", "--config", ML, FILES[0])
    assert "total:" not in done.stdout


def test_contract_mode_names_files_and_prints_a_total() -> None:
    contract = str(CONFIGS / "contracts" / "guardian_report.yaml")
    replies = [
        str(CONFIGS / "contracts" / "replies" / name)
        for name in ("guardian_report_good.md", "guardian_report_broken.md")
    ]
    records = [
        json.loads(line)
        for line in gate_tui(
            "check", "--contract", contract, "--format", "json", *replies
        ).stdout.splitlines()
    ]
    assert [record["file"] for record in records] == replies
    text = gate_tui("check", "--contract", contract, *replies)
    assert text.stdout.rstrip().splitlines()[-1] == "total: 2 files: 1 VALID, 1 INVALID"


def test_previous_and_conversation_files_are_read_the_same_bounded_way(tmp_path) -> None:  # noqa: ANN001
    """A pipe is never waited on, a repeated key is named, a file too large is refused:
    for ``--previous`` and ``--conversation`` alike, each a clear usage error."""
    import os

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    twice = tmp_path / "twice.json"
    twice.write_text('[{"role": "user", "role": "assistant", "content": "x"}]', encoding="utf-8")
    huge = tmp_path / "huge.json"
    with huge.open("wb") as out:
        out.truncate(6_000_000)  # over the state file's limit, without writing 6 MB
    for flag, path, words in [
        ("--previous", fifo, "not a regular file"),
        ("--conversation", fifo, "not a regular file"),
        ("--conversation", twice, "gives the key 'role' twice"),
        ("--previous", huge, "too large for a state file"),
    ]:
        done = gate_tui("check", "--config", ML, flag, str(path), FILES[0])
        assert done.returncode == 3, (flag, path, done.stderr)
        assert words in done.stderr and str(path) in done.stderr, done.stderr
