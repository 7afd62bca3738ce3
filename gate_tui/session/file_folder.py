"""The one folder a served editor's file commands may use (``--files DIR``).

In ``gate-tui serve`` whoever has the page types the paths of Save as, Open and Export;
they must not reach the rest of the disk (``~/.bashrc``, ``../x``, ``/tmp/x``, a symlink
that leads out). :func:`inside_folder` is the whole rule, kept free of the UI so it is
tested on its own: a relative path is taken inside the folder, symlinks are followed
before the check, and the checked (resolved) path is the one to use — so what is written
or read is exactly what was checked.
"""

from __future__ import annotations

import os
from pathlib import Path

MAX_PATH = 4096


def inside_folder(folder: Path, asked: str) -> tuple[Path | None, str | None]:
    """``asked`` (as typed) resolved inside ``folder``, or None and why it is refused."""
    text = asked.strip()
    if not text:
        return None, "Give a file name."
    if "\x00" in text or len(text) > MAX_PATH:
        return None, "Not a usable file name."
    try:
        root = folder.resolve()
        candidate = Path(os.path.expanduser(text))
        target = (candidate if candidate.is_absolute() else root / candidate).resolve()
    except (OSError, RuntimeError, ValueError):  # a symlink loop, an unreadable folder
        return None, f"{text}: cannot be resolved inside {folder}."
    if target == root or not target.is_relative_to(root):
        return None, (
            f"{text}: outside the files folder {root} — this editor reads and writes only there "
            "(give a name such as gate-state.json)."
        )
    return target, None
