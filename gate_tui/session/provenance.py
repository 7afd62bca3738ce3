"""Who said each answer: the provenance of every gate's ``raw``, from journal records.

One source for the editor's gate marks and detail and for the report's "said by" line. An
accepted record says which gates' ``raw`` it changed (its diff) and, for a model's reply
checked against the user's words, its ``grounding`` report. A user's own edit is the user's
words. Moves (undo, redo, jump) are not followed: the mark is the last accepted writer's.
"""

from __future__ import annotations

from typing import Any, NamedTuple

Record = dict[str, Any]


class Said(NamedTuple):
    """``kind``: ``user`` (their edit), ``grounded``, ``near``, ``ungrounded`` or
    ``unchecked`` (a model's answer no conversation was known for); ``at``: the record's
    time; ``turn`` / ``span``: where the user said it (or the closest they came)."""

    kind: str
    at: str
    turn: int | None = None
    span: str | None = None
    score: float | None = None

    def describe(self, when: str) -> str:
        """``the model, 10:42: the user's words, from their message #2: '…'`` and the like."""
        if self.kind == "user":
            return f"the user (their own edit), {when}"
        quote = (
            f"message #{self.turn}: {self.span[:160]!r}"
            if self.turn is not None and self.span is not None
            else ""
        )
        if self.kind == "grounded":
            said = f"the user's words, from their {quote}" if quote else "the user's words"
        elif self.kind == "near":
            said = f"near the user's words (score {self.score:g}), from their {quote}"
        elif self.kind == "ungrounded":
            said = "NOT the user's words" + (f" (closest: {quote})" if quote else "")
        else:
            return f"the model, {when} (not checked against the user's words)"
        return f"the model, {when}: {said}"


def record_provenance(record: Record) -> dict[str, Said]:
    """What one record says about the gates whose ``raw`` it changed (nothing for others)."""
    # Imported here: the editor's first frame is drawn before pydantic (which records needs).
    from gate_tui.session.records import ACCEPT_KINDS

    if record.get("kind") not in ACCEPT_KINDS:
        return {}
    diff = record.get("diff") if isinstance(record.get("diff"), dict) else {}
    changed = (
        diff.get("gates_raw_changed") if isinstance(diff.get("gates_raw_changed"), list) else []
    )
    at = str(record.get("at") or "")
    grounding = record.get("grounding") if isinstance(record.get("grounding"), dict) else {}
    findings = grounding.get("findings") if isinstance(grounding.get("findings"), list) else []
    by_path = {f.get("path"): f for f in findings if isinstance(f, dict)}
    out: dict[str, Said] = {}
    for key in changed:
        if record.get("actor") == "user":
            out[str(key)] = Said("user", at)
            continue
        finding = by_path.get(f"gates.{key}.raw")
        if not isinstance(finding, dict) or finding.get("kind") not in (
            "grounded",
            "near",
            "ungrounded",
        ):
            out[str(key)] = Said("unchecked", at)
            continue
        span = finding.get("closest") if isinstance(finding.get("closest"), dict) else {}
        turn = span.get("turn") if isinstance(span.get("turn"), int) else None
        text = span.get("text") if isinstance(span.get("text"), str) else None
        score = span.get("score") if isinstance(span.get("score"), (int, float)) else None
        out[str(key)] = Said(str(finding["kind"]), at, turn, text, score)
    return out


class ProvenanceTracker:
    """Per gate, the latest :class:`Said`, kept up to date as records are appended (each
    record read once: a long session costs no more per transition than a short one)."""

    def __init__(self) -> None:
        self.said: dict[str, Said] = {}
        self._seen = 0

    def update(self, records: list[Any]) -> dict[str, Said]:
        if len(records) < self._seen:  # another session's records: start over
            self.said, self._seen = {}, 0
        for record in records[self._seen :]:
            if isinstance(record, dict):
                self.said.update(record_provenance(record))
        self._seen = len(records)
        return self.said
