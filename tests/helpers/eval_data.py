"""Mixed eval-run inputs for the Arrow / Parquet / Ray / review tests: the same rows as
JSON Lines (for ``check --jsonl``) and as an Arrow table (for the batch function)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.conftest import CONFIGS, REPLIES

ML = CONFIGS / "ml_project_intake.yaml"
NAMES = ("ml_good.md", "ml_lying_pass.md", "ml_garbage.md", "ml_repairable.md")


def items(count: int) -> list[dict[str, Any]]:
    """``count`` input records: good, NO PASS, invalid and repairable replies, with odd ids
    (unicode, a bidi override, none), previous states (good and bad), null and object replies."""
    texts = [(REPLIES / name).read_text(encoding="utf-8") for name in NAMES]
    good = json.loads(texts[0][texts[0].index("{") : texts[0].rindex("}") + 1])
    rows: list[dict[str, Any]] = []
    for index in range(count):
        row: dict[str, Any] = {"id": f"r{index}", "reply": texts[index % len(texts)]}
        kind = index % 50
        if kind == 7:
            row["id"] = f"é-{index}-\u202e"
        elif kind == 11:
            row["id"] = None
        elif kind == 13:
            row["previous"] = good
        elif kind == 17:
            row["previous"] = {"gates": "not a dict"}
        elif kind == 19:
            row["reply"] = None
        elif kind == 23:
            row["reply"] = good
        elif kind == 29:
            row["reply"] = texts[0].replace("Two", "Two \u0085 \u200f")
        rows.append(row)
    return rows


def write_jsonl(path: Path, rows: list[dict[str, Any]]) -> Path:
    with path.open("w", encoding="utf-8") as out:
        for row in rows:
            out.write(json.dumps(row, ensure_ascii=False) + "\n")
    return path


def table(rows: list[dict[str, Any]]) -> Any:
    """The rows as Arrow: object replies as JSON text is not the same input, so they stay
    out; ``previous`` becomes the ``previous_state`` JSON text column."""
    import pyarrow as pa

    return pa.table(
        {
            "id": pa.array([row["id"] for row in rows], pa.string()),
            "reply": pa.array(
                [row["reply"] if not isinstance(row["reply"], dict) else None for row in rows],
                pa.string(),
            ),
            "previous_state": pa.array(
                [json.dumps(row["previous"]) if "previous" in row else None for row in rows],
                pa.string(),
            ),
        }
    )


def arrow_rows(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rows as :func:`table` holds them (object replies become null)."""
    return [
        {**row, "reply": None if isinstance(row["reply"], dict) else row["reply"]} for row in rows
    ]


def write_parquet(
    path: Path, rows: list[dict[str, Any]], row_group_size: int | None = None
) -> Path:
    import pyarrow.parquet as pq

    pq.write_table(table(rows), path, row_group_size=row_group_size)
    return path
