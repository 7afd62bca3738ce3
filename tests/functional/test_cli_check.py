"""``gate-tui check FILE ...`` end to end through the installed console script, plus the
editor's and the other commands' dispatch, exit statuses and error messages."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from gate_tui import ParseResult
from gate_tui.cli.check import render_text
from gate_tui.models import ParseError, ParseWarning, Repair
from tests.conftest import CONFIGS, REPLIES

ML = str(CONFIGS / "ml_project_intake.yaml")
VENDOR = str(CONFIGS / "vendor_security_review.yaml")
SCRIPT = Path(sys.executable).with_name("gate-tui")


def gate_tui(
    *args: str, stdin: bytes | str | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """Run the installed console script (``python -m gate_tui`` if it is not installed)."""
    command = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "gate_tui"]
    data = stdin.decode("utf-8", "replace") if isinstance(stdin, bytes) else stdin
    return subprocess.run(
        [*command, *args],
        input=data if data is not None else "",
        capture_output=True,
        text=True,
        timeout=60,
        cwd=cwd,
    )


def python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)


def results(stdout: str) -> list[ParseResult]:
    """Each line's ParseResult: the record is the result after its leading "file" key."""
    records = [json.loads(line) for line in stdout.splitlines()]
    return [
        ParseResult.model_validate({k: v for k, v in record.items() if k != "file"})
        for record in records
    ]


@pytest.mark.parametrize(
    ("reply", "status", "verdict"),
    [
        ("ml_good.md", 0, "PASS"),
        ("ml_lying_pass.md", 1, "NO PASS"),
        ("ml_garbage.md", 2, "INVALID"),
    ],
)
def test_exit_status_and_verdict_per_reply(reply: str, status: int, verdict: str) -> None:
    done = gate_tui("check", "--config", ML, str(REPLIES / reply))
    assert done.returncode == status, done.stderr
    first = done.stdout.splitlines()[0]
    assert first == f"{REPLIES / reply}: {verdict}" or first.startswith(
        f"{REPLIES / reply}: {verdict} "
    )
    assert "Traceback" not in done.stderr


def test_text_output_is_a_plain_human_summary() -> None:
    done = gate_tui("check", "--config", ML, str(REPLIES / "ml_lying_pass.md"))
    assert "\x1b[" not in done.stdout
    assert "next gate: 2_use_case" in done.stdout
    assert "next question: What decision or workflow will the model's output change?" in done.stdout
    assert "status.pass: assistant claimed pass=true; system decided NO PASS" in done.stdout


def test_text_output_lists_errors_with_field_paths() -> None:
    done = gate_tui("check", "--config", VENDOR, str(REPLIES / "vendor_missing_gate.md"))
    assert done.returncode == 2
    assert "gates.4_data_residency: required gate '4_data_residency' is missing" in done.stdout
    assert "[missing_required_gate]" in done.stdout


def test_render_text_shows_repairs_and_hides_repeated_repair_warnings() -> None:
    repair = Repair(code="trailing_comma", message="removed a trailing comma", line=3, column=7)
    warning = ParseWarning(
        code="repaired_trailing_comma", message="repaired at line 3:7", line=3, column=7
    )
    error = ParseError(
        code="invalid_category",
        message="'maybe' is not a category",
        field_path="gates.x.classified",
        expected="one of a, b",
        actual='"maybe"',
    )
    text = render_text(
        "r.md", ParseResult(ok=False, errors=[error], repairs=[repair], warnings=[warning])
    )
    assert "repairs applied (1):\n    - line 3:7: removed a trailing comma [trailing_comma]" in text
    assert (
        "gates.x.classified: 'maybe' is not a category (expected one of a, b; got \"maybe\") "
        "[invalid_category]" in text
    )
    assert "warnings" not in text


def test_several_files_give_one_result_each_in_order_and_the_worst_status() -> None:
    files = [str(REPLIES / name) for name in ("ml_good.md", "ml_garbage.md", "ml_lying_pass.md")]
    done = gate_tui("check", "--config", ML, "--format", "json", *files)
    assert done.returncode == 2
    parsed = results(done.stdout)
    assert [(r.ok, r.decision.pass_ if r.decision else None) for r in parsed] == [
        (True, True),
        (False, None),
        (True, False),
    ]
    text = gate_tui("check", "--config", ML, *files[::2])
    assert text.returncode == 1
    assert [
        line.split(": ", 1)[1] for line in text.stdout.splitlines() if line.startswith(str(REPLIES))
    ] == ["PASS", "NO PASS"]


def test_json_output_is_the_parse_result_with_pass_as_key() -> None:
    done = gate_tui("check", "--config", ML, "--format", "json", str(REPLIES / "ml_good.md"))
    assert done.returncode == 0
    record = json.loads(done.stdout)
    assert record["decision"]["pass"] is True and "pass_" not in done.stdout
    assert record["canonical_state"]["status"]["pass"] is True
    assert record.pop("file") == str(REPLIES / "ml_good.md")
    assert ParseResult.model_validate(record).ok


@pytest.mark.parametrize("args", [(), ("-",)])
def test_stdin_is_read_without_file_or_with_dash(args: tuple[str, ...]) -> None:
    done = gate_tui(
        "check",
        "--config",
        ML,
        "--format",
        "json",
        *args,
        stdin=(REPLIES / "ml_lying_pass.md").read_text(),
    )
    assert done.returncode == 1
    [result] = results(done.stdout)
    assert result.decision is not None and result.decision.next_gate == "2_use_case"


def test_reply_that_is_not_utf8_is_invalid_not_a_crash(tmp_path: Path) -> None:
    bad = tmp_path / "latin1.md"
    bad.write_bytes('{"summary": "caf\xe9"}'.encode("latin-1"))
    done = gate_tui("check", "--config", ML, "--format", "json", str(bad))
    assert done.returncode == 2
    [result] = results(done.stdout)
    assert result.errors[0].code == "invalid_json" and "UTF-8" in result.errors[0].message


def test_user_patch_over_previous_state_chains_from_json_output(tmp_path: Path) -> None:
    first = gate_tui("check", "--config", ML, "--format", "json", str(REPLIES / "ml_lying_pass.md"))
    previous = tmp_path / "result.json"
    previous.write_text(first.stdout)
    patch = tmp_path / "patch.json"
    patch.write_text(
        json.dumps({"gates": {"2_use_case": {"raw": "Forecast weekly demand per store"}}})
    )
    done = gate_tui(
        "check",
        "--config",
        ML,
        "--previous",
        str(previous),
        "--actor",
        "user",
        "--format",
        "json",
        str(patch),
    )
    assert done.returncode == 0, done.stdout + done.stderr
    [result] = results(done.stdout)
    assert result.source == "object"
    assert (
        result.diff is not None
        and result.diff.actor == "user"
        and result.diff.gates_raw_changed == ["2_use_case"]
    )
    state = tmp_path / "state.json"
    state.write_text(json.dumps(json.loads(first.stdout)["canonical_state"]))
    again = gate_tui(
        "check", "--config", ML, "--previous", str(state), "--actor", "user", str(patch)
    )
    assert again.returncode == 0 and ": PASS" in again.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("check", "--config", "no/such.yaml", "x.md"), "no/such.yaml: file not found"),
        (("check", "--config", ML, "no/such/reply.md"), "no/such/reply.md: file not found"),
        (
            ("check", "--config", ML, "--previous", "no/such/state.json", "x.md"),
            "no/such/state.json: file not found",
        ),
        (("check", "--config", ML, "--format", "xml", "x.md"), "invalid choice"),
        (("check", "--config", ML, "--bogus"), "unrecognized arguments: --bogus"),
        (("check", "x.md"), "--config"),
        (("check", "--config", ML, "-j", "2", "x.md"), "-j/--jobs applies only with --jsonl"),
    ],
)
def test_usage_and_config_errors_exit_3_with_a_message(args: tuple[str, ...], message: str) -> None:
    done = gate_tui(*args)
    assert done.returncode == 3, (done.stdout, done.stderr)
    assert message in done.stderr
    assert "Traceback" not in done.stderr


def test_invalid_config_lists_every_problem_with_its_location(tmp_path: Path) -> None:
    config = tmp_path / "bad.yaml"
    config.write_text("gates:\n  a:\n    question: 3\n    required: maybe\n")
    done = gate_tui("check", "--config", str(config), str(REPLIES / "ml_good.md"))
    assert done.returncode == 3
    assert f"{config}:3: gates.a.question:" in done.stderr
    assert f"{config}:4: gates.a.required:" in done.stderr


def test_invalid_previous_state_is_a_usage_error(tmp_path: Path) -> None:
    previous = tmp_path / "state.json"
    previous.write_text('{"gates": {"a": {"raw": 3}}')
    done = gate_tui(
        "check", "--config", ML, "--previous", str(previous), str(REPLIES / "ml_good.md")
    )
    assert done.returncode == 3 and "invalid JSON" in done.stderr
    previous.write_text('{"gates": {"a": {"raw": 3}}}')
    done = gate_tui(
        "check", "--config", ML, "--previous", str(previous), str(REPLIES / "ml_good.md")
    )
    assert done.returncode == 3 and "not a valid gate state: gates.a.raw" in done.stderr


def test_validate_config_reports_each_file(tmp_path: Path) -> None:
    good = gate_tui("validate-config", *(str(p) for p in sorted(CONFIGS.glob("*.yaml"))))
    assert good.returncode == 0
    assert good.stdout.count(": OK (") == 3
    bad = tmp_path / "bad.yaml"
    bad.write_text("gate_order: [a, b]\ngates:\n  a:\n    question: Why?\n")
    done = gate_tui("validate-config", ML, str(bad), str(tmp_path / "missing.toml"))
    assert done.returncode == 3  # issue 14: an invalid config exits 3 from every command
    assert f"{ML}: OK (5 gates)" in done.stdout
    assert (
        f"{bad}:1: gate_order: must name every gate exactly once: 'b' is not defined under 'gates'"
        in done.stdout
    )
    assert f"{tmp_path / 'missing.toml'}: file not found" in done.stdout
    assert gate_tui("validate-config").returncode == 3


def test_version_and_help_for_every_command() -> None:
    version = gate_tui("--version")
    assert version.returncode == 0 and version.stdout.startswith("gate-tui ")
    top = gate_tui("--help")
    assert top.returncode == 0
    for command in ("check", "schema", "prompt", "validate-config", "sessions", "report"):
        assert command in top.stdout
        done = gate_tui(command, "--help")
        assert done.returncode == 0 and done.stdout.startswith(f"usage: gate-tui {command}")


def test_python_dash_m_works() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "gate_tui", "check", "--config", ML, str(REPLIES / "ml_good.md")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and ": PASS" in done.stdout


def test_headless_commands_work_without_textual() -> None:
    code = (
        "import sys; sys.modules['textual'] = None\n"
        "from gate_tui.cli.main import main\n"
        f"status = main(['check', '--config', {ML!r}, {str(REPLIES / 'ml_good.md')!r}])\n"
        "assert status == 0, status\n"
        f"assert main(['schema', '--config', {ML!r}]) == 0\n"
        "print('textual' in sys.modules and sys.modules['textual'] is not None)"
    )
    done = python(code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith("False")


def test_editor_with_missing_or_invalid_config_exits_3_with_one_line_per_problem(
    tmp_path: Path,
) -> None:
    done = gate_tui(str(tmp_path / "absent.yaml"))
    assert done.returncode == 3
    assert done.stderr == f"gate-tui: {tmp_path / 'absent.yaml'}: file not found\n"
    bad = tmp_path / "bad.yaml"
    bad.write_text("gates:\n  a:\n    question: 3\n    required: maybe\n")
    done = gate_tui(str(bad))
    assert done.returncode == 3
    assert done.stderr.count(f"gate-tui: {bad}:") == 2 and "Traceback" not in done.stderr


def test_editor_gets_config_path_state_file_and_new() -> None:
    code = (
        "import sys, types\n"
        "calls = []\n"
        "fake = types.ModuleType('gate_tui.tui.startup')\n"
        "fake.run_app = lambda **kw: calls.append(kw) or 0\n"
        "sys.modules['gate_tui.tui.startup'] = fake\n"
        "from gate_tui.cli.main import main\n"
        f"assert main([{VENDOR!r}, '--state', 's.json', '--new']) == 0\n"
        "assert main([]) == 0\n"
        "a, b = calls\n"
        "print(a['config'].name, a['config_path'], a['state_file'], a['new'])\n"
        "print(b['config'].name, b['config_path'].name, b['state_file'], b['new'])\n"
    )
    done = python(code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        f"Vendor security review {VENDOR} s.json True",
        "ML project intake ml_project_intake.yaml None False",
    ]


@pytest.mark.parametrize(
    ("module", "args"),
    [
        ("gate_tui.tui.startup", [ML]),
        ("gate_tui.session.commands", ["sessions"]),
        ("gate_tui.session.commands", ["report", "abc"]),
    ],
)
def test_missing_ui_or_session_module_gives_a_clear_message_and_exit_2(
    module: str, args: list[str]
) -> None:
    code = (
        f"import sys; sys.modules[{module!r}] = None\nfrom gate_tui.cli.main import main\n"
        f"raise SystemExit(main({args!r}))"
    )
    done = python(code)
    assert done.returncode == 2
    assert "is not available" in done.stderr and "Traceback" not in done.stderr


def test_sessions_and_report_are_dispatched_with_their_arguments() -> None:
    code = (
        "import sys, types\n"
        "fake = types.ModuleType('gate_tui.session.commands')\n"
        "fake.sessions_command = lambda path: print('sessions', path) or 0\n"
        "fake.report_command = lambda session, output, fmt: print('report', session, output, fmt) "
        "or 4\n"
        "sys.modules['gate_tui.session.commands'] = fake\n"
        "from gate_tui.cli.main import main\n"
        f"assert main(['sessions', '--config', {ML!r}]) == 0\n"
        "assert main(['sessions']) == 0\n"
        "assert main(['report', 'abc', '-o', 'r.md']) == 4\n"
        "assert main(['report', 'abc', '-o', 'r.md', '--format', 'html']) == 4\n"
    )
    done = python(code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        f"sessions {ML}",
        "sessions None",
        "report abc r.md markdown",
        "report abc r.md html",
    ]


def test_an_internal_error_is_one_line_not_a_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from gate_tui.cli import check
    from gate_tui.cli import main as cli

    def broken(*args: object, **kwargs: object) -> int:
        raise KeyError("surprise")

    monkeypatch.setattr(check, "run_check", broken)
    monkeypatch.delenv("GATE_TUI_DEBUG", raising=False)
    assert cli.main(["check", "--config", ML, str(REPLIES / "ml_good.md")]) == cli.EXIT_INTERNAL
    assert (
        capsys.readouterr().err
        == "gate-tui: internal error: KeyError: 'surprise' (set GATE_TUI_DEBUG=1 for details)\n"
    )


def test_the_registry_drives_dispatch_help_and_epilog() -> None:
    from gate_tui.cli.registry import SUBCOMMANDS, epilog

    helped = gate_tui("--help")
    assert helped.returncode == 0
    for command in SUBCOMMANDS:
        assert f"  {command.name} " in epilog() and command.name in helped.stdout
        own = gate_tui(command.name, "--help")
        assert own.returncode == 0 and f"gate-tui {command.name}" in own.stdout


def test_a_command_module_is_imported_only_when_its_command_runs() -> None:
    code = (
        "import sys\nfrom gate_tui.cli.main import main\n"
        "main(['validate-config', 'no-such-file.yaml'])\n"
        "print(sorted(m for m in sys.modules if m.startswith('gate_tui.cli.commands.')))"
    )
    done = python(code)
    assert done.stdout.strip().splitlines()[-1] == "['gate_tui.cli.commands.validate_config']"
