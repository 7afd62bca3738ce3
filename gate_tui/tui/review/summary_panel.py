"""The run's summary as a panel of the review screen (``p``): what ``gate-tui stats``
says, with small bars drawn in the terminal — rows per status, NO PASS per gate, the
false PASS claims per gate, the rates — and the reviewers' agreement."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.widgets import Static

from gate_tui.results.stats import GroupStats
from gate_tui.results.stats_render import RATE_WORDS, RATES, agreement_line
from gate_tui.tui.text import visible

BAR = 24
COLOURS = {"PASS": "green", "NO PASS": "red", "invalid": "yellow", "VALID": "green"}


def bar(count: int, top: int, width: int = BAR) -> str:
    """A bar of block characters, eighths included, for ``count`` of ``top``."""
    if top <= 0 or count <= 0:
        return ""
    eighths = max(1, round(8 * width * count / top))
    return "█" * (eighths // 8) + ("", "▏", "▎", "▍", "▌", "▋", "▊", "▉")[eighths % 8]


def summary_text(
    stats: GroupStats,
    agreement: dict[str, Any] | None,
    groups: dict[str, GroupStats] | None = None,
    by: str = "",
) -> Text:
    """The panel's text (names from the results are data: made visible, never markup);
    with ``groups``, each group's share of NO PASS and of false PASS claims too."""
    out = Text()
    rows = stats.rows or 1

    def section(title: str, items: list[tuple[str, int]], colour: str | None = None) -> None:
        if not items:
            return
        out.append(f"{title}\n", style="bold")
        top = max(count for _name, count in items)
        for name, count in items[:8]:
            shown = visible(name, one_line=True)[:22]
            out.append(f"  {shown:<22} ")
            out.append(f"{bar(count, top):<{BAR + 1}}", style=colour or COLOURS.get(name, "cyan"))
            out.append(f" {count:,} ({100 * count / rows:.1f}%)\n")

    section(
        "status",
        [
            (name, stats.status[name])
            for name in ("PASS", "NO PASS", "VALID", "invalid")
            if stats.status[name]
        ],
    )
    section("NO PASS by gate", stats.no_pass_gates.most_common(), "red")
    section(
        "claimed PASS, system NO PASS, by gate", stats.false_pass_gates.most_common(), "magenta"
    )
    for title, count_of in (
        ("NO PASS", lambda group: group.status["NO PASS"]),
        ("claimed PASS, system NO PASS", lambda group: group.claims[("PASS", "NO PASS")]),
    ):
        if groups:
            out.append(f"{title} by {visible(by, one_line=True)[:40]}\n", style="bold")
            for name, group in list(groups.items())[:12]:
                count, whole = count_of(group), group.rows or 1
                out.append(f"  {visible(name, one_line=True)[:22]:<22} ")
                out.append(f"{bar(count, whole):<{BAR + 1}}", style="red")
                out.append(f" {count:,} of {group.rows:,} ({100 * count / whole:.1f}%)\n")
    rates = [
        (RATE_WORDS[name], stats.status["invalid"] if name == "invalid" else stats.flags[name])
        for name in RATES
    ]
    section("rates", [(name, count) for name, count in rates if count], "yellow")
    if agreement:
        out.append(agreement_line(agreement) + "\n", style="bold")
    return out


class SummaryPanel(Static):
    """The summary, shown or hidden by the screen."""

    DEFAULT_CSS = """
    SummaryPanel {
        display: none; height: auto; max-height: 50%;
        border: round $accent; padding: 0 1; overflow-y: auto;
    }
    SummaryPanel.-open { display: block; }
    """

    def show_stats(
        self,
        stats: GroupStats,
        agreement: dict[str, Any] | None,
        groups: dict[str, GroupStats] | None = None,
        by: str = "",
    ) -> None:
        self.update(summary_text(stats, agreement, groups, by))
