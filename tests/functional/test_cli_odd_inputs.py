"""Acceptance checks of issues 9 and 14 on the command line, as a user would run them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ML = ROOT / "sample_configs" / "ml_project_intake.yaml"


def _gate_tui(*args: str, cwd: Path, timeout: float = 30) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "GATE_TUI_STATE_DIR": str(cwd / "state")}
    return subprocess.run(
        [sys.executable, "-m", "gate_tui", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=timeout,
    )


@pytest.mark.parametrize("args", [("diff", "a", "b"), ("diff",), ("chek", "--config", "x.yaml")])
def test_an_unknown_subcommand_is_named_as_one(tmp_path: Path, args: tuple[str, ...]) -> None:
    done = _gate_tui(*args, cwd=tmp_path)
    assert done.returncode == 3
    assert f"unknown command '{args[0]}'" in done.stderr, done.stderr
    assert "check" in done.stderr and "Traceback" not in done.stderr


def test_a_config_file_named_like_a_word_still_opens_the_editor_path(tmp_path: Path) -> None:
    # An existing file is a CONFIG, whatever its name: the error is about its content.
    (tmp_path / "diff").write_text("not: [a config\n", encoding="utf-8")
    done = _gate_tui("diff", cwd=tmp_path)
    assert done.returncode == 3 and "unknown command" not in done.stderr


def test_a_lone_surrogate_id_is_echoed_escaped_not_dropped(tmp_path: Path) -> None:
    reply = (ROOT / "sample_configs" / "replies" / "ml_good.md").read_text(encoding="utf-8")
    line = json.dumps({"id": "\ud800", "reply": reply})  # ensure_ascii: the id is the escape \ud800
    (tmp_path / "in.jsonl").write_text(
        line + "\n" + json.dumps({"id": 2, "reply": reply}) + "\n", encoding="utf-8"
    )
    done = _gate_tui("check", "--config", str(ML), "--jsonl", "in.jsonl", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    records = [json.loads(row) for row in done.stdout.splitlines()]
    assert [r["id"] for r in records] == ["\ud800", 2]


@pytest.mark.parametrize(
    ("name", "text"),
    [
        (
            "c.json",
            '{"schema_version": "1.0", "name": "n", "gate_order": ["a"], "gates": {"a": {"label": '
            '"L", "question": "Q?"}}}',
        ),
        (
            "c.toml",
            'schema_version = "1.0"\nname = "n"\ngate_order = ["a"]\n[gates.a]\nlabel = "L"\n'
            'question = "Q?"\n',
        ),
        (
            "c.yaml",
            'schema_version: "1.0"\nname: n\ngate_order: [a]\ngates:\n  a: {label: L, question: '
            '"Q?"}\n',
        ),
    ],
)
def test_a_config_with_a_byte_order_mark_loads_in_every_format(
    tmp_path: Path, name: str, text: str
) -> None:
    (tmp_path / name).write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    done = _gate_tui("validate-config", name, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "OK (1 gate)" in done.stdout
