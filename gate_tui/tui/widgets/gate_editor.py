"""The detail editor of the selected gate, and the summary editor with its n/200 counter.

The editors hold what the user typed even while the parser rejects it; the message
line under each field shows that field's errors. ``load`` sets values with the
``Changed`` messages prevented (programmatic updates are not user edits).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widgets import Input, Static

from gate_tui.decision import gate_blocked, gate_complete
from gate_tui.limits import SUMMARY_MAX_CHARS
from gate_tui.tui.form import SUMMARY, FieldRef
from gate_tui.tui.keymap import hints_of
from gate_tui.tui.render import BAD_STYLE, DIM, OK_STYLE, WARN_STYLE
from gate_tui.tui.text import line, lines, plain, visible
from gate_tui.tui.widgets.choice_field import ChoiceField
from gate_tui.tui.widgets.raw_area import RawArea
from gate_tui.tui.widgets.refresh import set_content
from gate_tui.tui.widgets.safe_fields import SafeInput

if TYPE_CHECKING:
    from gate_tui.views import ConfigView, ValueView

NONE_CHOICE = ""
"""The choice standing for "none" (``classified: null``)."""
NONE_OPTION = (Content("none"), NONE_CHOICE)
NO_CATEGORIES = Content.styled("no categories (Raw answers it)", DIM)


def no_categories(classified: str | None) -> Content:
    """The Classified line of a gate without categories (with a value a reply carried)."""
    if not classified:
        return NO_CATEGORIES
    return line((classified, ""), ("  (as given; no categories)", DIM))


class GateEditor(Vertical):
    """Key, label, question, marks, and the ``raw`` / ``classified`` editors of one gate."""

    def __init__(self, config: ConfigView, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.config = config
        self.key: str | None = None

    def compose(self) -> ComposeResult:
        yield Static(id="gate-title")
        yield Static(id="gate-question")
        with Horizontal(classes="field-row -raw"):
            # Static, not Label: the field labels need no more, and parsing Label's CSS costs ~1.5
            # ms at start-up.
            yield Static("Raw", classes="field-label")
            yield RawArea(
                id="raw",
                placeholder=f"answer in your words ({hints_of(self.app)['raw_newline']}: new line)",
            )
        yield Static(id="raw-msg", classes="field-msg")
        with Horizontal(classes="field-row -classified"):
            yield Static("Classified", classes="field-label")
            yield ChoiceField([NONE_OPTION], NONE_CHOICE, id="classified-select")
            # A gate without categories is answered by Raw alone: a dim text says so (and shows
            # any value a reply carried); it is not an input, so it takes no typing and no focus.
            yield Static(NO_CATEGORIES, id="classified-none")
        yield Static(id="classified-msg", classes="field-msg")

    def field_for(self, widget_id: str | None) -> FieldRef | None:
        """The form field a widget edits, for the gate on show."""
        if self.key is None:
            return None
        if widget_id == "raw":
            return FieldRef("raw", self.key)
        if widget_id == "classified-select":
            return FieldRef("classified", self.key)
        return None

    def load(self, key: str, value: ValueView) -> None:
        """Show gate ``key`` with ``value`` (no Changed messages are sent)."""
        gate = self.config.gates[key]
        switching = key != self.key
        self.key = key
        raw = self.query_one("#raw", RawArea)
        select = self.query_one("#classified-select", ChoiceField)
        free = self.query_one("#classified-none", Static)
        chosen = value.classified if value.classified in gate.expected_categories else NONE_CHOICE
        if switching:
            select.set_options(
                [NONE_OPTION] + [(plain(c, one_line=True), c) for c in gate.expected_categories],
                chosen,
            )
        else:
            select.value = chosen  # a ChoiceField posts nothing when set from code
        raw.show(value.raw or "", key)
        set_content(free, no_categories(value.classified))
        select.display = gate.categorical
        free.display = not gate.categorical
        set_content(self.query_one("#gate-question", Static), plain(gate.question, "italic"))
        if switching:
            self.clear_messages()

    def show_marks(self, value: ValueView, is_next: bool, said: str | None = None) -> None:
        """The title line: key, label, required and complete marks, next-gate tag; and who
        said the answer (``said``: one line of provenance), when known."""
        assert self.key is not None
        gate = self.config.gates[self.key]
        done = gate_complete(gate, value)
        title = line((self.key, "bold"), (f"  {gate.label}" if gate.label else "", ""))
        marks: list[str | tuple[str, str]] = [
            ("required" if gate.required else "optional", "bold" if gate.required else DIM)
        ]
        if gate_blocked(gate, value):
            marks.append(
                (f"  ⊘ blocked ({visible(value.classified or '', one_line=True)})", BAD_STYLE)
            )
        else:
            marks.append(
                ("  ✓ complete" if done else "  ✗ incomplete", OK_STYLE if done else BAD_STYLE)
            )
        if is_next:
            marks.append(("  ▶ asked next", WARN_STYLE))
        rows = [title, line(*marks)]
        if said and value.raw:
            rows.append(
                plain(said, BAD_STYLE if "NOT the user's words" in said else DIM, one_line=True)
            )
        set_content(self.query_one("#gate-title", Static), lines(rows))

    def show_messages(self, field: FieldRef, content: Content) -> None:
        """Errors/warnings under one field (empty content hides the line)."""
        target = self.query_one("#raw-msg" if field.name == "raw" else "#classified-msg", Static)
        if set_content(target, content, layout=True):
            target.display = bool(content)

    def clear_messages(self) -> None:
        for name in ("#raw-msg", "#classified-msg"):
            target = self.query_one(name, Static)
            if set_content(target, Content(), layout=True):
                target.display = False


class SummaryEditor(Vertical):
    """The state's one-line summary with an ``n/200`` counter and its error line."""

    def compose(self) -> ComposeResult:
        with Horizontal(classes="field-row"):
            yield Static("Summary", classes="field-label")
            yield SafeInput(id="summary", placeholder="one line for the record", compact=True)
            yield Static(id="summary-count")
        yield Static(id="summary-msg", classes="field-msg")

    field = SUMMARY

    def on_mount(self) -> None:
        self.show_count("")
        self.show_messages(Content())

    def load(self, summary: str) -> None:
        """Show ``summary`` (no Changed message is sent)."""
        with self.prevent(Input.Changed):
            self.query_one("#summary", Input).value = summary
        self.show_count(summary)
        self.show_messages(Content())

    def show_count(self, text: str) -> None:
        """``n/200``, in the error colour past the limit (the parser's limit, trimmed)."""
        count = len(text.strip())
        style = BAD_STYLE if count > SUMMARY_MAX_CHARS else DIM
        set_content(
            self.query_one("#summary-count", Static),
            Content.styled(f"{count}/{SUMMARY_MAX_CHARS}", style),
        )

    def show_messages(self, content: Content) -> None:
        target = self.query_one("#summary-msg", Static)
        if set_content(target, content, layout=True):
            target.display = bool(content)
