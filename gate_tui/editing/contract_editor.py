"""Contract mode's rules and session, without Textual: what the editor may do and what it records.

The one rule, as for gates: the editor never decides validity. A pasted reply and every
leaf edit become a value that goes through :func:`~gate_tui.contracts.checking.check_contract`;
its result says VALID or INVALID. Unlike a gate state, an *invalid* value still becomes
the current value (the point of the editor is to fix it), but a reply with no JSON object
at all changes nothing.

The session: a history of values in both editors' one undo journal
(:class:`~gate_tui.session.undo.UndoJournal`: undo / redo move in it; a new change after
an undo drops the undone ones from reach; a jump back is a new change), each change
appended to a journal before the editor shows it (``journal.jsonl`` in the session
folder, fsync'd by :class:`~gate_tui.session.journal.JournalWriter`), an export of the
current value as JSON and a Markdown report, both written atomically, and "Open value…"
(a JSON file made the current value as a user edit). Resuming replays the journal (every
change record carries the whole value; see :mod:`gate_tui.editing.contract_sessions`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from gate_tui.atomic import atomic_write_text
from gate_tui.contracts.checking import check_contract
from gate_tui.contracts.loading import Contract
from gate_tui.contracts.patching import coerce, leaf_kind, remove_at, schema_at, set_at, value_at
from gate_tui.contracts.results import ContractResult
from gate_tui.safe_text import visible
from gate_tui.session.undo import START, UndoJournal

MAX_VALUE_BYTES = 5_000_000
"""The largest value file "Open value…" reads (as the gate editor's state files)."""


@dataclass(frozen=True)
class Step:
    """One point in the history: the value, the system's result for it, and what made it."""

    value: dict[str, Any] | None
    result: ContractResult | None
    actor: str  # "assistant" (a reply), "user" (a leaf edit) or "start"
    label: str


START_STEP = Step(None, None, "start", "empty")
"""Before any change: no value yet."""


@dataclass
class ContractEditor:
    """The current value, its history and the session's files."""

    contract: Contract
    folder: Path | None = None
    history: UndoJournal[Step] = field(default_factory=UndoJournal)  # both editors' one kind
    preview_count: int = 0  # how many previews were computed (tests and scenes wait on it)
    model_calls: list[dict[str, Any]] = field(
        default_factory=list
    )  # the conversation (F6), journaled and replayed
    lock: Any = None  # the session lock (gate_tui.session.lock.SessionLock) while writing
    _journal: Any = None

    # --- reading ------------------------------------------------------------------

    @property
    def steps(self) -> list[Step]:
        """The start and the changes undo and redo move through (a redo branch dropped by a
        later change is not among them; :attr:`history` keeps it)."""
        return [START_STEP, *self.history.stacked]

    @property
    def index(self) -> int:
        """Where in :attr:`steps` the current value is (0: the start)."""
        return self.history.position

    @property
    def can_undo(self) -> bool:
        return self.history.can_undo

    @property
    def can_redo(self) -> bool:
        return self.history.can_redo

    @property
    def current(self) -> Step:
        current = self.history.current
        return START_STEP if current == START else self.history.entries[current]

    @property
    def value(self) -> dict[str, Any] | None:
        return self.current.value

    @property
    def result(self) -> ContractResult | None:
        return self.current.result

    def preview(self, text: str) -> ContractResult:
        """What applying ``text`` would give; changes nothing."""
        self.preview_count += 1
        return check_contract(text, self.contract)

    def place(self, path: str) -> tuple[Any, dict[str, Any], str]:
        """The value at ``path``, its schema and the kind of editor it needs."""
        current = value_at(self.value, path)
        schema = schema_at(self.contract.schema, self.value, path)
        return current, schema, leaf_kind(schema, current)

    # --- changing -----------------------------------------------------------------

    def apply_reply(
        self, text: str, call: int | None = None, checked: ContractResult | None = None
    ) -> tuple[ContractResult, str | None]:
        """Take a reply's value as the current value; an error when it holds no object.

        ``call`` is the model call the reply came from: the change links back to it, so the
        journal says which calls were applied (as a gate session's ``reply`` records do).
        ``checked``: the preview's result for this very text (the check depends on the text
        and the contract only), used instead of checking it again.
        """
        result = checked if checked is not None else check_contract(text, self.contract)
        if result.value is None:
            return result, "no JSON object in the reply: nothing changed"
        verdict = (
            "VALID"
            if result.ok
            else f"INVALID ({len(result.errors)} error{'s' * (len(result.errors) != 1)})"
        )
        return result, self._push(
            Step(result.value, result, "assistant", f"reply applied: {verdict}"), call
        )

    def edit_leaf(
        self, path: str, text: str, *, as_json: bool = False
    ) -> tuple[ContractResult | None, str | None]:
        """Set ``path`` from what the user typed: read as the leaf's kind, or as JSON text."""
        if self.value is None:
            return None, "no value yet: paste and apply a reply first"
        _current, _schema, kind = self.place(path)
        if as_json:
            kind = "container"
        typed, problem = coerce(text, kind if kind != "enum" else "string")
        if problem is not None:
            return None, problem
        return self.set_value(path, typed)

    def set_value(self, path: str, new: Any) -> tuple[ContractResult | None, str | None]:
        """Set ``path`` to an already-typed value (an enum choice, a boolean switch)."""
        if self.value is None:
            return None, "no value yet: paste and apply a reply first"
        patched, problem = set_at(self.value, path, new)
        if patched is None:
            return None, problem
        return self._check_patch(patched, f"set {path or '/'}")

    def remove(self, path: str) -> tuple[ContractResult | None, str | None]:
        """Remove the key or item at ``path`` (an extra key, say)."""
        if self.value is None:
            return None, "no value yet"
        patched, problem = remove_at(self.value, path)
        if patched is None:
            return None, problem
        return self._check_patch(patched, f"removed {path}")

    def open_value(self, path: Path) -> tuple[bool, str | None]:
        """"Open value…": a JSON file becomes the current value, as a user edit the contract
        judges. ``(changed, problem)``: a problem changes nothing; the current value again
        records nothing. An invalid value is kept, as an invalid reply is (it is there to be fixed).
        """
        from gate_tui.safe_read import read_regular

        try:
            data = read_regular(path, MAX_VALUE_BYTES, "value file")
        except FileNotFoundError:
            return False, f"{path} does not exist"
        if isinstance(data, str):
            return False, f"{path} {data}"
        try:
            value = json.loads(data.decode("utf-8-sig"))
        except UnicodeDecodeError:
            return False, f"{path} is not UTF-8 text"
        except (ValueError, RecursionError) as exc:
            return False, f"{path} is not valid JSON ({exc})"
        if not isinstance(value, dict):
            return False, f"{path} does not hold a JSON object"
        if value == self.value:
            return False, None
        _result, problem = self._check_patch(value, f"opened {visible(path.name, one_line=True)}")
        return True, problem

    def _check_patch(
        self, patched: dict[str, Any], label: str
    ) -> tuple[ContractResult, str | None]:
        result = check_contract(patched, self.contract)  # the system, not the editor, decides
        return result, self._push(Step(result.value, result, "user", label))

    def undo(self) -> bool:
        if self.history.undo() is None:
            return False
        self._record({"kind": "undo", "index": self.index})
        return True

    def redo(self) -> bool:
        if self.history.redo() is None:
            return False
        self._record({"kind": "redo", "index": self.index})
        return True

    def jump_to(self, index: int) -> tuple[bool, str | None]:
        """Make the value of change ``index`` (an index into ``history.entries``: every change
        ever made, an undone branch's too) current again, as a new, undoable change. It is
        journaled as a change carrying the whole value, so a resume replays it as one.
        ``(moved, problem)``: the start holds no value and is not a place to jump to."""
        if index == START:
            return False, None

        def restored(target: int) -> Step:
            step = self.history.entries[target]
            label = f"restored change {target + 1}"
            return Step(step.value, step.result, "user", label)

        step = self.history.jump_to(index, restored)
        if step is None:
            return False, None
        return True, self._journal_change(step)

    def _push(self, step: Step, call: int | None = None) -> str | None:
        self.history.push(step)
        return self._journal_change(step, call)

    def _journal_change(self, step: Step, call: int | None = None) -> str | None:
        result = step.result
        link = {} if call is None else {"call": call}
        self._mark_applied(call)
        return self._record(
            {
                "kind": "change",
                "actor": step.actor,
                "label": step.label,
                "ok": None if result is None else result.ok,
                "errors": []
                if result is None
                else [{"code": e.code, "path": e.path} for e in result.errors],
                "value": step.value,
                **link,
            }
        )

    def _mark_applied(self, call: Any) -> None:
        for record in self.model_calls:
            if isinstance(call, int) and record.get("seq") == call:
                record["applied"] = True

    # --- files --------------------------------------------------------------------

    def open_journal(self, base: Path | None = None) -> str | None:
        """Create the session folder and its journal; an error message when that fails."""
        from gate_tui.session.journal import JournalWriter
        from gate_tui.session.paths import (
            JOURNAL_NAME,
            create_session_dir,
            session_stem,
            sessions_dir,
        )

        try:
            self.folder = create_session_dir(
                base or sessions_dir(), "contract-" + session_stem(Path(self.contract.path))
            )
        except OSError as exc:
            return f"cannot create a session folder: {exc.strerror or exc}"
        # The gate sessions' header keys, so `gate-tui sessions` lists contract sessions too.
        header = {
            "kind": "header",
            "mode": "contract",
            "config_path": str(Path(self.contract.path).resolve()),
            "config_title": self.contract.title,
            "started": _now(),
        }
        self._journal, problem = JournalWriter.create(self.folder / JOURNAL_NAME, header)
        return problem

    def _record(self, record: dict[str, Any]) -> str | None:
        if self._journal is None:
            return None
        return self._journal.append({**record, "at": _now()})

    @property
    def journaling(self) -> bool:
        """Whether every change is written to a journal (False in memory, or when it failed)."""
        return self._journal is not None

    def close(self) -> None:
        if self._journal is not None:
            if (
                not self._journal.closed
            ):  # a clean exit, as gate sessions mark it (`gate-tui sessions`)
                self._record({"kind": "close"})
            self._journal.close()
        if self.lock is not None:
            self.lock.release()
            self.lock = None

    def attach(self, folder: Path, journal: Any, lock: Any) -> None:
        """Write to an existing session (resumed by :mod:`gate_tui.editing.contract_sessions`)."""
        self.folder, self._journal, self.lock = folder, journal, lock
        self._record({"kind": "open"})  # reopened: until a "close" follows, it was not left cleanly

    def replay(self, records: list[dict[str, Any]]) -> None:
        """Rebuild the history from journal records; each value is checked again.

        Records are data from disk: anything that is not a well-formed change, undo,
        redo or model call is skipped rather than trusted. The model calls are kept as
        they are: they are the conversation a resumed editor continues.
        """
        self.history = UndoJournal()
        self.model_calls = []
        for record in records:
            kind = record.get("kind")
            if kind == "model_call":
                self.model_calls.append(record)
            elif kind == "change" and isinstance(record.get("value"), dict):
                result = check_contract(record["value"], self.contract)
                actor, label = str(record.get("actor", "user")), str(record.get("label", "change"))
                self.history.push(Step(result.value, result, actor, label))
                self._mark_applied(record.get("call"))
            elif kind in ("undo", "redo") and isinstance(record.get("index"), int):
                self.history.seek(record["index"])  # an index off the stack moves nothing

    def export(self, path: Path | None = None) -> tuple[Path | None, str | None]:
        """Write the current value as pretty JSON (atomically); the path written or why not."""
        if self.value is None:
            return None, "nothing to export yet"
        target = path or self._default_path("value.json")
        text = json.dumps(self.value, indent=2, ensure_ascii=False) + "\n"
        problem = atomic_write_text(target, text)
        return (None, problem) if problem else (target, None)

    def write_report(self, path: Path | None = None) -> tuple[Path | None, str | None]:
        target = path or self._default_path("report.md")
        problem = atomic_write_text(target, self.report())
        return (None, problem) if problem else (target, None)

    def _default_path(self, name: str) -> Path:
        return (self.folder or Path.cwd()) / name

    def report(self) -> str:
        """A Markdown report: the decision, every error, the timeline and the value."""
        from gate_tui.editing.contract_report import contract_report

        contract = self.contract
        return contract_report(
            contract.title, contract.path, self.result, self.steps, self.index, self.value
        )


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
