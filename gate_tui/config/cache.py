"""Validated configs remembered by content, so the editor starts without pydantic or yaml.

Validating a config needs yaml and pydantic, and importing those two (with our models)
takes longer than Textual needs to show a frame. A config file rarely changes between
starts, so once a file's text has been validated its canonical JSON is kept here, under
a key made of the package version, the file's suffix and its exact text. The next start
with the same text reads that JSON (well under a millisecond) and draws the editor from
it; any change to the file, or a new gate-tui version, misses and validates again.

The cache is only ever an optimisation: an entry that is missing, unreadable, damaged or
of another shape is a miss, and a cache folder that cannot be written is ignored.
``GATE_TUI_CACHE_DIR`` moves it (tests do); by default it is the user cache folder.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from pathlib import Path

from gate_tui.config.loading import ConfigProblem, config_from_text, read_config_text
from gate_tui.config.spec import ConfigSpec, spec_from_data, spec_from_model
from gate_tui.version import __version__

CACHE_ENV = "GATE_TUI_CACHE_DIR"
ENTRY_FORMAT = 1
MAX_ENTRIES = 64


def cache_dir() -> Path:
    """Where validated configs are kept (``$GATE_TUI_CACHE_DIR`` or the user cache folder)."""
    override = os.environ.get(CACHE_ENV)
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_cache_dir("gate-tui", appauthor=False)) / "configs"


def cache_key(suffix: str, text: str) -> str:
    """The entry name for a config text: any change to the text or the version changes it."""
    digest = hashlib.sha256(f"gate-tui {__version__}\0{suffix}\0".encode())
    digest.update(text.encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def open_config(path: str | Path) -> tuple[ConfigSpec | None, list[ConfigProblem]]:
    """The config at ``path`` as a spec, from the cache when its text was validated before.

    Returns ``(spec, [])`` or ``(None, problems)``; never raises. A miss validates the
    text with :func:`gate_tui.config.loading.config_from_text` and remembers a valid config.
    """
    text, problem = read_config_text(path)
    if problem is not None:
        return None, [problem]
    assert text is not None
    suffix = Path(path).suffix.lower()
    key = cache_key(suffix, text)
    spec = load_entry(key)
    if spec is not None:
        return spec, []
    loaded = config_from_text(text, suffix, str(path))
    if loaded.config is None:
        return None, loaded.problems
    spec = spec_from_model(loaded.config)
    store_entry(key, spec)
    return spec, []


def load_entry(key: str) -> ConfigSpec | None:
    """The cached spec under ``key``, or None for a miss (of whatever kind)."""
    try:
        entry = json.loads((cache_dir() / f"{key}.json").read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return None
    if not isinstance(entry, dict) or entry.get("format") != ENTRY_FORMAT:
        return None
    return spec_from_data(entry.get("config"))


def store_entry(key: str, spec: ConfigSpec) -> None:
    """Remember ``spec`` under ``key`` (best effort: a cache that cannot be written is skipped)."""
    from gate_tui.atomic import atomic_write_text

    folder = cache_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return
    text = f'{{"format":{ENTRY_FORMAT},"config":{spec.source}}}\n'
    if atomic_write_text(folder / f"{key}.json", text) is None:
        prune(folder)


def prune(folder: Path) -> None:
    """Keep the newest :data:`MAX_ENTRIES` entries (every edit of a config adds one)."""
    with contextlib.suppress(OSError):
        entries = sorted(
            folder.glob("*.json"), key=lambda entry: entry.stat().st_mtime, reverse=True
        )
        for old in entries[MAX_ENTRIES:]:
            old.unlink(missing_ok=True)
