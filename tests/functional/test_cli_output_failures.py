"""Every ``gate-tui`` command reports a failed write to stdout (a full device, a closed
stdout) as one clear message and exit status 3: never "internal error", never a traceback,
never exit 0 with the output lost."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from gate_tui.cli.registry import SUBCOMMANDS
from tests.conftest import CONFIGS, REPLIES

ML = str(CONFIGS / "ml_project_intake.yaml")
CONTRACT = str(CONFIGS / "contracts" / "guardian_report.yaml")
COMMANDS = {
    "check": ["check", "--config", ML, str(REPLIES / "ml_good.md")],
    "check --jsonl": ["check", "--config", ML, "--jsonl", str(REPLIES / "ml_good.md")],
    "schema": ["schema", "--config", ML],
    "prompt": ["prompt", "--config", ML],
    "validate-config": ["validate-config", ML],
    "validate-contract": ["validate-contract", CONTRACT],
    "sessions": ["sessions"],
    "report": ["report", "REPORT"],
    "serve": ["serve", "--help"],
    "review": ["review", "--help"],
    # another reply column: the file batch of check --input, not check --jsonl, writes the records
    "check --input": [
        "check",
        "--config",
        ML,
        "--input",
        str(REPLIES / "ml_good.md"),
        "--input-format",
        "jsonl",
        "--reply-column",
        "text",
    ],
    "ask": ["ask", "--help"],
    "stats": ["stats", "RESULTS"],
    "stats --format html": ["stats", "RESULTS", "--format", "html"],
    "check --format github": [
        "check",
        "--config",
        ML,
        "--format",
        "github",
        str(REPLIES / "ml_garbage.md"),
    ],
    "--help": ["--help"],
    "--version": ["--version"],
    "check --help": ["check", "--help"],
}


def test_every_registered_command_is_covered() -> None:
    assert {command.name for command in SUBCOMMANDS} <= {words[0] for words in COMMANDS.values()}


@pytest.fixture(scope="module")
def session_file(tmp_path_factory: pytest.TempPathFactory) -> str:
    from gate_tui import load_config, parse
    from gate_tui.session.opening import open_session

    config = load_config(ML)
    file = tmp_path_factory.mktemp("report") / "review.json"
    text = (REPLIES / "ml_lying_pass.md").read_text(encoding="utf-8")
    with open_session(config, Path(ML), state_file=file) as session:
        session.accept(parse(text, config, session.state), text, "assistant")
    return str(file)


@pytest.fixture(scope="module")
def results_file(tmp_path_factory: pytest.TempPathFactory) -> str:
    folder = tmp_path_factory.mktemp("results")
    source = folder / "in.jsonl"
    source.write_text('{"id": 1, "reply": "no json"}\n', encoding="utf-8")
    out = folder / "out.jsonl"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "gate_tui",
            "check",
            "--config",
            ML,
            "--jsonl",
            str(source),
            "-o",
            str(out),
            "-q",
        ],
        timeout=120,
    )
    return str(out)


def run(args: list[str], how: str) -> subprocess.CompletedProcess[str]:
    if how == "full":
        with open("/dev/full", "w") as full:
            return subprocess.run(
                [sys.executable, "-m", "gate_tui", *args],
                stdout=full,
                stderr=subprocess.PIPE,
                text=True,
                timeout=120,
            )
    # A closed stdout (`>&-`): the child starts with no file descriptor 1.
    return subprocess.run(
        [sys.executable, "-m", "gate_tui", *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        timeout=120,
        preexec_fn=lambda: os.close(1),  # noqa: PLW1509 - only closes a descriptor
    )


@pytest.mark.parametrize("how", ["full", "closed"])
@pytest.mark.parametrize("name", list(COMMANDS))
def test_a_failed_write_is_one_clear_error(
    name: str, how: str, session_file: str, results_file: str
) -> None:
    places = {"REPORT": session_file, "RESULTS": results_file}
    args = [places.get(word, word) for word in COMMANDS[name]]
    done = run(args, how)
    assert done.returncode == 3, done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1, lines
    assert "cannot write the output" in lines[0] or "input/output error" in lines[0]
    assert "internal error" not in done.stderr and "Traceback" not in done.stderr
