"""``gate-tui report`` says what it reads (issue 30, item 4): a journal that is a symbolic
link (to another session's journal, say) is named with where it points; a journal a newer
gate-tui wrote is read as far as it can be, said so, never a crash; and every value is
bounded: a huge answer, summary or key is cut with a marker saying how much was left out,
in text, Markdown and HTML alike."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from gate_tui import load_config, parse
from gate_tui.session.commands import report_command
from gate_tui.session.opening import open_session
from gate_tui.session.paths import state_file_paths
from gate_tui.session.report import FORMATS, render_report
from gate_tui.session.report_doc import LABEL_CHARS, VALUE_CHARS
from tests.conftest import CONFIGS

RELEASE = CONFIGS / "release_go_no_go.yaml"


def _session(state_file: Path, raw: str) -> Path:
    config = load_config(RELEASE)
    session = open_session(config, RELEASE, state_file=state_file)
    payload = {"gates": {"3_rollback_plan": {"raw": raw}}}
    result = parse(payload, config, session.state, actor="user")
    assert result.ok, result.errors
    session.accept(result, payload, "user")
    session.close()
    return state_file_paths(state_file).journal


def _report(session: Path, fmt: str) -> str:
    out = io.StringIO()
    assert report_command(str(session), None, out=out, fmt=fmt) == 0
    return out.getvalue()


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_a_journal_that_is_a_symlink_is_named_with_its_target(tmp_path: Path, fmt: str) -> None:
    ours = tmp_path / "ours.json"
    journal = _session(ours, "roll back with helm, ours")
    (tmp_path / "other").mkdir()
    theirs = _session(tmp_path / "other" / "theirs.json", "THEIR PLAN from another session")
    journal.unlink()
    journal.symlink_to(theirs)
    text = _report(ours, fmt)
    assert "THEIR PLAN" in text  # what is read is shown ...
    # Said before it (Markdown escapes _ as \_, HTML ' as &#x27;).
    notice = text[: text.index("THEIR PLAN")].replace("\\", "").replace("&#x27;", "'")
    assert "symbolic link" in notice and str(theirs) in notice


def test_a_plain_journal_gets_no_such_notice(tmp_path: Path) -> None:
    text = (
        _report(tmp_path / "plain.json", "text")
        if _session(tmp_path / "plain.json", "plan")
        else ""
    )
    assert "symbolic link" not in text and "newer gate-tui" not in text


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_a_journal_from_a_newer_format_is_read_as_far_as_it_can_be(
    tmp_path: Path, fmt: str
) -> None:
    state = tmp_path / "future.json"
    journal = _session(state, "the plan we can still read")
    lines = journal.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    header["format"] = 7
    lines[0] = json.dumps(header)
    odd = [
        {"kind": "telepathy", "at": "2031-01-01T00:00:00+00:00", "mind": [1, 2]},
        {"kind": "edit", "at": 5, "diff": ["not", "a", "dict"], "decision": "yes", "state": []},
        {"kind": "reply", "actor": {"x": 1}, "diff": {"changes": "many"}, "index": "two"},
        {"kind": "rejected", "errors": "all of them", "payload": {"deep": [[[]]]}},
    ]
    journal.write_text("\n".join([*lines, *map(json.dumps, odd)]) + "\n", encoding="utf-8")
    text = _report(state, fmt)
    assert "newer gate-tui" in text and "format 7" in text
    assert "the plan we can still read" in text


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_every_value_is_bounded_with_a_marker_saying_how_much_was_left_out(fmt: str) -> None:
    huge = "A" * (VALUE_CHARS + 123_456)
    key = "k" * 1_000_000
    state = {"summary": huge, "gates": {key: {"raw": huge, "classified": "B" * 2_000_000}}}
    text = render_report({"config_title": "T" * 500_000}, [], state=state, fmt=fmt)
    text = text.replace("\\", "")  # Markdown escapes the marker's brackets: [ is \[
    assert len(text) < 4 * VALUE_CHARS  # not 4.5 MB
    assert text.count("[cut: 123,456 more characters not shown]") == 2  # summary and answer
    assert "[cut: 1,900,000 more characters not shown]" in text  # the category
    assert f"[cut: {1_000_000 - LABEL_CHARS:,} more characters not shown]" in text  # the key
    assert re.search(r"\[cut: 499,[0-9]{3} more characters not shown\]", text)  # the title
    assert "A" * VALUE_CHARS in text  # what is kept is shown as it was


def test_a_one_megabyte_key_in_a_contract_is_not_a_one_megabyte_report() -> None:
    from gate_tui.contracts.loading import load_contract
    from gate_tui.editing.contract_editor import ContractEditor

    contract = load_contract(CONFIGS / "contracts" / "llm_result_v1.yaml")
    editor = ContractEditor(contract)
    key = "k" * 1_000_000
    _result, problem = editor.apply_reply(json.dumps({key: "v", "note": "n" * 300_000}))
    assert problem is None and editor.value is not None
    text = editor.report()
    assert len(text) < 2 * VALUE_CHARS + 10_000
    assert "more characters not shown" in text.replace("\\", "")
