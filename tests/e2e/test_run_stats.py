"""``gate-tui stats``: a mixed run of three models (claims true and false, cut-offs known
only from ``finish_reason``, guessed repairs, several states) counted by hand, grouping by
a column ``check`` carried over from the input, token usage, two runs compared on ids, and
the Markdown / JSON / HTML outputs."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

from tests.helpers.cli import gate_tui  # noqa: E402
from tests.helpers.mixed_run import (  # noqa: E402
    GOOD,
    LYING,
    ML,
    MODELS,
    hand_count,
    mixed_rows,
)


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("stats")
    pq.write_table(pa.Table.from_pylist(mixed_rows()), folder / "in.parquet")
    done = gate_tui(
        "check",
        "--config",
        str(ML),
        "--input",
        str(folder / "in.parquet"),
        "--output",
        str(folder / "out.parquet"),
        "-q",
    )
    assert done.returncode == 2, done.stderr
    return folder / "out.parquet"


def _check_group(data: dict[str, object], expected: dict[str, int]) -> None:
    assert data["rows"] == expected["rows"]
    for status in ("PASS", "NO PASS", "invalid"):
        assert data["status"].get(status, 0) == expected.get(f"status {status}", 0), status  # type: ignore[attr-defined]
    claims = {f"claim {row['claimed']}/{row['system']}": row["rows"] for row in data["claims"]}  # type: ignore[attr-defined]
    assert claims == {key: value for key, value in expected.items() if key.startswith("claim ")}
    assert data["claimed_pass_system_no_pass"] == expected.get("claim PASS/NO PASS", 0)
    assert data["false_pass_by_gate"] == (
        {"2_use_case": expected["false pass at 2_use_case"]}
        if "false pass at 2_use_case" in expected
        else {}
    )
    counts = data["counts"]
    assert counts["guessed"] == expected.get("guessed", 0)  # type: ignore[index]
    assert counts["cut_off"] == counts["provider_cut"] == expected.get("cut", 0)  # type: ignore[index]
    assert counts["several_states"] == expected.get("several", 0)  # type: ignore[index]
    assert counts["invalid"] == expected.get("status invalid", 0)  # type: ignore[index]
    assert data["tokens"]["total_tokens"] == expected["tokens"]  # type: ignore[index]


def test_a_mixed_run_of_three_models_matches_a_hand_count(run: Path) -> None:
    done = gate_tui("stats", str(run), "--by", "model", "--format", "json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    expected = hand_count(mixed_rows())
    _check_group(data["overall"], expected["(all)"])
    assert sorted(data["groups"]) == list(MODELS)
    for model in MODELS:
        _check_group(data["groups"][model], expected[model])
    assert data["overall"]["top_error_codes"]["invalid_json"] == expected["(all)"]["status invalid"]


def test_check_carries_the_inputs_other_columns_and_the_provider_signals(run: Path) -> None:
    table = pq.read_table(run)
    assert {"model", "kind", "finish_reason", "total_tokens", "fingerprint"} <= set(
        table.column_names
    )
    assert "usage" not in table.column_names  # read into the token columns, not carried as is
    kinds = table.column("kind").to_pylist()
    cut = [
        json.loads(text)
        for text, kind in zip(table.column("result").to_pylist(), kinds, strict=True)
        if kind == "cut"
    ]
    assert cut and all(
        not result["ok"] and "finish_reason: length" in result["errors"][0]["message"]
        for result in cut
    )


def test_carry_columns_names_the_columns_kept(tmp_path: Path) -> None:
    pq.write_table(pa.Table.from_pylist(mixed_rows()[:3]), tmp_path / "in.parquet")
    out = tmp_path / "out.parquet"
    done = gate_tui(
        "check",
        "--config",
        str(ML),
        "--input",
        str(tmp_path / "in.parquet"),
        "--output",
        str(out),
        "-q",
        "--carry-columns",
        "model",
    )
    assert done.returncode in (0, 1, 2), done.stderr
    names = pq.read_schema(out).names
    assert "model" in names and "kind" not in names


def test_grouping_by_a_missing_column_is_a_clear_error(run: Path) -> None:
    done = gate_tui("stats", str(run), "--by", "no_such_column")
    assert (
        done.returncode == 3 and "no_such_column" in done.stderr and "Traceback" not in done.stderr
    )


def test_markdown_and_text_name_the_groups_and_the_false_claims(run: Path) -> None:
    done = gate_tui("stats", str(run), "--by", "model", "--format", "md")
    assert done.returncode == 0, done.stderr
    table_rows = [line for line in done.stdout.splitlines() if line.startswith("| ")]
    assert any(line.startswith("| alpha | 10 |") for line in table_rows), done.stdout
    assert "| 2\\_use\\_case | 6 |" in done.stdout
    text = gate_tui("stats", str(run)).stdout
    assert (
        "claimed PASS    / system NO PASS" in text
        and "false PASS claims stopped at: 2_use_case 6" in text
    )


def test_two_runs_compared_on_ids(run: Path, tmp_path: Path) -> None:
    rows = mixed_rows()
    for row in rows:
        if row["id"] == "alpha-0":
            row["reply"] = LYING  # was PASS: newly failing
        if row["id"] == "beta-2":
            row["reply"] = GOOD  # was NO PASS: newly passing
    rows = rows[::-1] + [{**rows[0], "id": "new-1"}]  # another order, one new row
    pq.write_table(pa.Table.from_pylist(rows), tmp_path / "in.parquet")
    second = tmp_path / "second.parquet"
    gate_tui(
        "check",
        "--config",
        str(ML),
        "--input",
        str(tmp_path / "in.parquet"),
        "--output",
        str(second),
        "-q",
    )
    done = gate_tui("stats", str(run), str(second), "--format", "json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["newly_failing"] == 1 and data["newly_failing_ids"] == ["alpha-0"]
    assert data["newly_passing"] == 1 and data["newly_passing_ids"] == ["beta-2"]
    assert data["matched"] == 28 and data["only_in_b"] == 1 and data["only_in_a"] == 0


def test_jsonl_results_give_the_same_counts_as_parquet(
    run: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GATE_TUI_CACHE_DIR", str(tmp_path))
    source = tmp_path / "in.jsonl"
    source.write_text("".join(json.dumps(row) + "\n" for row in mixed_rows()), encoding="utf-8")
    out = tmp_path / "out.jsonl"
    done = gate_tui("check", "--config", str(ML), "--jsonl", str(source), "-o", str(out), "-q")
    assert done.returncode == 2, done.stderr
    from_jsonl = json.loads(gate_tui("stats", str(out), "--format", "json").stdout)["overall"]
    from_parquet = json.loads(gate_tui("stats", str(run), "--format", "json").stdout)["overall"]
    for key in ("status", "claims", "false_pass_by_gate", "top_error_codes"):
        assert from_jsonl[key] == from_parquet[key], key
    # JSON Lines results hold no finish_reason column: a provider's cut shows as a cut-off.
    assert from_jsonl["counts"] == {**from_parquet["counts"], "provider_cut": 0}


def test_html_is_one_self_contained_page(run: Path, tmp_path: Path) -> None:
    page = tmp_path / "stats.html"
    done = gate_tui("stats", str(run), "--by", "model", "--format", "html", "-o", str(page))
    assert done.returncode == 0, done.stderr
    html = page.read_text(encoding="utf-8")
    assert html.count("<svg") >= 3 and "<script" not in html
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", html)


def test_the_html_page_opens_in_headless_chromium_with_no_request_and_is_screenshotted(
    run: Path, tmp_path: Path
) -> None:
    from tests.helpers.browser import CHROMIUM, browser_page

    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is missing")
    page_file = tmp_path / "stats.html"
    assert (
        gate_tui(
            "stats", str(run), "--by", "model", "--format", "html", "-o", str(page_file)
        ).returncode
        == 0
    )
    requests: list[str] = []
    with browser_page(1200, 900) as page:
        page.on("request", lambda request: requests.append(request.url))
        page.goto(page_file.as_uri())
        assert page.title().startswith("gate-tui stats")
        assert page.locator("svg").count() >= 3
        bars = page.locator("svg rect")
        assert bars.count() >= 5 and bars.first.bounding_box()["width"] > 0  # type: ignore[index]
        assert "claimed PASS, system NO PASS" in page.inner_text("body")
        shot = tmp_path / "stats.png"
        page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000
    assert requests == [page_file.as_uri()]  # the page itself, nothing else


def test_a_contract_check_refuses_a_reply_the_provider_cut(tmp_path: Path) -> None:
    contract = tmp_path / "contract.json"
    contract.write_text(
        json.dumps({"type": "object", "properties": {"label": {"type": "string"}}}),
        encoding="utf-8",
    )
    rows = [
        {"id": "a", "reply": '{"label": "x"}', "finish_reason": "stop"},
        {"id": "b", "reply": '{"label": "x"}', "finish_reason": "length"},
    ]
    source = tmp_path / "in.jsonl"
    source.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    done = gate_tui("check", "--contract", str(contract), "--jsonl", str(source), "-q")
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert [record["ok"] for record in records] == [True, False], done.stderr
    assert "finish_reason: length" in records[1]["result"]["errors"][0]["message"]


def test_values_from_the_results_are_data_in_html_and_markdown(tmp_path: Path) -> None:
    hostile = "<script>alert(1)</script> | [x](http://e.example) \x1b[31m"
    rows = [
        {"id": "a", "reply": GOOD, "model": hostile},
        {"id": "b", "reply": LYING, "model": "plain"},
    ]
    pq.write_table(pa.Table.from_pylist(rows), tmp_path / "in.parquet")
    out = tmp_path / "out.parquet"
    gate_tui(
        "check",
        "--config",
        str(ML),
        "--input",
        str(tmp_path / "in.parquet"),
        "--output",
        str(out),
        "-q",
    )
    html = gate_tui("stats", str(out), "--by", "model", "--format", "html").stdout
    assert "<script>" not in html and "&lt;script&gt;" in html
    md = gate_tui("stats", str(out), "--by", "model", "--format", "md").stdout
    row = next(line for line in md.splitlines() if "alert" in line)
    assert row.count(" | ") == 9  # ten cells: the pipe in the name is escaped
    assert "\\[x\\](http" in row and "\x1b" not in md
    text = gate_tui("stats", str(out), "--by", "model").stdout
    assert "\x1b" not in text
