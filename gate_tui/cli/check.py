"""Single-reply checks for ``gate-tui check FILE ...``: read, parse, render, exit status.

Everything a reviewer's shell needs around the pure :func:`gate_tui.parse`, and nothing
else (the batch mode lives in :mod:`gate_tui.runs.engine`, the argument parsing in
:mod:`gate_tui.cli.main`):

* reading a reply from a file or stdin (``-``), undecodable bytes becoming an
  ``invalid_json`` result rather than a traceback;
* loading ``--previous``: a JSON file holding a gate state, or a ``ParseResult`` as
  ``check --format json`` prints it (its ``canonical_state`` is used), so checks chain;
* the payload rule for ``--actor user``: a reply that is one JSON object is the patch
  itself; any other text goes through extraction like a model's reply;
* rendering: ``text`` is a plain human summary (ANSI colour on the verdict only when
  the output is a terminal and ``NO_COLOR`` is unset); ``json`` is the ``ParseResult``
  itself, one compact object per line in the order of the files, each starting with
  ``"file"`` (the name as given; ``<stdin>`` for stdin); several files in ``text`` end with
  a total line;
* exit statuses: 0 PASS, 1 NO PASS, 2 the reply could not be parsed or validated,
  3 usage or config error (an unreadable FILE or ``--previous``); several files give
  the worst of them.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from gate_tui.decision import outstanding
from gate_tui.exit_codes import EXIT_INVALID, EXIT_NO_PASS, EXIT_PASS, EXIT_USAGE
from gate_tui.json_text import model_json_bytes
from gate_tui.models import GateConfig, GateState, ParseError, ParseResult, Repair
from gate_tui.parsing.pipeline import parse
from gate_tui.runs.blocks import MAX_LINE_BYTES
from gate_tui.runs.states import state_from_json
from gate_tui.runs.strict_json import STRICT_DECODER, RepeatedKey
from gate_tui.safe_read import read_regular
from gate_tui.safe_text import json_visible, visible
from gate_tui.session.store import MAX_STATE_BYTES
from gate_tui.warning_codes import is_repair

STDIN_NAME = "-"
REASONS = {
    "all_required_complete": "every required gate is answered",
    "required_missing": "a required gate is not answered yet",
    "required_blocked": "a required gate is answered with a blocking category",
    "required_ungrounded": "a required gate's answer is not the user's words (grounding: require)",
    "user_override": "the user overrode the decision",
}


@dataclass(frozen=True)
class Reply:
    """One reply to check: its display name and text, or why it could not be read."""

    name: str
    text: str | None = None
    problem: str | None = None
    undecodable: str | None = None


def exit_status(result: ParseResult) -> int:
    """0 PASS, 1 NO PASS, 2 not parsed or not valid."""
    if not result.ok or result.decision is None:
        return EXIT_INVALID
    return EXIT_PASS if result.decision.pass_ else EXIT_NO_PASS


def worst(statuses: Iterable[int]) -> int:
    """The status of several checks: the worst one (3 > 2 > 1 > 0)."""
    return max(statuses, default=EXIT_PASS)


def read_reply(source: str, stdin: IO[bytes]) -> Reply:
    """Read ``source`` (a path, or ``-`` for stdin) as UTF-8 text, without raising."""
    name = "<stdin>" if source == STDIN_NAME else source
    try:
        data = stdin.read() if source == STDIN_NAME else Path(source).read_bytes()
    except FileNotFoundError:
        return Reply(name, problem="file not found")
    except IsADirectoryError:
        return Reply(name, problem="is a directory, not a reply file")
    except OSError as exc:
        return Reply(name, problem=f"cannot read: {exc.strerror or exc}")
    try:
        return Reply(name, text=data.decode("utf-8-sig"))
    except UnicodeDecodeError as exc:
        return Reply(
            name, undecodable=f"the reply is not UTF-8 text ({exc.reason} at byte {exc.start})"
        )


def reply_payload(text: str, actor: str) -> Any:
    """What to hand to :func:`parse`: a user's reply that is one JSON object is the patch."""
    if actor != "user":
        return text
    try:
        value = STRICT_DECODER.decode(text)
    except (ValueError, RecursionError):  # a repeated key too: the parser reports it from the text
        return text
    return value if isinstance(value, dict) else text


def read_json_file(path: str, limit: int, what: str) -> tuple[Any, str | None]:
    """The JSON value in the regular file at ``path`` (at most ``limit`` bytes), or a
    message naming the file and what is wrong with it (never an exception, never a wait on
    a pipe)."""
    try:
        data = read_regular(path, limit, what)
    except FileNotFoundError:
        return None, f"{path}: file not found"
    if isinstance(data, str):
        return None, f"{path}: {data}"
    try:
        return STRICT_DECODER.decode(data.decode("utf-8-sig")), None
    except UnicodeDecodeError as exc:
        return None, f"{path}: cannot read: not UTF-8 ({exc.reason} at byte {exc.start})"
    except json.JSONDecodeError as exc:
        return None, f"{path}:{exc.lineno}: invalid JSON: {exc.msg} (column {exc.colno})"
    except RepeatedKey as exc:
        key = visible(exc.args[0], one_line=True)[:80]
        return None, f"{path}: gives the key {key!r} twice: which value was meant is unknowable"
    except (ValueError, RecursionError):
        return None, f"{path}: invalid JSON"


def load_previous(path: str) -> tuple[GateState | None, str | None]:
    """Read ``--previous``; the message names the file and what is wrong with it."""
    value, problem = read_json_file(path, MAX_STATE_BYTES, "state file")
    if problem is not None:
        return None, problem
    state, problem = state_from_json(value)
    return state, None if problem is None else f"{path}: {problem}"


def load_conversation(path: str) -> tuple[list[Any] | None, str | None]:
    """Read ``--conversation``: a JSON list of chat messages (OpenAI format), or a request
    body holding one (``messages``); as large as a batch line may be."""
    value, problem = read_json_file(path, MAX_LINE_BYTES, "conversation file")
    if problem is not None:
        return None, problem
    if isinstance(value, dict) and isinstance(value.get("messages"), list):
        value = value["messages"]  # a request body as it was sent
    if not isinstance(value, list) or not all(
        isinstance(m, dict) and isinstance(m.get("role"), str) for m in value
    ):
        return None, f"{path}: expected a JSON list of chat messages, each with a role"
    return value, None


def check_reply(
    reply: Reply,
    config: GateConfig,
    previous: GateState | None,
    actor: str,
    conversation: list[Any] | None = None,
) -> ParseResult:
    """The parse result for a readable reply (undecodable bytes give an invalid result),
    grounded in ``conversation`` when one is given (a model's reply only)."""
    if reply.undecodable is not None:
        error = ParseError(code="invalid_json", message=reply.undecodable)
        return ParseResult(ok=False, errors=[error])
    assert reply.text is not None
    result = parse(reply_payload(reply.text, actor), config, previous, actor)
    if conversation is not None and actor == "assistant":
        from gate_tui.grounding.apply import ground

        result = ground(result, config, conversation, reply.text, previous)
    return result


def render_json(result: ParseResult, name: str | None = None) -> str:
    """The ``ParseResult`` as one compact JSON line (``"pass"`` as the decision's key).

    With ``name``, the record starts with ``"file": name``, so the lines of several files
    can be told apart; everything after it is the ``ParseResult`` (drop ``file`` to
    validate one with ``ParseResult.model_validate_json``; ``--previous`` reads it as is)."""
    body = model_json_bytes(result).decode("utf-8")
    return json_visible(body if name is None else with_file(name, body)) + "\n"


def with_file(name: str, json_object: str) -> str:
    """A JSON object's text with ``"file": name`` as its first member."""
    return (
        '{"file":'
        + json.dumps(name, ensure_ascii=False)
        + ("," + json_object[1:] if json_object != "{}" else "}")
    )


GATE_TOTALS = ((EXIT_PASS, "PASS"), (EXIT_NO_PASS, "NO PASS"), (EXIT_INVALID, "INVALID"))


def total_line(statuses: list[int], words: tuple[tuple[int, str], ...] = GATE_TOTALS) -> str:
    """``total: 3 files: 1 PASS, 1 NO PASS, 1 INVALID`` (and how many could not be read)."""
    names = (*words, (EXIT_USAGE, "unreadable"))
    counts = [
        f"{statuses.count(status)} {word}"
        for status, word in names
        if status != EXIT_USAGE or status in statuses
    ]
    return f"total: {len(statuses)} files: {', '.join(counts)}\n"


def render_text(
    name: str, result: ParseResult, color: bool = False, config: GateConfig | None = None
) -> str:
    """A plain human summary: verdict, reason, next question, every outstanding required
    gate (given the ``config``), errors, repairs, warnings."""
    lines = [f"{name}: "]  # the verdict's own colour codes join after visible(): kept as colours
    decision = result.decision
    if decision is not None:
        lines.append(f"  reason: {REASONS.get(decision.reason, decision.reason)}")
        if decision.next_gate:
            blocked = (
                f" (blocked: classified {decision.blocked_value!r})"
                if decision.blocked_value
                else ""
            )
            lines.append(f"  next gate: {decision.next_gate}{blocked}")
            lines.append(f"  next question: {decision.next_question}")
        if config is not None and not decision.pass_ and result.canonical_state is not None:
            # Every gate that keeps it at NO PASS, so that one round trip fixes them all.
            still = outstanding(config, result.canonical_state.gates)
            if still.count > 1:
                lines += listed("missing required gates", list(still.missing)) + listed(
                    "blocked required gates", still.blocked_names()
                )
    if result.grounding is not None:
        lines.append(
            f"  grounding: {result.grounding.get('summary')} (policy "
            f"{result.grounding.get('policy')})"
        )
    lines += listed("errors", [_describe_error(error) for error in result.errors])
    lines += listed("repairs applied", [repair_line(r) for r in result.repairs])
    warnings = [w for w in result.warnings if not is_repair(w.code)]
    lines += listed(
        "warnings",
        [f"{_where(w)}{_at(w.field_path, w.message)}{w.message} [{w.code}]" for w in warnings],
    )
    # Model and user text is data: no control character or bidi override reaches the terminal.
    shown = [visible(row, one_line=True) for row in lines]
    shown[0] += _verdict(result, color)
    return "\n".join(shown) + "\n"


def listed(title: str, items: list[str]) -> list[str]:
    """A section of the text summary: ``  title (n):`` and one ``    - item`` line each; none when
    empty."""
    return [f"  {title} ({len(items)}):", *(f"    - {item}" for item in items)] if items else []


def repair_line(repair: Repair) -> str:
    """``line 7:101: removed a trailing comma before '}' [trailing_comma]``; guesses say so
    first."""
    if repair.certainty == "guess":
        return (
            f"GUESS at line {repair.line}:{repair.column}: {repair.message} [{repair.code}] — "
            "check it"
        )
    return f"line {repair.line}:{repair.column}: {repair.message} [{repair.code}]"


def use_color(stream: IO[str]) -> bool:
    """Colour only on a terminal, and never when ``NO_COLOR`` is set."""
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty()) and not os.environ.get("NO_COLOR")


def run_check(
    sources: list[str],
    config: GateConfig,
    previous: GateState | None,
    actor: str,
    fmt: str,
    out: IO[str],
    err: IO[str],
    stdin: IO[bytes],
    conversation: list[Any] | None = None,
) -> int:
    """Check each source in order, print one result each, return the worst status."""
    color = fmt == "text" and use_color(out)
    statuses: list[int] = []
    for index, reply in readable_replies(sources, stdin, err, statuses):
        result = check_reply(reply, config, previous, actor, conversation)
        if fmt == "json":
            out.write(render_json(result, reply.name))
        else:
            out.write(("\n" if index else "") + render_text(reply.name, result, color, config))
        statuses.append(exit_status(result))
    if fmt == "text" and len(sources) > 1:
        out.write("\n" + total_line(statuses))
    return worst(statuses)


def readable_replies(
    sources: list[str], stdin: IO[bytes], err: IO[str], statuses: list[int]
) -> Iterator[tuple[int, Reply]]:
    """Each source's reply, in order, with its index; one that cannot be read is reported
    on ``err`` (made visible: a file name is outside text too) and counts as a usage error."""
    for index, source in enumerate(sources):
        reply = read_reply(source, stdin)
        if reply.problem is not None:
            err.write(visible(f"gate-tui check: {reply.name}: {reply.problem}") + "\n")
            statuses.append(EXIT_USAGE)
            continue
        yield index, reply


def _verdict(result: ParseResult, color: bool) -> str:
    if not result.ok or result.decision is None:
        word, paint = "INVALID (not parsed or not valid; no state)", "1;33"
    elif result.decision.pass_:
        word, paint = "PASS", "1;32"
    else:
        word, paint = "NO PASS", "1;31"
    return f"\x1b[{paint}m{word}\x1b[0m" if color else word


def _describe_error(error: ParseError) -> str:
    detail = []
    if error.expected is not None:
        detail.append(f"expected {error.expected}")
    if error.actual is not None:
        detail.append(f"got {error.actual}")
    extra = f" ({'; '.join(detail)})" if detail else ""
    return f"{_at(error.field_path, error.message)}{error.message}{extra} [{error.code}]"


def _where(warning: Any) -> str:
    """``line 3:14: `` for a grounding finding (it names the value's place in the reply)."""
    grounding = warning.code in ("ungrounded_raw", "classified_ungrounded", "near_grounded")
    return (
        f"line {warning.line}:{warning.column}: " if grounding and warning.line is not None else ""
    )


def _at(path: str, message: str) -> str:
    """The field path as a prefix, unless the message already starts with it."""
    return f"{path}: " if path and not message.startswith(path) else ""
