"""Several reviewers on one results file: verdict files per reviewer, verdicts keyed by id +
reply fingerprint + run id (a rerun never moves a verdict onto another reply), Cohen's and
Fleiss' kappa against textbook examples, the adjudicator's final verdict in the export,
and the deterministic split of the rows."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

from gate_tui.results.agreement import agreement, cohen_kappa, fleiss_kappa  # noqa: E402
from gate_tui.results.index import open_results  # noqa: E402
from gate_tui.results.team import TeamVerdicts, assigned_mask  # noqa: E402
from gate_tui.results.verdicts import VerdictStore, default_reviewer, reviewer_files, reviewer_name  # noqa: E402
from tests.conftest import CONFIGS, REPLIES  # noqa: E402
from tests.helpers.cli import gate_tui  # noqa: E402

ML = CONFIGS / "ml_project_intake.yaml"
GOOD = (REPLIES / "ml_good.md").read_text(encoding="utf-8")
LYING = (REPLIES / "ml_lying_pass.md").read_text(encoding="utf-8")


def _table(counts: dict[tuple[str, str], int]) -> list[tuple[str, str]]:
    return [pair for pair, count in counts.items() for _ in range(count)]


@pytest.mark.parametrize(
    ("cells", "kappa", "raw"),
    [
        # Wikipedia's worked examples of Cohen's kappa (2x2 tables of two raters' yes / no).
        ({("y", "y"): 20, ("y", "n"): 5, ("n", "y"): 10, ("n", "n"): 15}, 0.4, 0.7),
        ({("y", "y"): 45, ("y", "n"): 15, ("n", "y"): 25, ("n", "n"): 15}, 0.1304, 0.6),
        ({("y", "y"): 25, ("y", "n"): 35, ("n", "y"): 5, ("n", "n"): 35}, 0.2593, 0.6),
    ],
)
def test_cohen_kappa_matches_the_textbook(
    cells: dict[tuple[str, str], int], kappa: float, raw: float
) -> None:
    found, agreed = cohen_kappa(_table(cells))
    assert found == pytest.approx(kappa, abs=5e-5) and agreed == pytest.approx(raw)


def test_fleiss_kappa_matches_fleiss_1971_as_worked_on_wikipedia() -> None:
    counts = [
        [0, 0, 0, 0, 14],
        [0, 2, 6, 4, 2],
        [0, 0, 3, 5, 6],
        [0, 3, 9, 2, 0],
        [2, 2, 8, 1, 1],
        [7, 7, 0, 0, 0],
        [3, 2, 6, 3, 0],
        [2, 5, 3, 2, 2],
        [6, 5, 2, 1, 0],
        [0, 2, 2, 3, 7],
    ]
    kappa, raw = fleiss_kappa(counts)
    assert kappa == pytest.approx(0.210, abs=5e-4) and raw == pytest.approx(0.378, abs=5e-4)


def test_kappa_is_undefined_when_everyone_gives_one_verdict_and_raw_agreement_still_counts() -> (
    None
):
    assert cohen_kappa([("a", "a")] * 5) == (None, 1.0)
    three = agreement(
        {
            "x": {1: "accepted", 2: "rejected"},
            "y": {1: "accepted", 2: "rejected"},
            "z": {1: "accepted", 2: "accepted", 3: "accepted"},
        }
    )
    assert three is not None and three["measure"] == "Fleiss' kappa" and three["items"] == 2
    assert three["raw_agreement"] == pytest.approx((1 + 1 / 3) / 2)


def test_reviewer_names_are_safe_file_names(monkeypatch: pytest.MonkeyPatch) -> None:
    assert reviewer_name("../../etc/passwd") == "etc-passwd" and reviewer_name(" ") is None
    monkeypatch.setenv("GATE_TUI_REVIEWER", "")
    monkeypatch.setenv("USER", "ana maria")
    assert default_reviewer() == "ana-maria"


@pytest.fixture
def results(tmp_path: Path) -> Path:
    rows = [{"id": f"r{n}", "reply": GOOD if n % 2 else LYING} for n in range(6)]
    pq.write_table(pa.Table.from_pylist(rows), tmp_path / "in.parquet")
    done = gate_tui(
        "check",
        "--config",
        str(ML),
        "--input",
        str(tmp_path / "in.parquet"),
        "--output",
        str(tmp_path / "run.parquet"),
        "-q",
    )
    assert done.returncode == 1, done.stderr
    return tmp_path / "run.parquet"


def test_a_rerun_into_the_same_file_sets_the_old_run_s_verdicts_aside(
    results: Path, tmp_path: Path
) -> None:
    index, _ = open_results(results)
    store = VerdictStore(results, "ana", index)
    assert (
        store.give(0, "r0", "rejected") is None and store.give(1, "r1", "accepted", "fine") is None
    )
    store.close()
    # A rerun writes other replies, in another order, into the same file.
    rows = [{"id": "r1", "reply": GOOD}, {"id": "r0", "reply": GOOD}] + [
        {"id": f"r{n}", "reply": LYING} for n in range(2, 6)
    ]
    pq.write_table(pa.Table.from_pylist(rows), tmp_path / "in2.parquet")
    gate_tui(
        "check",
        "--config",
        str(ML),
        "--input",
        str(tmp_path / "in2.parquet"),
        "--output",
        str(results),
        "-q",
    )
    index, _ = open_results(results)
    again = VerdictStore(results, "ana", index)
    # Another run wrote the file (its own run id): no verdict of the first run lands on
    # it, not even r1's, whose reply is the same but now sits in another run's row 0.
    assert again.latest == {} and again.stale == 2
    assert any("set aside" in notice for notice in again.notices)


def test_a_verdict_from_another_run_id_is_set_aside(results: Path) -> None:
    index, _ = open_results(results)
    store = VerdictStore(results, "ana", index)
    assert store.give(0, "r0", "rejected") is None
    store.close()
    lines = store.path.read_text().splitlines()
    record = json.loads(lines[-1])
    store.path.write_text(
        "\n".join([*lines[:-1], json.dumps({**record, "run_id": "another-run"})]) + "\n"
    )
    index.__dict__["_groups_meta"]["_run_id"] = "this-run"
    assert VerdictStore(results, "ana", index).latest == {}


def test_two_reviewers_an_adjudicator_and_the_export(results: Path, tmp_path: Path) -> None:
    index, _ = open_results(results)
    ana = TeamVerdicts(results, index, "ana")
    for row, verdict in ((0, "rejected"), (1, "accepted"), (2, "rejected"), (3, "accepted")):
        assert ana.give(row, f"r{row}", verdict) is None
    ana.close()
    ben = TeamVerdicts(results, index, "ben")
    assert ben.shown_others(0)["ana"].verdict == "rejected"
    assert TeamVerdicts(results, index, "ben", blind=True).shown_others(0) == {}
    for row, verdict in (
        (0, "rejected"),
        (1, "needs-fix"),
        (2, "rejected"),
        (3, "accepted"),
        (4, "accepted"),
    ):
        assert ben.give(row, f"r{row}", verdict) is None
    ben.close()
    assert set(reviewer_files(results)) == {"ana", "ben"}
    judge = TeamVerdicts(results, index, "cy", adjudicator=True)
    assert judge.disagreements() == [1]
    found = judge.agreement()
    # Shared rows 0-3: agree on 3 of 4; ana: rej 2 acc 2, ben: rej 2 acc 1 fix 1
    # -> p_e = (2*2 + 2*1) / 16.
    assert found is not None and found["items"] == 4 and found["raw_agreement"] == 0.75
    assert found["kappa"] == pytest.approx((0.75 - 6 / 16) / (1 - 6 / 16))
    assert judge.give(1, "r1", "accepted", "the gate is answered") is None
    judge.close()
    target = tmp_path / "final.csv"
    done = gate_tui("review", str(results), "--export", str(target))
    assert done.returncode == 0, done.stderr
    rows = {int(row["row"]): row for row in csv.DictReader(target.open())}
    assert (
        rows[1]["verdict"] == "accepted"
        and rows[1]["source"] == "adjudicated"
        and rows[1]["reviewer"] == "cy"
    )
    assert (
        rows[0]["source"] == "agreed"
        and rows[4]["source"] == "single"
        and rows[4]["reviewers"] == "ben=accepted"
    )
    stats = json.loads(gate_tui("stats", str(results), "--format", "json").stdout)
    assert stats["agreement"]["kappa"] == pytest.approx(found["kappa"]) and stats["agreement"][
        "reviewers"
    ] == ["ana", "ben"]


def test_assign_splits_the_rows_deterministically_with_an_optional_overlap() -> None:
    masks = [assigned_mask(1000, number, 3).to_pylist() for number in (1, 2, 3)]
    assert all(
        sum(flags) == 1 for flags in zip(*masks, strict=True)
    )  # each row to exactly one reviewer
    shared = [assigned_mask(1000, number, 3, overlap=0.1).to_pylist() for number in (1, 2, 3)]
    everyone = sum(all(flags) for flags in zip(*shared, strict=True))
    assert 50 < everyone < 150 and shared[0] == assigned_mask(1000, 1, 3, overlap=0.1).to_pylist()
