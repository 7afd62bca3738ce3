"""The review table: every row of an eval run, drawn a screenful at a time.

A ``ScrollView`` on Textual's line API: its virtual height is the number of rows the
filter keeps, and :meth:`ResultsTable.render_line` draws only the visible lines from the
index (a million rows cost nothing until they scroll into view; a ``DataTable`` would
build every row). Cells are plain segments, never markup: an id or a reason from a file
is data. The cursor is a row position within the filtered rows; Enter posts
:class:`ResultsTable.Opened`, a cursor move :class:`ResultsTable.Moved`.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.cells import cell_len, set_cell_size
from rich.segment import Segment
from rich.style import Style
from textual.binding import Binding, BindingType
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from gate_tui.tui.text import visible

STATUS_STYLE = {
    "PASS": Style(color="green", bold=True),
    "VALID": Style(color="green", bold=True),
    "NO PASS": Style(color="red", bold=True),
    "invalid": Style(color="yellow", bold=True),
}
VERDICT_STYLE = {
    "accepted": Style(color="green"),
    "rejected": Style(color="red"),
    "needs-fix": Style(color="yellow"),
}
GUESS_STYLE = Style(color="magenta", bold=True)
CURSOR = Style(reverse=True)
HEADER = ("line", "id", "status", "reason / first error", "repairs", "flags", "verdict")
WIDTHS = (8, 18, 8, 0, 9, 12, 10)  # 0: the rest
FLAG_STYLE = Style(color="magenta")


def flags_text(summary: dict[str, Any]) -> str:
    """What a reviewer hunts first, in a few letters: the claim overruled (which way), cut
    off, several states."""
    claimed, status = summary.get("claimed"), summary["status"]
    words = []
    if (claimed, status) == ("PASS", "NO PASS"):
        words.append("said PASS")
    elif (claimed, status) == ("NO PASS", "PASS"):
        words.append("said NO")
    if summary.get("cut_off"):
        words.append("cut")
    if summary.get("several_states"):
        words.append("states")
    return " ".join(words)


def row_cells(summary: dict[str, Any], verdict: str | None) -> list[tuple[str, Style | None]]:
    """The text and style of each cell of one row (see :data:`HEADER`)."""
    status = summary["status"]
    codes = summary["error_codes"] or []
    why = summary["reason"] or (codes[0] if codes else "")
    if summary.get("next_gate"):
        why += f" → {summary['next_gate']}"
    if len(codes) > 1:
        why += f" (+{len(codes) - 1} more)"
    repairs = summary["repairs"] or 0
    repaired = (f"{repairs} GUESS" if summary["guessed"] else str(repairs)) if repairs else ""
    line = summary["line"]
    return [
        ("" if line is None else str(line), Style(dim=True)),
        (summary["id"] or "", None),
        (status, STATUS_STYLE.get(status)),
        (why, None),
        (repaired, GUESS_STYLE if summary["guessed"] else None),
        (flags_text(summary), FLAG_STYLE),
        (verdict or "", VERDICT_STYLE.get((verdict or "").split(" ")[0])),
    ]


def _verdict_word(verdicts: Any, row: int, verdict: Any) -> str | None:
    """The reviewer's verdict; ``≠`` after it (or alone) when the reviewers' verdicts on
    the row differ (this reviewer's among them, when given)."""
    mine = None if verdict is None else verdict.verdict
    others = verdicts.shown_others(row) if hasattr(verdicts, "shown_others") else {}
    words = {other.verdict for other in others.values()} | ({mine} if mine else set())
    if len(words) > 1:
        return f"{mine or ''} ≠".strip()
    return mine


def fit(text: str, width: int) -> str:
    """One line of exactly ``width`` cells, control characters made visible."""
    text = visible(text, one_line=True)
    if cell_len(text) > width:
        return set_cell_size(text, max(width - 1, 0)) + "…"
    return set_cell_size(text, width)


def widths(total: int) -> list[int]:
    fixed = sum(WIDTHS) + len(WIDTHS) - 1
    return [width or max(total - fixed, 10) for width in WIDTHS]


def header_line(total: int) -> str:
    return " ".join(fit(name, width) for name, width in zip(HEADER, widths(total), strict=True))


class ResultsTable(ScrollView, can_focus=True):
    """The rows a filter keeps (``rows``: their positions in the results index)."""

    DEFAULT_CSS = """
    ResultsTable { height: 1fr; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up,k", "move(-1)", "Up", show=False),
        Binding("down,j", "move(1)", "Down", show=False),
        Binding("pageup", "page(-1)", "Page up", show=False),
        Binding("pagedown", "page(1)", "Page down", show=False),
        Binding("home", "jump(0)", "First", show=False),
        Binding("end", "jump(-1)", "Last", show=False),
        Binding("enter", "open", "Open", show=True),
    ]
    cursor = reactive(0, always_update=True)

    class Opened(Message):
        """Enter on a row: ``row`` is its position in the results index."""

        def __init__(self, row: int) -> None:
            super().__init__()
            self.row = row

    class Moved(Message):
        """The cursor is on another row (``row`` in the index, or None: no rows)."""

        def __init__(self, row: int | None) -> None:
            super().__init__()
            self.row = row

    def __init__(self, index: Any, verdicts: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.index = index
        self.verdicts = verdicts
        self.rows: Any = None
        self.count = 0
        self._page: dict[int, list[tuple[str, Style | None]]] = {}

    def show(self, rows: Any) -> None:
        """Show these rows (an Arrow array of index positions); the cursor goes to the top."""
        self.rows = rows
        self.count = len(rows)
        self._page.clear()
        self.virtual_size = Size(self.size.width, self.count)
        self.scroll_to(y=0, animate=False)
        self.cursor = 0
        self.refresh()

    def changed(self, row: int) -> None:
        """A row's verdict changed: draw it again."""
        self._page.clear()
        self.refresh()

    @property
    def current(self) -> int | None:
        """The index position of the row under the cursor (None: no rows)."""
        if not self.count:
            return None
        return int(self.rows[self.cursor].as_py())

    def watch_cursor(self, cursor: int) -> None:
        top = round(self.scroll_y)
        height = max(self.scrollable_content_region.height, 1)
        if cursor < top:
            self.scroll_to(y=cursor, animate=False)
        elif cursor >= top + height:
            self.scroll_to(y=cursor - height + 1, animate=False)
        self.refresh()
        self.post_message(self.Moved(self.current))

    def action_move(self, step: int) -> None:
        if self.count:
            self.cursor = min(max(self.cursor + step, 0), self.count - 1)

    def action_page(self, direction: int) -> None:
        self.action_move(direction * max(self.scrollable_content_region.height - 1, 1))

    def action_jump(self, where: int) -> None:
        if self.count:
            self.cursor = where % self.count

    def action_open(self) -> None:
        if self.current is not None:
            self.post_message(self.Opened(self.current))

    def on_click(self, event: Any) -> None:
        position = round(self.scroll_y) + event.y
        if 0 <= position < self.count:
            self.cursor = position

    def render_line(self, y: int) -> Strip:
        position = round(self.scroll_y) + y
        width = self.scrollable_content_region.width
        if position >= self.count:
            return Strip.blank(width)
        row = int(self.rows[position].as_py())
        cells = self._page.get(row)
        if cells is None:
            if len(self._page) > 512:
                self._page.clear()
            verdict = self.verdicts.get(row)
            cells = self._page[row] = row_cells(
                self.index.summary(row), _verdict_word(self.verdicts, row, verdict)
            )
        segments: list[Segment] = []
        for index, ((text, style), cell_width) in enumerate(zip(cells, widths(width), strict=True)):
            if index:
                segments.append(Segment(" "))
            segments.append(Segment(fit(text, cell_width), style))
        strip = Strip(segments).crop(0, width)
        if position == self.cursor:
            strip = strip.apply_style(CURSOR if self.has_focus else Style(bgcolor="grey23"))
        return strip.extend_cell_length(width)
