"""Configs are input: bounded loading, duplicate keys, safe gate keys, plain messages.

A config handed over by someone else must not cost more than a second and a few MB to
refuse (the alias bomb), must not silently lose a duplicate key, must not name gates
with text a terminal or Textual would act on, and every command says the same thing
with exit status 3 — never the name of a Python exception.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gate_tui.config.bounded_yaml import MAX_CONFIG_BYTES, load_json, load_yaml
from gate_tui.config.loading import check_config, config_from_text
from gate_tui.exit_codes import EXIT_USAGE

GATE_TUI = [sys.executable, "-m", "gate_tui"]
LEVELS = "abcdefghi"


def alias_bomb() -> str:
    rows = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for previous, name in zip(LEVELS, LEVELS[1:], strict=False):
        rows.append(f"{name}: &{name} [" + ",".join([f"*{previous}"] * 9) + "]")
    rows.append("gates: {a: {question: x}}")
    return "\n".join(rows) + "\n"


BOUNDED = textwrap.dedent(
    """
    import resource, subprocess, sys, time
    limit = 400 * 1024 * 1024
    def bound():
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    started = time.monotonic()
    done = subprocess.run(
        sys.argv[1:], capture_output=True, text=True, preexec_fn=bound, timeout=30
    )
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(done.returncode, round(time.monotonic() - started, 2), usage.ru_maxrss)
    sys.stderr.write(done.stdout + done.stderr)
    """
)


@pytest.mark.parametrize("command", ["validate-config", "check", "schema", "prompt", "editor"])
def test_the_alias_bomb_is_refused_quickly_within_a_memory_bound(
    tmp_path: Path, command: str
) -> None:
    bomb = tmp_path / "bomb.yaml"
    bomb.write_text(alias_bomb())
    args = {
        "validate-config": ["validate-config", str(bomb)],
        "check": ["check", "--config", str(bomb), os.devnull],
        "schema": ["schema", "--config", str(bomb)],
        "prompt": ["prompt", "--config", str(bomb)],
        "editor": [str(bomb)],
    }[command]
    env = {
        **os.environ,
        "GATE_TUI_STATE_DIR": str(tmp_path / "state"),
        "GATE_TUI_CACHE_DIR": str(tmp_path / "cache"),
    }
    done = subprocess.run(
        [sys.executable, "-c", BOUNDED, *GATE_TUI, *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    status, _seconds, max_rss_kib = done.stdout.split()
    assert int(status) == EXIT_USAGE, done.stderr
    assert "aliases (*a) are not allowed" in done.stderr
    assert "bomb.yaml:2" in done.stderr
    # The whole interpreter with pydantic loaded stays well under the 400 MB bound; the
    # bomb expanded would need 2.9 GB (the address-space limit would fail it).
    assert int(max_rss_kib) < 200 * 1024


def test_a_config_over_the_size_cap_is_refused_before_parsing(tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    big.write_text("gates: {a: {question: x}}\n" + "#" * MAX_CONFIG_BYTES + "\n")
    loaded = check_config(big)
    assert loaded.config is None
    assert "too large for a config" in str(loaded.problems[0]) and "1,048,576" in str(
        loaded.problems[0]
    )
    assert "too large" in load_yaml("x" * (MAX_CONFIG_BYTES + 1))[1].message  # type: ignore[union-attr]


def test_a_fifo_or_directory_as_config_never_blocks(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    assert "not a regular file" in str(check_config(fifo).problems[0])
    folder = tmp_path / "dir.yaml"
    folder.mkdir()
    assert "is a directory" in str(check_config(folder).problems[0])


def test_duplicate_yaml_keys_name_both_lines() -> None:
    text = "gates:\n  a:\n    question: A?\n    question: B?\n  b:\n    question: C?\n"
    loaded = config_from_text(text, ".yaml", "dup.yaml")
    assert loaded.config is None
    assert (
        str(loaded.problems[0])
        == "dup.yaml:4: duplicate key 'question' on lines 3 and 4 (the first one would be lost)"
    )
    data, problem = load_json('{"gates": {"a": {"question": "x"}, "a": {"question": "y"}}}')
    assert data is None and problem is not None and "'a' appears twice" in problem.message


@pytest.mark.parametrize(
    "key", ["", "a\nb", "\x1b[2Jz", "[@click=app.quit]y[/]", "a b", "\u202eab", "k" * 101]
)
def test_gate_keys_must_be_identifiers(key: str) -> None:
    import json

    loaded = config_from_text(json.dumps({"gates": {key: {"question": "q"}}}), ".json", "keys.json")
    assert loaded.config is None
    message = str(loaded.problems[0])
    assert "gate keys must be identifiers" in message
    assert "\x1b" not in message and "\n" not in message and "\u202e" not in message


@pytest.mark.parametrize("key", ["1_tests", "use_case", "data.v2", "x-y", "données"])
def test_ordinary_gate_keys_are_accepted(key: str) -> None:
    import json

    assert (
        config_from_text(json.dumps({"gates": {key: {"question": "q"}}}), ".json").config
        is not None
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("gates:\n  a:\n    question: \"\x01\"\n", "the character U+0001 is not allowed in YAML"),
        ("x: " + "[" * 500 + "]" * 500 + "\ngates: {}\n", "nested more than 64 levels deep"),
        ("gates: {a: {question: x}}\nb: <<: *c\n", "invalid YAML"),
    ],
)
def test_messages_say_what_is_wrong_not_which_exception(
    tmp_path: Path, text: str, expected: str
) -> None:
    config = tmp_path / "bad.yaml"
    config.write_text(text, encoding="utf-8")
    done = subprocess.run(
        [*GATE_TUI, "validate-config", str(config)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == EXIT_USAGE
    assert expected in done.stdout + done.stderr
    for name in ("RecursionError", "ReaderError", "ScannerError", "Error:", "Traceback"):
        assert name not in done.stdout + done.stderr


def test_prompt_and_schema_show_config_text_safely(tmp_path: Path) -> None:
    config = tmp_path / "esc.yaml"
    config.write_text(
        'gates:\n  a:\n    question: "Q\\e[2J\\u202e?"\n    label: "L\\e]52;c;eA==\\a"\n    '
        'expected_categories: ["x\\e[31m"]\n'
    )
    for command in ("prompt", "schema"):
        done = subprocess.run(
            [*GATE_TUI, command, "--config", str(config)], capture_output=True, timeout=60
        )
        assert done.returncode == 0, done.stderr
        assert not any(byte in done.stdout for byte in (b"\x1b", b"\x07", "\u202e".encode()))


def test_the_file_loader_others_call_applies_the_same_bounds(tmp_path: Path) -> None:
    from gate_tui.config.bounded_yaml import load_data_file

    bomb = tmp_path / "contract.yaml"
    bomb.write_text(alias_bomb())
    data, problem = load_data_file(bomb)
    assert (
        data is None and problem is not None and problem.line == 2 and "aliases" in problem.message
    )
    good = tmp_path / "contract.json"
    good.write_text('{"a": [1, 2]}')
    assert load_data_file(good) == ({"a": [1, 2]}, None)
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    assert "not a regular file" in load_data_file(fifo)[1].message  # type: ignore[union-attr]
    assert load_data_file(tmp_path / "missing.yaml")[1] == ("file not found", None)


YAMLISH = st.text(
    alphabet=st.sampled_from(list("ab:- \n[]{}&*<!|>'\"#,?%@`\t\x1b\x85\u202e\ud800")), max_size=200
)


@settings(max_examples=300, deadline=None)
@given(YAMLISH)
def test_any_text_gives_data_or_a_plain_problem_never_an_exception(text: str) -> None:
    for load in (load_yaml, load_json):
        data, problem = load(text)
        if problem is not None:
            assert data is None and problem.message
            assert "Error" not in problem.message and "Traceback" not in problem.message
