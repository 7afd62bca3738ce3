"""A mixed eval run for the statistics tests: three models as a column, claims true and
false, cut-offs by ``finish_reason`` only, and the counts a person would make by hand."""

from __future__ import annotations

from tests.conftest import CONFIGS, REPLIES

ML = CONFIGS / "ml_project_intake.yaml"
GOOD = (REPLIES / "ml_good.md").read_text(encoding="utf-8")
LYING = (REPLIES / "ml_lying_pass.md").read_text(
    encoding="utf-8"
)  # claims PASS; system: NO PASS at 2_use_case
HONEST = LYING.replace(
    '"status": {"pass": true', '"status": {"pass": false'
)  # claims NO PASS; system agrees
GARBAGE = (REPLIES / "ml_garbage.md").read_text(encoding="utf-8")
SEVERAL = (REPLIES / "ml_self_correcting.md").read_text(
    encoding="utf-8"
)  # two different states; PASS, claims PASS
GUESSED = GOOD.replace(
    '"raw": "Two years of labelled tickets in the warehouse"',
    '"raw": Two years of labelled tickets',
)
MODELS = ("alpha", "beta", "gamma")
# kind -> (reply, finish_reason, expected status, claimed, guessed, cut_off, several)
KINDS = {
    "good": (GOOD, "stop", "PASS", "PASS", False, False, False),
    "lying": (LYING, "stop", "NO PASS", "PASS", False, False, False),
    "honest": (HONEST, None, "NO PASS", "NO PASS", False, False, False),
    "garbage": (GARBAGE, "stop", "invalid", "none", False, False, False),
    "cut": (
        GOOD,
        "length",
        "invalid",
        "PASS",
        False,
        True,
        False,
    ),  # parses whole; cut by the provider
    "several": (SEVERAL, "stop", "PASS", "PASS", False, False, True),
    "guessed": (GUESSED, "stop", "PASS", "PASS", True, False, False),
}
# Each model gets its own mix, so the groups differ.
PLAN = {
    "alpha": ["good"] * 4 + ["lying"] * 3 + ["cut"] * 2 + ["guessed"],
    "beta": ["good"] * 2 + ["honest"] * 3 + ["garbage"] * 2 + ["several"] * 2 + ["lying"],
    "gamma": ["good", "lying", "lying", "cut", "honest", "guessed", "several", "garbage"],
}


def mixed_rows() -> list[dict[str, object]]:
    rows = []
    for model, kinds in PLAN.items():
        for number, kind in enumerate(kinds):
            reply, finish, *_ = KINDS[kind]
            rows.append(
                {
                    "id": f"{model}-{number}",
                    "reply": reply,
                    "model": model,
                    "kind": kind,
                    "finish_reason": finish,
                    "usage": {
                        "prompt_tokens": 100,
                        "completion_tokens": 10 + number,
                        "total_tokens": 110 + number,
                    },
                }
            )
    return rows


def hand_count(rows: list[dict[str, object]]) -> dict[str, dict[str, int]]:
    counts: dict[str, dict[str, int]] = {}
    for row in rows:
        _reply, _finish, status, claimed, guessed, cut, several = KINDS[str(row["kind"])]
        for group in ("(all)", str(row["model"])):
            mine = counts.setdefault(group, {})
            for key in (
                f"status {status}",
                f"claim {claimed}/{status}",
                *(["guessed"] * guessed),
                *(["cut"] * cut),
                *(["several"] * several),
                "rows",
            ):
                mine[key] = mine.get(key, 0) + 1
            if (claimed, status) == ("PASS", "NO PASS"):
                mine["false pass at 2_use_case"] = mine.get("false pass at 2_use_case", 0) + 1
            mine["tokens"] = mine.get("tokens", 0) + int(row["usage"]["total_tokens"])  # type: ignore[index]
    return counts
