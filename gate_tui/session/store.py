"""The state file: the state on screen, rewritten atomically after every transition.

Format 1::

    {"format": 1, "fingerprint": "…", "config_path": "…", "config_title": "…",
     "state": {canonical state}, "decision": {…}, "saved_at": "…"}

Reading also accepts a bare canonical state (``{"summary", "gates", "status"}``), the
output of "Export state JSON", so an exported file can be opened again. Whatever is
read goes through ``parse(…, actor="user")`` over the empty state before use, so the
system — not the file — decides PASS / NO PASS, and a file written for another config
(a different fingerprint) is refused with a message saying so.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gate_tui.atomic import atomic_write_text
from gate_tui.config.loading import config_fingerprint
from gate_tui.json_text import json_str
from gate_tui.models import GateConfig, GateDecision, GateState, ParseResult
from gate_tui.parsing.pipeline import empty_state, parse
from gate_tui.safe_read import read_regular
from gate_tui.session.history import now_iso

STATE_FORMAT = 1
MAX_STATE_BYTES = 5_000_000


@dataclass(frozen=True)
class StateFileLoad:
    """A state file as read: its state object and metadata, or why it cannot be used."""

    exists: bool
    state: dict[str, Any] | None = None
    fingerprint: str | None = None
    config_path: str | None = None
    error: str | None = None


def state_document(
    state: GateState,
    decision: GateDecision,
    fingerprint: str,
    config_path: str | None,
    title: str = "",
) -> dict[str, Any]:
    """The JSON object a state file holds."""
    return {
        "format": STATE_FORMAT,
        "fingerprint": fingerprint,
        "config_path": config_path,
        "config_title": title,
        "state": state.model_dump(mode="json"),
        "decision": decision.model_dump(mode="json"),
        "saved_at": now_iso(),
    }


def write_state_file(path: Path, document: dict[str, Any], *, confined: bool = False) -> str | None:
    """Atomically replace ``path`` with ``document``; an error message or None.

    ``confined``: a session's own state file, never written through a symbolic link that
    leads outside its folder (see :func:`gate_tui.atomic.atomic_write_text`).
    """
    folder = Path(path).parent if confined else None
    return atomic_write_text(path, json_str(document, indent=2) + "\n", confined_to=folder)


def state_json(state: GateState) -> str:
    """The canonical state alone, as people and other tools want it (``pass`` as the key)."""
    return json_str(state.model_dump(mode="json"), indent=2) + "\n"


def read_state_file(path: Path) -> StateFileLoad:
    """Read a state file (format 1 or a bare state) without validating it against a config."""
    try:
        data = read_regular(path, MAX_STATE_BYTES, "state file")
    except FileNotFoundError:
        return StateFileLoad(False, error=f"{path} does not exist")
    if isinstance(data, str):
        return StateFileLoad(True, error=f"{path} {data}")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return StateFileLoad(True, error=f"{path} is not UTF-8 text")
    return _decode(text, path)


def _decode(text: str, path: Path) -> StateFileLoad:
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        return StateFileLoad(True, error=f"{path} is not valid JSON ({exc})")
    if not isinstance(data, dict):
        return StateFileLoad(True, error=f"{path} does not hold a JSON object")
    if "state" in data and "format" in data:
        return _document(data, path)
    if "gates" in data:
        return StateFileLoad(True, state=data)
    return StateFileLoad(True, error=f"{path} is neither a gate-tui state file nor a gate state")


def _document(data: dict[str, Any], path: Path) -> StateFileLoad:
    if data.get("format") != STATE_FORMAT:
        return StateFileLoad(
            True,
            error=(
                f"{path} has state file format {data.get('format')!r}; this gate-tui reads format "
                f"{STATE_FORMAT}"
            ),
        )
    state = data.get("state")
    if not isinstance(state, dict):
        return StateFileLoad(True, error=f"{path}: 'state' is not an object")
    fingerprint = data.get("fingerprint")
    config_path = data.get("config_path")
    return StateFileLoad(
        True,
        state=state,
        fingerprint=fingerprint if isinstance(fingerprint, str) else None,
        config_path=config_path if isinstance(config_path, str) else None,
    )


def foreign_message(path: Path | str, found: str, config: GateConfig, config_label: str) -> str:
    """The message for a file written for another config (or another version of it)."""
    return (
        f"{path} was written for a different config (fingerprint {found}; "
        f"{config_label} has {config_fingerprint(config)}), so it was not loaded"
    )


def validate_loaded(
    load: StateFileLoad, config: GateConfig, path: Path, config_label: str
) -> tuple[ParseResult | None, str | None]:
    """Check a read state file against ``config``: fingerprint, then ``parse`` as a user edit.

    Returns the parse result (``ok`` or not) or an error message when it cannot even
    be parsed (unreadable file, foreign fingerprint).
    """
    if load.error is not None or load.state is None:
        return None, load.error or f"{path} holds no state"
    if load.fingerprint is not None and load.fingerprint != config_fingerprint(config):
        return None, foreign_message(path, load.fingerprint, config, config_label)
    return parse(load.state, config, empty_state(config), actor="user"), None
