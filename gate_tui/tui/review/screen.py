"""The review screen: counts per status, filters, the table of every reply, verdict keys.

Filters (status, error code, next gate, guessed repairs, free text) go to
:func:`gate_tui.results.filtering.matching_rows` (columnar) and the table shows the rows
it keeps. Verdict keys act on the row under the cursor and are on disk (journaled) before
the row shows them: ``a`` accepted, ``r`` rejected, ``n`` needs-fix, ``x`` clears, ``m``
writes a note for the row's verdict. Enter opens the row's result in the preview
(:mod:`gate_tui.tui.review.detail`). Every text from the file is data, never markup.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.command import Provider
from textual.containers import Horizontal
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Checkbox, Footer, Input, Select, Static

from gate_tui.results.filtering import ResultFilter, choices, matching_rows
from gate_tui.results.index import STATUSES, ResultsIndex
from gate_tui.results.verdicts import CLEARED, VERDICTS, VerdictStore
from gate_tui.tui.review.keys import FOOTER_ACTIONS
from gate_tui.tui.review.table import ResultsTable, header_line
from gate_tui.tui.text import line, visible


def review_palette() -> type[Provider]:
    """The palette's provider, imported when the palette first opens."""
    from gate_tui.tui.review.commands import ReviewCommands

    return ReviewCommands


STATUS_STYLE = {"PASS": "bold green", "VALID": "bold green", "NO PASS": "bold red", "invalid": "bold yellow"}
MAX_CHOICES = 200


class ReviewScreen(Screen[None]):
    """One eval run's results, filtered, with the reviewer's verdicts."""

    DEFAULT_CSS = """
    ReviewScreen #counts { height: 1; padding: 0 1; background: $panel; }
    ReviewScreen #filters { height: 3; }
    ReviewScreen #filters Select { width: 22; }
    ReviewScreen #filter-text { width: 1fr; }
    ReviewScreen #header { height: 1; padding: 0 0 0 0; text-style: bold; color: $text-muted; }
    ReviewScreen #note { display: none; }
    ReviewScreen #note.-open { display: block; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(keys, action, footer or "", show=footer is not None) for keys, action, footer, _help in FOOTER_ACTIONS
    ]
    COMMANDS: ClassVar[set[Callable[[], type[Provider]]]] = {review_palette}  # type: ignore[assignment]

    def __init__(self, index: ResultsIndex, verdicts: VerdictStore, config: Any = None, contract: Any = None) -> None:
        super().__init__()
        self.contract = contract
        self.index = index
        self.verdicts = verdicts
        self.config = config
        self.totals = index.counts()
        self.shown = index.rows
        self.wanted = ResultFilter()
        self.noting: int | None = None  # the row whose note is being written

    def compose(self) -> ComposeResult:
        table = self.index.table
        # Codes and gate keys come from the file: Content, never markup.
        statuses = [(Content(f"{status} ({self.totals[status]:,})"), status) for status in STATUSES if self.totals[status]]
        codes = [(Content(visible(code, one_line=True)), code) for code in choices(table, "error_codes")[:MAX_CHOICES]]
        gates = [(Content(visible(self.gate_name(gate), one_line=True)), gate) for gate in choices(table, "next_gate")[:MAX_CHOICES]]
        yield Static(id="counts", markup=False)
        with Horizontal(id="filters"):
            yield Select(statuses, prompt="any status", id="filter-status")
            yield Select(codes, prompt="any error", id="filter-code")
            yield Select(gates, prompt="any next gate", id="filter-gate")
            grounding = [(Content(kind), kind) for kind in choices(table, "grounding")]
            if grounding:  # only results checked against a conversation have this column filled
                yield Select(grounding, prompt="any grounding", id="filter-grounding")
            yield Checkbox("guessed repairs", id="filter-guessed")
            yield Input(placeholder="search id, reason, gate, error code  (/)", id="filter-text")
        yield Static(id="header", markup=False)
        yield ResultsTable(self.index, self.verdicts, id="results")
        yield Input(placeholder="note for this verdict (Enter saves, Escape cancels)", id="note", max_length=4000)
        yield Footer()

    def gate_name(self, key: str) -> str:
        """A gate's key, with its label when the config names it."""
        gate = getattr(self.config, "gates", {}).get(key) if self.config is not None else None
        label = getattr(gate, "label", None)
        return f"{key} · {label}" if label else key

    def on_mount(self) -> None:
        self.table.show(matching_rows(self.index.table, self.wanted))
        self.table.focus()
        self.show_counts()

    def on_resize(self) -> None:
        self.query_one("#header", Static).update(header_line(max(self.size.width - 2, 40)))

    @property
    def table(self) -> ResultsTable:
        return self.query_one(ResultsTable)

    # --- counts and filters -----------------------------------------------------------

    def show_counts(self) -> None:
        parts: list[Any] = []
        for status in STATUSES:
            if self.totals[status]:
                parts += [(status, STATUS_STYLE[status]), f" {self.totals[status]:,}   "]
        parts.append(f"showing {self.shown:,} of {self.index.rows:,}")
        given = self.verdicts.counts()
        if any(given.values()):
            parts.append("   verdicts: " + ", ".join(f"{name} {count:,}" for name, count in given.items() if count))
        self.query_one("#counts", Static).update(line(*parts))

    def on_select_changed(self, event: Select.Changed) -> None:
        self.refilter()

    def on_checkbox_changed(self, event: Checkbox.Changed) -> None:
        self.refilter()

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id == "filter-text":
            self.refilter()

    def current_filter(self) -> ResultFilter:
        def picked(widget_id: str) -> str | None:
            value = self.query_one(widget_id, Select).value
            return value if isinstance(value, str) else None

        return ResultFilter(
            status=picked("#filter-status"),
            code=picked("#filter-code"),
            gate=picked("#filter-gate"),
            guessed=self.query_one("#filter-guessed", Checkbox).value,
            text=self.query_one("#filter-text", Input).value.strip(),
            grounding=picked("#filter-grounding") if self.query("#filter-grounding") else None,
        )

    def refilter(self) -> None:
        wanted = self.current_filter()
        if wanted == self.wanted:
            return
        self.wanted = wanted
        rows = matching_rows(self.index.table, wanted)
        self.shown = len(rows)
        self.table.show(rows)
        self.show_counts()

    def action_search(self) -> None:
        self.query_one("#filter-text", Input).focus()

    def action_back_to_table(self) -> None:
        self.query_one("#note", Input).remove_class("-open")
        self.table.focus()

    # --- verdicts -----------------------------------------------------------------------

    def give(self, row: int, verdict: str, note: str = "") -> None:
        ident = self.index.summary(row)["id"]
        problem = self.verdicts.give(row, ident, verdict, note)
        if problem is not None:
            self.notify(problem, title="verdict not saved", severity="error", markup=False)
            return
        self.table.changed(row)
        self.show_counts()

    def action_verdict(self, verdict: str) -> None:
        row = self.table.current
        if row is None:
            return
        self.give(row, verdict)
        if verdict != CLEARED:
            self.table.action_move(1)

    def action_note(self) -> None:
        row = self.table.current
        if row is None:
            return
        given = self.verdicts.get(row)
        if given is None:
            self.notify(f"give a verdict first ({', '.join(VERDICTS)}: a, r, n)", markup=False)
            return
        note = self.query_one("#note", Input)
        note.value = given.note
        note.add_class("-open")
        note.focus()
        self.noting = row

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "note":
            row = self.noting
            given = None if row is None else self.verdicts.get(row)
            if row is not None and given is not None:
                self.give(row, given.verdict, event.value)
            self.action_back_to_table()
        elif event.input.id == "filter-text":
            self.table.focus()

    # --- opening a row --------------------------------------------------------------------

    def on_results_table_opened(self, event: ResultsTable.Opened) -> None:
        from gate_tui.tui.review.detail import DetailScreen, recheck_with

        def verdict_given(verdict: str | None) -> None:
            if verdict is not None:
                self.give(event.row, verdict)

        detail = DetailScreen(self.index, event.row, self.verdicts.get(event.row), recheck_with(self.config, self.contract))
        self.app.push_screen(detail, verdict_given)

