"""How much reviewers agree: Cohen's kappa for two, Fleiss' kappa for three or more, and
the raw agreement beside it.

Kappa is the agreement beyond what chance would give with each reviewer's (Cohen) or the
pooled (Fleiss) share of each verdict: 1 is full agreement, 0 what chance alone gives,
below 0 worse than chance. Both are None when chance alone would agree every time (one
verdict used by everyone: kappa is undefined, the raw agreement still says 100%).
Only rows every reviewer judged count (Fleiss' kappa needs the same raters per row).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any


def cohen_kappa(pairs: Sequence[tuple[str, str]]) -> tuple[float | None, float | None]:
    """Cohen's kappa and the raw agreement of two reviewers' labels on the same items."""
    total = len(pairs)
    if not total:
        return None, None
    observed = sum(1 for first, second in pairs if first == second) / total
    firsts, seconds = Counter(first for first, _ in pairs), Counter(second for _, second in pairs)
    expected = sum(firsts[label] * seconds[label] for label in firsts) / (total * total)
    if expected >= 1:
        return None, observed
    return (observed - expected) / (1 - expected), observed


def fleiss_kappa(counts: Sequence[Sequence[int]]) -> tuple[float | None, float | None]:
    """Fleiss' kappa and the mean pairwise agreement of items each rated by the same number
    of reviewers: ``counts[i][j]`` is how many reviewers put item ``i`` in category ``j``."""
    items = [list(row) for row in counts if sum(row) > 0]
    if not items:
        return None, None
    raters = sum(items[0])
    if raters < 2 or any(sum(row) != raters for row in items):
        return None, None
    total = len(items) * raters
    shares = [sum(row[j] for row in items) / total for j in range(len(items[0]))]
    agreement = sum(
        (sum(n * n for n in row) - raters) / (raters * (raters - 1)) for row in items
    ) / len(items)
    expected = sum(share * share for share in shares)
    if expected >= 1:
        return None, agreement
    return (agreement - expected) / (1 - expected), agreement


def agreement(judged: dict[str, dict[int, str]]) -> dict[str, Any] | None:
    """Reviewers' agreement on the rows every one of them judged (``judged``: reviewer ->
    row -> verdict), as data for ``stats`` and the review header; None for one reviewer."""
    names = sorted(
        name for name in judged if judged[name]
    )  # one who judged nothing is not a rater yet
    if len(names) < 2:
        return None
    shared = set.intersection(*(set(judged[name]) for name in names))
    rows = sorted(shared)
    if len(names) == 2:
        kappa, raw = cohen_kappa([(judged[names[0]][row], judged[names[1]][row]) for row in rows])
        measure = "Cohen's kappa"
    else:
        labels = sorted({judged[name][row] for name in names for row in rows})
        table = [
            [sum(1 for name in names if judged[name][row] == label) for label in labels]
            for row in rows
        ]
        kappa, raw = fleiss_kappa(table)
        measure = "Fleiss' kappa"
    return {
        "reviewers": names,
        "items": len(rows),
        "measure": measure,
        "kappa": kappa,
        "raw_agreement": raw,
    }


def run_agreement(results: Path) -> dict[str, Any] | None:
    """The agreement of the reviewers whose verdict files sit beside ``results`` (verdicts
    placed on their replies with the results' index), or None when fewer than two."""
    from gate_tui.results.verdicts import reviewer_files

    files = reviewer_files(Path(results))
    if len(files) < 2:
        return None
    from gate_tui.results.index import open_results
    from gate_tui.results.verdicts import VerdictStore

    index, _problem = open_results(results)
    if index is None:
        return None
    judged = {}
    for name in files:
        store = VerdictStore(Path(results), name or None, index)
        judged[name or "(unnamed)"] = {
            row: verdict.verdict for row, verdict in store.latest.items()
        }
    return agreement(judged)
