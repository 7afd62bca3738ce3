"""Contract mode's editor screen: reply pane with live preview, value tree, leaf edits, decision.

Built from the gate editor's parts where they fit (the reply pane and its preview, the
key table of :mod:`gate_tui.tui.keymap`, the path prompt, the safe-text helpers); the rules
and the session live in :mod:`gate_tui.editing.contract_editor`. The screen never decides
validity: every value it shows went through ``check_contract``.

The screen owns its keys (:mod:`gate_tui.tui.contract.keys`; F1 lists them), its actions
and the palette's commands (Ctrl+P); the app (:mod:`gate_tui.tui.contract.app`) only starts
it. Enter on a tree leaf edits it (text or a number typed, an enum or a boolean picked
from a list; Escape cancels). The file commands are the gate editor's, by name
(``action_file``), described by :mod:`gate_tui.tui.contract.file_actions`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.command import Provider
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Input, OptionList, Static, TextArea
from textual.widgets.option_list import Option

from gate_tui.contracts.loading import Contract
from gate_tui.editing.contract_editor import ContractEditor
from gate_tui.tui.contract import file_actions
from gate_tui.tui.contract.keys import KEYS, hint
from gate_tui.tui.contract.tree import ValueTree
from gate_tui.tui.contract.views import current_errors, decision, preview
from gate_tui.tui.file_commands import ask_before_quitting, run_file
from gate_tui.tui.text import line, plain
from gate_tui.tui.widgets.type_ahead import TypeAheadList
from gate_tui.tui.workbench.messages import ReplyApplied
from gate_tui.tui.workbench.target import Applied, Previewed
from gate_tui.tui.workbench.widget import Workbench

if TYPE_CHECKING:
    from gate_tui.contracts.results import ContractResult
    from gate_tui.llm.asking import Target
    from gate_tui.tui.palette import ProviderSource

CRAMPED_BELOW = 80
"""Columns below which the footer drops the palette key (app.py's CSS, "-cramped")."""
LONG_TEXT = 60
"""Text longer than this (or with a line break) is edited in a text area, not a one-line input."""


def contract_palette() -> type[Provider]:
    """The command palette's provider, imported when the palette first opens."""
    from gate_tui.tui.contract.commands import ContractCommands

    return ContractCommands


class ContractScreen(Screen[None]):
    """Contract mode's editor: the reply pane, the value tree and the leaf editor."""

    BINDINGS: ClassVar[list[Binding]] = KEYS.bindings()  # type: ignore[assignment]
    COMMANDS: ClassVar[set[ProviderSource]] = {contract_palette}  # type: ignore[assignment]

    def __init__(
        self,
        contract: Contract,
        editor: ContractEditor,
        *,
        blink: bool,
        start: Callable[[], None],
        journaled: bool = False,
    ) -> None:
        super().__init__()
        self._start = start  # the app's start-up (opening the journal), run before the value shows
        self.contract = contract
        self.editor = editor
        self.blink = blink
        self.journaled = journaled  # every change should reach a journal: quitting may ask
        self.editing: tuple[str, str, list[Any]] | None = None  # (path, kind, choices)

    # --- layout -------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(
            line(
                ("contract: ", "dim"),
                (self.contract.title, "bold"),
                ("  ", ""),
                (self.contract.path, "dim"),
            ),
            id="contract-title",
        )
        with Horizontal(id="contract-main"):
            with Vertical(id="contract-left"):
                yield Workbench(self, delay=0)
            with Vertical(id="contract-right"):
                yield ValueTree("value", id="value-tree")
                yield Static(id="contract-decision")
        with Vertical(id="edit-bar"):
            yield Static(id="edit-hint")
        yield Footer(compact=True)

    def on_resize(self, event: events.Resize) -> None:
        # Below 80 columns the palette key gives way (F1 help still names Ctrl+P).
        self.set_class(event.size.width < CRAMPED_BELOW, "-cramped")

    def on_mount(self) -> None:
        self._start()
        self.workbench.border_title = f"Reply · {hint('focus_reply')} · {hint('apply_reply')} apply"
        keys = (hint("focus_tree"), hint("edit_json"), hint("remove_node").capitalize())
        tree = self.query_one(ValueTree)
        tree.border_title = "Value · {} · Enter edit · {} JSON · {} remove".format(*keys)
        self.query_one("#contract-decision", Static).border_title = "Decision (the system's)"
        text_area = self.query_one("#reply", TextArea)
        text_area.cursor_blink = self.blink
        self.refresh_value()
        text_area.focus()

    # --- the reply workbench's host (preview, apply, F6 asking) ---------------------

    @property
    def workbench(self) -> Workbench:
        return self.query_one(Workbench)

    def ask_target(self) -> Target:
        from gate_tui.tui.contract.ask_target import ContractTarget

        return ContractTarget(self.editor)

    def key_hint(self, action_id: str) -> str:
        return hint(action_id)

    def commit_pending(self) -> None:
        """Nothing waits to be recorded here: every edit is recorded when it is set."""

    def preview_reply(
        self, text: str, candidate: int | None, parsed: ContractResult | None = None
    ) -> Previewed:
        """What applying ``text`` would make of the value; an empty pane shows the current
        value's errors in full (the tree cuts them)."""
        if not text.strip():
            current = self.editor.result
            shown = (None, None) if current is None else (current_errors(current), current.ok)
            return Previewed(text, candidate, None, *shown)
        result = parsed if parsed is not None else self.editor.preview(text)
        return Previewed(text, candidate, result, preview(result), result.ok)

    def apply_reply(
        self, text: str, candidate: int | None, previewed: Previewed | None, call: int | None
    ) -> Applied:
        if not text.strip():
            self.notify(f"Paste a reply first ({hint('focus_reply')}).", markup=False)
            return Applied("refused")
        checked = previewed.result if previewed is not None else None
        result, problem = self.editor.apply_reply(text, call, checked)
        if problem is not None:
            self.notify(problem, severity="warning", markup=False)
        if result.value is None:
            return Applied("refused", result)
        return Applied("accepted", result)

    @on(ReplyApplied)
    def _reply_applied(self) -> None:
        self.refresh_value()

    def action_workbench(self, command: str) -> None:
        """A key of the workbench's (apply, clear, ask…); Ctrl+J in a long leaf sets the leaf."""
        if (
            command == "apply"
            and self.editing is not None
            and isinstance(self.focused, TextArea)
            and self.focused.id == "edit-text"
        ):
            self._commit_text(self.focused.text)
            return
        self.workbench.run_command(command)

    def action_focus_reply(self) -> None:
        self.close_editor()
        self.query_one("#reply", TextArea).focus()

    def action_focus_tree(self) -> None:
        self.close_editor()
        self.query_one(ValueTree).focus()

    def action_help(self) -> None:
        from gate_tui.tui.contract.help import ContractHelp

        if not isinstance(self.app.screen, ContractHelp):
            self.app.push_screen(ContractHelp())

    # --- value, undo, redo --------------------------------------------------------

    def refresh_value(self) -> None:
        step = self.editor.current
        self.query_one(ValueTree).show(step.value, step.result, self.contract.title)
        panel = self.query_one("#contract-decision", Static)
        panel.update(
            decision(self.contract, step.result, (self.editor.index, len(self.editor.steps)))
        )
        if not self.query_one("#reply", TextArea).text.strip():
            self.workbench.refresh_preview()
        self.refresh_bindings()  # undo / redo greyed out or not

    def _after_change(self, problem: str | None) -> None:
        # Success needs no toast: the tree and the decision panel show the new value.
        if problem is not None:
            self.notify(problem, severity="warning", markup=False)
        self.refresh_value()

    def action_undo_transition(self) -> None:
        """Undo the last change, from anywhere. A text area with typing to undo (the reply
        pane, a text leaf) takes Ctrl+Z itself first; the reply pane falls through to this
        once it has none (so Ctrl+Z right after Ctrl+J undoes the reply), as in the gate editor."""
        self._move(self.editor.undo, "Nothing to undo.")

    def action_redo_transition(self) -> None:
        self._move(self.editor.redo, "Nothing to redo.")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Grey out undo/redo when there is nothing to move to (None greys the key out)."""
        if action in ("undo_transition", "redo_transition"):
            can = self.editor.can_undo if action[0] == "u" else self.editor.can_redo
            return True if can else None
        return True

    def _move(self, move: Callable[[], bool], nothing: str) -> None:
        if isinstance(self.focused, Input):
            return  # a one-line edit in progress: Escape cancels it
        if move():
            self.close_editor()
            self.refresh_value()
        else:
            self.notify(nothing, markup=False, timeout=2)

    @on(ValueTree.EditAsJson)
    def _edit_as_json(self, event: ValueTree.EditAsJson) -> None:
        self.open_json_editor(event.path)

    @on(ValueTree.Remove)
    def _remove(self, event: ValueTree.Remove) -> None:
        self.remove_path(event.path)

    def remove_path(self, path: str) -> None:
        _result, problem = self.editor.remove(path)
        self._after_change(problem)

    # --- leaf editing -------------------------------------------------------------

    @on(ValueTree.NodeSelected, "#value-tree")
    def _node_selected(self, event: ValueTree.NodeSelected) -> None:
        path = event.node.data
        if path is None or self.editor.value is None:
            return
        current, schema, kind = self.editor.place(path)
        if kind == "container":
            if not event.node.children:  # a missing object or list, or an empty one: type it
                self.open_json_editor(path)
            return  # a branch: Enter folds it; "e" edits it as JSON
        choices: list[Any] = (
            list(schema["enum"]) if kind == "enum" else ([True, False] if kind == "boolean" else [])
        )
        self.open_editor(path, kind, current, choices)

    def open_editor(self, path: str, kind: str, current: Any, choices: list[Any]) -> None:
        self.close_editor()
        self.editing = (path, kind, choices)
        bar = self.query_one("#edit-bar", Vertical)
        bar.border_title = plain(
            f"Edit {path or '/'} ({kind}) · Enter set · Escape cancel", one_line=True
        )  # a key is data, never markup
        self.query_one("#edit-hint", Static).update(
            line(("now: ", "dim"), json.dumps(current, ensure_ascii=False)[:200])
        )
        if choices:
            options = [
                Option(plain(json.dumps(choice, ensure_ascii=False)), id=str(index))
                for index, choice in enumerate(choices)
            ]
            widget: Any = TypeAheadList(
                *options, id="edit-choices", markup=False
            )  # letters jump, as in the gate editor
            if current in choices:
                widget.highlighted = choices.index(current)
        elif isinstance(current, str) and ("\n" in current or len(current) > LONG_TEXT):
            # Long or multi-line text: an Input would keep only the first line.
            bar.border_title = plain(
                f"Edit {path or '/'} (text) · {hint('apply_reply')} set · Escape cancel",
                one_line=True,
            )
            widget = TextArea(
                current,
                id="edit-text",
                soft_wrap=True,
                show_line_numbers=False,
                tab_behavior="focus",
            )
            widget.cursor_blink = self.blink
        else:
            text = (
                current
                if isinstance(current, str)
                else ("" if current is None else json.dumps(current))
            )
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
        bar.border_title = plain(
            f"Edit {path or '/'} as JSON · {hint('apply_reply')} set · Escape cancel", one_line=True
        )
        self.query_one("#edit-hint", Static).update(
            plain("Any JSON value; the contract judges it once set.", "dim")
        )
        text = "" if current is None else json.dumps(current, indent=2, ensure_ascii=False)
        widget = TextArea(
            text, id="edit-text", soft_wrap=True, show_line_numbers=False, tab_behavior="focus"
        )
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

    @on(Input.Submitted, "#edit-input")
    def _leaf_typed(self, event: Input.Submitted) -> None:
        if self.editing is not None:
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

    @on(OptionList.OptionSelected, "#edit-choices")
    def _leaf_picked(self, event: OptionList.OptionSelected) -> None:
        if self.editing is None:
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

    # --- files --------------------------------------------------------------------

    def action_quit(self) -> None:
        """Quit, unless changes would be lost (the journal could not be written): then ask."""
        lost = file_actions.unsaved_changes(self.editor, self.journaled)

        def save_as(then: Callable[[], None]) -> None:
            self.action_file("save_as", then)

        ask_before_quitting(self, file_actions.QUIT_WHY, lost, save_as, file_actions.KEEP)

    def action_file(self, command: str, then: Callable[[], None] | None = None) -> None:
        """A file command by the gate editor's name (Ctrl+E and the palette's Save value as…,
        Open value…, Export report…, Copy value)."""
        file = file_actions.contract_file(command, self.editor, reload=self._reloaded)
        if file is not None:
            run_file(self, file, then=then)

    def _reloaded(self) -> None:
        self.close_editor()
        self.refresh_value()
