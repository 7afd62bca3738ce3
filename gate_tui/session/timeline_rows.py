"""The editor's timeline: every transition, and the attempts that changed nothing.

A rejected attempt (a reply or an edit the parser refused) and a model call (an F6 ask
or retry, whatever came of it) are journal records (:mod:`gate_tui.session.records`), not
transitions: they have no state to restore. The timeline shows them among the
transitions, in the order they happened, read from the session's ``records`` (the one
source; nothing is copied). :func:`detail_text` is the full story of one row, in the
review report's words (:mod:`gate_tui.session.report_timeline`), so the editor and the
report never tell it differently.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from gate_tui.session import records as rec
from gate_tui.session.history import Transition
from gate_tui.session.report_text import TextRenderer
from gate_tui.session.report_timeline import Timeline

ATTEMPT_KINDS = ("rejected", "model_call")
"""The records shown in the timeline beside the transitions (they cannot be restored)."""

DETAIL_CHARS = 400_000
"""Most characters of one row's detail (a 4 MiB reply is cut, and says so)."""

Row = Transition | dict[str, Any]


def timeline_rows(timeline: Sequence[Transition], records: Iterable[rec.Record]) -> list[Row]:
    """The transitions and the attempts of ``records``, in time order.

    Both carry the same clock's ISO time (``now_iso``); an attempt stamped the same
    millisecond as a transition comes first (a model call precedes the reply it brought).
    Linear in the rows (the two lists are each in order already)."""
    attempts = [r for r in records if r.get("kind") in ATTEMPT_KINDS]
    rows: list[Row] = []
    position = 0
    for transition in timeline:
        while position < len(attempts) and str(attempts[position].get("at", "")) <= transition.at:
            rows.append(attempts[position])
            position += 1
        rows.append(transition)
    rows.extend(attempts[position:])
    return rows


def row_key(row: Row) -> str:
    """The table's key of a row: a transition's index (``3``), an attempt's seq (``r12``)."""
    if isinstance(row, Transition):
        return str(row.index)
    return f"r{row.get('seq', '?')}"


def restorable(key: str) -> int | None:
    """The transition index behind a row key, or None for an attempt (nothing to restore)."""
    return int(key) if key.lstrip("-").isdigit() else None


def find_row(rows: Sequence[Row], key: str) -> Row | None:
    return next((row for row in rows if row_key(row) == key), None)


def detail_text(row: Row, records: Sequence[rec.Record] = ()) -> str:
    """One row in full, as the review report's text tells it: a transition's before and
    after of every field; a rejected attempt's errors and payload; a model call's message
    and reply. A reply stored once in its model call's record is looked up there."""
    record = rec.transition_record(0, row) if isinstance(row, Transition) else dict(row)
    if record.get("payload_in_call"):
        call = next(
            (
                r
                for r in records
                if r.get("kind") == "model_call" and r.get("seq") == record.get("call")
            ),
            None,
        )
        if call is not None:
            record["payload"], record["payload_in_call"] = call.get("reply"), False
    entry = Timeline().entry(record)
    text = TextRenderer().entry(entry).rstrip("\n") if entry is not None else "(nothing recorded)"
    if len(text) > DETAIL_CHARS:
        cut = len(text) - DETAIL_CHARS
        text = text[:DETAIL_CHARS] + f"\n… {cut:,} more characters (all of it is in the journal)"
    return text
