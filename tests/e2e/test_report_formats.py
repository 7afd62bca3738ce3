"""``gate-tui report`` is the sign-off record: every answer in full with its line breaks
(final state and each transition), every outstanding or blocking gate, who changed what
and when; as plain text (the default on a terminal), Markdown or one self-contained HTML
file that a browser shows with hostile text kept as text."""

from __future__ import annotations

import os
import pty
import re
import subprocess
import sys
from pathlib import Path

import pytest

from gate_tui import load_config, parse
from gate_tui.models import GateConfig
from gate_tui.session import report_timeline
from gate_tui.session.live import Session
from gate_tui.session.opening import open_session
from gate_tui.session.report import FORMATS, render_report
from gate_tui.session.report_doc import Entry, Item
from tests.conftest import CONFIGS
from tests.helpers.browser import CHROMIUM, browser_page

ML = CONFIGS / "ml_project_intake.yaml"
RELEASE = CONFIGS / "release_go_no_go.yaml"
PLAN = (
    "1. Flip feature flag release_420 off\n2. helm rollback api 41\n3. Restore DB snapshot "
    "taken at T-1h (only if migrations ran)"
)
HOSTILE = (
    '<script>window.pwned = 1</script><img src=x onerror="window.pwned = 2">\n'
    "[x](javascript:alert(1)) & </pre></div>"
)
needs_chromium = pytest.mark.skipif(
    not CHROMIUM.exists() and not os.environ.get("GATE_TUI_REQUIRE_BROWSER"),
    reason=f"{CHROMIUM} is missing",
)


def gate_tui(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gate_tui", *args],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )


def accept(session: Session, config: GateConfig, payload: object, actor: str = "user") -> None:
    result = parse(payload, config, session.state, actor=actor)
    assert result.ok, result.errors
    session.accept(result, payload, actor)


@pytest.fixture
def release(tmp_path: Path) -> Session:
    config = load_config(RELEASE)
    session = open_session(config, RELEASE, state_file=tmp_path / "release.json")
    accept(
        session, config, {"gates": {"1_tests": {"raw": "Suite red on arm64", "classified": "red"}}}
    )
    accept(
        session,
        config,
        {"gates": {"3_rollback_plan": {"raw": PLAN}, "5_known_issues": {"raw": HOSTILE}}},
    )
    session.close()
    return session


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_a_multi_line_answer_is_in_full_in_every_format(release: Session, fmt: str) -> None:
    text = release.report_markdown(fmt)
    if fmt == "text":
        block = "\n".join(f"      │ {line}" for line in PLAN.splitlines())
        assert text.count(block) == 1  # the final state
        assert (
            text.count("\n".join(f"          │ {line}" for line in PLAN.splitlines())) == 1
        )  # the transition
    elif fmt == "markdown":
        lines = PLAN.replace("_", "\\_").replace(".", "\\.", 1).splitlines()
        assert (
            "“1\\. Flip feature flag release\\_420 off\\\n" in text
            and text.count("2\\. helm rollback api 41\\\n") == 2
        )
        assert (
            text.count("3\\. Restore DB snapshot taken at T-1h (only if migrations ran)”") == 2
            and lines
        )
    else:
        assert text.count('<div class="value">' + PLAN.replace(">", "&gt;") + "</div>") == 2


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_outstanding_and_blocking_gates_are_all_listed(release: Session, fmt: str) -> None:
    text = release.report_markdown(fmt)
    section = text[text.index("Outstanding gates") : text.index("Final state")]
    for key in ("1_tests", "2_changelog", "4_on_call"):
        assert (
            key.replace("_", "\\_" if fmt == "markdown" and key != "1_tests" else "_") in section
            or key in section
        )
    assert "BLOCKING: classified red" in section
    assert "3_rollback_plan" not in section and "3\\_rollback\\_plan" not in section


def test_who_changed_what_and_when(release: Session) -> None:
    text = release.report_markdown("text")
    assert "#1 · Edit by the user · " in text and " · by the user" in text
    record = {
        "kind": "reply",
        "actor": "assistant",
        "model": "gpt-x-2",
        "index": 0,
        "at": "2024-05-01T12:00:03+00:00",
        "diff": {"changes": []},
        "decision": {"pass": True, "reason": "all_required_complete"},
    }
    assert "#1 · Model reply · 2024-05-01 12:00:03 UTC · by the model gpt-x-2" in render_report(
        {}, [record], fmt="text"
    )


def test_without_its_config_the_report_says_what_it_cannot_know(tmp_path: Path) -> None:
    header = {"config_path": str(tmp_path / "gone.yaml")}
    record = {
        "kind": "edit",
        "actor": "user",
        "index": 0,
        "at": "x",
        "decision": {"pass": False, "reason": "required_missing", "next_gate": "b"},
        "state": {
            "summary": "",
            "gates": {
                "a": {"raw": "yes", "classified": None},
                "b": {"raw": None, "classified": None},
            },
        },
    }
    text = render_report(header, [record], fmt="text")
    assert (
        "which gates are required is not known" in text
        and "- b: unanswered" in text
        and "- a: unanswered" not in text
    )


def test_a_new_kind_of_entry_is_one_builder(monkeypatch: pytest.MonkeyPatch) -> None:
    def model_call(record: dict, timeline: object) -> Entry:
        return Entry(
            "Model call",
            "now",
            f"the model {record['model']}",
            (Item("Prompt", record["prompt"], quoted=True),),
        )

    monkeypatch.setitem(report_timeline.ENTRY_BUILDERS, "model_call", model_call)
    record = {"kind": "model_call", "model": "m1", "prompt": "line one\nline two"}
    for fmt in FORMATS:
        text = render_report({}, [record], fmt=fmt)
        assert "Model call" in text and "m1" in text and "line two" in text, fmt


def test_the_text_format_has_no_markdown_escapes(release: Session) -> None:
    text = release.report_markdown("text")
    assert (
        "(only if migrations ran)" in text
        and "release_420" in text
        and "\\" not in text
        and "&gt;" not in text
    )


def test_the_default_format_is_text_on_a_terminal_and_markdown_in_a_pipe(
    release: Session, tmp_path: Path
) -> None:
    piped = gate_tui("report", str(release.state_file))
    assert piped.returncode == 0 and piped.stdout.startswith("# Review report: Release go / no-go")
    main, child = pty.openpty()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "gate_tui", "report", str(release.state_file)],
            stdout=child,
            stderr=subprocess.PIPE,
            timeout=60,
        )
        os.close(child)
        child = -1
        chunks = []
        while True:
            try:
                chunk = os.read(main, 65536)
            except OSError:
                break
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(main)
        if child != -1:
            os.close(child)
    assert done.returncode == 0
    assert b"".join(chunks).decode().startswith("Review report: Release go / no-go\r\n=====")
    target = tmp_path / "review.html"
    assert gate_tui("report", str(release.state_file), "-o", str(target)).returncode == 0
    assert target.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    forced = gate_tui("report", str(release.state_file), "--format", "text")
    assert forced.stdout.startswith("Review report: Release go / no-go\n")


def test_html_is_one_file_that_fetches_and_runs_nothing(release: Session) -> None:
    html = release.report_markdown("html")
    assert not re.search(r"<(script|img|a|link|iframe|object|embed|base)\b", html)
    assert not re.search(
        r"<[^>]*\s(src|href|on\w+)=", html
    )  # no attribute that loads or runs anything
    assert "default-src 'none'" in html and "&lt;script&gt;window.pwned = 1&lt;/script&gt;" in html


@needs_chromium
def test_html_renders_in_chromium_with_hostile_text_as_text(
    release: Session, tmp_path: Path
) -> None:
    target = tmp_path / "review.html"
    target.write_text(release.report_markdown("html"), encoding="utf-8")
    with browser_page() as page:
        requests: list[str] = []
        page.on("request", lambda request: requests.append(request.url))
        page.goto(target.as_uri())
        assert page.title() == "Review report: Release go / no-go"
        assert page.evaluate("window.pwned") is None
        assert page.locator("script, img, a").count() == 0
        values = page.locator("div.value").all_inner_texts()
        assert values.count(PLAN) == 2  # line breaks kept, the whole answer
        assert HOSTILE in values
        assert requests == [target.as_uri()]
        assert page.locator("h1").inner_text() == "Review report: Release go / no-go"
