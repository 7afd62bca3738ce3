"""``gate-tui check --contract FILE``: replies checked against a contract, one by one.

The contract counterpart of :mod:`gate_tui.cli.check` (whose reply reading it reuses):
``text`` prints VALID / INVALID with every error at its JSON Pointer and every repair at
its line:column; ``json`` prints the :class:`~gate_tui.contracts.results.ContractResult`,
one compact line per reply; ``--envelope`` prints the service envelope instead. Exit
statuses: 0 every reply valid, 2 some reply invalid, 3 an unreadable FILE.
"""

from __future__ import annotations

import json
import sys
from typing import IO, Any

from gate_tui.cli.check import (
    Reply,
    listed,
    readable_replies,
    repair_line,
    total_line,
    use_color,
    with_file,
    worst,
)
from gate_tui.cli.contract_options import load_options
from gate_tui.contracts.checking import check_contract
from gate_tui.contracts.loading import Contract, LoadOptions
from gate_tui.contracts.results import ContractError, ContractResult
from gate_tui.exit_codes import EXIT_INVALID, EXIT_PASS, EXIT_USAGE
from gate_tui.json_text import json_str, model_json_bytes
from gate_tui.safe_text import json_visible, visible


def result_for(reply: Reply, contract: Contract) -> ContractResult:
    """The contract result of a readable reply (undecodable bytes give an invalid one)."""
    if reply.undecodable is not None:
        error = ContractError(code="invalid_json", message=reply.undecodable, expected="UTF-8 text")
        return ContractResult(ok=False, errors=[error])
    assert reply.text is not None
    return check_contract(reply.text, contract)


def render_text(name: str, result: ContractResult, contract: Contract, color: bool = False) -> str:
    """A plain human summary: verdict, every error at its path, repairs, warnings."""
    lines = [f"{name}: "]  # the verdict's own colour codes join after visible(): kept as colours
    lines += listed("errors", [describe_error(error) for error in result.errors])
    lines += listed("repairs applied", [repair_line(repair) for repair in result.repairs])
    lines += listed(
        "warnings", [f"{warning.message} [{warning.code}]" for warning in result.warnings]
    )
    shown = [visible(row, one_line=True) for row in lines]
    shown[0] += _verdict(result, contract, color)
    return "\n".join(shown) + "\n"


def describe_error(error: ContractError) -> str:
    """``/choices/0/id: "x" is not a "uuid" (expected a valid uuid) [invalid_value]``."""
    return f"{error.path or '/'}: {error.message}{error.expected_detail()} [{error.code}]"


def verdict_value(result: ContractResult, contract: Contract) -> str | None:
    """The ``verdict_field``'s value as text, when the contract names one and the value has it."""
    name = contract.verdict_field
    if name is None or not isinstance(result.value, dict) or name not in result.value:
        return None
    return json.dumps(result.value[name], ensure_ascii=False)


def _verdict(result: ContractResult, contract: Contract, color: bool) -> str:
    word, paint = (
        ("VALID", "1;32")
        if result.ok
        else (f"INVALID ({len(result.errors)} error{'s' * (len(result.errors) != 1)})", "1;31")
    )
    shown = f"\x1b[{paint}m{word}\x1b[0m" if color else word
    verdict = verdict_value(result, contract)
    return shown + (
        visible(f" — {contract.verdict_field}: {verdict}", one_line=True)
        if verdict is not None
        else ""
    )


def render_json(result: ContractResult, envelope: bool = False, name: str | None = None) -> str:
    """One compact JSON line: the result, or its envelope. C1, bidi and zero-width characters
    become ``\\u`` escapes (the gate ``check`` rule, :func:`~gate_tui.safe_text.json_visible`):
    the same data for a program, nothing a terminal acts on; a lone surrogate never raises."""
    text = json_str(result.envelope()) if envelope else model_json_bytes(result).decode("utf-8")
    if name is not None and not envelope:  # the envelope is a service's shape: kept as it is
        text = with_file(name, text)
    return json_visible(text) + "\n"


def run_contract_check(
    sources: list[str],
    contract: Contract,
    fmt: str,
    envelope: bool,
    out: IO[str],
    err: IO[str],
    stdin: IO[bytes],
    conversation: list[Any] | None = None,
) -> int:
    """Check each source in order, print one result each, return the worst status."""
    color = fmt == "text" and not envelope and use_color(out)
    statuses: list[int] = []
    for index, reply in readable_replies(sources, stdin, err, statuses):
        result = result_for(reply, contract)
        if conversation is not None:
            result = grounded_contract_result(result, contract, conversation)
        if envelope or fmt == "json":
            out.write(render_json(result, envelope, reply.name))
        else:
            out.write(("\n" if index else "") + render_text(reply.name, result, contract, color))
        statuses.append(EXIT_PASS if result.ok else EXIT_INVALID)
    if fmt == "text" and not envelope and len(sources) > 1:
        out.write("\n" + total_line(statuses, ((EXIT_PASS, "VALID"), (EXIT_INVALID, "INVALID"))))
    return worst(statuses)


def grounded_contract_result(result: Any, contract: Contract, conversation: list[Any]) -> Any:
    """``x-grounded`` strings checked against the user's words: a warning each that is not
    the user's (``ungrounded_value``), an error (``rule_failed``) when the contract's
    ``x-gate-tui`` block sets ``grounding: require``."""
    from gate_tui.contracts.results import ContractError, ContractWarning
    from gate_tui.grounding.apply import finding_message
    from gate_tui.grounding.contract import contract_findings

    if result.value is None:
        return result
    findings, problem = contract_findings(contract.schema, result.value, conversation)
    meta = contract.meta if isinstance(contract.meta, dict) else {}
    policy = (
        meta.get("grounding") if meta.get("grounding") in ("off", "warn", "require") else "warn"
    )
    if policy == "off":
        return result
    warnings, errors = list(result.warnings), list(result.errors)
    if problem is not None:
        warnings.append(ContractWarning(code="conversation_unreadable", message=problem))
    for finding in findings:
        if finding["kind"] == "grounded":
            continue
        message = finding_message(finding)
        if finding["kind"] == "ungrounded" and policy == "require":
            errors.append(
                ContractError(
                    code="rule_failed",
                    path=finding["path"],
                    message=message,
                    expected="the user's words",
                )
            )
        else:
            code = "near_grounded" if finding["kind"] == "near" else "ungrounded_value"
            warnings.append(ContractWarning(code=code, path=finding["path"], message=message))
    return result.model_copy(update={"warnings": warnings, "errors": errors, "ok": not errors})


def load_contract_or_report(
    path: str, prog: str, options: LoadOptions | None = None
) -> Contract | None:
    """The contract, or None after printing one line per problem to stderr (warnings too)."""
    from gate_tui.cli.common import say
    from gate_tui.contracts.loading import check_contract_file

    contract, problems = check_contract_file(path, options)
    for problem in problems:
        say(f"{prog}: {problem}")
    for warning in contract.warnings if contract is not None else ():
        say(f"{prog}: {path}: warning: {warning}")
    return contract


def check_against_contract(ns: Any) -> int:
    """``check --contract``: FILEs (or stdin) one by one, or a ``--jsonl`` batch."""
    contract = load_contract_or_report(ns.contract, "gate-tui check", load_options(ns))
    if contract is None:
        return EXIT_USAGE
    if ns.jsonl is not None:
        return _check_jsonl(ns, contract)
    if ns.input is not None:
        from gate_tui.cli.input_check import check_input
        from gate_tui.runs.contract_rows import contract_settings

        return check_input(ns, contract_settings(contract, ns.envelope))
    from gate_tui.cli.check_streams import to_text_output

    conversation = None
    if getattr(ns, "conversation", None):
        from gate_tui.cli.check import load_conversation
        from gate_tui.cli.common import usage

        conversation, trouble = load_conversation(ns.conversation)
        if trouble is not None:
            return usage("check", f"--conversation {trouble}")
    fmt = ns.format or "text"
    return to_text_output(
        ns.output,
        lambda out: run_contract_check(
            ns.files or ["-"],
            contract,
            fmt,
            ns.envelope,
            out,
            sys.stderr,
            sys.stdin.buffer,
            conversation,
        ),
    )


def _check_jsonl(ns: Any, contract: Contract) -> int:
    """The gate batch's streams and workers, with the contract's line checker."""
    from gate_tui.cli.check_streams import check_jsonl
    from gate_tui.runs.contract_rows import contract_settings

    return check_jsonl(ns, None, None, settings=contract_settings(contract, ns.envelope))


def contract_session_report(
    name: str, output: str | None, options: LoadOptions | None = None
) -> int | None:
    """``gate-tui report`` for a contract session; None when ``name`` is not one."""
    from pathlib import Path

    from gate_tui.cli.common import say
    from gate_tui.session.catalog import find_session
    from gate_tui.session.journal import read_header
    from gate_tui.session.paths import JOURNAL_NAME

    folder = find_session(name) or (Path(name) if Path(name, JOURNAL_NAME).is_file() else None)
    header = read_header(folder / JOURNAL_NAME) if folder is not None else None
    if header is None or header.get("mode") != "contract":
        return None
    contract = load_contract_or_report(
        str(header.get("config_path") or ""), "gate-tui report", options
    )
    if contract is None:
        return EXIT_USAGE
    from gate_tui.atomic import atomic_write_text
    from gate_tui.editing.contract_sessions import contract_report

    text = contract_report(folder, contract)
    if output is None:
        sys.stdout.write(text)
        return 0
    problem = atomic_write_text(Path(output), text)
    if problem is not None:
        say(f"gate-tui report: {problem}")
        return EXIT_USAGE
    return 0
