"""The one undo/redo journal of both editors: a timeline of entries and a cursor.

The gate editor's :class:`~gate_tui.session.history.History` keeps its transitions here
and the contract editor's :class:`~gate_tui.editing.contract_editor.ContractEditor` its
values; neither keeps a cursor of its own. What an entry is (a gate transition, a
contract value) is the editor's; how undo, redo and a jump move is this module's:

* ``entries`` is append-only: nothing is ever erased (a dropped redo branch included);
* the *stack* holds the entries that produce a state (:meth:`push`); undo and redo move
  the cursor over it, and a push after an undo drops the redo branch from the stack only;
* :meth:`note` appends an entry that produces no state (the gate editor's record of an
  undo or redo), so the timeline shows it without undo stepping onto it;
* :meth:`jump_to` restores the state after any entry as a *new* pushed entry, so a jump
  is itself undoable.

No Textual, no pydantic: pure data, tested on its own (``tests/unit/test_undo_journal.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

E = TypeVar("E")

START = -1
"""The index of the state before any entry (the session's start)."""


class UndoJournal(Generic[E]):
    """Entries, the stack of state-producing ones, and the cursor on that stack."""

    def __init__(self) -> None:
        self.entries: list[E] = []
        self._stack: list[int] = []  # indices into entries, oldest first
        self._cursor = -1  # position on _stack; -1 is the start

    # --- reading ------------------------------------------------------------------

    @property
    def current(self) -> int:
        """The index of the entry whose state is current (:data:`START` before any)."""
        return START if self._cursor < 0 else self._stack[self._cursor]

    @property
    def position(self) -> int:
        """How far along the stack the cursor is: 0 at the start, ``len(stacked)`` at its top."""
        return self._cursor + 1

    @property
    def stacked(self) -> list[E]:
        """The entries undo and redo move through, oldest first."""
        return [self.entries[index] for index in self._stack]

    @property
    def stack(self) -> tuple[int, ...]:
        return tuple(self._stack)

    @property
    def can_undo(self) -> bool:
        return self._cursor >= 0

    @property
    def can_redo(self) -> bool:
        return self._cursor + 1 < len(self._stack)

    def __len__(self) -> int:
        return len(self.entries)

    # --- moving -------------------------------------------------------------------

    def push(self, entry: E) -> int:
        """Make ``entry`` the current state (the redo branch leaves the stack); its index."""
        del self._stack[self._cursor + 1 :]
        self.entries.append(entry)
        self._stack.append(len(self.entries) - 1)
        self._cursor = len(self._stack) - 1
        return len(self.entries) - 1

    def note(self, entry: E) -> int:
        """Append ``entry`` to the timeline without moving the cursor; its index."""
        self.entries.append(entry)
        return len(self.entries) - 1

    def undo(self) -> int | None:
        """Step back; the index whose state is now current (:data:`START` too), None when
        there is nothing to undo."""
        if not self.can_undo:
            return None
        self._cursor -= 1
        return self.current

    def redo(self) -> int | None:
        """Step forward; the index whose state is now current, None when nothing to redo."""
        if not self.can_redo:
            return None
        self._cursor += 1
        return self.current

    def jump_to(self, index: int, make: Callable[[int], E]) -> E | None:
        """Restore the state after entry ``index`` (:data:`START`: the start) as a new pushed
        entry, built by ``make(index)`` before it is pushed (it sees the state before the
        jump); None when ``index`` is not in the timeline."""
        if not START <= index < len(self.entries):
            return None
        entry = make(index)
        self.push(entry)
        return entry

    def seek(self, position: int) -> bool:
        """Put the cursor at ``position`` on the stack (see :attr:`position`), as a replayed
        undo or redo record says; False (nothing moves) when it is not on the stack."""
        if not 0 <= position <= len(self._stack):
            return False
        self._cursor = position - 1
        return True
