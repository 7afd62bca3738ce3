"""The review screen: counts per status, filters, the table of every reply, verdict keys.

Filters (status, error code, next gate, guessed repairs, a flag such as the model's claim
overruled, free text) go to
:func:`gate_tui.results.filtering.matching_rows` (columnar) and the table shows the rows
it keeps. Verdict keys act on the row under the cursor and are on disk (journaled) before
the row shows them: ``a`` accepted, ``r`` rejected, ``n`` needs-fix, ``x`` clears, ``m``
writes a note for the row's verdict. Enter opens the row's result in the preview
(:mod:`gate_tui.tui.review.detail`). Every text from the file is data, never markup.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.command import Provider
from textual.containers import Horizontal
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Checkbox, Footer, Input, Select, Static

from gate_tui.results.filtering import FLAGS, ResultFilter, choices, matching_rows
from gate_tui.results.index import STATUSES, ResultsIndex
from gate_tui.results.verdicts import CLEARED, VERDICTS
from gate_tui.tui.review.keys import KEYS
from gate_tui.tui.review.summary_panel import SummaryPanel
from gate_tui.tui.review.table import ResultsTable, header_line
from gate_tui.tui.text import line, visible


def review_palette() -> type[Provider]:
    """The palette's provider, imported when the palette first opens."""
    from gate_tui.tui.review.commands import ReviewCommands

    return ReviewCommands


STATUS_STYLE = {
    "PASS": "bold green",
    "VALID": "bold green",
    "NO PASS": "bold red",
    "invalid": "bold yellow",
}
MAX_CHOICES = 200


class ReviewScreen(Screen[None]):
    """One eval run's results, filtered, with the reviewer's verdicts."""

    DEFAULT_CSS = """
    ReviewScreen #counts { height: 1; padding: 0 1; background: $panel; }
    ReviewScreen #filters { height: 3; }
    ReviewScreen #filters Select { width: 20; }
    ReviewScreen #filters Select > SelectOverlay { width: 30; }
    ReviewScreen #filter-text { width: 1fr; }
    ReviewScreen #header { height: 1; padding: 0 0 0 0; text-style: bold; color: $text-muted; }
    ReviewScreen #team { height: 1; padding: 0 1; color: $text-muted; }
    ReviewScreen #others { height: 1; padding: 0 1; display: none; }
    ReviewScreen #others.-team { display: block; }
    ReviewScreen #filter-guessed > .toggle--button { color: $panel; background: $panel-darken-1; }
    ReviewScreen #filter-guessed.-on > .toggle--button {
        color: $text; background: $success; text-style: bold;
    }
    ReviewScreen #filter-guessed.-on { text-style: bold; }
    ReviewScreen #note { display: none; }
    ReviewScreen #note.-open { display: block; }
    """
    BINDINGS: ClassVar[list[BindingType]] = KEYS.bindings()
    COMMANDS: ClassVar[set[Callable[[], type[Provider]]]] = {review_palette}  # type: ignore[assignment]

    def __init__(
        self, index: ResultsIndex, verdicts: Any, config: Any = None, contract: Any = None,
        assign: Any = None, by: Any = None,
    ) -> None:
        super().__init__()
        self.contract = contract
        self.index = index
        self.verdicts = verdicts
        self.config = config
        self.totals = index.counts()
        self.shown = index.rows
        self.wanted = ResultFilter()
        self.noting: int | None = None  # the row whose note is being written
        self.assign = assign
        self.by = by  # (a column's name, its values): the summary's groups
        self.within = None
        if assign is not None:
            from gate_tui.results.team import assigned_mask

            self.within = assigned_mask(index.rows, *assign)

    def compose(self) -> ComposeResult:
        table = self.index.table
        # Codes and gate keys come from the file: Content, never markup.
        statuses = [
            (Content(f"{status} ({self.totals[status]:,})"), status)
            for status in STATUSES
            if self.totals[status]
        ]
        codes = [
            (Content(visible(code, one_line=True)), code)
            for code in choices(table, "error_codes")[:MAX_CHOICES]
        ]
        gates = [
            (Content(visible(self.gate_name(gate), one_line=True)), gate)
            for gate in choices(table, "next_gate")[:MAX_CHOICES]
        ]
        yield Static(id="counts", markup=False)
        yield Static(id="team", markup=False)
        yield SummaryPanel(id="summary")
        flags = [
            (Content(words), flag)
            for flag, words in FLAGS.items()
            if flag != "disagreements" or self.team_view
        ]
        with Horizontal(id="filters"):
            yield Select(statuses, prompt="any status", id="filter-status")
            yield Select(codes, prompt="any error", id="filter-code")
            yield Select(gates, prompt="any gate", id="filter-gate")
            yield Select(flags, prompt="any flag", id="filter-flag")
            grounding = [(Content(kind), kind) for kind in choices(table, "grounding")]
            if grounding:  # only results checked against a conversation have this column filled
                yield Select(grounding, prompt="any grounding", id="filter-grounding")
            yield Checkbox("guessed", id="filter-guessed")
            yield Input(placeholder="search id, reason, gate, error code  (/)", id="filter-text")
        yield Static(id="header", markup=False)
        yield ResultsTable(self.index, self.verdicts, id="results")
        yield Static(id="others", markup=False, classes="-team" if self.team_view else "")
        yield Input(
            placeholder="note for this verdict (Enter saves, Escape cancels)",
            id="note",
            max_length=4000,
        )
        yield Footer()

    def gate_name(self, key: str) -> str:
        """A gate's key, with its label when the config names it."""
        gate = getattr(self.config, "gates", {}).get(key) if self.config is not None else None
        label = getattr(gate, "label", None)
        return f"{key} · {label}" if label else key

    def on_mount(self) -> None:
        rows = matching_rows(self.index.table, self.wanted, self.within)
        self.shown = len(rows)
        self.table.show(rows)
        self.table.focus()
        self.show_counts()
        self.show_team()

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
        incomplete = self.index.incomplete()
        if incomplete:  # a run that stopped part-way never looks finished
            parts += ["   ", (incomplete, "bold red")]
        given = self.verdicts.counts()
        if any(given.values()):
            parts.append(
                "   verdicts: "
                + ", ".join(f"{name} {count:,}" for name, count in given.items() if count)
            )
        self.query_one("#counts", Static).update(line(*parts))

    @property
    def team_view(self) -> bool:
        """Whether the verdicts are a team's (others' verdicts can be shown)."""
        return hasattr(self.verdicts, "shown_others") and not getattr(self.verdicts, "blind", True)

    def show_team(self) -> None:
        """The header's team line: who reviews, the others, their agreement."""
        me = getattr(self.verdicts, "me", None)
        if me is None:
            return
        from gate_tui.results.stats_render import agreement_line

        parts = [
            f"reviewer {me}"
            + (" (adjudicator)" if getattr(self.verdicts, "adjudicator", False) else "")
        ]
        if self.assign is not None:
            parts.append(f"assigned share {self.assign[0]} of {self.assign[1]}")
        if getattr(self.verdicts, "blind", False):
            parts.append("blind: others' verdicts hidden")
        else:
            others = sorted(getattr(self.verdicts, "others", {}))
            if others:
                parts.append("others: " + ", ".join(others))
            found = self.verdicts.agreement()
            if found:
                parts.append(agreement_line(found, short=True))
        self.query_one("#team", Static).update(visible("  ·  ".join(parts), one_line=True))

    def on_results_table_moved(self, event: ResultsTable.Moved) -> None:
        """The other reviewers' verdicts and notes on the row under the cursor (team view)."""
        if not self.team_view or event.row is None:
            return
        said = self.verdicts.shown_others(event.row)
        words = [
            f"{name}: {given.verdict}" + (f" ({given.note})" if given.note else "")
            for name, given in sorted(said.items())
        ]
        text = "others on this row: " + ("; ".join(words) if words else "none yet")
        self.query_one("#others", Static).update(visible(text, one_line=True))

    def on_select_changed(self, event: Select.Changed) -> None:
        self.refilter()

    def on_checkbox_changed(self, event: Checkbox.Changed) -> None:
        self.refilter()

    @on(Input.Changed, "#filter-text")
    def _search_changed(self) -> None:
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
            flag=picked("#filter-flag"),
            text=self.query_one("#filter-text", Input).value.strip(),
            grounding=picked("#filter-grounding") if self.query("#filter-grounding") else None,
        )

    def refilter(self) -> None:
        wanted = self.current_filter()
        if wanted == self.wanted:
            return
        self.wanted = wanted
        within = self.within
        if wanted.flag == "disagreements":
            import pyarrow as pa
            import pyarrow.compute as pc

            rows_apart = pa.array(self.verdicts.disagreements(), pa.int64())
            mask = pc.is_in(pa.array(range(self.index.rows), pa.int64()), value_set=rows_apart)
            within = mask if within is None else pc.and_(within, mask)
        rows = matching_rows(self.index.table, wanted, within)
        self.shown = len(rows)
        self.table.show(rows)
        self.show_counts()

    def action_search(self) -> None:
        self.query_one("#filter-text", Input).focus()

    def action_pick(self, selector: str) -> None:
        """Focus a filter and open its list (``s`` status, ``f`` flag)."""
        select = self.query_one(selector, Select)
        select.focus()
        select.expanded = True

    def action_clear_filters(self) -> None:
        for selector in ("#filter-status", "#filter-code", "#filter-gate", "#filter-flag"):
            self.query_one(selector, Select).clear()
        self.query_one("#filter-guessed", Checkbox).value = False
        self.query_one("#filter-text", Input).value = ""
        self.refilter()
        self.table.focus()

    def action_help(self) -> None:
        from gate_tui.tui.review.help import ReviewHelp

        self.app.push_screen(ReviewHelp())

    def action_toggle_panel(self) -> None:
        panel = self.query_one(SummaryPanel)
        if not panel.has_class("-open"):
            from gate_tui.results.stats import table_stats

            found = self.verdicts.agreement() if self.team_view else None
            by, values = self.by or ("", None)
            overall, groups = table_stats(self.index.table, values)
            panel.show_stats(overall, found, groups, by)
        panel.toggle_class("-open")

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
        self.show_team()

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

    @on(Input.Submitted, "#note")
    def _note_given(self, event: Input.Submitted) -> None:
        row = self.noting
        given = None if row is None else self.verdicts.get(row)
        if row is not None and given is not None:
            self.give(row, given.verdict, event.value)
        self.action_back_to_table()

    @on(Input.Submitted, "#filter-text")
    def _search_submitted(self) -> None:
        self.table.focus()

    # --- opening a row --------------------------------------------------------------------

    def on_results_table_opened(self, event: ResultsTable.Opened) -> None:
        from gate_tui.tui.review.detail import DetailScreen, recheck_with

        def verdict_given(verdict: str | None) -> None:
            if verdict is not None:
                self.give(event.row, verdict)

        detail = DetailScreen(
            self.index,
            event.row,
            self.verdicts.get(event.row),
            recheck_with(self.config, self.contract),
        )
        self.app.push_screen(detail, verdict_given)

