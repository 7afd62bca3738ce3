"""The review screen's rough edges gone and its team view (Pilot): ``/`` focuses the search
from the table and is typed inside it, F1 shows the keys, ``c`` clears every filter, the
guessed checkbox looks different on and off, ``s`` reaches the status filter; the flag
filter (the claim overruled, which way), the summary panel with bars, the reviewer and
the agreement in the header, the disagreements filter, ``--blind`` and ``--assign``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pa = pytest.importorskip("pyarrow")

from textual.widgets import Checkbox, Input, Select  # noqa: E402

from gate_tui.results.index import open_results  # noqa: E402
from gate_tui.results.team import TeamVerdicts  # noqa: E402
from gate_tui.tui.review.app import ReviewApp  # noqa: E402
from gate_tui.tui.review.help import ReviewHelp  # noqa: E402
from gate_tui.tui.review.scenes import make_review_app, write_sample_results  # noqa: E402
from gate_tui.tui.review.summary_panel import SummaryPanel  # noqa: E402
from gate_tui.tui.review.table import ResultsTable  # noqa: E402
from tests.tui_helpers import screen_text, wait_for  # noqa: E402


async def started(pilot) -> ResultsTable:
    await wait_for(pilot, lambda: isinstance(pilot.app.focused, ResultsTable))
    return pilot.app.focused


async def test_slash_focuses_the_search_from_the_table_and_is_typed_inside_it(
    tmp_path: Path,
) -> None:
    app = make_review_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await started(pilot)
        box = app.screen.query_one("#filter-text", Input)
        await pilot.press("slash")
        await wait_for(pilot, lambda: box.has_focus)
        assert box.value == ""
        await pilot.press("e", "slash", "x")
        await wait_for(pilot, lambda: box.value == "e/x")


async def test_f1_shows_the_keys_and_closes_again(tmp_path: Path) -> None:
    app = make_review_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await started(pilot)
        await pilot.press("f1")
        await wait_for(pilot, lambda: isinstance(app.screen, ReviewHelp))
        await wait_for(
            pilot,
            lambda: (
                "Show every row again" in screen_text(app)
                and "Take its verdict back" in screen_text(app)
            ),
        )
        await pilot.press("f1")
        await wait_for(pilot, lambda: not isinstance(app.screen, ReviewHelp))


async def test_s_reaches_the_status_filter_and_c_clears_every_filter(tmp_path: Path) -> None:
    app = make_review_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        table = await started(pilot)
        status = app.screen.query_one("#filter-status", Select)
        await pilot.press("s")
        await wait_for(pilot, lambda: status.expanded)
        status.value = "invalid"
        await wait_for(pilot, lambda: table.count == app.index.counts()["invalid"])
        app.screen.query_one("#filter-guessed", Checkbox).value = True
        app.screen.query_one("#filter-text", Input).value = "nothing matches this"
        await wait_for(pilot, lambda: table.count == 0)
        table.focus()
        await pilot.press("c")
        await wait_for(pilot, lambda: table.count == app.index.rows and table.has_focus)
        assert (
            not isinstance(status.value, str)
            and not app.screen.query_one("#filter-guessed", Checkbox).value
        )


async def test_the_guessed_checkbox_looks_different_on_and_off(tmp_path: Path) -> None:
    app = make_review_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await started(pilot)
        box = app.screen.query_one("#filter-guessed", Checkbox)

        def button_style() -> tuple[object, object]:
            segment = box.render_line(0)._segments[1]  # ▐X▌: the X
            return segment.style.color, segment.style.bgcolor

        off = button_style()
        box.value = True
        await wait_for(pilot, lambda: button_style() != off)
        color, background = button_style()
        # On: the mark stands out from its background (a contrast an eye sees), off: it does not.
        assert abs(sum(color.triplet) - sum(background.triplet)) > 150  # type: ignore[union-attr]
        assert abs(sum(off[0].triplet) - sum(off[1].triplet)) < 100  # type: ignore[union-attr]


async def test_the_flag_filter_finds_the_claims_overruled_and_the_panel_draws_bars(
    tmp_path: Path,
) -> None:
    app = make_review_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        table = await started(pilot)
        app.screen.query_one("#filter-flag", Select).value = "false-pass"
        await wait_for(
            pilot, lambda: table.count == 8
        )  # every 5th row is the reply that claims PASS falsely
        assert all(
            app.index.summary(int(row))["claimed"] == "PASS" for row in table.rows.to_pylist()
        )
        await wait_for(pilot, lambda: "said PASS" in screen_text(app))
        table.focus()
        await pilot.press("p")
        panel = app.screen.query_one(SummaryPanel)
        await wait_for(
            pilot,
            lambda: (
                panel.has_class("-open")
                and "NO PASS by gate" in screen_text(app)
                and "█" in screen_text(app)
            ),
        )


async def test_two_reviewers_see_each_other_agreement_and_disagreements_unless_blind(
    tmp_path: Path,
) -> None:
    index, _ = open_results(write_sample_results(tmp_path))
    assert index is not None
    ana = TeamVerdicts(index.path, index, "ana")
    for row in range(6):
        ana.give(row, f"eval-{row:04d}", "accepted" if row % 2 else "rejected")
    ana.close()
    app = ReviewApp(index, TeamVerdicts(index.path, index, "ben"), blink=False)
    async with app.run_test(size=(120, 40)) as pilot:
        table = await started(pilot)
        await wait_for(
            pilot, lambda: "reviewer ben" in screen_text(app) and "others: ana" in screen_text(app)
        )
        await pilot.press("down")  # ana rejected row 0, accepted row 1
        await wait_for(pilot, lambda: "others on this row: ana: accepted" in screen_text(app))
        await pilot.press("up")
        await wait_for(pilot, lambda: "others on this row: ana: rejected" in screen_text(app))
        await pilot.press("a", "a", "a", "a")  # rows 0-3: agrees on 1 and 3
        await wait_for(
            pilot,
            lambda: "Cohen's kappa" in screen_text(app) and "4 shared rows" in screen_text(app),
        )
        assert "raw agreement 50.0%" in screen_text(app)
        app.screen.query_one("#filter-flag", Select).value = "disagreements"
        await wait_for(pilot, lambda: table.count == 2 and table.rows.to_pylist() == [0, 2])
    blind = ReviewApp(index, TeamVerdicts(index.path, index, "cy", blind=True), blink=False)
    async with blind.run_test(size=(120, 40)) as pilot:
        await started(pilot)
        await wait_for(pilot, lambda: "blind" in screen_text(blind))
        assert "kappa" not in screen_text(blind) and "ana" not in screen_text(blind)


async def test_assign_shows_only_the_reviewers_share(tmp_path: Path) -> None:
    index, _ = open_results(write_sample_results(tmp_path))
    assert index is not None
    app = ReviewApp(index, TeamVerdicts(index.path, index, "ana"), blink=False, assign=(2, 4, 0.0))
    async with app.run_test(size=(120, 40)) as pilot:
        table = await started(pilot)
        await wait_for(pilot, lambda: table.count == 10)
        assert table.rows.to_pylist() == list(range(1, 40, 4))
        await wait_for(
            pilot,
            lambda: (
                "assigned share 2 of 4" in screen_text(app)
                and "showing 10 of 40" in screen_text(app)
            ),
        )


async def test_the_summary_panel_draws_bars_per_group(tmp_path: Path) -> None:
    index, _ = open_results(write_sample_results(tmp_path))
    assert index is not None
    models = pa.array(["alpha", "beta", "gamma", "delta"] * 10)
    team = TeamVerdicts(index.path, index, "ana")
    app = ReviewApp(index, team, blink=False, by=("model", models))
    async with app.run_test(size=(120, 50)) as pilot:
        await started(pilot)
        await pilot.press("p")
        await wait_for(pilot, lambda: "NO PASS by model" in screen_text(app))
        shown = screen_text(app)
        assert "claimed PASS, system NO PASS by model" in shown
        # NO PASS is replies 1 and 3 of every 5: rows 1, 3, 6, 8, ... (row % 4 is the group).
        counts = {name: 0 for name in ("alpha", "beta", "gamma", "delta")}
        for row in range(40):
            if row % 5 in (1, 3):
                counts[("alpha", "beta", "gamma", "delta")[row % 4]] += 1
        for name, count in counts.items():
            line = next(row for row in shown.splitlines() if f"  {name} " in row)
            assert f"{count} of 10" in line and "█" in line


def test_review_by_needs_parquet_results(tmp_path: Path) -> None:
    from tests.helpers.cli import gate_tui

    results = tmp_path / "out.jsonl"
    record = {"id": "a", "line": 1, "ok": False, "pass": None, "result": {"ok": False}}
    results.write_text(json.dumps(record) + "\n")
    done = gate_tui("review", str(results), "--by", "model")
    assert done.returncode == 3 and "Parquet" in done.stderr
