"""One reply of an eval run, opened from the review table: the editor's preview of its
result (the reply pane's: decision, errors with their positions, repairs with GUESS
marked, what it would change) and the verdict keys.

The result is read from the results file only now (a row group of Parquet, one line of
JSON Lines). A gate result is shown by :func:`gate_tui.tui.render.preview`, a contract
result by the contract pane's preview; a result that does not read back says so.
"""

from __future__ import annotations

import json
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Footer, Static

from gate_tui.results.index import ResultsIndex
from gate_tui.results.verdicts import Verdict
from gate_tui.tui.render import DIM
from gate_tui.tui.text import line, lines, plain


def result_preview(text: str | None) -> Content:
    """The preview of a result's JSON text (gate or contract), or why there is none."""
    if text is None:
        return plain("This row's result could not be read from the results file.", "bold red")
    try:
        data = json.loads(text)
        if isinstance(data, dict) and "canonical_state" in data:
            from gate_tui.models import ParseResult
            from gate_tui.tui.render import preview

            return preview(ParseResult.model_validate(data), advice=False)
        from gate_tui.contracts.results import ContractResult
        from gate_tui.tui.contract.views import preview as contract_preview

        return contract_preview(ContractResult.model_validate(data))
    except (ValueError, TypeError, RecursionError) as exc:
        return lines([plain("This row's result is not one gate-tui wrote:", "bold red"), plain(str(exc)[:500])])


class DetailScreen(Screen[str | None]):
    """One row's preview; a verdict key gives the verdict and goes back to the table."""

    DEFAULT_CSS = """
    DetailScreen #detail-title { height: auto; padding: 0 1; background: $panel; }
    DetailScreen #preview-scroll { height: 1fr; padding: 0 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "dismiss(None)", "Back"),
        Binding("a", "dismiss('accepted')", "Accept"),
        Binding("r", "dismiss('rejected')", "Reject"),
        Binding("n", "dismiss('needs-fix')", "Needs fix"),
    ]

    def __init__(self, index: ResultsIndex, row: int, verdict: Verdict | None) -> None:
        super().__init__()
        self.index = index
        self.row = row
        self.verdict = verdict

    def compose(self) -> ComposeResult:
        summary: dict[str, Any] = self.index.summary(self.row)
        where = f"line {summary['line']}" if summary["line"] is not None else f"row {self.row + 1}"
        title = [("id ", DIM), (summary["id"] or "(none)", "bold"), (f"  ·  {where}  ·  ", DIM), summary["status"]]
        if self.verdict is not None:
            title += [("  ·  verdict: ", DIM), self.verdict.verdict]
            if self.verdict.note:
                title += [(" — ", DIM), self.verdict.note]
        yield Static(line(*title), id="detail-title")
        with VerticalScroll(id="preview-scroll"):
            yield Static(result_preview(self.index.result_text(self.row)), id="preview")
        yield Footer()
