"""The value tree: a Textual ``Tree`` of the current value where each error sits on its node.

Node data is the JSON Pointer of the node. A ``missing_key`` error gets a placeholder
node under its parent (so it can be selected and filled in); errors whose path has no
node (or the root's own) are shown on the root. The tree shows at most
:data:`MAX_NODES` nodes; the rest is summarised, so a huge value cannot stall the editor.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from textual.message import Message
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from gate_tui.contracts.results import ContractError, ContractResult, pointer
from gate_tui.tui.contract.keys import TREE_KEYS
from gate_tui.tui.contract.views import node_label
from gate_tui.tui.text import visible

MAX_NODES = 2000


class ValueTree(Tree[str]):
    """The current value as a tree; Enter on a leaf asks the app to edit it."""

    BINDINGS = TREE_KEYS.bindings()

    def show(self, value: dict[str, Any] | None, result: ContractResult | None, title: str) -> None:
        """Rebuild the tree for ``value``, keeping the cursor on the same path when it still
        exists."""
        keep = self.cursor_node.data if self.cursor_node is not None else None
        self.clear()
        by_path: dict[str, list[ContractError]] = defaultdict(list)
        for error in result.errors if result is not None else []:
            by_path[error.path].append(error)
        budget = [MAX_NODES]
        placed: set[str] = set()
        if value is not None:
            self._add_children(self.root, value, [], by_path, placed, budget)
        root_errors = [
            error for path, errors in by_path.items() if path not in placed for error in errors
        ]
        self.root.set_label(
            node_label(
                visible(title, one_line=True), value if value is not None else {}, root_errors
            )
        )
        self.root.data = ""
        self.root.expand_all()
        if keep is not None:
            self._move_to(keep)

    def _add_children(
        self,
        node: TreeNode[str],
        value: Any,
        parts: list[str | int],
        by_path: dict[str, list[ContractError]],
        placed: set[str],
        budget: list[int],
    ) -> None:
        items = list(value.items()) if isinstance(value, dict) else list(enumerate(value))
        for key, child in items:
            if budget[0] <= 0:
                node.add_leaf(
                    f"… {len(items)} entries in all; the tree shows the first {MAX_NODES:,} nodes",
                    data=None,
                )
                return
            budget[0] -= 1
            path = pointer([*parts, key])
            placed.add(path)
            label = node_label(str(key), child, by_path.get(path, []))
            if isinstance(child, (dict, list)) and child:
                branch = node.add(label, data=path, expand=True)
                self._add_children(branch, child, [*parts, key], by_path, placed, budget)
            else:
                node.add_leaf(label, data=path)
        if isinstance(value, dict):  # missing keys: placeholders the user can fill in
            prefix = pointer(parts)
            for path, errors in by_path.items():
                if (
                    path in placed
                    or not path.startswith(prefix + "/")
                    or "/" in path[len(prefix) + 1 :]
                ):
                    continue
                if any(error.code == "missing_key" for error in errors):
                    placed.add(path)
                    name = path[len(prefix) + 1 :].replace("~1", "/").replace("~0", "~")
                    node.add_leaf(node_label(name, None, errors, missing=True), data=path)

    def _move_to(self, path: str) -> None:
        for line in range(self.last_line + 1):
            node = self.get_node_at_line(line)
            if node is not None and node.data == path:
                self.cursor_line = line
                return

    class EditAsJson(Message):
        """Edit the node at ``path`` as JSON text."""

        def __init__(self, path: str) -> None:
            super().__init__()
            self.path = path

    class Remove(Message):
        """Remove the key or item at ``path``."""

        def __init__(self, path: str) -> None:
            super().__init__()
            self.path = path

    def action_edit_json(self) -> None:
        node = self.cursor_node
        if node is not None and node.data is not None:
            self.post_message(self.EditAsJson(node.data))

    def action_remove_node(self) -> None:
        node = self.cursor_node
        if node is not None and node.data:
            self.post_message(self.Remove(node.data))
