"""The review report: the sign-off record of a session, built from its journal records.

It works from the records (and, when it can be read, the config, for the outstanding
gates), so ``gate-tui report`` can tell the story of any session on disk. It says who
(the user, or the model) changed what and when; every answer in full, line breaks kept,
in the final state and in each transition; every outstanding or blocking gate; the
repairs applied, the model's claimed status against the system's decision, and every
rejected attempt with its errors and its payload.

The records become plain data first (:mod:`gate_tui.session.report_doc`: a top and one
:class:`Entry` per timeline record), then a format renders them: ``text`` (a terminal),
``markdown`` or ``html`` (one self-contained file). A new kind of record is one builder
in :data:`gate_tui.session.report_timeline.ENTRY_BUILDERS`. Everything taken from a payload
or a journal is shown, never acted on: each format escapes what it would act on, and the
whole output goes through :func:`gate_tui.safe_text.visible` as a last net.
"""

from __future__ import annotations

import contextlib
import os
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gate_tui.decision import answered
from gate_tui.safe_text import visible
from gate_tui.session.journal_stream import JournalStream
from gate_tui.session.provenance import record_provenance
from gate_tui.session.records import ACCEPT_KINDS, FORMAT, MOVE_KINDS, Record
from gate_tui.session.report_doc import Entry, Item, Renderer, Section, Top, as_text
from gate_tui.session.report_html import HtmlRenderer
from gate_tui.session.report_markdown import MarkdownRenderer
from gate_tui.session.report_text import TextRenderer
from gate_tui.session.report_timeline import Timeline, decision_text, when

if TYPE_CHECKING:
    from gate_tui.models import GateConfig

FORMATS: dict[str, Callable[[], Renderer]] = {
    "text": TextRenderer,
    "markdown": MarkdownRenderer,
    "html": HtmlRenderer,
}
BY_SUFFIX = {
    ".txt": "text",
    ".md": "markdown",
    ".markdown": "markdown",
    ".html": "html",
    ".htm": "html",
}


def format_for_path(path: Path | str, default: str = "markdown") -> str:
    """The format a file's extension names (``x.html`` -> html), else ``default``.

    One table for the CLI's ``-o`` and the editor's export, so both write what the name says."""
    return BY_SUFFIX.get(Path(path).suffix.lower(), default)


def render_report(
    header: Record | None,
    records: Sequence[Record],
    *,
    name: str = "",
    notices: Iterable[str] = (),
    state: dict[str, Any] | None = None,
    fmt: str = "markdown",
    config: GateConfig | None = None,
) -> str:
    """The whole report. ``state`` stands in for the final state when no record has one."""
    facts = ReportFacts.of(header, records)
    return "".join(
        report_chunks(
            facts, records, name=name, notices=notices, state=state, fmt=fmt, config=config
        )
    )


@dataclass
class ReportFacts:
    """What the report's top needs from all the records: one pass, nothing kept per record."""

    header: Record = field(default_factory=dict)
    moves: Counter[str] = field(default_factory=Counter)
    rejected: int = 0
    final: Record | None = None  # the last accepted/undo/redo/jump record
    said: dict[str, str] = field(default_factory=dict)
    """Per gate, who last wrote its answer and when (and, for a model, whose words it was)."""

    @classmethod
    def of(cls, header: Record | None, records: Iterable[Record]) -> ReportFacts:
        facts = cls(header=header or {})
        for record in records:
            facts.add(record)
        return facts

    def add(self, record: Record) -> None:
        kind = record.get("kind")
        if kind in ACCEPT_KINDS or kind in MOVE_KINDS:
            self.moves[str(kind)] += 1
            self.final = record
        if kind in ACCEPT_KINDS:
            self.said.update(provenance(record))
        elif kind == "rejected":
            self.rejected += 1


def report_chunks(
    facts: ReportFacts,
    records: Iterable[Record],
    *,
    name: str = "",
    notices: Iterable[str] = (),
    state: dict[str, Any] | None = None,
    fmt: str = "markdown",
    config: GateConfig | None = None,
) -> Iterator[str]:
    """The report as text pieces, in order: the top from ``facts``, then one piece per
    record of ``records`` (a second pass, so a long journal is never held whole)."""
    renderer = FORMATS[fmt]()
    final_state = facts.final.get("state") if facts.final else state
    yield visible(renderer.begin(build_top(facts, name, list(notices), final_state, config)))
    yield visible(renderer.timeline())
    told = 0
    timeline = Timeline()
    for record in records:
        try:
            entry = timeline.entry(record)
        except (TypeError, ValueError, KeyError, AttributeError, IndexError):
            entry = _unreadable(record)  # a newer or damaged record: said, never a crash
        if entry is not None:
            told += 1
            yield visible(renderer.entry(entry))
    if not told:
        yield visible(renderer.empty())
    yield visible(renderer.end())


def _unreadable(record: Record) -> Entry:
    kind = str(record.get("kind"))[:40]
    return Entry(
        f"A {kind} record this gate-tui cannot show (left out)",
        when(record.get("at")),
        style="event",
    )


def journal_report(
    journal: Path, name: str, fmt: str, config: GateConfig | None, notices: Iterable[str] = ()
) -> str | None:
    """The report of a journal on disk, read twice line by line (None: it cannot be read)."""
    first = JournalStream(journal)
    facts = ReportFacts()
    for record in first.records():
        facts.add(record)
    if first.error is not None or first.header is None:
        return None
    facts.header = first.header
    second = JournalStream(journal)  # the timeline: a second pass, nothing held
    told = [*journal_notes(journal, first.header), *notices]
    told += [notice for notice in first.notices if notice not in told]
    return "".join(
        report_chunks(facts, second.records(), name=name, notices=told, fmt=fmt, config=config)
    )


def journal_notes(journal: Path, header: Record | None) -> list[str]:
    """What the report must say about the journal itself before its story: that it is a
    symbolic link (its records may be another session's), or that a newer gate-tui wrote
    it (what this one can read is shown; records of kinds it does not know are left out)."""
    notes = []
    with contextlib.suppress(OSError, ValueError):
        if journal.is_symlink():
            target = os.readlink(journal)
            notes.append(
                f"the journal {journal.name} is a symbolic link to {target} "
                f"({journal.resolve()}): the records below are that file's, which may be "
                "another session's"
            )
    version = (header or {}).get("format", FORMAT)
    if type(version) is not int or version > FORMAT:
        shown = repr(version)[:40]
        notes.append(
            f"the journal was written in format {shown} by a newer gate-tui (this one reads "
            f"format {FORMAT}): what it could read is shown; records it does not know are "
            "left out"
        )
    return notes


# --- the top ------------------------------------------------------------------------------


def build_top(
    facts: ReportFacts, name: str, notices: list[str], state: Any, config: GateConfig | None
) -> Top:
    header = facts.header
    rejected = facts.rejected
    total = sum(facts.moves.values())
    final = decision_text(facts.final.get("decision")) if facts.final else "no transitions yet"
    fingerprint = header.get("fingerprint")
    overview = (
        ("Session", name or "(unnamed)"),
        (
            "Config",
            str(header.get("config_path") or "(none)")
            + (f" (fingerprint {fingerprint})" if fingerprint else ""),
        ),
        ("Started", when(header.get("started"))),
        (
            "Transitions",
            f"{total}{_count_kinds(facts.moves)}, "
            f"{rejected} rejected attempt{'s' * (rejected != 1)}",
        ),
        ("Final decision", final),
    )
    sections = []
    if notices:
        sections.append(Section("Notes", tuple(Item(text=f"⚠ {notice}") for notice in notices)))
    if isinstance(state, dict):
        sections.append(
            outstanding_section(state, facts.final.get("decision") if facts.final else None, config)
        )
        sections.append(final_state_section(state, config, facts.said))
    title = f"Review report: {header.get('config_title') or 'gate session'}"
    return Top(title, overview, tuple(sections))


def outstanding_section(state: dict[str, Any], decision: Any, config: GateConfig | None) -> Section:
    """Every required gate that is not answered or is blocked, and the optional ones left."""
    gates = state.get("gates") if isinstance(state.get("gates"), dict) else {}
    if config is None:
        open_keys = [key for key, value in gates.items() if not _has_answer(value)]
        items = [Item(str(key), "unanswered", code=True) for key in open_keys]
        intro = (
            "The config could not be read as it was, so which gates are required is not"
            " known; these have no answer."
        )
        if isinstance(decision, dict) and decision.get("next_gate"):
            intro += f" The system asked next for {decision['next_gate']}."
        return Section("Outstanding gates", tuple(items), intro)
    items = []
    for key in config.gate_order:
        gate = config.gates[key]
        value = gates.get(key) if isinstance(gates.get(key), dict) else {}
        raw, classified = value.get("raw"), value.get("classified")
        if not answered(gate, raw, classified):
            need = "required, not answered" if gate.required else "optional, not answered"
            items.append(
                Item(key, f"{need}: {gate.question.strip()}", code=True, strong=gate.required)
            )
        elif gate.required and classified in gate.blocking_categories:
            items.append(
                Item(
                    key,
                    f"BLOCKING: classified {classified}: {gate.question.strip()}",
                    code=True,
                    strong=True,
                )
            )
    intro = "" if items else "None: every gate is answered and none blocks."
    return Section("Outstanding gates", tuple(items), intro)


def provenance(record: Record) -> dict[str, str]:
    """Who wrote each answer an accepted record changed, and when (see
    :mod:`gate_tui.session.provenance`)."""
    return {key: said.describe(when(said.at)) for key, said in record_provenance(record).items()}


def final_state_section(
    state: dict[str, Any], config: GateConfig | None, said: dict[str, str] | None = None
) -> Section:
    items = [Item("Summary", as_text(state.get("summary")), quoted=True)]
    gates = state.get("gates")
    for key, value in (gates.items() if isinstance(gates, dict) else ()):
        value = value if isinstance(value, dict) else {}
        children = [Item("answer", as_text(value.get("raw")), quoted=True)]
        if said and key in said and value.get("raw") is not None:
            children.append(Item("said by", said[key]))
        categorical = config is not None and key in config.gates and config.gates[key].categorical
        if categorical or value.get("classified") is not None:
            children.append(Item("category", as_text(value.get("classified")), quoted=True))
        items.append(Item(str(key), code=True, children=tuple(children)))
    return Section("Final state", tuple(items))


def _has_answer(value: Any) -> bool:
    return isinstance(value, dict) and any(value.get(part) for part in ("raw", "classified"))


def _count_kinds(moves: Counter[str]) -> str:
    names = {
        "reply": ("reply", "replies"),
        "edit": ("edit", "edits"),
        "undo": ("undo", "undos"),
        "redo": ("redo", "redos"),
        "jump": ("jump", "jumps"),
    }
    parts = [f"{moves[kind]} {names[kind][moves[kind] != 1]}" for kind in names if moves.get(kind)]
    return f" ({', '.join(parts)})" if parts else ""
