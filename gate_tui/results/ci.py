"""What ``gate-tui check`` hands to CI: workflow annotations, JUnit XML, a Markdown summary.

* **Annotations** (``--format github``) follow GitHub's workflow-command grammar,
  ``::error file=F,line=L,col=C,title=T::MESSAGE``: one ``::error`` per error of an invalid
  reply, one ``::warning`` per guessed repair (at its line and column) and per ungrounded
  answer, one ``::notice`` per NO PASS. For a reply file, positions are the reply's own;
  for a batch, the annotation points at the record's line of the input, and the message
  says where in the reply. Property values escape ``% \\r \\n : ,`` and messages ``% \\r \\n``
  as the runner expects, so a reply's text can never start another command.
* **JUnit XML** (``--junit FILE``): one ``<testcase>`` per reply, a ``<failure>`` for NO
  PASS, an ``<error>`` for an invalid reply; written a case at a time (a million replies
  never sit in memory), characters XML cannot carry replaced.
* **Markdown** (``--summary-md FILE``): for a batch the ``stats`` table
  (:mod:`gate_tui.results.stats_render`), for reply files a table of them.

Every function here takes a result as the plain JSON data ``check`` writes, so the same code
serves reply files and results files.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape, quoteattr

UNGROUNDED = ("ungrounded", "not_grounded")
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


@dataclass(frozen=True)
class Case:
    """One checked reply: its name, the file an annotation points at, the line of that file
    where the reply starts (1 for a reply file), whether positions inside the reply are the
    file's own, and the result as JSON data."""

    name: str
    file: str
    line: int
    result: dict[str, Any]
    inside: bool = True


def status_of(result: dict[str, Any]) -> str:
    decision = result.get("decision") if isinstance(result.get("decision"), dict) else None
    if not result.get("ok") or decision is None:
        return "VALID" if result.get("ok") else "invalid"
    return "PASS" if decision.get("pass") else "NO PASS"


def _property(value: Any) -> str:
    text = str(value)
    return (
        text.replace("%", "%25")
        .replace("\r", "%0D")
        .replace("\n", "%0A")
        .replace(":", "%3A")
        .replace(",", "%2C")
    )


def _data(value: Any) -> str:
    return str(value).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def command(kind: str, file: str, line: int, col: int, title: str, message: str) -> str:
    """One workflow command line."""
    where = f"file={_property(file)},line={line},col={col},title={_property(title)}"
    return f"::{kind} {where}::{_data(message)}\n"


def annotations(case: Case) -> Iterator[str]:
    """The annotations of one reply."""
    result = case.result

    def place(line: Any, column: Any) -> tuple[int, int, str]:
        line = line if isinstance(line, int) and line > 0 else 1
        column = column if isinstance(column, int) and column > 0 else 1
        if case.inside:
            return case.line + line - 1, column, ""
        return case.line, 1, f" (reply line {line}, column {column})"

    for error in _items(result, "errors"):
        line, col, where = place(error.get("line"), error.get("column"))
        path = f"{error.get('field_path')}: " if error.get("field_path") else ""
        yield command(
            "error",
            case.file,
            line,
            col,
            f"gate-tui: {error.get('code', 'error')}",
            f"{case.name}: {path}{error.get('message', '')}{where}",
        )
    for repair in _items(result, "repairs"):
        if repair.get("certainty") == "guess":
            line, col, where = place(repair.get("line"), repair.get("column"))
            message = (
                f"{case.name}: guessed repair, check it: {repair.get('message', '')} "
                f"[{repair.get('code', '')}]{where}"
            )
            yield command("warning", case.file, line, col, "gate-tui: guessed repair", message)
    for warning in _items(result, "warnings"):
        if any(word in str(warning.get("code", "")) for word in UNGROUNDED):
            line, col, where = place(warning.get("line"), warning.get("column"))
            yield command(
                "warning",
                case.file,
                line,
                col,
                "gate-tui: ungrounded answer",
                f"{case.name}: {warning.get('message', '')}{where}",
            )
    if status_of(result) == "NO PASS":
        decision = result["decision"]
        line, col, _where = place(1, 1)
        gate = f"; next gate: {decision.get('next_gate')}" if decision.get("next_gate") else ""
        yield command(
            "notice",
            case.file,
            line,
            col,
            "gate-tui: NO PASS",
            f"{case.name}: NO PASS ({decision.get('reason')}{gate})",
        )


def _items(result: dict[str, Any], name: str) -> list[dict[str, Any]]:
    return [item for item in result.get(name) or [] if isinstance(item, dict)]


def _xml(text: Any) -> str:
    return _NOT_XML.sub("\ufffd", str(text))


def write_junit(cases: Iterable[Case], target: Path, suite: str = "gate-tui check") -> str | None:
    """JUnit XML of ``cases`` (one testcase each) at ``target``; an error message or None.
    The cases stream to a temporary file first (a million replies never sit in memory),
    then the suite's counts head the final file, which replaces ``target`` whole."""
    import os
    import shutil
    import tempfile

    counts = {"tests": 0, "failures": 0, "errors": 0}
    target = Path(target)
    try:
        with tempfile.TemporaryFile("w+", encoding="utf-8", dir=target.parent or ".") as body:
            for case in cases:
                counts["tests"] += 1
                body.write(_testcase(case, counts))
            body.seek(0)
            partial = target.with_name(f".{target.name}.{os.getpid()}.tmp")
            with open(partial, "w", encoding="utf-8") as out:
                out.write('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites>\n')
                out.write(
                    f'<testsuite name={quoteattr(suite)} tests="{counts["tests"]}" '
                    f'failures="{counts["failures"]}" '
                    f'errors="{counts["errors"]}" skipped="0">\n'
                )
                shutil.copyfileobj(body, out)
                out.write("</testsuite>\n</testsuites>\n")
            os.replace(partial, target)
    except OSError as exc:
        return f"--junit {target}: {exc.strerror or exc}"
    return None


def _testcase(case: Case, counts: dict[str, int]) -> str:
    status = status_of(case.result)
    name = quoteattr(_xml(case.name)[:500])
    if status in ("PASS", "VALID"):
        return f'<testcase classname="gate-tui" name={name}/>\n'
    if status == "NO PASS":
        counts["failures"] += 1
        decision = case.result["decision"]
        text = f"NO PASS: {decision.get('reason')}; next gate: {decision.get('next_gate')}"
        return (
            f'<testcase classname="gate-tui" name={name}><failure type="NO PASS" '
            f"message={quoteattr(_xml(text))}/></testcase>\n"
        )
    counts["errors"] += 1
    errors = _items(case.result, "errors")
    text = (
        "; ".join(f"{error.get('code')}: {error.get('message')}" for error in errors)[:2000]
        or "invalid"
    )
    return (
        f'<testcase classname="gate-tui" name={name}><error type="invalid" '
        f"message={quoteattr(_xml(text))}>"
        f"{escape(_xml(text))}</error></testcase>\n"
    )


def files_markdown(cases: list[Case]) -> str:
    """The Markdown summary of reply files: one table row each."""
    from gate_tui.results.stats_render import md_cell

    out = [
        "## gate-tui check",
        "",
        "| reply | status | next gate | errors | repairs (guessed) |",
        "|---|---|---|---:|---:|",
    ]
    for case in cases:
        decision = (
            case.result.get("decision") if isinstance(case.result.get("decision"), dict) else {}
        )
        repairs = _items(case.result, "repairs")
        guessed = sum(1 for repair in repairs if repair.get("certainty") == "guess")
        out.append(
            f"| {md_cell(case.name)} | {status_of(case.result)} | "
            f"{md_cell(decision.get('next_gate') or '')} "
            f"| {len(_items(case.result, 'errors'))} | {len(repairs)} ({guessed}) |"
        )
    return "\n".join(out) + "\n"


def results_cases(path: Path, source: str) -> Iterator[Case]:
    """Each row of a results file as a :class:`Case` pointing at the input ``source``'s line."""
    if path.suffix.lower() in (".parquet", ".pq") or path.is_dir():
        import pyarrow.parquet as pq

        from gate_tui.results.sources import parquet_files

        for name in parquet_files(str(path)) if path.is_dir() else [str(path)]:
            parquet = pq.ParquetFile(name, pre_buffer=False)
            wanted = [
                column
                for column in ("id", "line", "result")
                if column in parquet.schema_arrow.names
            ]
            for batch in parquet.iter_batches(batch_size=4096, columns=wanted):
                columns = batch.to_pydict()
                for number, text in enumerate(columns["result"]):
                    line = columns["line"][number] if "line" in columns else None
                    yield _case(
                        columns.get("id", [None] * (number + 1))[number], line, text, source
                    )
        return
    with open(path, "rb") as handle:
        for raw in handle:
            try:
                record = json.loads(raw)
            except (ValueError, RecursionError):
                continue
            if isinstance(record, dict):
                yield _case(record.get("id"), record.get("line"), record.get("result"), source)


def _case(ident: Any, line: Any, result: Any, source: str) -> Case:
    if isinstance(result, str):
        try:
            result = json.loads(result)
        except (ValueError, RecursionError):
            result = {}
    line = line if isinstance(line, int) and line > 0 else 1
    name = f"line {line}" + (f" (id {ident})" if ident is not None else "")
    return Case(name, source, line, result if isinstance(result, dict) else {}, inside=False)
