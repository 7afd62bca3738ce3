"""``gate-tui check``'s CI outputs (:mod:`gate_tui.results.ci`): ``--format github``
annotations, ``--junit FILE`` and ``--summary-md FILE``, for reply files and for batches.

Reply files are checked here one by one (as :func:`gate_tui.cli.check.run_check` does) and
their results kept for the reports; a batch (``--jsonl`` / ``--input``) runs as usual and
its results file is read back once, a row at a time, for the annotations and reports.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import IO, Any

from gate_tui.cli.common import say
from gate_tui.exit_codes import EXIT_USAGE


def wants_ci(ns: argparse.Namespace) -> bool:
    return ns.format == "github" or ns.junit is not None or ns.summary_md is not None


def ci_usage(ns: argparse.Namespace) -> str | None:
    """What is wrong with the CI options in this combination, or None."""
    batch = ns.jsonl is not None or ns.input is not None
    if batch and wants_ci(ns) and ns.output in (None, "-"):
        return (
            "--format github, --junit and --summary-md of a batch read its results back: "
            "give -o RESULTS"
        )
    if wants_ci(ns) and ns.contract is not None:
        return "--format github, --junit and --summary-md apply to gate configs, not to --contract"
    return None


def run_files_ci(
    ns: argparse.Namespace, config: Any, previous: Any, out: IO[str], conversation: Any = None
) -> int:
    """Check reply FILEs, printing annotations (``--format github``) or the usual text, and
    write the reports asked for; the worst exit status."""
    from gate_tui.cli.check import (
        check_reply,
        exit_status,
        readable_replies,
        render_json,
        render_text,
        worst,
    )
    from gate_tui.json_text import model_json_bytes
    from gate_tui.results.ci import Case, annotations, files_markdown

    statuses: list[int] = []
    cases: list[Case] = []
    form = ns.format or "text"
    for index, reply in readable_replies(ns.files or ["-"], sys.stdin.buffer, sys.stderr, statuses):
        result = check_reply(reply, config, previous, ns.actor, conversation)
        case = Case(reply.name, reply.name, 1, json.loads(model_json_bytes(result)))
        cases.append(case)
        if form == "github":
            out.writelines(annotations(case))
        elif form == "json":
            out.write(render_json(result, reply.name))
        else:
            out.write(("\n" if index else "") + render_text(reply.name, result, False, config))
        statuses.append(exit_status(result))
    problem = _reports(ns, cases, lambda: files_markdown(cases))
    return EXIT_USAGE if problem else worst(statuses)


def after_batch(ns: argparse.Namespace, status: int) -> int:
    """A batch has written its results to ``-o``: its annotations and reports."""
    if status == EXIT_USAGE or not wants_ci(ns):
        return status
    from gate_tui.results.ci import annotations, results_cases

    results = Path(ns.output)
    source = ns.input if ns.input is not None else ns.jsonl
    if ns.format == "github":
        for case in results_cases(results, source):
            sys.stdout.writelines(annotations(case))
        sys.stdout.flush()

    def markdown() -> str:
        from gate_tui.cli.commands.stats import stats_text

        text, problem = stats_text(str(results), None, "md")
        return text if text is not None else f"gate-tui stats: {problem}\n"

    problem = _reports(ns, results_cases(results, source), markdown)
    return EXIT_USAGE if problem else status


def _reports(ns: argparse.Namespace, cases: Any, markdown: Any) -> str | None:
    from gate_tui.atomic import atomic_write_text
    from gate_tui.results.ci import write_junit

    problem = None
    if ns.junit is not None:
        problem = write_junit(cases, Path(ns.junit))
    if problem is None and ns.summary_md is not None:
        problem = atomic_write_text(Path(ns.summary_md), markdown())
    if problem is not None:
        say(f"gate-tui check: {problem}")
    return problem
