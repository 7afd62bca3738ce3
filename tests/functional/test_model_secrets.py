"""The API key never leaks (issue 30, item 1): in every form text can carry it, on every
output surface — ``ask``'s stdout and stderr, the journal, the report (text, Markdown, HTML) —
including when a key file had Windows line endings and when the endpoint echoes the
Authorization header into its reply or its error body."""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
import urllib.parse
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("openai")

from gate_tui.llm.client import LiveReply  # noqa: E402
from gate_tui.llm.failures import redact  # noqa: E402
from gate_tui.llm.secrets import MASK, Redactor, clean_key  # noqa: E402
from tests.conftest import CONFIGS, reply  # noqa: E402
from tests.helpers.scripted_openai import ScriptedServer, Step  # noqa: E402

KEY = "sk-proj-Zq81LEAKME0042abcXYZ"
CONFIG = CONFIGS / "ml_project_intake.yaml"


def shapes(key: str) -> dict[str, str]:
    """Every way the key was seen leaking, by name."""
    return {
        "raw": key,
        "repr-escaped CR": repr(key + "\r")[1:-1],
        "header repr": repr(("Bearer " + key + "\r").encode())[2:-1],
        "spaces around": f"  {key}\t",
        "base64 bearer": base64.b64encode(f"Bearer {key}".encode()).decode(),
        "base64 key": base64.b64encode(key.encode()).decode(),
        "base64 basic": base64.b64encode(f":{key}".encode()).decode(),
        "percent-encoded": urllib.parse.quote(key + "/", safe=""),
        "spaced out": " ".join(key),
    }


def leaked(text: str, key: str = KEY) -> list[str]:
    found = [name for name, form in shapes(key).items() if form.strip() in text]
    core = key[3:]  # the key without its prefix, also in a spaced or escaped form
    return found + (["core"] if core in text or " ".join(core) in text else [])


@pytest.mark.parametrize("name", list(shapes(KEY)))
def test_every_shape_is_redacted(name: str) -> None:
    text = f"Illegal header value b'x': {shapes(KEY)[name]} (gateway echo)"
    out = Redactor(KEY)(text)
    assert leaked(out) == [] and MASK in out
    assert leaked(redact(text, KEY + "\r")) == []  # the raw environment value, CR and all


def test_a_placeholder_or_short_key_is_not_a_secret() -> None:
    assert Redactor("no-key")("no-key here") == "no-key here"
    assert Redactor(None)("text") == "text"


def test_a_key_with_windows_line_ending_is_trimmed_with_a_warning_naming_no_key() -> None:
    key, warning = clean_key(KEY + "\r\n")
    assert key == KEY and warning is not None and "\\r" in warning and KEY not in warning
    assert clean_key(KEY) == (KEY, None)


@settings(max_examples=150, deadline=None)
@given(st.text(st.characters(min_codepoint=33, max_codepoint=126), min_size=8, max_size=40),
       st.text(max_size=200), st.text(max_size=200))
def test_any_key_anywhere_in_any_text_is_gone(key: str, before: str, after: str) -> None:
    out = Redactor(key)(before + key + after)
    assert key not in out.replace(MASK, "\0")  # a mask never rebuilds the key with its neighbours


def test_a_streamed_echo_never_shows_the_key_even_split_across_pieces() -> None:
    shown: list[str] = []
    live = LiveReply(on_piece=shown.append)
    live.redact = Redactor(KEY)
    text = (
        "before "
        + KEY
        + " middle "
        + base64.b64encode(f"Bearer {KEY}".encode()).decode()
        + " after" * 40
    )
    for start in range(0, len(text), 3):
        live.add(text[start : start + 3])
    live.flush_echo()
    assert leaked("".join(shown)) == [] and "".join(shown).endswith("after")
    assert leaked(live.text) == [] and live.text.count(MASK) == 2


def ask(server: ScriptedServer, state: Path, key: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "GATE_TUI_MODEL"))}
    env.update(OPENAI_API_KEY=key, XDG_CONFIG_HOME=str(state.parent / "xdg"))
    command = [
        sys.executable,
        "-m",
        "gate_tui",
        "ask",
        str(CONFIG),
        "--state",
        str(state),
        "--model",
        "m",
        "--base-url",
        server.base_url,
        "--retries",
        "0",
        "go",
    ]
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=120)


def report(state: Path, fmt: str) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENAI_")}
    done = subprocess.run([sys.executable, "-m", "gate_tui", "report", str(state), "--format", fmt],
                          capture_output=True, text=True, env=env, timeout=120)
    return done.stdout + done.stderr


ECHOES = {
    "reply echoes the header": Step(
        text="Your header was {AUTH} and {AUTH_B64} and {AUTH_SPACED}. " + reply("ml_good.md")
    ),
    "error body echoes it": Step(status=400, error="bad header {AUTH} / {AUTH_B64}"),
    "server error echoes it": Step(status=500, error="upstream saw {AUTH_SPACED}"),
}


@pytest.mark.parametrize("case", list(ECHOES))
@pytest.mark.parametrize(
    "key", [KEY, KEY + "\r", f" {KEY}\r\n"], ids=["clean", "cr", "spaces-crlf"]
)
def test_no_output_surface_holds_the_key(tmp_path: Path, case: str, key: str) -> None:
    state = tmp_path / "s.json"
    with ScriptedServer([ECHOES[case]]) as server:
        done = ask(server, state, key)
    assert "Traceback" not in done.stderr
    assert server.auth[0] == f"Bearer {KEY}"  # the trimmed key was sent, the header was legal
    if key != KEY:
        warnings = [line for line in done.stderr.splitlines() if "trimmed" in line]
        assert len(warnings) == 1 and "OPENAI_API_KEY" in warnings[0]
    surfaces = {"stdout": done.stdout, "stderr": done.stderr}
    journal = state.with_name(state.name + ".journal.jsonl")
    surfaces["journal"] = journal.read_text(encoding="utf-8")
    assert any(
        json.loads(line)["kind"] == "model_call" for line in surfaces["journal"].splitlines()
    )
    for fmt in ("text", "md", "html"):
        surfaces[f"report {fmt}"] = report(state, fmt)
    assert {name: leaked(text) for name, text in surfaces.items() if leaked(text)} == {}
    assert MASK in surfaces["journal"]
