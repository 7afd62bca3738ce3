"""``gate-tui check --jsonl`` end to end: records, order with ``-j 2``, malformed lines,
stdin, the summary on stderr, the progress bar on a terminal only; plus the lazy reader."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gate_tui import ParseResult, load_config
from gate_tui.runs import blocks
from gate_tui.runs import engine as batch
from gate_tui.runs.pool import WorkerDied
from tests.conftest import CONFIGS, REPLIES
from tests.helpers.cli import command, gate_tui

ML = str(CONFIGS / "ml_project_intake.yaml")
SCRIPT = Path(sys.executable).with_name("gate-tui")
MIX = ("ml_good.md", "ml_lying_pass.md", "ml_garbage.md", "ml_repairable.md")


def write_jsonl(
    path: Path,
    count: int,
    names: tuple[str, ...] = MIX,
    extra: dict[int, str] | None = None,
    pad: int = 0,
) -> Path:
    """``count`` records cycling through ``names``; ``extra`` inserts raw lines before an
    index; ``pad`` adds an ignored field of that many bytes to each record."""
    texts = [(REPLIES / name).read_text() for name in names]
    padding = {"note": "x" * pad} if pad else {}
    with path.open("w", encoding="utf-8") as out:
        for index in range(count):
            if extra and index in extra:
                out.write(extra[index] + "\n")
            out.write(
                json.dumps({"id": f"r{index}", "reply": texts[index % len(texts)], **padding})
                + "\n"
            )
    return path


def records(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines()]


def test_each_line_gives_a_record_with_its_id_in_input_order(tmp_path: Path) -> None:
    source = write_jsonl(tmp_path / "in.jsonl", 40)
    done = gate_tui("check", "--config", ML, "--jsonl", str(source))
    assert done.returncode == 2, done.stderr
    out = records(done.stdout)
    assert [r["id"] for r in out] == [f"r{i}" for i in range(40)]
    assert [r["line"] for r in out] == list(range(1, 41))
    good, lying, garbage = out[0], out[1], out[2]
    assert (good["ok"], good["pass"]) == (True, True)
    assert (lying["ok"], lying["pass"]) == (True, False)
    assert lying["result"]["decision"]["next_gate"] == "2_use_case"
    assert (garbage["ok"], garbage["pass"]) == (False, None)
    assert ParseResult.model_validate(good["result"]).canonical_state is not None


def test_malformed_lines_give_error_records_and_processing_continues(tmp_path: Path) -> None:
    extra = {3: "{not json", 5: "", 6: "[1, 2]", 7: '{"id": 99}', 8: '{"id": 7, "reply": 12}'}
    source = write_jsonl(tmp_path / "in.jsonl", 10, ("ml_good.md",), extra)
    done = gate_tui("check", "--config", ML, "--jsonl", str(source))
    assert done.returncode == 2
    out = records(done.stdout)
    assert len(out) == 14  # 15 lines, the blank one skipped
    bad = {r["line"]: r for r in out if not r["ok"]}
    assert sorted(bad) == [4, 9, 11, 13]
    assert bad[4]["id"] is None and bad[4]["pass"] is None
    [error] = bad[4]["result"]["errors"]
    assert error["code"] == "invalid_json" and error["message"].startswith(
        "line 4 is not valid JSON"
    )
    assert bad[9]["result"]["errors"][0]["code"] == "invalid_type"
    assert (bad[11]["id"], bad[11]["result"]["errors"][0]["code"]) == (99, "missing_key")
    assert (bad[13]["id"], bad[13]["result"]["errors"][0]["field_path"]) == (7, "reply")
    assert sum(r["ok"] for r in out) == 10
    assert "10 PASS, 0 NO PASS, 4 invalid" in done.stderr
    assert "1 blank line skipped" in done.stderr


def test_two_workers_keep_input_order_and_give_identical_output(tmp_path: Path) -> None:
    source = write_jsonl(tmp_path / "in.jsonl", 3000, extra={100: "oops"}, pad=1500)
    assert (
        source.stat().st_size > 4 * blocks.BLOCK_BYTES
    )  # several blocks, so two workers share them
    one = tmp_path / "one.jsonl"
    two = tmp_path / "two.jsonl"
    first = gate_tui("check", "--config", ML, "--jsonl", str(source), "-o", str(one), "-j", "1")
    second = gate_tui("check", "--config", ML, "--jsonl", str(source), "-o", str(two), "-j", "2")
    assert first.returncode == second.returncode == 2
    assert first.stdout == second.stdout == ""
    assert one.read_bytes() == two.read_bytes()
    ids = [r["id"] for r in records(two.read_text())]
    assert ids == [*(f"r{i}" for i in range(100)), None, *(f"r{i}" for i in range(100, 3000))]


@pytest.mark.parametrize(
    ("names", "status"), [(("ml_good.md",), 0), (("ml_good.md", "ml_lying_pass.md"), 1)]
)
def test_exit_status_is_the_worst_record(
    tmp_path: Path, names: tuple[str, ...], status: int
) -> None:
    source = write_jsonl(tmp_path / "in.jsonl", 6, names)
    assert gate_tui("check", "--config", ML, "--jsonl", str(source), "-q").returncode == status


def test_stdin_input_and_summary_line_on_stderr_only(tmp_path: Path) -> None:
    source = write_jsonl(
        tmp_path / "in.jsonl", 9, ("ml_good.md", "ml_lying_pass.md", "ml_garbage.md")
    )
    done = gate_tui("check", "--config", ML, "--jsonl", "-", stdin=source.read_text())
    assert len(records(done.stdout)) == 9
    [summary] = done.stderr.splitlines()
    assert summary.startswith(
        "gate-tui check: 9 replies: 3 PASS, 3 NO PASS, 3 invalid; top errors: invalid_json x3 ("
    )
    quiet = gate_tui("check", "--config", ML, "--jsonl", "-", "-q", stdin=source.read_text())
    assert quiet.stderr == "" and quiet.stdout == done.stdout


def test_per_line_previous_and_user_actor(tmp_path: Path) -> None:
    first = gate_tui("check", "--config", ML, "--format", "json", str(REPLIES / "ml_lying_pass.md"))
    state = json.loads(first.stdout)["canonical_state"]
    lines = [
        {
            "id": 1,
            "reply": {"gates": {"2_use_case": {"raw": "Forecast demand"}}},
            "previous": state,
        },
        {"id": 2, "reply": json.dumps({"summary": "only the summary"}), "previous": state},
        {"id": 3, "reply": {"gates": {}}, "previous": {"gates": "nope"}},
    ]
    source = tmp_path / "in.jsonl"
    source.write_text("".join(json.dumps(line) + "\n" for line in lines))
    done = gate_tui("check", "--config", ML, "--jsonl", str(source), "--actor", "user")
    out = records(done.stdout)
    assert [(r["id"], r["ok"], r["pass"]) for r in out] == [
        (1, True, True),
        (2, True, False),
        (3, False, None),
    ]
    assert out[2]["result"]["errors"][0]["field_path"] == "previous"
    assert done.returncode == 2


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--jsonl", "in.jsonl", "x.md"), "either FILEs or --jsonl"),
        (("--jsonl", "no/such.jsonl"), "--jsonl no/such.jsonl"),
        (("--jsonl", "-", "--format", "text"), "--format text"),
        (("--jsonl", "-", "-j", "-1"), "-j/--jobs"),
        (
            ("--jsonl", str(REPLIES / "ml_good.md"), "-o", str(REPLIES / "ml_good.md")),
            "is also an input",
        ),
        ((str(REPLIES / "ml_good.md"), "-o", str(REPLIES / "ml_good.md")), "is also an input"),
    ],
)
def test_batch_usage_errors_exit_3(args: tuple[str, ...], message: str) -> None:
    before = (REPLIES / "ml_good.md").read_bytes()
    done = gate_tui("check", "--config", ML, *args)
    assert done.returncode == 3 and message in done.stderr
    assert (REPLIES / "ml_good.md").read_bytes() == before


def _die(block: blocks.Block) -> tuple[bytes, batch.BatchStats]:
    os._exit(9)


def test_a_dead_worker_stops_the_batch_with_an_error_instead_of_hanging(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(batch, "work_block", _die)  # the forked workers inherit the patch
    source = write_jsonl(tmp_path / "in.jsonl", 20)
    with source.open("rb") as stream, pytest.raises(WorkerDied):
        batch.run_batch(
            stream, io.BytesIO(), load_config(ML), None, "assistant", jobs=2, quiet=True
        )


def test_progress_bar_only_on_a_terminal_and_never_on_stdout(tmp_path: Path) -> None:
    pty = pytest.importorskip("pty")
    source = write_jsonl(tmp_path / "in.jsonl", 300)
    master, slave = pty.openpty()
    out = tmp_path / "out.jsonl"
    with open(tmp_path / "stdout.txt", "wb") as stdout:
        proc = subprocess.run(
            command("check", "--config", ML, "--jsonl", str(source), "-o", str(out)),
            stdout=stdout,
            stderr=slave,
            timeout=60,
        )
    os.close(slave)
    shown = b""
    while True:
        try:
            piece = os.read(master, 65536)
        except OSError:
            break
        if not piece:
            break
        shown += piece
    os.close(master)
    assert proc.returncode == 2
    assert (tmp_path / "stdout.txt").read_bytes() == b""
    assert len(records(out.read_text())) == 300
    assert b"replies" in shown and b"gate-tui check: 300 replies" in shown


def test_reader_is_lazy_cuts_at_line_ends_and_bounds_line_length(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(blocks, "MAX_LINE_BYTES", 20)
    monkeypatch.setattr(batch, "MAX_LINE_BYTES", 20)
    data = b"short\n" * 5 + b"x" * 50 + b"\n" + b"tail\n" * 1000 + b"last"
    stream = io.BytesIO(data)
    read = blocks.read_blocks(stream, size=8)
    first = next(read)
    assert (first.first, first.lines(), first.too_long) == (1, [b"short", b"short"], ())
    assert stream.tell() == 12
    rest = list(read)
    assert [b.first for b in rest[:3]] == [3, 5, 7]
    assert rest[1].lines() == [b"short", b""] and rest[1].too_long == (1,)
    lines = [line for block in [first, *rest] for line in block.lines()]
    assert (
        len(lines) == 1007
        and lines[-1] == b"last"
        and rest[-1].first + len(rest[-1].lines()) - 1 == 1007
    )
    checker = batch.LineChecker(
        batch.BatchSettings(load_config(ML).model_dump(mode="json"), None, "assistant")
    )
    out, stats = checker.block(rest[1])
    short, long = records(out.decode())
    assert (short["line"], short["result"]["errors"][0]["code"]) == (5, "invalid_json")
    assert (long["line"], long["result"]["errors"][0]["code"]) == (6, "invalid_value")
    assert (stats.invalid, stats.error_codes) == (2, {"invalid_json": 1, "invalid_value": 1})


def test_closed_output_pipe_ends_quietly(tmp_path: Path) -> None:
    source = write_jsonl(tmp_path / "in.jsonl", 400)
    proc = subprocess.Popen(
        command("check", "--config", ML, "--jsonl", str(source)),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.readline()
    proc.stdout.close()
    errors = proc.stderr.read()
    assert proc.wait(timeout=60) == 141
    assert json.loads(first)["id"] == "r0"
    assert b"Traceback" not in errors


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("mode", [("--jsonl",), ()])
def test_a_full_disk_is_reported_not_silently_truncated(
    tmp_path: Path, mode: tuple[str, ...]
) -> None:
    source = write_jsonl(tmp_path / "in.jsonl", 30)
    done = gate_tui("check", "--config", ML, *mode, str(source), "-o", "/dev/full", "-q")
    assert done.returncode == 3
    assert "No space left on device" in done.stderr and "Traceback" not in done.stderr


def test_closed_pipe_in_text_mode_leaves_no_warning() -> None:
    files = [str(REPLIES / "ml_lying_pass.md")] * 300
    proc = subprocess.Popen(
        command("check", "--config", ML, *files), stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.readline()
    proc.stdout.close()
    errors = proc.stderr.read()
    assert proc.wait(timeout=60) == 141
    assert errors == b""
