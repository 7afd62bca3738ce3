"""The review screen's scene, shared by the snapshot test and ``make screenshots``: a small
eval run of the bundled sample replies (checked by :func:`gate_tui.parse`, written as the
results Parquet of ``check --input``), two verdicts given, a search typed."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from gate_tui.config.loading import bundled_config_dir, load_config
from gate_tui.json_text import model_json_bytes
from gate_tui.parsing.pipeline import parse
from gate_tui.results.index import open_results
from gate_tui.results.summary import SUMMARY_COLUMNS, summary
from gate_tui.results.verdicts import VerdictStore
from gate_tui.tui.review.app import ReviewApp
from gate_tui.tui.scene_wait import until as _until

REPLIES = ("ml_good.md", "ml_lying_pass.md", "ml_garbage.md", "ml_repairable.md")
ROWS = 40


def write_sample_results(folder: Path, rows: int = ROWS) -> Path:
    """``rows`` checked replies as a results Parquet file in ``folder``."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    bundled = bundled_config_dir()
    config = load_config(bundled / "ml_project_intake.yaml")
    texts = [(bundled / "replies" / name).read_text(encoding="utf-8") for name in REPLIES]
    texts.append(
        texts[0].replace('"classified": "available"', '"classified": available', 1)
    )  # a guessed repair
    checked = [parse(text, config) for text in texts]
    columns: dict[str, list[Any]] = {
        "id": [],
        "line": [],
        **{name: [] for name in SUMMARY_COLUMNS},
        "result": [],
        "reply": [],
    }
    for row in range(rows):
        result = checked[row % len(checked)]
        columns["reply"].append(texts[row % len(texts)])
        columns["id"].append(f"eval-{row:04d}")
        columns["line"].append(row + 1)
        for name, value in zip(SUMMARY_COLUMNS, summary(result), strict=True):
            columns[name].append(value)
        columns["result"].append(model_json_bytes(result).decode("utf-8"))
    path = folder / "run.parquet"
    pq.write_table(pa.table(columns), path)
    return path


def make_review_app(folder: Path | None = None, recheck: bool = False) -> ReviewApp:
    """The review app on a fresh sample run (in a new temporary folder unless given);
    ``recheck``: with the run's config, so an edited reply is checked again."""
    folder = folder or Path(tempfile.mkdtemp(prefix="gate-tui-review-"))
    index, problem = open_results(write_sample_results(folder))
    assert index is not None, problem
    config = load_config(bundled_config_dir() / "ml_project_intake.yaml") if recheck else None
    return ReviewApp(index, VerdictStore(index.path), config=config, blink=False)


async def scene_review(pilot: Any) -> None:
    """Accept the first reply, reject the second, search for the first ten, down to the guess."""
    from gate_tui.tui.review.table import ResultsTable

    app: ReviewApp = pilot.app
    await _until(pilot, lambda: isinstance(app.focused, ResultsTable))
    table = app.focused
    await pilot.press("a", "r")
    await _until(pilot, lambda: len(app.verdicts.latest) == 2)
    await pilot.press("slash", *"eval-000", "enter")
    await _until(pilot, lambda: table.count == 10 and table.has_focus)
    await pilot.press("down", "down", "down", "down")
    await _until(pilot, lambda: table.cursor == 4)


async def capture_review(directory: Path, size: tuple[int, int]) -> Path:
    """Save the review scene's screenshot as ``review.svg``."""
    with tempfile.TemporaryDirectory(prefix="gate-tui-review-") as folder:
        app = make_review_app(Path(folder))
        async with app.run_test(size=size) as pilot:
            await scene_review(pilot)
            await pilot.pause(0.1)
            return Path(app.save_screenshot("review.svg", str(directory)))
