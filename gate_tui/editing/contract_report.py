"""A contract session's Markdown report (``gate-tui contract`` Export report…): the
decision, every error at its JSON Pointer, the timeline and the value, each bounded like
every report value and shown as data, never as Markdown that acts."""

from __future__ import annotations

import json
from typing import Any

from gate_tui.safe_text import visible
from gate_tui.session.report_doc import LABEL_CHARS, bounded


def contract_report(
    title: str, path: str, result: Any, steps: list[Any], index: int, value: Any
) -> str:
    """A Markdown report: the decision (``result``, a contract result or None), every error,
    the timeline (``steps``, ``index`` the current one) and the value."""
    count = 0 if result is None else len(result.errors)
    verdict = (
        "no value yet"
        if result is None
        else ("VALID" if result.ok else f"INVALID ({count} error{'s' * (count != 1)})")
    )
    rows = [
        f"# Contract report: {title}",
        "",
        f"- contract: `{path}`",
        f"- decision: **{verdict}**",
    ]
    if result is not None and result.errors:
        rows += ["", "## Errors", ""] + [
            f"- `{bounded(e.path or '/', LABEL_CHARS)}` {e.code}: {_md(e.message)}"
            for e in result.errors
        ]
    rows += ["", "## Timeline", ""]
    rows += [
        f"{n}. {step.actor}: {_md(step.label)}{' ← current' if n == index else ''}"
        for n, step in enumerate(steps)
    ]
    if value is not None:
        rows += [
            "",
            "## Value",
            "",
            "```json",
            # Bounded like every report value: a 1 MB key is not a 1 MB report.
            str(bounded(json.dumps(value, indent=2, ensure_ascii=True))).replace(
                "```", "`\u200b``"
            ),
            "```",
        ]
    return visible("\n".join(rows)) + "\n"


def _md(text: str) -> str:
    """Model text inside Markdown: neutralise the characters that would make links or tags."""
    return (
        visible(bounded(text, 2_000) or "", one_line=True)
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("[", "\\[")
        .replace("]", "\\]")
        .replace("`", "'")
    )
