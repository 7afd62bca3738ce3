"""Tell a contract file from a gate config without loading either: it names a ``$schema``.

Kept apart (standard library only) because the editor asks this before its first frame,
which must not import pydantic or yaml.
"""

from __future__ import annotations

import re
from pathlib import Path

# "$schema" as a key (JSON or YAML, quoted or not), not merely mentioned in a comment.
# Read over at most 4 KB, so no pattern here can cost much.
_SCHEMA_KEY = re.compile(r"""(?:^|[{,])[ \t]*["']?\$schema["']?[ \t]*:""", re.MULTILINE)


def looks_like_contract(path: str | Path) -> bool:
    """Whether a file given as the editor's CONFIG is a contract.

    Reads only the first 4 KB: a gate config has no ``$schema`` key, and a contract
    states it near the top.
    """
    try:
        with open(path, "rb") as stream:
            head = stream.read(4096).decode("utf-8", "replace")
    except OSError:
        return False
    return _SCHEMA_KEY.search(head) is not None
