"""A gate reply in the workbench: its preview and applying it, as pure functions of the
controller (no screen held; the gate editor's screen calls them as the workbench's host).

The controller (:mod:`gate_tui.tui.controller`) parses and records; these turn its
results into what the workbench shows: the preview (decision after, changes, errors, the
candidates, the answers a reply would clear) and what applying did.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.content import Content

from gate_tui.tui.candidates_view import candidate_results, candidate_rows, next_candidate
from gate_tui.tui.render import WARN_STYLE, overrule_line, verdict
from gate_tui.tui.reply_preview import preview
from gate_tui.tui.text import line
from gate_tui.tui.workbench.target import Applied, Previewed

if TYPE_CHECKING:
    from gate_tui.models import ParseResult
    from gate_tui.tui.controller import EditController
    from gate_tui.tui.keymap import KeyHints
    from gate_tui.views import ConfigView


def cleared_rows(paths: list[str]) -> list[Content]:
    """``⚠ This reply clears 1 answer you typed (2_use_case)``: loud, before the changes."""
    if not paths:
        return []
    count = len(paths)
    names = ", ".join(
        path.removeprefix("gates.").removesuffix(".raw").removesuffix(".classified")
        for path in paths
    )
    return [
        line(
            ("⚠ This reply clears ", WARN_STYLE),
            (f"{count} answer{'s' * (count != 1)} you typed", WARN_STYLE),
            (f" ({names})", "bold"),
        )
    ]


def gate_previewed(
    controller: EditController,
    keys: KeyHints,
    config: ConfigView,
    text: str,
    candidate: int | None,
    result: ParseResult | None,
) -> Previewed:
    """The workbench's preview of ``result`` (None: a blank pane, the hint)."""
    if result is None:
        return Previewed(text, candidate, None, None, False)
    notes = cleared_rows(controller.cleared_typed_answers(result)) if result.ok else []
    # What each shown candidate would decide: the parser with that pick, grounded as the
    # preview is (controller.preview), so the row says what applying it would give.
    judged = candidate_results(result, len(text), lambda index: controller.preview(text, index))
    picker = candidate_rows(result, keys["next_candidate"], judged)
    shown = preview(result, keys, config, picker, notes)
    return Previewed(
        text, candidate, result, shown, result.ok, controller.session.state, next_candidate(result)
    )


def apply_gate_reply(
    controller: EditController,
    keys: KeyHints,
    config: ConfigView,
    reply: tuple[str, int | None, Previewed | None, int | None],
) -> Applied:
    """Apply ``(text, candidate, previewed, call)``: the preview's result is used while the
    state it was read against is still the current one (one parse per text)."""
    text, candidate, previewed, call = reply
    parsed = (
        previewed.result
        if previewed is not None and previewed.basis is controller.session.state
        else None
    )
    outcome = controller.apply_reply(text, candidate, call, parsed)
    if outcome.kind == "rejected":
        assert outcome.result is not None
        shown = gate_previewed(controller, keys, config, text, candidate, outcome.result)
        return Applied("rejected", outcome.result, shown, problems=len(outcome.result.errors))
    return Applied(outcome.kind, outcome.result, error=outcome.error or "")


def applied_message(result: ParseResult) -> str:
    """The toast once a reply is applied: short, the decision panel shows the reason and
    the overrule in full."""
    assert result.decision is not None
    overruled = overrule_line(result.claimed_status, result.decision) is not None
    return f"Decision: {verdict(result.decision)}" + (
        " (the model's claim was overruled)" if overruled else ""
    )
