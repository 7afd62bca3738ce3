"""Two reviewers and an adjudicator on one results file, in a real terminal (tmux): each
reviewer's own verdict file, the agreement in the header, the disagreements filter, the
adjudicator's final verdict, and ``--export`` using it."""

from __future__ import annotations

import csv
import subprocess
from pathlib import Path

import pytest

pytest.importorskip("pyarrow")

from gate_tui.tui.review.scenes import write_sample_results  # noqa: E402
from tests.helpers.tmux import Tmux, gate_tui, tmux  # noqa: E402, F401 - the fixture is used by name

pytestmark = pytest.mark.tmux


def _session(command: str, env: dict[str, str], steps: list[tuple[tuple[str, ...], str]]) -> None:
    """Run ``command`` in a fresh tmux, send each step's keys and wait for its text, quit."""
    session = Tmux()
    try:
        session.start(command, env)
        session.wait_for(lambda s: "showing 40 of 40" in s, "the review table")
        for keys, text in steps:
            if keys:
                session.run("send-keys", *keys)
            session.wait_for(lambda s, text=text: text in s, text)
        session.run("send-keys", "q")
        session.wait_for(lambda s: "EXITED=" in s, "the review to end")
    finally:
        session.kill()


def test_two_reviewers_and_an_adjudicator(tmux: Tmux, tmp_path: Path) -> None:  # noqa: F811
    tmux.kill()
    results = write_sample_results(tmp_path)
    env = {
        "TERM": "xterm-256color",
        "GATE_TUI_NO_BLINK": "1",
        "GATE_TUI_CACHE_DIR": str(tmp_path / "cache"),
    }
    # ana: rows 0-3 accepted, rejected, rejected, accepted.
    _session(
        gate_tui("review", results, "--reviewer", "ana"),
        env,
        [
            ((), "reviewer ana"),
            (("a", "r", "r", "a"), "verdicts: accepted 2, rejected 2"),
        ],
    )
    # ben, blind: sees nothing of ana's; rows 0-3 accepted, accepted, rejected, accepted.
    _session(
        gate_tui("review", results, "--reviewer", "ben", "--blind"),
        env,
        [
            ((), "blind: others' verdicts hidden"),
            (("a", "a", "r", "a"), "verdicts: accepted 3, rejected 1"),
        ],
    )
    assert {path.name for path in tmp_path.glob("run.parquet.verdicts.*.jsonl")} == {
        "run.parquet.verdicts.ana.jsonl",
        "run.parquet.verdicts.ben.jsonl",
    }
    # The adjudicator sees both, the agreement, and the one disagreement (row 1).
    _session(
        gate_tui("review", results, "--reviewer", "cy", "--adjudicate"),
        env,
        [
            ((), "Cohen's kappa"),
            ((), "raw agreement 75.0%"),
            (("c",), "showing 40 of 40"),
            (("f",), "reviewers disagree"),
            (("End", "Enter"), "showing 1 of 40"),
            ((), "others on this row: ana: rejected; ben: accepted"),
            (("a",), "verdicts: accepted 1"),
        ],
    )
    exported = tmp_path / "final.csv"
    command = gate_tui("review", results, "--export", exported)
    subprocess.run(command, shell=True, check=True, capture_output=True, timeout=60)
    rows = {row["id"]: row for row in csv.DictReader(exported.open())}
    assert (
        rows["eval-0001"]["verdict"] == "accepted" and rows["eval-0001"]["source"] == "adjudicated"
    )
    assert rows["eval-0001"]["reviewers"] == "ana=rejected; ben=accepted"
    assert rows["eval-0000"]["source"] == "agreed" and rows["eval-0002"]["verdict"] == "rejected"
