"""The docs' "A 60-second walkthrough" (docs/getting-started.md), followed literally in a real
terminal (tmux).

Each step sends the keys the page names and asserts on the captured screen what the
page says the user sees. When the walkthrough's text changes, this test changes with
it (the step numbers below are the page's).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
from pathlib import Path

from tests.helpers.tmux import Tmux, gate_tui, tmux  # noqa: F401 - tmux is a fixture
from tests.tui_helpers import REPLIES, ROOT

PAGE = ROOT / "docs" / "getting-started.md"
DECISION_NO_PASS = re.compile(r"NO PASS · required gate (\S+) is missing")


def walkthrough() -> str:
    """The page's walkthrough section (the test follows these words), to the next heading."""
    text = PAGE.read_text(encoding="utf-8")
    start = text.index("## A 60-second walkthrough")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else len(text)]


def asked(screen: str) -> str | None:
    """The gate the decision panel says is missing (None: not a NO PASS for a missing gate)."""
    match = DECISION_NO_PASS.search(screen)
    return match.group(1) if match else None


def session_name(screen: str) -> str:
    """The session named in the title bar."""
    match = re.search(r"session (\S+)", screen)
    assert match, screen
    return match.group(1)


def passed(screen: str) -> bool:
    return "PASS · every required gate is answered" in screen


def test_the_readme_walkthrough_step_by_step(tmux: Tmux, tmp_path: Path) -> None:  # noqa: F811
    steps = walkthrough()
    env = {
        "GATE_TUI_STATE_DIR": str(tmp_path / "state"),
        "TERM": "xterm-256color",
        "GATE_TUI_NO_BLINK": "1",
    }
    command = gate_tui()  # `make run`: the bundled ML-project intake

    # 1. `make run`. The decision says NO PASS and asks 1_data_availability's question.
    assert "1. `make run`" in steps
    tmux.start(command, env)
    tmux.wait_for(
        lambda s: (
            asked(s) == "1_data_availability" and "Is labelled data available for this problem" in s
        ),
        "NO PASS asking 1_data_availability",
    )

    # 2. F3, then Enter, Down, Enter picks "available" in Classified: the panel moves on to
    # 2_use_case.
    assert "Press F3, then Enter, ↓, Enter" in steps
    tmux.run("send-keys", "F3", "Enter")
    tmux.wait_for(lambda s: "unavailable" in s, "the category list")
    tmux.run("send-keys", "Down", "Enter")
    tmux.wait_for(lambda s: asked(s) == "2_use_case", "the panel moved on to 2_use_case")

    # 3. F3 and type an answer (Ctrl+N starts a new line); the decision follows as you type.
    assert "Press F3 and type an answer" in steps and "Ctrl+N" in steps
    tmux.run("send-keys", "F3")
    tmux.run("send-keys", "-l", "Rank support tickets")
    tmux.run("send-keys", "C-n")
    tmux.run("send-keys", "-l", "by urgency")
    # The decision moves on with the first words; the rest may still be on its way: poll both.
    tmux.wait_for(
        lambda s: asked(s) == "3_success_metric" and "by urgency" in s,
        "the decision followed the typing",
    )
    tmux.wait_for(lambda s: "2_use_case.raw" in s, "the answer recorded in the timeline")

    # 4. F2 and paste ml_lying_pass.md: claimed PASS, overruled. Ctrl+J applies it; the history
    # shows who changed what.
    assert "paste `sample_configs/replies/ml_lying_pass.md`" in steps
    tmux.focus_reply()
    tmux.paste(REPLIES / "ml_lying_pass.md")
    tmux.wait_for(
        lambda s: "model claimed PASS — overruled" in s and "If applied: NO PASS" in s,
        "the preview overrules the claim",
    )
    tmux.run("send-keys", "C-j")
    tmux.wait_for(
        lambda s: (
            "assistant" in s
            and "reply" in s
            and "Reply applied" in s
            and "model claimed PASS — overruled" in s
        ),
        "the reply applied, and the decision panel saying the claim was overruled",
    )

    # 5. Ctrl+Z undoes the reply, Ctrl+Y redoes it. Paste ml_good.md, Ctrl+J: PASS.
    assert "Ctrl+Z undoes the reply" in steps
    tmux.run("send-keys", "C-z")
    tmux.wait_for(
        lambda s: re.search(r"\bundo\b", s) is not None and asked(s) == "3_success_metric",
        "the reply undone",
    )
    tmux.run("send-keys", "C-y")
    tmux.wait_for(
        lambda s: re.search(r"\bredo\b", s) is not None and "model claimed PASS — overruled" in s,
        "the reply redone",
    )
    tmux.paste(REPLIES / "ml_good.md")
    tmux.wait_for(lambda s: "If applied: PASS" in s, "the good reply's preview")
    tmux.run("send-keys", "C-j")
    tmux.wait_for(passed, "PASS")

    # 6. Paste ml_garbage.md: the preview shows invalid_json, and applying changes nothing.
    assert "`ml_garbage.md`" in steps and "invalid_json" in steps
    tmux.paste(REPLIES / "ml_garbage.md")
    tmux.wait_for(lambda s: "invalid_json" in s, "the garbage reply's errors")
    tmux.run("send-keys", "C-j")
    tmux.wait_for(lambda s: "Reply rejected" in s, "the reply rejected")
    # The toast lasts a few seconds (it may cover the reason line meanwhile); then PASS is still
    # there.
    screen = tmux.wait_for(
        lambda s: "Reply rejected" not in s and passed(s), "the decision still PASS"
    )

    # 7. Ctrl+Q. `make run` again: this session finished at PASS, so a new one starts
    #    (`gate-tui sessions` lists the finished one); one quit at NO PASS is offered for resuming.
    assert (
        "Ctrl+Q. Run `make run` again: this session finished at **PASS**, so a new one starts"
        in steps
    )
    first = session_name(screen)
    tmux.run("send-keys", "C-q")
    tmux.wait_for(lambda s: "EXITED=0" in s, "a clean exit")
    tmux.run("kill-session")
    listed = subprocess.run(
        shlex.split(gate_tui("sessions")),
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        timeout=60,
    )
    assert first in listed.stdout and "finished" in listed.stdout, listed.stdout + listed.stderr
    tmux.start(command, env)
    tmux.wait_for(
        lambda s: "Started a new session" in s and "finished at PASS" in s,
        "the note that a new session started",
    )
    # The note stays a while over the panel's right side; then the title names the new session.
    screen = tmux.wait_for(
        lambda s: asked(s) == "1_data_availability" and "· session " in s,
        "a new session at NO PASS",
    )
    assert session_name(screen) != first and "Resume session" not in screen
    tmux.run("send-keys", "F3")
    tmux.run("send-keys", "-l", "av")
    tmux.wait_for(lambda s: "unavailable" in s, "the category list, on the letters typed")
    tmux.run("send-keys", "Enter")
    tmux.wait_for(lambda s: asked(s) == "2_use_case", "an answer in the new session")
    tmux.run("send-keys", "C-q")
    tmux.wait_for(lambda s: "EXITED=0" in s, "a clean exit")
    tmux.run("kill-session")
    tmux.start(command, env)
    tmux.wait_for(
        lambda s: "Resume session" in s, "the session quit at NO PASS offered for resuming"
    )
    tmux.run("send-keys", "Enter")
    tmux.wait_for(lambda s: asked(s) == "2_use_case", "resumed where it was")
    tmux.run("send-keys", "C-q")
    tmux.wait_for(lambda s: "EXITED=0" in s, "a clean exit")

    journal = next(
        path for path in (tmp_path / "state").rglob("journal.jsonl") if path.parent.name == first
    )
    records = [json.loads(line) for line in journal.read_text(encoding="utf-8").splitlines()[1:]]
    answers = [r["payload"] for r in records if r.get("kind") == "edit"]
    assert {"gates": {"2_use_case": {"raw": "Rank support tickets\nby urgency"}}} in answers, (
        "the answer kept its line break"
    )
