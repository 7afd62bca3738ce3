"""The review report and the ``gate-tui sessions`` / ``gate-tui report`` commands."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from gate_tui.models import GateConfig
from gate_tui.parsing.pipeline import parse
from gate_tui.session.commands import report_command, sessions_command
from gate_tui.session.live import Session
from gate_tui.session.opening import open_session
from gate_tui.session.report import render_report
from gate_tui.session.report_markdown import md
from tests.conftest import CONFIGS, reply

ML = CONFIGS / "ml_project_intake.yaml"
VENDOR = CONFIGS / "vendor_security_review.yaml"


def _reply(session: Session, config: GateConfig, name: str) -> None:
    text = reply(name)
    result = parse(text, config, session.state)
    if result.ok:
        session.accept(result, text, "assistant")
    else:
        session.reject(result, text, "assistant")


def _edit(session: Session, config: GateConfig, patch: dict) -> None:
    session.accept(parse(patch, config, session.state, actor="user"), patch, "user")


@pytest.fixture
def story(ml_config: GateConfig, tmp_path: Path) -> Session:
    session = open_session(ml_config, ML, root=tmp_path)
    _reply(session, ml_config, "ml_lying_pass.md")
    _reply(session, ml_config, "ml_garbage.md")
    _reply(session, ml_config, "ml_repairable.md")
    _edit(
        session, ml_config, {"gates": {"2_use_case": {"raw": "Plan | stock *weekly*\nper <store>"}}}
    )
    session.undo()
    session.jump_to(0)
    return session


def test_report_tells_the_story(story: Session) -> None:
    text = story.report_markdown()
    assert text.startswith("# Review report: ML project intake\n")
    assert f"| Session | {md(story.name)} |" in text
    assert "| Transitions | 5 (2 replies, 1 edit, 1 undo, 1 jump), 1 rejected attempt |" in text
    assert "### #1 · Model reply ·" in text and "### #3 · Edit by the user ·" in text
    assert "- The model claimed: **PASS — overruled: NO PASS: 2\\_use\\_case missing**" in text
    assert "- Repairs applied to the model's JSON:" in text and "removed a // comment" in text
    assert "### ✗ Rejected model reply ·" in text and "The state did not change" in text
    assert "### #4 · Undo ·" in text and "- Back to the state after #2" in text
    assert "### #5 · Jump on the timeline ·" in text and "- Restored the state after #1" in text
    assert "the JSON is cut off: closed 2 '{'" in text
    assert "- The model claimed: NO PASS (next: 3\\_success\\_metric); the system agrees" in text
    changed = (
        "  - `gates.2_use_case.raw`\n    - before: “Target retention offers at customers likely "
        "to churn”\n"
        "    - after: “Plan \\| stock \\*weekly\\*\\\n      per &lt;store&gt;”"
    )
    assert changed in text  # the answer in full, its line break kept
    assert text.index("#1 ·") < text.index("✗ Rejected") < text.index("#2 ·")


def test_report_agrees_when_the_model_is_right(ml_config: GateConfig, tmp_path: Path) -> None:
    session = open_session(ml_config, ML, root=tmp_path)
    _reply(session, ml_config, "ml_good.md")
    text = session.report_markdown()
    assert "- The model claimed: PASS; the system agrees" in text
    assert "| Final decision | **PASS** |" in text


def test_report_shows_untrusted_values_in_full_and_escaped() -> None:
    header = {
        "config_title": "T *x*",
        "started": "2024-05-01T12:00:03.000+00:00",
        "config_path": "/c.yaml",
    }
    record = {
        "kind": "edit",
        "actor": "user",
        "index": 0,
        "at": "2024-05-01T12:00:04.123+00:00",
        "diff": {"changes": [{"path": "summary", "before": None, "after": "x" * 500 + "`]("}]},
        "decision": {
            "pass": False,
            "reason": "required_missing",
            "next_gate": "g",
            "next_question": "q",
        },
        "state": {"summary": "s", "gates": {"g": {"raw": None, "classified": None}}},
    }
    text = render_report(header, [record], name="n")
    assert "# Review report: T \\*x\\*" in text and "2024-05-01 12:00:04 UTC" in text
    line = next(line for line in text.splitlines() if line.startswith("    - after: "))
    assert (
        "x" * 500 in line and line.endswith("\\`\\]\\(”") and "`](" not in line
    )  # in full, escaped


def test_report_of_an_empty_session_says_so(ml_config: GateConfig) -> None:
    text = Session.in_memory(ml_config, ML).report_markdown()
    assert "Nothing has happened in this session yet." in text and "no transitions yet" in text


def test_report_command_prints_the_same_report(story: Session, tmp_path: Path) -> None:
    story.close()
    out = io.StringIO()
    assert report_command(story.name, None, root=tmp_path, out=out) == 0
    assert out.getvalue() == story.report_markdown()
    target = tmp_path / "review.md"
    assert report_command(story.name, target, root=tmp_path) == 0
    assert target.read_text(encoding="utf-8") == out.getvalue()
    by_path = io.StringIO()
    assert (
        report_command(str(story.directory), None, out=by_path) == 0
        and by_path.getvalue() == out.getvalue()
    )


def test_report_command_on_state_files(ml_config: GateConfig, tmp_path: Path) -> None:
    file = tmp_path / "review.json"
    with open_session(ml_config, ML, state_file=file) as session:
        _reply(session, ml_config, "ml_lying_pass.md")
    out = io.StringIO()
    assert report_command(str(file), None, out=out) == 0
    assert "overruled" in out.getvalue() and "review.json" in out.getvalue()
    session.export_state_json(tmp_path / "bare.json")
    bare = io.StringIO()
    assert report_command(str(tmp_path / "bare.json"), None, out=bare) == 0
    assert (
        "has no journal" in bare.getvalue()
        and "“Store sales since 2019 in the lake”" in bare.getvalue()
    )


def test_report_command_errors_are_one_clear_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert report_command("no-such-session", None, root=tmp_path) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no session or state file named 'no-such-session'" in err
    (tmp_path / "junk.json").write_text("{nope")
    assert report_command(str(tmp_path / "junk.json"), None) == 2
    assert "not valid JSON" in capsys.readouterr().err


def test_report_command_cannot_write_output(
    story: Session, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert (
        report_command(story.name, tmp_path / "missing" / "r.md", root=tmp_path) == 3
    )  # output that cannot be written: exit 3, as the README says for every command
    assert "cannot write" in capsys.readouterr().err


def test_sessions_command_lists_every_session_with_its_state(
    ml_config: GateConfig, vendor_config: GateConfig, tmp_path: Path
) -> None:
    finished = open_session(vendor_config, VENDOR, root=tmp_path)
    _reply(finished, vendor_config, "vendor_good.md")
    finished.close()
    locked = open_session(ml_config, ML, root=tmp_path, new=True)
    _reply(locked, ml_config, "ml_lying_pass.md")
    out = io.StringIO()
    assert sessions_command(None, root=tmp_path, out=out) == 0
    lines = out.getvalue().splitlines()
    assert lines[0].split() == ["NAME", "CONFIG", "STARTED", "TRANSITIONS", "DECISION", "STATE"]
    rows = {line.split()[0]: line for line in lines[1:]}
    assert rows[finished.name].split()[-2:] == ["PASS", "finished"]
    assert "vendor_security_review.yaml" in rows[finished.name]
    assert rows[locked.name].split()[-5:] == ["NO", "PASS:", "2_use_case", "missing", "locked"]
    only_ml = io.StringIO()
    assert sessions_command(ML, root=tmp_path, out=only_ml) == 0
    assert finished.name not in only_ml.getvalue() and locked.name in only_ml.getvalue()


def test_sessions_command_marks_sessions_of_a_changed_config_foreign(
    ml_config: GateConfig, tmp_path: Path
) -> None:
    config_file = tmp_path / "cfg.yaml"
    config_file.write_text(ML.read_text(encoding="utf-8"), encoding="utf-8")
    from gate_tui.config.loading import load_config

    session = open_session(load_config(config_file), config_file, root=tmp_path)
    _edit(session, ml_config, {"gates": {"2_use_case": {"raw": "A"}}})
    session.close()
    config_file.write_text(
        ML.read_text(encoding="utf-8").replace("ML project intake", "Renamed"), encoding="utf-8"
    )
    out = io.StringIO()
    assert sessions_command(config_file, root=tmp_path, out=out) == 0
    assert out.getvalue().splitlines()[1].endswith("foreign")


def test_sessions_command_with_nothing_and_with_a_broken_config(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = io.StringIO()
    assert sessions_command(None, root=tmp_path, out=out) == 0
    assert out.getvalue().startswith("No sessions in ")
    (tmp_path / "bad.yaml").write_text("gates: [")
    assert sessions_command(tmp_path / "bad.yaml", root=tmp_path) == 2
    assert capsys.readouterr().err.startswith("gate-tui: cannot read config:")


def test_report_of_a_journal_with_a_torn_line_carries_the_warning(
    ml_config: GateConfig, tmp_path: Path
) -> None:
    session = open_session(ml_config, ML, root=tmp_path)
    _reply(session, ml_config, "ml_lying_pass.md")
    with session.journal_path.open("ab") as handle:
        handle.write(b'{"kind": "ed')
    out = io.StringIO()
    assert report_command(session.name, None, root=tmp_path, out=out) == 0
    assert "## Notes" in out.getvalue() and "cut off" in out.getvalue()
    assert json.loads(session.journal_path.read_text().splitlines()[0])["kind"] == "header"
