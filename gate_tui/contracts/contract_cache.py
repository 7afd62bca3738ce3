"""Checked contracts remembered by their text, as gate configs are (:mod:`gate_tui.config.cache`).

Reading a YAML contract and checking it against its draft's meta-schema depends only on
its text, the file's suffix and the ``--draft`` given, so once a text has passed, its
schema (as JSON), its draft and its load warnings are kept under a key made of those and
the gate-tui version. The next load of the same text skips the YAML parser and the
meta-schema check. References are resolved and the validator compiled on every load
(the files a contract refers to may have changed; compiling takes milliseconds).

An entry that is missing, damaged or of another shape is a miss; a folder that cannot be
written is skipped. The entries live in ``contracts/`` of the config cache folder.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any, NamedTuple

from gate_tui.version import __version__

ENTRY_FORMAT = 1


class CachedContract(NamedTuple):
    schema: dict[str, Any]
    draft: int
    warnings: tuple[str, ...]


def contract_key(suffix: str, draft_option: int | None, text: str) -> str:
    """The entry name: any change to the text, the suffix, ``--draft`` or the version changes it."""
    digest = hashlib.sha256(
        f"gate-tui {__version__}\0contract\0{suffix}\0{draft_option}\0".encode()
    )
    digest.update(text.encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def _folder() -> Path:
    from gate_tui.config.cache import cache_dir

    return cache_dir() / "contracts"


def load_cached(key: str) -> CachedContract | None:
    """The remembered contract under ``key``, or None for a miss (of whatever kind)."""
    try:
        entry = json.loads((_folder() / f"{key}.json").read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return None
    if not isinstance(entry, dict) or entry.get("format") != ENTRY_FORMAT:
        return None
    schema, draft, warnings = entry.get("schema"), entry.get("draft"), entry.get("warnings")
    if not (
        isinstance(schema, dict)
        and isinstance(draft, int)
        and isinstance(warnings, list)
        and all(isinstance(w, str) for w in warnings)
    ):
        return None
    return CachedContract(schema, draft, tuple(warnings))


def store_cached(key: str, contract: CachedContract) -> None:
    """Remember a contract that passed (best effort: a cache that cannot be written is skipped)."""
    from gate_tui.atomic import atomic_write_text
    from gate_tui.config.cache import prune

    folder = _folder()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return
    entry = {
        "format": ENTRY_FORMAT,
        "draft": contract.draft,
        "warnings": list(contract.warnings),
        "schema": contract.schema,
    }
    if (
        atomic_write_text(
            folder / f"{key}.json",
            json.dumps(entry, ensure_ascii=False, separators=(",", ":")) + "\n",
        )
        is None
    ):
        prune(folder)
