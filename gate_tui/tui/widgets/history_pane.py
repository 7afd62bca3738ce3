"""The history pane: the last transition's diff (before → after) and the session timeline.

The timeline is a ``DataTable`` whose cells are ``Content`` objects (string cells
would be parsed as markup). Rows are appended as transitions arrive, never rebuilt
unless the session itself changed.
"""

from __future__ import annotations

from collections.abc import Sequence

from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import DataTable, Static

from gate_tui.session.history import Transition
from gate_tui.tui.keymap import hints_of
from gate_tui.tui.render import CHANGED_CELLS, diff_view, timeline_cells
from gate_tui.tui.widgets.history_messages import HistoryReady, TimelineRowChosen

COLUMNS: tuple[tuple[str, int], ...] = (
    ("#", 3),
    ("decision", 8),
    ("time", 8),
    ("actor", 9),
    ("kind", 5),
    ("fields changed", CHANGED_CELLS),
)
"""Fixed widths (they fit the 68 cells of the wide layout): Textual 8.2.8 keeps a row
rendered before its auto-sized column widths were measured cropped at the old widths.
The decision comes right after the number, so a narrow pane cuts "fields changed",
never the decision."""


class HistoryPane(Vertical):
    """Last change on top, the scrollable timeline of every transition below."""

    # The editor's rules for this pane, unscoped as they were in styles.tcss; kept here
    # so that Textual parses them when the pane first mounts, after the first frame.
    SCOPED_CSS = False
    DEFAULT_CSS = """
        #diff-scroll {
            height: auto;
            max-height: 6;
            /* the scrollbar's room is kept even when it is hidden: rows are fitted to a
               width that does not shrink when a long change brings the scrollbar in */
            scrollbar-gutter: stable;
        }

        /* a short pane (60x20) keeps rows for the timeline too */
        Screen.-narrow #diff-scroll {
            max-height: 45%;
        }

        #diff {
            text-wrap: nowrap;
            text-overflow: ellipsis;
        }

        /* no horizontal scrollbar: it would sit over the newest row; "fields changed"
           (the last column) is cut at the pane's edge instead */
        #timeline {
            height: 1fr;
            overflow-x: hidden;
        }
    """


    def compose(self) -> ComposeResult:
        with VerticalScroll(id="diff-scroll"):
            yield Static(diff_view(None, hints_of(self.app)), id="diff")
        yield Static(Content.styled("Timeline", "bold $text-muted"), classes="pane-title")
        yield DataTable(id="timeline", cursor_type="row", zebra_stripes=True)

    ready = False
    """True once the table has its columns (the app shows nothing in it before)."""

    def on_mount(self) -> None:
        for label, width in COLUMNS:
            self.table.add_column(label, width=width)
        self.border_title = f"Last change · {hints_of(self.app)['history']}"
        self.ready = True
        self.post_message(HistoryReady(self))

    _last: Transition | None = None

    def _show_diff(self) -> None:
        """The last change, its rows fitted to the pane's width (values cut in the middle)."""
        diff = self.query_one("#diff", Static)
        width = diff.content_size.width or self.content_size.width
        diff.update(diff_view(self._last, width - 1 if width > 0 else None, hints_of(self.app)))

    @on(DataTable.RowSelected, "#timeline")
    def _row_chosen(self, event: DataTable.RowSelected) -> None:
        event.stop()
        if event.row_key.value is not None:
            self.post_message(TimelineRowChosen(int(event.row_key.value)))

    def on_resize(self) -> None:
        self._show_diff()

    @property
    def table(self) -> DataTable:
        return self.query_one("#timeline", DataTable)

    def show(self, timeline: Sequence[Transition]) -> None:
        """Show the last transition and append the timeline rows not shown yet."""
        self._last = timeline[-1] if timeline else None
        if not self.query("#timeline"):
            # In the DOM but not composed yet (it mounts lazily, and a loaded machine can
            # commit an edit in between): its Ready message shows the timeline once it is.
            return
        self._show_diff()
        table = self.table
        if table.row_count > len(timeline):
            table.clear()
        for transition in timeline[table.row_count :]:
            table.add_row(*timeline_cells(transition), key=str(transition.index))
        if timeline:
            table.move_cursor(row=table.row_count - 1, animate=False)
            # Again once the new rows are laid out: the table cannot scroll to a row that
            # is not in its size yet, and the newest row must always be in view.
            table.call_after_refresh(table.move_cursor, row=table.row_count - 1, animate=False)
