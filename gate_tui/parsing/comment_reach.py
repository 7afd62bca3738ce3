"""A line comment that swallows a closer and more members is not read as one.

``{"a": {"b": 1 // note }, "d": 2 }`` on one line: read as a comment to the end of the line,
``//`` takes the closer and the member after it, and the object comes back short (``d``
dropped, the rest read as cut off). What a writer meant is unknowable (a comment that ends
at the closer? text?), so such a reply is refused with the comment's position rather than
returned short: never a wrong object. Linear: each comment's own line is searched once.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

# A closer, then a comma and the start of another member or element.
_CLOSER_THEN_MORE = re.compile(r"[}\]][ \t]*,[ \t]*[\"'\w{\[-]")


def comment_over_members(text: str, records: Sequence[dict[str, Any]]) -> str | None:
    """Why the reply is refused when a ``#`` or ``//`` comment's line holds a closer
    followed by more members (None when no comment does)."""
    comments = [r for r in records if r.get("code") == "comment"]
    if not comments:
        return None
    starts = [0]  # the offset of each line, built once for all the comments
    for match in re.finditer("\n", text):
        starts.append(match.end())
    for record in comments:
        line, column = record.get("line"), record.get("column")
        if not isinstance(line, int) or not isinstance(column, int) or not 0 < line <= len(starts):
            continue
        at = starts[line - 1] + column - 1
        if not text.startswith(("#", "//"), at):
            continue
        end = starts[line] - 1 if line < len(starts) else len(text)
        if _CLOSER_THEN_MORE.search(text, at, end):
            return (
                f"the comment at line {line}:{column} runs over a closer and more members "
                "after it: the reply cannot be read with certainty"
            )
    return None
