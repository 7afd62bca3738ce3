"""The editor in contract mode: reply pane with live preview, value tree, leaf edits, decision.

Built from the gate editor's parts where they fit (the reply pane, the key table's
:class:`~gate_tui.tui.keymap.KeyAction`, the safe-text helpers); the rules and the session
live in :mod:`gate_tui.tui.contract.controller`. The app never decides validity: every
value it shows went through ``check_contract``.

Keys come from :mod:`gate_tui.tui.contract.keys` (F1 lists them); Enter on a tree leaf edits
it (text or a number typed, an enum or a boolean picked from a list; Escape cancels). The
command palette (Ctrl+P) names every action; the file commands live in
:mod:`gate_tui.tui.contract.file_actions`.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from typing import Any, ClassVar

from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.command import Provider
from textual.containers import Horizontal, Vertical
from textual.widgets import Footer, Input, OptionList, Static, TextArea
from textual.widgets.option_list import Option

from gate_tui.contracts.loading import Contract
from gate_tui.tui.contract.controller import ContractEditor
from gate_tui.tui.contract.file_actions import ContractFileActions
from gate_tui.tui.contract.keys import bindings, hint
from gate_tui.tui.contract.tree import ValueTree
from gate_tui.tui.contract.views import current_errors, decision, preview
from gate_tui.tui.text import line, plain
from gate_tui.tui.widgets.reply_pane import ReplyPane

LONG_TEXT = 60
"""Text longer than this (or with a line break) is edited in a text area, not a one-line input."""

CSS = """
#contract-title { height: 1; background: $panel; padding: 0 1; }
#contract-main { height: 1fr; }
#contract-left, #contract-right { width: 1fr; }
#contract-left ReplyPane { height: 1fr; border: round $panel-lighten-2; }
#value-tree { height: 1fr; border: round $panel-lighten-2; }
#contract-decision { height: auto; max-height: 6; border: round $panel-lighten-2; padding: 0 1; }
#edit-bar { height: auto; max-height: 12; display: none; border: round $accent; padding: 0 1; }
#edit-bar.-open { display: block; }
#edit-hint { height: auto; }
#edit-choices { height: auto; max-height: 8; }
#edit-text { height: 8; }
"""


def contract_palette() -> type[Provider]:
    """The command palette's provider, imported when the palette first opens."""
    from gate_tui.tui.contract.commands import ContractCommands

    return ContractCommands


class ContractApp(ContractFileActions):
    """Contract mode; ``journal=False`` keeps the session in memory (tests, screenshots)."""

    CSS = CSS
    TITLE = "gate-tui contract"
    BINDINGS: ClassVar[list[Binding]] = bindings()  # type: ignore[assignment]
    COMMANDS = App.COMMANDS | {contract_palette}

    def __init__(self, contract: Contract, *, journal: bool = True, new: bool = False, blink: bool | None = None) -> None:
        super().__init__()
        self.contract = contract
        self.editor = ContractEditor(contract)
        self.use_journal = journal
        self.new = new
        self.blink = os.environ.get("GATE_TUI_NO_BLINK") != "1" if blink is None else blink
        self.editing: tuple[str, str, list[Any]] | None = None  # (path, kind, choices)

    # --- layout -------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(line(("contract: ", "dim"), (self.contract.title, "bold"), ("  ", ""), (self.contract.path, "dim")), id="contract-title")
        with Horizontal(id="contract-main"):
            with Vertical(id="contract-left"):
                yield ReplyPane()
            with Vertical(id="contract-right"):
                yield ValueTree("value", id="value-tree")
                yield Static(id="contract-decision")
        with Vertical(id="edit-bar"):
            yield Static(id="edit-hint")
        yield Footer()

    def on_mount(self) -> None:
        if self.use_journal:
            from gate_tui.tui.contract.sessions import open_session

            notice = open_session(self.editor, new=self.new)
            if notice is not None:
                self.notify(notice, severity="information" if notice.startswith("resumed") else "warning", markup=False)
        self.query_one(ReplyPane).border_title = f"Reply · {hint('focus_reply')} · {hint('apply_reply')} apply"
        self.query_one(ValueTree).border_title = f"Value · {hint('focus_tree')} · Enter edit · {hint('edit_json')} JSON"
        self.query_one("#contract-decision", Static).border_title = "Decision (the system's)"
        text_area = self.query_one("#reply", TextArea)
        text_area.cursor_blink = self.blink
        self.refresh_value()
        text_area.focus()

    def on_unmount(self) -> None:
        self.editor.close()

    # --- reply --------------------------------------------------------------------

    def on_text_area_changed(self, event: TextArea.Changed) -> None:
        if event.text_area.id != "reply":
            return  # the leaf editor's text area: nothing to preview until it is set
        text = event.text_area.text
        pane = self.query_one(ReplyPane)
        if not text.strip():
            self._show_current_errors()
            return
        result = self.editor.preview(text)
        pane.show_preview(preview(result), result.ok)

    def action_apply_reply(self) -> None:
        if self.editing is not None and self.focused is not None and self.focused.id == "edit-text":
            self._commit_text(self.focused.text)  # type: ignore[attr-defined]
            return
        text = self.query_one("#reply", TextArea).text
        if not text.strip():
            self.notify("Paste a reply first (F2).", markup=False)
            return
        _result, problem = self.editor.apply_reply(text)
        if problem is None:  # taken: the pane empties, as after applying a gate reply
            self.query_one(ReplyPane).clear()
        self._after_change(problem)

    def action_focus_reply(self) -> None:
        self.close_editor()
        self.query_one("#reply", TextArea).focus()

    def action_focus_tree(self) -> None:
        self.close_editor()
        self.query_one(ValueTree).focus()

    def action_help(self) -> None:
        from gate_tui.tui.contract.help import ContractHelp

        if not isinstance(self.screen, ContractHelp):
            self.push_screen(ContractHelp())

    # --- value, undo, redo --------------------------------------------------------

    def refresh_value(self) -> None:
        step = self.editor.current
        self.query_one(ValueTree).show(step.value, step.result, self.contract.title)
        panel = self.query_one("#contract-decision", Static)
        panel.update(decision(self.contract, step.result, (self.editor.index, len(self.editor.steps))))
        if not self.query_one("#reply", TextArea).text.strip():
            self._show_current_errors()

    def _show_current_errors(self) -> None:
        """An empty reply pane shows the current value's errors in full (the tree cuts them)."""
        pane = self.query_one(ReplyPane)
        result = self.editor.result
        pane.show_preview(None if result is None else current_errors(result), None if result is None else result.ok)

    def _after_change(self, problem: str | None) -> None:
        # Success needs no toast: the tree and the decision panel show the new value.
        if problem is not None:
            self.notify(problem, severity="warning", markup=False)
        self.refresh_value()

    def action_undo_transition(self) -> None:
        """Undo the last change, from anywhere. A text area with typing to undo (the reply
        pane, a text leaf) takes Ctrl+Z itself first; the reply pane falls through to this
        once it has none (so Ctrl+Z right after Ctrl+J undoes the reply), as in the gate editor."""
        if isinstance(self.focused, Input):
            return  # a one-line edit in progress: Escape cancels it
        self._move(self.editor.undo, "Nothing to undo.")

    def action_redo_transition(self) -> None:
        if isinstance(self.focused, Input):
            return
        self._move(self.editor.redo, "Nothing to redo.")

    def _move(self, move: Callable[[], bool], nothing: str) -> None:
        if move():
            self.close_editor()
            self.refresh_value()
        else:
            self.notify(nothing, markup=False, timeout=2)

    def action_clear_reply(self) -> None:
        """Empty the reply pane as one text edit (Undo in the pane brings it back)."""
        area = self.query_one(ReplyPane).text_area
        if not area.text:
            self.notify("The reply pane is empty already.", markup=False, timeout=2)
            return
        area.clear_text()
        area.focus()
        self.notify(f"Reply pane cleared ({hint('undo')} in the pane brings the text back).", markup=False, timeout=3)

    def remove_path(self, path: str) -> None:
        _result, problem = self.editor.remove(path)
        self._after_change(problem)

    # --- leaf editing -------------------------------------------------------------

    def on_tree_node_selected(self, event: ValueTree.NodeSelected) -> None:
        path = event.node.data
        if path is None or self.editor.value is None:
            return
        current, schema, kind = self.editor.place(path)
        if kind == "container":
            if not event.node.children:  # a missing object or list, or an empty one: type it
                self.open_json_editor(path)
            return  # a branch: Enter folds it; "e" edits it as JSON
        choices: list[Any] = list(schema["enum"]) if kind == "enum" else ([True, False] if kind == "boolean" else [])
        self.open_editor(path, kind, current, choices)

    def open_editor(self, path: str, kind: str, current: Any, choices: list[Any]) -> None:
        self.close_editor()
        self.editing = (path, kind, choices)
        bar = self.query_one("#edit-bar", Vertical)
        bar.border_title = plain(f"Edit {path or '/'} ({kind}) · Enter set · Escape cancel", one_line=True)  # a key is data, never markup
        self.query_one("#edit-hint", Static).update(line(("now: ", "dim"), json.dumps(current, ensure_ascii=False)[:200]))
        if choices:
            options = [Option(plain(json.dumps(choice, ensure_ascii=False)), id=str(index)) for index, choice in enumerate(choices)]
            widget: Any = OptionList(*options, id="edit-choices", markup=False)
            if current in choices:
                widget.highlighted = choices.index(current)
        elif isinstance(current, str) and ("\n" in current or len(current) > LONG_TEXT):
            # Long or multi-line text: an Input would keep only the first line.
            bar.border_title = plain(f"Edit {path or '/'} (text) · {hint('apply_reply')} set · Escape cancel", one_line=True)
            widget = TextArea(current, id="edit-text", soft_wrap=True, show_line_numbers=False, tab_behavior="focus")
            widget.cursor_blink = self.blink
        else:
            text = current if isinstance(current, str) else ("" if current is None else json.dumps(current))
            widget = Input(value=text, id="edit-input", select_on_focus=False)
        bar.mount(widget)
        bar.add_class("-open")
        widget.focus()

    def open_json_editor(self, path: str) -> None:
        """Edit any node as JSON text (an object or a list included)."""
        if self.editor.value is None:
            return
        current, _schema, _kind = self.editor.place(path)
        self.close_editor()
        self.editing = (path, "json", [])
        bar = self.query_one("#edit-bar", Vertical)
        bar.border_title = plain(f"Edit {path or '/'} as JSON · {hint('apply_reply')} set · Escape cancel", one_line=True)
        self.query_one("#edit-hint", Static).update(plain("Any JSON value; the contract judges it once set.", "dim"))
        text = "" if current is None else json.dumps(current, indent=2, ensure_ascii=False)
        widget = TextArea(text, id="edit-text", soft_wrap=True, show_line_numbers=False, tab_behavior="focus")
        widget.cursor_blink = self.blink
        bar.mount(widget)
        bar.add_class("-open")
        widget.focus()

    def close_editor(self) -> None:
        self.editing = None
        bar = self.query_one("#edit-bar", Vertical)
        bar.remove_class("-open")
        for child in list(bar.children):
            if child.id != "edit-hint":
                child.remove()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if self.editing is None or event.input.id != "edit-input":
            return
        self._commit_text(event.value)

    def _commit_text(self, text: str) -> None:
        assert self.editing is not None
        path, kind, _choices = self.editing
        _result, problem = self.editor.edit_leaf(path, text, as_json=kind == "json")
        if problem is not None and _result is None:
            # The bar stays open with the reason, so the user can correct what they typed.
            self.query_one("#edit-hint", Static).update(line(("✗ ", "bold $text-error"), problem))
            return
        self._finish_edit(problem, path)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if self.editing is None or event.option_list.id != "edit-choices":
            return
        path, _kind, choices = self.editing
        _result, problem = self.editor.set_value(path, choices[event.option_index])
        self._finish_edit(problem, path)

    def _finish_edit(self, problem: str | None, path: str) -> None:
        self.close_editor()
        self._after_change(problem)
        self.query_one(ValueTree).focus()

    def on_key(self, event: events.Key) -> None:
        if event.key == "escape" and self.editing is not None:
            event.stop()
            self.close_editor()
            self.query_one(ValueTree).focus()


def run_contract_app(contract: Contract, new: bool = False) -> int:
    """Open the contract editor (resuming the contract's last session unless ``new``); the exit status."""
    app = ContractApp(contract, new=new)
    result = app.run()
    return result if isinstance(result, int) else (app.return_code or 0)
