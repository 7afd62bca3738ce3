"""The history pane: the last transition's diff (before → after) and the session timeline.

The timeline is a ``DataTable`` whose cells are ``rich.text.Text`` (string cells would
be parsed as markup). Rows are appended as transitions and attempts arrive (the
session's lists are read, never copied: a model call journaled by a worker shows within
half a second), never rebuilt unless the session itself changed. Rejected attempts and
model calls are marked (``✗``, ``↗``) and cannot be restored; ``o`` (or Space) opens any
row in full without restoring it (:class:`~gate_tui.tui.screens.timeline_detail.RowDetail`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import DataTable, Static

from gate_tui.session.history import Transition
from gate_tui.session.timeline_rows import (
    detail_text,
    find_row,
    restorable,
    row_key,
    timeline_rows,
)
from gate_tui.tui.history_render import CHANGED_CELLS, attempt_cells, diff_view, timeline_cells
from gate_tui.tui.keymap import hints_of
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

    BINDINGS = [
        # Out of the footer (a 60-column one would lose an essential key to it): the
        # timeline's title and the help say it.
        Binding("o,space", "open_row", "Open row", show=False),
    ]

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
        yield Static(
            Content.assemble(
                ("Timeline", "bold $text-muted"), (" · Enter restores · o opens", "$text-muted")
            ),
            classes="pane-title",
        )
        yield DataTable(id="timeline", cursor_type="row", zebra_stripes=True)

    ready = False
    """True once the table has its columns (the app shows nothing in it before)."""

    def on_mount(self) -> None:
        for label, width in COLUMNS:
            self.table.add_column(label, width=width)
        self.border_title = f"Last change · {hints_of(self.app)['history']}"
        self.ready = True
        if not self._seen[0] and not self._seen[1]:
            self._rows = []
        self.set_interval(0.5, self._catch_up)
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
        key = event.row_key.value
        index = restorable(key) if key is not None else None
        if index is not None:
            self.post_message(TimelineRowChosen(index))
        elif key is not None:
            self.notify(
                "A rejected attempt or a model call changed no state: nothing to restore "
                "(o opens it).",
                markup=False,
            )

    def action_open_row(self) -> None:
        """The highlighted row in full (before/after, errors, or message and reply)."""
        from gate_tui.tui.screens.timeline_detail import RowDetail

        table = self.table
        if not table.row_count:
            return
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        row = find_row(self._rows, key) if key is not None else None
        if row is not None:
            self.app.push_screen(RowDetail(detail_text(row, list(self._records))))

    def on_resize(self) -> None:
        self._show_diff()

    @property
    def table(self) -> DataTable:
        return self.query_one("#timeline", DataTable)

    _timeline: Sequence[Transition] = ()
    _records: Sequence[dict[str, Any]] = ()
    _rows: list[Any] = []
    _seen: tuple[int, int] = (0, 0)

    def show(
        self, timeline: Sequence[Transition], records: Sequence[dict[str, Any]] = ()
    ) -> None:
        """Show the last transition and append the timeline rows not shown yet (the
        transitions and, among them, the attempts of ``records``)."""
        self._last = timeline[-1] if timeline else None
        # The session's own lists: rows journaled later (a rejected reply, a model call)
        # are seen by the catch-up timer without the screen calling again.
        if timeline is not self._timeline or records is not self._records:
            self._rows, self._seen = [], (0, 0)  # another session's lists: all rows anew
        self._timeline, self._records = timeline, records
        if not self.query("#timeline"):
            # In the DOM but not composed yet (it mounts lazily, and a loaded machine can
            # commit an edit in between): its Ready message shows the timeline once it is.
            return
        self._show_diff()
        self._add_rows()

    def _catch_up(self) -> None:
        if (len(self._timeline), len(self._records)) != self._seen:
            self._add_rows()

    def _add_rows(self) -> None:
        """Append the rows journaled since the last look. Only the new tails are merged, so
        a change costs the same in a long session as in a short one."""
        table = self.table
        timeline, records = self._timeline, self._records
        seen_timeline, seen_records = self._seen
        if (
            table.row_count != len(self._rows)  # the screen cleared it (another session)
            or seen_timeline > len(timeline)
            or seen_records > len(records)
        ):
            table.clear()
            self._rows, seen_timeline, seen_records = [], 0, 0
        self._seen = (len(timeline), len(records))
        new = timeline_rows(timeline[seen_timeline:], list(records[seen_records:]))
        for row in new:
            cells = timeline_cells(row) if isinstance(row, Transition) else attempt_cells(row)
            table.add_row(*cells, key=row_key(row))
        self._rows.extend(new)  # an instance's own list (show() and on_mount set it)
        if self._rows:
            newest = table.row_count - 1
            table.move_cursor(row=newest, animate=False)
            # Again once the new rows are laid out: the table cannot scroll to a row that
            # is not in its size yet, and the newest row must always be in view. Unless the
            # cursor moved in between: a row the user chose stays chosen.
            table.call_after_refresh(self._keep_newest_in_view, newest)

    def _keep_newest_in_view(self, newest: int) -> None:
        table = self.table
        if table.cursor_row == newest:
            table.move_cursor(row=newest, animate=False)
