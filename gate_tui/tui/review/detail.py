"""One reply of an eval run, opened from the review table, in the editor's reply pane:
the reply (when the results carry it) above the pane's preview of its result (decision,
errors with their positions, repairs with GUESS marked, what it would change).

The result is read from the results file only now (a row group of Parquet, one line of
JSON Lines). Unchanged, the pane shows the stored result; with ``--config`` or
``--contract`` the reply can be edited and the preview re-checks it as the editor's does
(nothing is written: the results file is the run's record). A result that does not read
back says so. Verdict keys work here too when the reply text is not focused.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Footer, Static

from gate_tui.results.index import ResultsIndex
from gate_tui.results.verdicts import Verdict
from gate_tui.tui.render import DIM
from gate_tui.tui.text import line, lines, plain
from gate_tui.tui.widgets.reply_pane import ReplyPane
from gate_tui.tui.workbench.target import Applied, Previewed
from gate_tui.tui.workbench.widget import Workbench

Recheck = Callable[[str], "tuple[Content, bool]"]
"""An edited reply → its preview and whether it is ok (the run's config or contract)."""


def stored_preview(text: str | None) -> tuple[Content, bool | None]:
    """The preview of a stored result's JSON text (gate or contract), or why there is none."""
    if text is None:
        return plain(
            "This row's result could not be read from the results file.", "bold red"
        ), False
    try:
        data = json.loads(text)
        if isinstance(data, dict) and "canonical_state" in data:
            from gate_tui.models import ParseResult
            from gate_tui.tui.reply_preview import preview

            result = ParseResult.model_validate(data)
            return preview(result, advice=False), result.ok
        from gate_tui.contracts.results import ContractResult
        from gate_tui.tui.contract.views import preview as contract_preview

        checked = ContractResult.model_validate(data)
        return contract_preview(checked, advice=False), checked.ok
    except (ValueError, TypeError, RecursionError) as exc:
        return lines(
            [
                plain("This row's result is not one gate-tui wrote:", "bold red"),
                plain(str(exc)[:500]),
            ]
        ), False


def recheck_with(config: Any = None, contract: Any = None) -> Recheck | None:
    """How an edited reply is checked again: with the run's gate config or contract."""
    if config is not None:
        from gate_tui.parsing.pipeline import parse
        from gate_tui.tui.reply_preview import preview

        def gate(text: str) -> tuple[Content, bool]:
            result = parse(text, config)
            return preview(result, advice=False), result.ok

        return gate
    if contract is not None:
        from gate_tui.contracts.checking import check_contract
        from gate_tui.tui.contract.views import preview as contract_preview

        def against_contract(text: str) -> tuple[Content, bool]:
            result = check_contract(text, contract)
            return contract_preview(result, advice=False), result.ok

        return against_contract
    return None


class DetailScreen(Screen[str | None]):
    """One row in the reply pane; a verdict key gives the verdict and goes back to the table."""

    CSS_PATH = "detail.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "dismiss(None)", "Back"),
        Binding("a", "dismiss('accepted')", "Accept"),
        Binding("r", "dismiss('rejected')", "Reject"),
        Binding("n", "dismiss('needs-fix')", "Needs fix"),
    ]

    def __init__(
        self, index: ResultsIndex, row: int, verdict: Verdict | None, recheck: Recheck | None = None
    ) -> None:
        super().__init__()
        self.index = index
        self.row = row
        self.verdict = verdict
        self.recheck = recheck
        self.reply = index.reply_text(row)
        self.stored = stored_preview(index.result_text(row))

    def compose(self) -> ComposeResult:
        summary: dict[str, Any] = self.index.summary(self.row)
        where = f"line {summary['line']}" if summary["line"] is not None else f"row {self.row + 1}"
        title = [
            ("id ", DIM),
            (summary["id"] or "(none)", "bold"),
            (f"  ·  {where}  ·  ", DIM),
            summary["status"],
        ]
        if self.verdict is not None:
            title += [("  ·  verdict: ", DIM), self.verdict.verdict]
            if self.verdict.note:
                title += [(" — ", DIM), self.verdict.note]
        yield Static(line(*title), id="detail-title")
        yield Workbench(self, delay=0.15)
        yield Footer()

    # --- the reply workbench's host: a preview, nothing applied, no model ---------------

    def preview_reply(self, text: str, candidate: int | None, parsed: Any = None) -> Previewed:
        """The stored result, or an edited reply checked again (the run's config or contract)."""
        if self.recheck is None or text == (self.reply or ""):
            return Previewed(text, candidate, None, *self.stored)
        return Previewed(text, candidate, None, *self.recheck(text))

    def apply_reply(
        self, text: str, candidate: int | None, previewed: Previewed | None, call: int | None
    ) -> Applied:
        return Applied("refused")  # the results file is the run's record: nothing is applied here

    def ask_target(self) -> None:
        return None

    def key_hint(self, action_id: str) -> str:
        return action_id

    def commit_pending(self) -> None:
        """Nothing is edited here but the reply."""

    @on(ReplyPane.Ready)
    def _pane_ready(self, event: ReplyPane.Ready) -> None:
        pane = event.pane
        area = pane.text_area
        area.read_only = self.recheck is None
        if self.reply is None:
            pane.border_title = (
                "Reply · not in this results file (Parquet results of check --input carry it)"
            )
        else:
            area.load_text(self.reply)
            pane.border_title = (
                "Reply · edit it to check it again · Esc back"
                if self.recheck
                else "Reply · Esc back"
            )
        pane.refresh_preview()
        self.set_focus(None)  # the verdict keys work until the reply is clicked
