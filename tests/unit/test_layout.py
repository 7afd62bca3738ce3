"""Tests are split by kind and named by what they test (issue 28).

- ``tests/unit``: pure functions, property tests, in-process checks; fast, no terminal,
  no Pilot, no server.
- ``tests/functional``: Textual Pilot (``run_test``), snapshots, the CLI run as a subprocess,
  Ray, real servers on loopback sockets.
- ``tests/e2e``: a real terminal (tmux), a real browser (Chromium), the real model, the built
  wheel, the walkthrough.

Shared test code lives in ``tests/helpers`` (and ``tests/tui_helpers.py``); a test module never
imports another test module.
"""

from __future__ import annotations

import re
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
KINDS = ("unit", "functional", "e2e")
# "round3", "acceptance" as a word of the name (not the "round" inside "grounding").
HISTORY = re.compile(r"(?:^|_)(?:round\d*|acceptance)(?:_|$)")


def every_test_file() -> list[Path]:
    return sorted(TESTS.rglob("test_*.py"))


def test_every_test_file_lives_in_one_kind_folder() -> None:
    files = every_test_file()
    assert files, "no test files found"
    misplaced = [
        str(path.relative_to(TESTS))
        for path in files
        if path.parent.parent != TESTS or path.parent.name not in KINDS
    ]
    assert misplaced == []


def test_each_kind_folder_is_a_package() -> None:
    for kind in KINDS:
        assert (TESTS / kind / "__init__.py").is_file(), kind


def test_no_test_file_is_named_by_history() -> None:
    named = [
        str(path.relative_to(TESTS))
        for path in every_test_file()
        if HISTORY.search(path.stem)
    ]
    assert named == []


def test_no_test_module_imports_another_test_module() -> None:
    pattern = re.compile(r"^\s*(?:from|import)\s+tests\.(?:\w+\.)?test_\w+", re.MULTILINE)
    allowed = {"tests.unit.test_architecture"}  # the layer table, one source for the docs test
    crossing = []
    for path in every_test_file():
        for match in pattern.finditer(path.read_text(encoding="utf-8")):
            target = match.group(0).split()[-1]
            if target not in allowed:
                crossing.append(f"{path.relative_to(TESTS)}: {target}")
    assert crossing == []


def test_snapshot_folders_sit_beside_their_test_modules() -> None:
    orphans = [
        str(folder.relative_to(TESTS))
        for folder in TESTS.rglob("__snapshots__/*")
        if folder.is_dir() and not (folder.parent.parent / f"{folder.name}.py").is_file()
    ]
    assert orphans == []
