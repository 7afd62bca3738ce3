"""The reply pane: a multi-line text area for a model's reply and a live preview of it.

Paste keeps every line (a ``TextArea``, not an ``Input``); a paste over an unchanged
paste replaces it, and undo falls through to the screen's (:mod:`.reply_area`). The preview
shows what applying the reply would do. Both editors (gates and contracts) use this pane:
each hands it a ``preview`` function (its controller's, through ``parse`` or the contract
check), and the pane decides when to run it: after a short pause in typing (``delay``),
or at once when asked (:meth:`ReplyPane.refresh_preview`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.timer import Timer
from textual.widgets import Static, TextArea

from gate_tui.tui.keymap import KeyHints, hints_of
from gate_tui.tui.render import DIM
from gate_tui.tui.text import lines, plain
from gate_tui.tui.widgets.reply_area import ReplyArea


def empty_hint(keys: KeyHints) -> Content:
    """What the preview says while the pane is empty (keys as the keymap binds them)."""
    return lines(
        [
            plain(f"Paste a model reply above ({keys['focus_reply']} focuses it).", DIM),
            plain(
                f"The preview shows what applying it would do; {keys['apply_reply']} applies it.",
                DIM,
            ),
        ]
    )


Preview = Callable[[str], "tuple[Content | None, bool | None]"]
"""The reply's text → (what applying it would do, None for the empty-pane hint; whether it is
ok)."""


def border_title(keys: KeyHints) -> str:
    return (
        f"Model reply · {keys['focus_reply']} focus · {keys['apply_reply']} apply · "
        f"{keys['clear_reply']} clear"
    )


class PreviewText(Static):
    """The preview; a position in it (``3:14``) is a link to that place in the reply."""

    @dataclass
    class GoTo(Message):
        """A position of the preview was clicked (1-based line and column of the reply)."""

        line: int
        column: int

    def action_goto(self, line_no: int, column: int) -> None:
        self.post_message(self.GoTo(line_no, column))


class ReplyPane(Vertical):
    """Reply text area plus its preview."""

    # The editor's rules for this pane, unscoped as they were in styles.tcss; kept here
    # so that Textual parses them when the pane first mounts, after the first frame.
    SCOPED_CSS = False
    DEFAULT_CSS = """
        #reply {
            height: 1fr;
            min-height: 4;
            border: none;
            padding: 0;
        }

        Screen.-wide #reply {
            max-height: 9;
        }

        #preview-scroll {
            height: 1fr;
            border-top: solid $panel-lighten-2;
        }
    """

    class Ready(Message):
        """Posted once mounted (the pane is mounted lazily, after the first frame)."""

        def __init__(self, pane: ReplyPane) -> None:
            super().__init__()
            self.pane = pane

    ready = False
    """True once mounted with its children (the screen leaves the pane alone before)."""

    def __init__(self, preview: Preview, *, delay: float = 0.15, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.preview = preview
        self.delay = delay
        self._timer: Timer | None = None

    def on_mount(self) -> None:
        self.border_title = border_title(hints_of(self.app))
        self.ready = True
        self.call_after_refresh(self._first_preview)  # once the children are there
        self.post_message(self.Ready(self))

    def compose(self) -> ComposeResult:
        # Line numbers: a repair or error position (144:31) can be found by eye, or by its link.
        yield ReplyArea(id="reply", soft_wrap=True, show_line_numbers=True, tab_behavior="focus")
        with VerticalScroll(id="preview-scroll"):
            yield PreviewText(empty_hint(hints_of(self.app)), id="preview")

    @property
    def text_area(self) -> ReplyArea:
        return self.query_one("#reply", ReplyArea)

    @on(TextArea.Changed, "#reply")
    def _text_changed(self) -> None:
        """Typing or a paste: preview after a short pause (at once with no delay)."""
        if self._timer is not None:
            self._timer.stop()
        if self.delay <= 0:
            self.preview_new_text()
        else:
            self._timer = self.set_timer(self.delay, self.preview_new_text)

    def preview_new_text(self) -> None:
        """The text changed: preview it (the workbench skips a text it previewed already)."""
        self.refresh_preview()

    def _first_preview(self) -> None:
        if getattr(self.app, "blink", True) is False and self.query(
            "#reply"
        ):  # tests and screenshots need stable frames
            self.text_area.cursor_blink = False
        self.preview_new_text()

    def refresh_preview(self) -> None:
        """Run the preview on the pane's text now and show it."""
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        if self.is_attached and self.ready and self.query("#preview"):
            self.show_preview(*self.preview(self.text_area.text))

    def clear_text(self, undo_key: str, *, timeout: float | None = None) -> None:
        """Empty the pane as one text edit (``undo_key`` in the pane brings it back)."""
        area = self.text_area
        if not area.text:
            self.notify("The reply pane is empty already.", markup=False, timeout=timeout)
            return
        area.clear_text()
        self.notify(
            f"Reply pane cleared ({undo_key} in the pane brings the text back).",
            markup=False,
            timeout=timeout,
        )

    def show_preview(self, content: Content | None, ok: bool | None = None) -> None:
        """Show a preview (``None``: the empty-pane hint)."""
        preview = self.query_one("#preview", Static)
        preview.update(empty_hint(hints_of(self.app)) if content is None else content)
        if not self.streaming:  # a new preview opens at its top (a stream's "so far" too, once)
            self.query_one("#preview-scroll", VerticalScroll).scroll_home(animate=False)
        preview.set_class(ok is False, "-errors")
        preview.set_class(ok is True, "-ok")

    # --- a model's reply streaming in (F6) ---------------------------------------

    streaming = False
    """True while a model's reply streams in: the pane shows "so far", never a decision."""

    def begin_stream(self) -> None:
        """Empty the pane (one undoable edit) for a reply that is about to stream in."""
        area = self.text_area
        with area.prevent(TextArea.Changed):
            area.clear_text()
        self.streaming = True
        area.read_only = True  # the user's keys must not land in the middle of the model's text
        self.border_subtitle = "streaming…"
        self.show_so_far([])

    def append_stream(self, text: str, chars: int) -> None:
        """Add the text that arrived since the last call at the end (linear: never re-set);
        ``chars`` so far go in the border (redrawing it costs no layout)."""
        area = self.text_area
        with area.prevent(TextArea.Changed):
            area.insert(text, area.document.end)
        area.scroll_end(animate=False)
        self.border_subtitle = f"streaming… {chars:,} characters"

    def show_so_far(self, found: list[str]) -> None:
        """What can already be read from the partial reply, and that nothing is decided yet."""
        rows = [plain("Streaming… No decision until the reply ends.", DIM)]
        rows.extend(plain(f"so far: {row}", one_line=True) for row in found)
        self.show_preview(lines(rows))

    def end_stream(self, mark: str | None) -> None:
        """The stream ended: ``mark`` says when it was cut short (cancelled, incomplete)."""
        self.streaming = False
        self.text_area.read_only = False
        self.border_subtitle = mark or ""

    def clear(self) -> None:
        """Empty the text area and its text history (a reply was applied) without sending
        a Changed message: Ctrl+Z in the empty pane then undoes the applied reply."""
        self.text_area.reset()
        self.show_preview(None)
