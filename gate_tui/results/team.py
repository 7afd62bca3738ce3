"""Several reviewers on one results file: each one's verdicts, their agreement, the rows
they disagree on, the adjudicator's final word and the split of the rows among them.

:class:`TeamVerdicts` is what ``gate-tui review`` opens: the reviewer's own
:class:`~gate_tui.results.verdicts.VerdictStore` (the only file it writes), everyone
else's read once (hidden with ``--blind``), and the adjudicated verdicts. What
``--export`` writes per row is the adjudicator's verdict when there is one, else the
reviewers' when they all agree, else ``disputed``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gate_tui.results.agreement import agreement
from gate_tui.results.verdicts import Verdict, VerdictStore, reviewer_files, verdicts_path

ADJUDICATOR = "adjudicated"


class TeamVerdicts:
    """The verdicts of everyone on one results file, from one reviewer's seat."""

    def __init__(
        self, results: Path, rows: Any, me: str, *, blind: bool = False, adjudicator: bool = False
    ) -> None:
        self.results = Path(results)
        self.me = me
        self.blind = blind and not adjudicator
        self.adjudicator = adjudicator
        self.mine = VerdictStore(self.results, me, rows, final=adjudicator)
        self.others: dict[str, VerdictStore] = {}
        for name in reviewer_files(self.results):
            if name != me or adjudicator:
                self.others[name or "(unnamed)"] = VerdictStore(self.results, name or None, rows)
        final_path = verdicts_path(self.results, final=True)
        self.final = (
            self.mine
            if adjudicator
            else VerdictStore(self.results, None, rows, final=True)
            if final_path.is_file()
            else None
        )
        self.notices = list(self.mine.notices) + [
            notice for store in self.others.values() for notice in store.notices
        ]

    # The screen's view: its own store's API, so the table and detail need nothing else.
    @property
    def latest(self) -> dict[int, Verdict]:
        return self.mine.latest

    def get(self, row: int) -> Verdict | None:
        return self.mine.get(row)

    def counts(self) -> dict[str, int]:
        return self.mine.counts()

    def give(self, row: int, ident: str | None, verdict: str, note: str = "") -> str | None:
        return self.mine.give(row, ident, verdict, note)

    def close(self) -> None:
        self.mine.close()

    def reviewers(self) -> dict[str, dict[int, Verdict]]:
        """Each reviewer's verdicts (the adjudicator is not a reviewer; their own, when they
        review, are among the others')."""
        judged = {name: store.latest for name, store in self.others.items()}
        if not self.adjudicator:
            judged[self.me] = self.mine.latest
        return judged

    def shown_others(self, row: int) -> dict[str, Verdict]:
        """The others' verdicts on ``row`` as the screen may show them (none when blind)."""
        if self.blind:
            return {}
        return {
            name: store.latest[row] for name, store in self.others.items() if row in store.latest
        }

    def disagreements(self) -> list[int]:
        """The rows two reviewers gave different verdicts (never with ``--blind``)."""
        if self.blind:
            return []
        seen: dict[int, set[str]] = {}
        for verdicts in self.reviewers().values():
            for row, verdict in verdicts.items():
                seen.setdefault(row, set()).add(verdict.verdict)
        return sorted(row for row, verdicts in seen.items() if len(verdicts) > 1)

    def agreement(self) -> dict[str, Any] | None:
        """Cohen's or Fleiss' kappa and the raw agreement (None when blind or alone)."""
        if self.blind:
            return None
        return agreement(
            {
                name: {row: verdict.verdict for row, verdict in verdicts.items()}
                for name, verdicts in self.reviewers().items()
            }
        )

    def exported(self) -> list[tuple[int, Verdict, str, str]]:
        """Per row with any verdict: the final verdict, where it came from, and who said what."""
        judged = self.reviewers()
        final = self.final.latest if self.final is not None else {}
        rows = sorted(set(final).union(*(set(verdicts) for verdicts in judged.values())))
        out = []
        for row in rows:
            said = {name: verdicts[row] for name, verdicts in judged.items() if row in verdicts}
            who = "; ".join(f"{name}={verdict.verdict}" for name, verdict in sorted(said.items()))
            if row in final:
                out.append((row, final[row], ADJUDICATOR, who))
                continue
            words = {verdict.verdict for verdict in said.values()}
            first = next(iter(said.values()))
            if len(words) == 1:
                out.append((row, first, "agreed" if len(said) > 1 else "single", who))
            else:
                out.append((row, Verdict(row, first.id, "disputed"), "disputed", who))
        return out


def assigned_mask(rows: int, number: int, of: int, overlap: float = 0.0) -> Any:
    """The rows reviewer ``number`` of ``of`` reviews (an Arrow boolean mask): every
    ``of``-th row from the ``number``-th, plus a share ``overlap`` (0..1) of all rows that
    every reviewer gets (to measure agreement), picked by a fixed hash of the row number:
    the same file gives everyone the same split."""
    import pyarrow as pa
    import pyarrow.compute as pc

    positions = pa.array(range(rows), pa.int64())
    mine = pc.equal(
        pc.bit_wise_and(positions, 0) if of == 1 else _mod(positions, of), (number - 1) % of
    )
    if overlap <= 0:
        return mine
    mixed = _mod(pc.multiply(pc.bit_wise_xor(positions, 0x5BD1E995), 2654435761), 1 << 32)
    shared = pc.less(mixed, int(min(overlap, 1.0) * (1 << 32)))
    return pc.or_(mine, shared)


def _mod(values: Any, divisor: int) -> Any:
    import pyarrow.compute as pc

    return pc.subtract(values, pc.multiply(pc.divide(values, divisor), divisor))
