"""Contract sessions on disk, without Textual: open a new one, resume the last one, report one.

A contract session is a gate-style session folder (``contract-<stem>-<time>/``) holding
``journal.jsonl`` (header ``{"kind": "header", "mode": "contract", "config_path": …}``, then
``change`` / ``undo`` / ``redo`` records, each change carrying the whole value) and a
``lock`` held by the one editor writing it. Resuming replays the journal: every value is
checked again by ``check_contract`` (the system decides, also after a restart, also when
the contract file changed since), and the history, undo and redo included, is as it was.
"""

from __future__ import annotations

from pathlib import Path

from gate_tui.contracts.loading import Contract
from gate_tui.editing.contract_editor import ContractEditor
from gate_tui.session.journal import JournalWriter, read_header, read_journal
from gate_tui.session.lock import acquire
from gate_tui.session.paths import (
    JOURNAL_NAME,
    LOCK_NAME,
    same_config_path,
    session_stem,
    sessions_dir,
)


def session_prefix(contract: Contract) -> str:
    return "contract-" + session_stem(Path(contract.path))


def latest_session(contract: Contract, root: Path | None = None) -> Path | None:
    """The newest session folder of this contract (by name: names end with the start time)."""
    base = sessions_dir(root)
    try:
        folders = sorted(
            (p for p in base.glob(session_prefix(contract) + "-*") if p.is_dir()),
            key=lambda p: p.name,
            reverse=True,
        )
    except OSError:
        return None
    for folder in folders:
        header = read_header(folder / JOURNAL_NAME)
        if (
            header is not None
            and header.get("mode") == "contract"
            and same_config_path(header.get("config_path") or None, contract.path)
        ):
            return folder
    return None


def open_session(
    editor: ContractEditor, *, new: bool = False, root: Path | None = None
) -> str | None:
    """Resume the contract's last session (unless ``new``) or start one; a notice for the user."""
    folder = None if new else latest_session(editor.contract, root)
    if folder is None:
        problem = editor.open_journal(sessions_dir(root))
        return problem if problem is not None else _lock(editor, editor.folder)
    attempt = acquire(folder / LOCK_NAME)
    if attempt.busy:
        problem = editor.open_journal(sessions_dir(root))
        who = f" (pid {attempt.held_by})" if attempt.held_by else ""
        return problem or f"the last session is open in another editor{who}; started a new one"
    read = read_journal(folder / JOURNAL_NAME)
    writer, problem = JournalWriter.reopen(folder / JOURNAL_NAME, read)
    if writer is None:
        if attempt.lock is not None:
            attempt.lock.release()
        return problem
    editor.replay(read.records)
    editor.attach(folder, writer, attempt.lock)
    changes = len(editor.steps) - 1
    notes = "; ".join(read.notices)
    return (
        f"resumed {folder.name} ({changes} change{'s' * (changes != 1)}); --new starts afresh"
        + (f"; {notes}" if notes else "")
    )


def _lock(editor: ContractEditor, folder: Path | None) -> str | None:
    if folder is None:
        return None
    attempt = acquire(folder / LOCK_NAME)
    editor.lock = attempt.lock
    return attempt.error


def contract_report(folder: Path, contract: Contract) -> str:
    """The Markdown report of a saved contract session (``gate-tui report``)."""
    editor = ContractEditor(contract)
    editor.replay(read_journal(folder / JOURNAL_NAME).records)
    editor.folder = folder
    return editor.report()
