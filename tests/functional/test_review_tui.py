"""``gate-tui review`` on screen (Pilot): counts, filters, verdict keys on disk, the preview
on Enter, hostile ids as data; a snapshot of the review scene; the CLI's --export."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

from textual.widgets import Checkbox, Select, Static  # noqa: E402

from gate_tui.results.index import open_results  # noqa: E402
from gate_tui.results.verdicts import VerdictStore, verdicts_path  # noqa: E402
from gate_tui.tui.review.app import ReviewApp  # noqa: E402
from gate_tui.tui.review.detail import DetailScreen  # noqa: E402
from gate_tui.tui.review.scenes import make_review_app, scene_review, write_sample_results  # noqa: E402
from gate_tui.tui.review.table import ResultsTable  # noqa: E402
from gate_tui.tui.widgets.reply_pane import ReplyPane  # noqa: E402
from tests.conftest import CONFIGS  # noqa: E402
from tests.helpers.cli import gate_tui  # noqa: E402
from tests.tui_helpers import screen_text, wait_for  # noqa: E402


def review_app(folder: Path) -> ReviewApp:
    return make_review_app(folder)


async def started(pilot) -> ResultsTable:
    await wait_for(pilot, lambda: isinstance(pilot.app.focused, ResultsTable))
    return pilot.app.focused


async def test_counts_filters_and_search_show_the_matching_rows(tmp_path: Path) -> None:
    app = review_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        table = await started(pilot)
        counts = app.index.counts()
        assert table.count == 40
        await wait_for(pilot, lambda: f"NO PASS {counts['NO PASS']}" in screen_text(app))
        app.screen.query_one("#filter-status", Select).value = "invalid"
        await wait_for(pilot, lambda: table.count == counts["invalid"])
        app.screen.query_one("#filter-status", Select).clear()
        app.screen.query_one("#filter-guessed", Checkbox).value = True
        await wait_for(pilot, lambda: table.count == 8)
        await wait_for(pilot, lambda: "1 GUESS" in screen_text(app))
        app.screen.query_one("#filter-guessed", Checkbox).value = False
        table.focus()
        await pilot.press("slash", *"3_success", "enter")
        await wait_for(pilot, lambda: table.count == 8 and table.has_focus)
        assert all(
            app.index.summary(int(row))["next_gate"] == "3_success_metric"
            for row in table.rows.to_pylist()
        )


async def test_verdict_keys_and_notes_are_on_disk_at_once(tmp_path: Path) -> None:
    app = review_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        table = await started(pilot)
        await pilot.press("a", "r", "n")
        await wait_for(pilot, lambda: table.cursor == 3)
        on_disk = VerdictStore(app.index.path)
        assert {row: v.verdict for row, v in on_disk.latest.items()} == {
            0: "accepted",
            1: "rejected",
            2: "needs-fix",
        }
        await pilot.press("up", "m")
        await wait_for(pilot, lambda: app.focused is not None and app.focused.id == "note")
        await pilot.press(*"missing metric", "enter")
        await wait_for(pilot, lambda: table.has_focus)
        assert VerdictStore(app.index.path).get(2).note == "missing metric"
        await pilot.press("x")
        await wait_for(pilot, lambda: VerdictStore(app.index.path).get(2) is None)
        await wait_for(pilot, lambda: "verdicts: accepted 1, rejected 1" in screen_text(app))


async def test_enter_opens_the_preview_and_a_verdict_key_there_comes_back(tmp_path: Path) -> None:
    app = review_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        table = await started(pilot)
        await pilot.press("down", "down", "enter")  # row 3: the garbage reply, invalid
        await wait_for(pilot, lambda: isinstance(app.screen, DetailScreen))
        text = str(app.screen.query_one("#preview", Static).render())
        assert "invalid_json" in text or "not valid" in text.lower()
        await pilot.press("escape", "down", "enter")  # row 4: NO PASS with repairs
        await wait_for(pilot, lambda: isinstance(app.screen, DetailScreen) and app.screen.row == 3)
        text = str(app.screen.query_one("#preview", Static).render())
        assert (
            "If applied" in text
            and "Repairs the parser applied (7)" in text
            and "applies it" not in text
        )
        assert (
            "3_success_metric" in app.screen.query_one(ReplyPane).text_area.text
        )  # the reply itself
        assert app.screen.query_one(
            ReplyPane
        ).text_area.read_only  # no config: nothing to re-check with
        await pilot.press("r")
        await wait_for(pilot, lambda: not isinstance(app.screen, DetailScreen))
        assert VerdictStore(app.index.path).get(3).verdict == "rejected" and table.has_focus


async def test_with_the_config_an_edited_reply_is_checked_again(tmp_path: Path) -> None:
    app = make_review_app(tmp_path, recheck=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await started(pilot)
        await pilot.press("down", "enter")  # row 2: NO PASS, 2_use_case missing
        await wait_for(pilot, lambda: isinstance(app.screen, DetailScreen))
        pane = app.screen.query_one(ReplyPane)
        await wait_for(
            pilot,
            lambda: "2_use_case missing" in str(app.screen.query_one("#preview", Static).render()),
        )
        pane.text_area.load_text((CONFIGS / "replies" / "ml_good.md").read_text())
        await wait_for(
            pilot,
            lambda: "If applied: PASS" in str(app.screen.query_one("#preview", Static).render()),
        )
        assert not app.index.path.with_name(
            "run.parquet.verdicts.jsonl"
        ).exists()  # looking is not judging


async def test_ids_and_codes_from_the_file_are_data_not_markup(tmp_path: Path) -> None:
    source = pq.read_table(write_sample_results(tmp_path, rows=4))
    ids = ["[/", "[@click=app.quit]x[/]", "a[b]c\x1b[31m", "[bold]x"]
    hostile = source.set_column(0, "id", pa.array(ids, pa.string()))
    codes = pa.array([["[/x"], [], ["[red]"], []], pa.list_(pa.string()))
    hostile = hostile.set_column(hostile.column_names.index("error_codes"), "error_codes", codes)
    path = tmp_path / "hostile.parquet"
    pq.write_table(hostile, path)
    index, _ = open_results(path)
    app = ReviewApp(index, VerdictStore(path), blink=False)
    async with app.run_test(size=(120, 30)) as pilot:
        await started(pilot)
        await wait_for(
            pilot,
            lambda: (
                "[@click=app.quit]" in screen_text(app)
                and "[bold]x" in screen_text(app)
                and "[red]" in screen_text(app)
            ),
        )
        assert "\x1b" not in screen_text(app)
        await pilot.click("#results", offset=(5, 1))
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, DetailScreen))
        assert app.is_running


async def test_a_million_rows_open_and_scroll_without_building_them(tmp_path: Path) -> None:
    rows = 1_000_000
    table = pa.table({
        "id": pa.array([f"r{n}" for n in range(rows)], pa.string()),
        "ok": pa.array([n % 3 != 0 for n in range(rows)]),
        "pass": pa.array([None if n % 3 == 0 else n % 3 == 1 for n in range(rows)]),
        "result": pa.array(["{}"] * rows, pa.string()),
    })
    path = tmp_path / "big.parquet"
    pq.write_table(table, path, row_group_size=100_000)
    index, _ = open_results(path)
    app = ReviewApp(index, VerdictStore(path), blink=False)
    async with app.run_test(size=(100, 30)) as pilot:
        results = await started(pilot)
        assert results.count == rows
        await pilot.press("end")
        await wait_for(pilot, lambda: "r999999" in screen_text(app))


def test_review_scene_snapshot(snap_compare, tmp_path: Path) -> None:
    assert snap_compare(make_review_app(tmp_path), terminal_size=(120, 40), run_before=scene_review)


def test_export_writes_the_verdicts_as_csv_and_bad_files_are_messages(tmp_path: Path) -> None:
    results = write_sample_results(tmp_path)
    store = VerdictStore(results)
    assert store.give(4, "eval-0004", "needs-fix", "guessed a category") is None
    store.close()
    target = tmp_path / "verdicts.csv"
    done = gate_tui("review", str(results), "--export", str(target))
    assert done.returncode == 0, done.stderr
    assert (
        target.read_text()
        .splitlines()[1]
        .startswith("4,5,eval-0004,PASS,needs-fix,guessed a category,")
    )
    assert verdicts_path(results).is_file()
    junk = tmp_path / "junk.jsonl"
    junk.write_bytes(b"\x00\x01")
    bad = gate_tui("review", str(tmp_path / "nothing.parquet"))
    assert bad.returncode == 3 and "no such results file" in bad.stderr
    assert json.loads(json.dumps(done.stderr))  # a message, not a traceback


async def test_contract_results_show_valid_and_invalid_with_the_contract_preview(
    tmp_path: Path,
) -> None:
    contracts = CONFIGS / "contracts"
    replies = [
        (contracts / "replies" / f"llm_result_v1_{kind}.md").read_text()
        for kind in ("good", "broken")
    ]
    source = tmp_path / "in.parquet"
    pq.write_table(pa.table({"id": ["c0", "c1"], "reply": replies}), source)
    results = tmp_path / "out.parquet"
    assert (
        gate_tui(
            "check",
            "--contract",
            str(contracts / "llm_result_v1.yaml"),
            "--input",
            str(source),
            "--output",
            str(results),
            "-q",
        ).returncode
        == 2
    )
    index, _ = open_results(results)
    assert index is not None and index.counts()["VALID"] == 1 and index.counts()["invalid"] == 1
    app = ReviewApp(index, VerdictStore(results), blink=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await started(pilot)
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, DetailScreen))
        await wait_for(
            pilot, lambda: "VALID" in str(app.screen.query_one("#preview", Static).render())
        )
        assert "takes this value" not in str(app.screen.query_one("#preview", Static).render())


async def test_the_palette_names_the_review_actions_and_runs_them(tmp_path: Path) -> None:
    app = review_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await started(pilot)
        await pilot.press("ctrl+p")
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "CommandPalette")
        await pilot.press(*"needs fix")
        await wait_for(pilot, lambda: "Mark it needs-fix" in screen_text(app))
        await pilot.press("enter")
        await wait_for(pilot, lambda: VerdictStore(app.index.path).get(0) is not None)
        assert VerdictStore(app.index.path).get(0).verdict == "needs-fix"
