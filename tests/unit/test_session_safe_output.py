"""Hostile text in a session: ``report`` and ``sessions`` never hand the terminal (or a
Markdown viewer) anything it would act on, and the journal keeps the exact text."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gate_tui.models import GateConfig
from gate_tui.parsing.pipeline import parse
from gate_tui.session.commands import report_command, sessions_command
from gate_tui.session.journal import read_journal
from gate_tui.session.live import Session
from gate_tui.session.opening import open_session
from gate_tui.session.report import render_report
from tests.conftest import CONFIGS

ML = CONFIGS / "ml_project_intake.yaml"
# What a terminal acts on (C0 but LF and tab, DEL, C1) and what reorders or hides text.
UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u200b-\u200d\ufeff]")
HOSTILE = (
    "clear\x1b[2J clip\x1b]52;c;aGVsbG8=\x07 "
    "link\x1b]8;;http://evil.example/\x1b\\here\x1b]8;;\x1b\\ "
    "csi\x9b31m nel\x85 del\x7f bell\x07 cr\r vt\x0b bidi\u202eevil\u202c iso\u2066x\u2069 "
    "zw\u200bj\ufeff "
    "<script>alert(1)</script> [click](javascript:alert(1)) a|b ``tick`` <img src=x "
    "onerror=alert(1)>"
)


def _accept(session: Session, config: GateConfig, patch: dict) -> None:
    result = parse(patch, config, session.state, actor="user")
    assert result.ok, result.errors
    session.accept(result, patch, "user")


def _reject(session: Session, config: GateConfig, patch: dict) -> None:
    result = parse(patch, config, session.state, actor="user")
    assert not result.ok
    session.reject(result, patch, "user")


@pytest.fixture
def hostile(ml_config: GateConfig, tmp_path: Path) -> Session:
    session = open_session(ml_config, ML, root=tmp_path)
    _accept(
        session, ml_config, {"summary": HOSTILE[:190], "gates": {"2_use_case": {"raw": HOSTILE}}}
    )
    _reject(session, ml_config, {"gates": {HOSTILE: {"raw": HOSTILE}}})
    session.close()
    return session


def test_report_shows_hostile_text_without_acting_on_it(hostile: Session, tmp_path: Path) -> None:
    out = io.StringIO()
    assert report_command(hostile.name, None, root=tmp_path, out=out) == 0
    text = out.getvalue()
    assert not UNSAFE.search(text)
    assert (
        "␛[2J" in text.replace("\\", "")
        and "⟨U+202E⟩" in text
        and "⟨U+200B⟩" in text
        and "⟨U+009B⟩" in text
    )
    assert "␍" in text and "␡" in text
    # Markdown / HTML: no raw tag, no live link, no table row broken by a `|`.
    assert "<script>" not in text and "<img" not in text and "](javascript:" not in text
    lines = text.splitlines()
    answer = lines[lines.index("- `2_use_case`") + 1]
    assert answer.startswith("  - answer: “clear␛") and "a\\|b" in answer  # in full, nothing live
    target = tmp_path / "review.md"
    assert report_command(hostile.name, target, root=tmp_path) == 0
    assert target.read_text(encoding="utf-8") == text


def test_the_journal_keeps_the_exact_text(hostile: Session, ml_config: GateConfig) -> None:
    assert hostile.journal_path is not None
    read = read_journal(hostile.journal_path)
    accepted = next(r for r in read.records if r.get("kind") == "edit")
    assert accepted["state"]["summary"] == HOSTILE[:190]
    assert accepted["state"]["gates"]["2_use_case"] == {"raw": HOSTILE, "classified": None}
    resumed = open_session(ml_config, ML, directory=hostile.directory, read_only=True)
    assert resumed.state.summary == HOSTILE[:190]
    assert resumed.state.gates["2_use_case"].raw == HOSTILE


def test_sessions_table_and_errors_are_safe(
    ml_config: GateConfig, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    session = open_session(ml_config, ML, root=tmp_path)
    _accept(session, ml_config, {"gates": {"2_use_case": {"raw": "x"}}})
    session.close()
    assert session.directory is not None
    renamed = session.directory.with_name("evil\x1b]52;c;aGk=\x07\u202e")
    session.directory.rename(renamed)
    out = io.StringIO()
    assert sessions_command(None, root=tmp_path, out=out) == 0
    assert not UNSAFE.search(out.getvalue()) and "evil␛]52;c;aGk=␇⟨U+202E⟩" in out.getvalue()
    assert report_command("no\x1b[2Jsuch\u202e", None, root=tmp_path) == 2
    err = capsys.readouterr().err
    assert not UNSAFE.search(err) and err.count("\n") == 1
    assert "␛[2J" in err or "\\x1b[2J" in err  # a picture or an escape, never the byte


def test_a_handed_over_journal_cannot_smuggle_markup_or_escapes() -> None:
    evil = "\x1b[31m<b>x</b>|"
    header = {"config_title": evil, "config_path": evil, "fingerprint": evil, "started": evil}
    records = [
        {
            "kind": "reply",
            "actor": evil,
            "index": 0,
            "at": evil,
            "origin": evil,
            "repairs": [{"line": evil, "column": evil, "message": evil}],
            "warnings": [{"field_path": evil, "message": evil}],
            "claimed_status": {"pass": False, "next_gate": evil},
            "decision": {"pass": evil},
            "diff": {"changes": [{"path": evil, "before": evil, "after": evil}]},
            "state": {"summary": evil, "gates": {evil: {"raw": evil}}},
        },
        {
            "kind": "rejected",
            "actor": "user",
            "at": evil,
            "errors": [{"field_path": evil, "message": evil, "expected": evil, "actual": evil}],
            "payload": {evil: evil},
        },
        {"kind": "export", "at": evil, "what": evil, "path": evil},
    ]
    text = render_report(header, records, name=evil, notices=[evil])
    assert not UNSAFE.search(text) and "<b>" not in text
    for line in text.splitlines():
        if line.startswith("| "):
            assert len(re.findall(r"(?<!\\)\|", line)) in (3, 4), line


_TEXT = st.text(st.characters(codec="utf-8"), max_size=60)


def _config_with_category(category: str) -> GateConfig:
    """A config whose one gate accepts ``category`` (classified must be a configured category)."""
    return GateConfig.model_validate(
        {
            "name": "any text",
            "gates": {
                "use_case": {"question": "Which?", "expected_categories": [category]},
                "owner": {"question": "Who?"},
            },
        }
    )


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(summary=_TEXT, raw=_TEXT, classified=_TEXT.filter(lambda t: t.strip() != ""))
def test_any_text_survives_the_journal_and_prints_safely(
    tmp_path_factory: pytest.TempPathFactory, summary: str, raw: str, classified: str
) -> None:
    root = tmp_path_factory.mktemp("any")
    config = _config_with_category(classified)
    session = open_session(config, None, root=root)
    patch = {
        "summary": summary,
        "gates": {"use_case": {"raw": raw, "classified": classified}, "owner": {"raw": raw}},
    }
    result = parse(patch, config, session.state, actor="user")
    if not result.ok:  # the parser may refuse some text; then nothing may be stored
        session.close()
        return
    session.accept(result, patch, "user")
    session.close()
    assert session.journal_path is not None and session.state_file is not None
    stored = session.state.gates["use_case"]
    assert stored.classified == classified
    read = read_journal(session.journal_path)
    assert not read.notices
    record = next(r for r in read.records if r.get("kind") == "edit")
    assert record["state"]["summary"] == session.state.summary
    assert record["state"]["gates"]["use_case"] == {"raw": stored.raw, "classified": classified}
    assert json.loads(session.state_file.read_text(encoding="utf-8"))["state"] == record["state"]
    resumed = open_session(config, None, directory=session.directory, read_only=True)
    assert resumed.state == session.state
    out = io.StringIO()
    assert report_command(str(session.directory), None, out=out) == 0
    listing = io.StringIO()
    assert sessions_command(None, root=root, out=listing) == 0
    assert not UNSAFE.search(out.getvalue()) and not UNSAFE.search(listing.getvalue())
