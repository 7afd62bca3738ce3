"""JSON Lines batch checks for ``gate-tui check --jsonl IN [-o OUT] [-j N]``.

Input: one JSON object per line, ``{"id": ..., "reply": ...}`` with an optional
``"previous"`` (a gate state, or a ParseResult carrying one; without it the
``--previous`` file applies, if any) and ``"messages"`` (the conversation, OpenAI chat
messages: the reply's ``raw`` answers are checked against the user's words). ``reply`` is
usually the model's text; a JSON object is accepted too and parsed as an object. Other keys
are carried into the record after ``result`` (:mod:`gate_tui.runs.carry`; ``--carry-columns``
names the ones kept). Blank lines are skipped (and counted).

Output: one line per non-blank input line, in input order::

    {"id": <the input id, or null>, "line": <1-based input line>, "ok": <bool>,
     "pass": <true | false | null when not ok>, "result": <ParseResult>}

``result`` is exactly what ``check --format json`` prints for one reply, so
``jq 'select(.pass == false) | .result.decision.next_gate'`` and
``ParseResult.model_validate(record["result"])`` both work. A malformed input line is
not fatal: its record has ``"ok": false`` and ``result.errors`` holds one error with
code ``invalid_json`` (not JSON, or not UTF-8), ``invalid_type`` (not an object, or a
``reply`` that is neither text nor an object), ``missing_key`` (no ``reply``) or
``invalid_value`` (a line over :data:`MAX_LINE_BYTES`), its message naming the line.
A UTF-8 byte order mark at the start of the input is ignored. A lone surrogate in a
value (``"\\ud800"``) never stops the batch: its record is written with JSON escapes.

Memory stays constant whatever the input size: the input is read lazily in blocks of
about :data:`BLOCK_BYTES` cut at line ends, at most a few blocks are in flight, and each
block's output is written with one buffered write. ``-j N`` (N > 1) sends blocks to N
worker processes (config loaded once per worker) and writes their results back in input order.

On a terminal, stderr shows a progress bar (count, rate, ETA; never on stdout). A final
summary line on stderr gives the PASS / NO PASS / invalid counts and the top error
codes; ``--quiet`` silences both. The exit status is that of ``check``: 0 all PASS,
1 some NO PASS, 2 some line invalid, 3 usage or config error.
"""

from __future__ import annotations

import json
import signal
import sys
import time
from dataclasses import dataclass
from typing import IO, Any

from gate_tui.grounding.apply import ground
from gate_tui.models import GateConfig, GateState, ParseError, ParseResult
from gate_tui.parsing.pipeline import parse
from gate_tui.runs import interrupts, pool
from gate_tui.runs.blocks import MAX_LINE_BYTES, Block, read_blocks
from gate_tui.runs.carry import carried_json, carried_names
from gate_tui.runs.pool import fan_out, write_all
from gate_tui.runs.progress import progress_bar
from gate_tui.runs.records import _count, _head, _id_json, result_json
from gate_tui.runs.signals import NO_SIGNALS, cut_by_provider, signals_of
from gate_tui.runs.states import state_from_json
from gate_tui.runs.strict_json import STRICT_DECODER, RepeatedKey
from gate_tui.runs.tally import BatchStats
from gate_tui.safe_text import json_visible_bytes, visible

IN_FLIGHT_PER_JOB = 3


# A line is one record written by a program: a repeated key there ("reply" twice) is an
# error for the line, never last-wins (which reply was meant is unknowable).
_DECODER = STRICT_DECODER


@dataclass(frozen=True)
class BatchSettings:
    """What every worker needs; plain data so it pickles cheaply."""

    config: dict[str, Any]
    previous: dict[str, Any] | None
    actor: str
    checker: type | None = None
    """The line checker's class (None: :class:`LineChecker`); contract mode passes its own.
    A class pickles by name, so workers build the same one."""
    carry: tuple[str, ...] | None = None
    """The record keys the output carries (``None``: every one; :mod:`gate_tui.runs.carry`)."""


def make_checker(settings: BatchSettings) -> Any:
    """The line checker ``settings`` asks for, built once per process."""
    checker = (settings.checker or LineChecker)(settings)
    checker.carry = settings.carry
    return checker


class LineChecker:
    """Turns input lines into output records; one per process, config built once."""

    reply_key = "reply"
    id_key = "id"
    """The keys of a line's reply and id (``check --reply-column/--id-column`` change them)."""
    last: Any = None
    """The result of the last record written (see :meth:`_emit`)."""
    reply: Any = None
    """The reply of the last well-formed line."""
    head_length = 0
    finish_key, usage_key = "finish_reason", "usage"  # the provider's signals (runs.signals)
    item: Any = None  # the last well-formed line's object
    signals: tuple[Any, ...] = NO_SIGNALS  # the last line's finish reason and token counts
    carry: tuple[str, ...] | None = None  # the keys a record carries (None: all its others)
    carried: Any = None  # the object whose other keys the next record carries
    result_length = 0  # the bytes of the last record's result (its carried keys follow)

    def __init__(self, settings: BatchSettings) -> None:
        self.config = GateConfig.model_validate(settings.config)
        self.previous = (
            None if settings.previous is None else GateState.model_validate(settings.previous)
        )
        self.actor = settings.actor

    def block(self, block: Block) -> tuple[bytes, BatchStats]:
        """The output bytes and the counts for one block of lines."""
        stats = BatchStats()
        out: list[bytes] = []
        for offset, raw in enumerate(block.lines()):
            record = self.line(
                block.first + offset, None if offset in block.too_long else raw, stats
            )
            if record is not None:
                out.append(record)
        return json_visible_bytes(
            b"".join(out)
        ), stats  # bidi/C1 as \u escapes: same JSON, safe on a terminal

    def line(self, number: int, raw: bytes | None, stats: BatchStats) -> bytes | None:
        """One output record, or None for a blank line."""
        self.signals, self.carried = NO_SIGNALS, None
        if raw is None:
            return self._bad(
                number,
                None,
                "invalid_value",
                f"line {number} is longer than {MAX_LINE_BYTES:,} bytes",
                stats,
            )
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            return self._bad(
                number,
                None,
                "invalid_json",
                f"line {number} is not UTF-8 ({exc.reason} at byte {exc.start})",
                stats,
            )
        try:
            item = _DECODER.decode(text)
        except json.JSONDecodeError as exc:
            if not text.strip():
                stats.blank += 1
                return None
            return self._bad(
                number,
                None,
                "invalid_json",
                f"line {number} is not valid JSON: {exc.msg} (column {exc.colno})",
                stats,
            )
        except RepeatedKey as exc:
            key = visible(exc.args[0], one_line=True)[:80]
            message = (
                f"line {number} gives the key {key!r} twice: which value was meant is unknowable"
            )
            return self._bad(number, None, "invalid_json", message, stats)
        except (ValueError, RecursionError) as exc:
            why = (
                "a number has more than 4,300 digits"
                if "integer string conversion" in str(exc)
                else exc
            )  # not Python's advice
            return self._bad(
                number, None, "invalid_json", f"line {number} is not valid JSON: {why}", stats
            )
        return self._item(number, item, stats)

    def _item(self, number: int, item: Any, stats: BatchStats) -> bytes:
        if not isinstance(item, dict):
            return self._bad(
                number,
                None,
                "invalid_type",
                f"line {number} must be a JSON object with id and reply",
                stats,
            )
        self.carried = item
        ident = _id_json(item.get(self.id_key))
        if (
            ident == b"null" and item.get(self.id_key) is not None
        ):  # 1e999 decodes to inf: not JSON to echo
            return self._bad(
                number,
                None,
                "invalid_value",
                f'line {number}: "{self.id_key}" holds a number JSON cannot carry'
                " (it overflows to infinity)",
                stats,
                self.id_key,
            )
        key = self.reply_key
        if key not in item:
            return self._bad(
                number, ident, "missing_key", f'line {number} has no "{key}"', stats, key
            )
        reply = item[key]
        if not isinstance(reply, (str, dict)):  # noqa: UP038 - the tuple is faster
            return self._bad(
                number,
                ident,
                "invalid_type",
                f"line {number}: {key} must be text or a JSON object",
                stats,
                key,
            )
        self.signals = signals_of(item.get(self.finish_key), item.get(self.usage_key))
        self.item = item  # its other keys, carried into Parquet results
        self.reply = reply  # for Parquet results of JSON Lines input (gate_tui.runs.arrow_rows)
        return self._check(number, ident, item, reply, stats)

    def _check(
        self, number: int, ident: bytes, item: dict[str, Any], reply: Any, stats: BatchStats
    ) -> bytes:
        """The record of a well-formed line (a subclass checks against something else)."""
        previous: Any = self.previous
        if item.get("previous") is not None:
            previous, problem = state_from_json(item["previous"])
            if problem is not None:
                return self._bad(
                    number,
                    ident,
                    "invalid_value",
                    f'line {number}: "previous": {problem}',
                    stats,
                    "previous",
                )
        result = parse(reply, self.config, previous, self.actor)
        if self.actor == "assistant" and "messages" in item:  # the user's words came with the reply
            result = ground(
                result,
                self.config,
                item["messages"],
                reply if isinstance(reply, str) else None,
                previous,
            )
        return self._emit(ident, number, result, stats)

    def _bad(
        self,
        number: int,
        ident: bytes | None,
        code: Any,
        message: str,
        stats: BatchStats,
        path: str = "",
    ) -> bytes:
        result = ParseResult(
            ok=False, errors=[ParseError(code=code, message=message, field_path=path)]
        )
        return self._emit(ident or b"null", number, result, stats)

    def _emit(self, ident: bytes, number: int, result: ParseResult, stats: BatchStats) -> bytes:
        """The one way out of a checker: count the result, write its record. It stays in
        :attr:`last` (and the record's head length in :attr:`head_length`) for the Arrow
        batch (:mod:`gate_tui.runs.arrow_rows`), which needs the result too. A reply the
        provider cut (``finish_reason: length``) is refused here, whatever its text."""
        accept = self.config.policy.accept_truncated_replies or self.actor == "user"
        result = cut_by_provider(result, self.signals[0], accept)
        _count(result, stats)
        self.last = result
        return self._record(_head(ident, number, result), result_json(result))

    def _record(self, head: bytes, body: bytes) -> bytes:
        """``head``, the result ``body``, the carried keys (:mod:`gate_tui.runs.carry`)."""
        self.head_length, self.result_length = len(head), len(body)
        item = self.carried
        if not isinstance(item, dict) or self.carry == ():
            return head + body + b"}\n"
        own = (self.reply_key, self.id_key, "previous", "messages", self.finish_key)
        names = carried_names(item, (*own, self.usage_key), self.carry)
        return head + body + carried_json(item, names) + b"}\n"


_WORKER: LineChecker | None = None


def _init_worker(settings: BatchSettings) -> None:
    global _WORKER
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    interrupts.default_ending_signals()
    _WORKER = make_checker(settings)


def work_block(block: Block) -> tuple[bytes, BatchStats]:
    return worker_checker().block(block)


def worker_checker() -> LineChecker:
    """This worker process's checker (built by the pool's initializer)."""
    assert _WORKER is not None
    return _WORKER


def run_batch(
    source: IO[bytes],
    sink: IO[bytes],
    config: GateConfig | None,
    previous: GateState | None,
    actor: str,
    jobs: int = 1,
    total_bytes: int | None = None,
    show_progress: bool = False,
    quiet: bool = False,
    settings: BatchSettings | None = None,
    marker: Any = None,
) -> int:
    """Check every line of ``source``, write records to ``sink``, return the exit status.

    ``settings`` replaces the ones built from ``config``/``previous``/``actor`` (contract
    mode passes its own checker this way). ``marker``
    (:class:`gate_tui.results.completion.RunMarker`) counts the records written."""
    if settings is None:
        assert config is not None, "a gate batch needs its config"
        settings = BatchSettings(
            config=config.model_dump(mode="json"),
            previous=None if previous is None else previous.model_dump(mode="json"),
            actor=actor,
        )
    stats = BatchStats(words=getattr(settings.checker, "WORDS", BatchStats.words))
    started = time.perf_counter()
    # The pool forks before the progress bar starts its refresh thread. SIGTERM / SIGHUP
    # unwind through the pool's shutdown (no orphaned workers) and never cut a block's write.
    with (
        interrupts.terminable(),
        worker_pool(settings, jobs) as workers,
        progress_bar(show_progress and not quiet, total_bytes) as bar,
    ):

        def emit(done: tuple[bytes, BatchStats]) -> None:
            with interrupts.deferred():
                write_all(sink, done[0])
            stats.add(done[1])
            if marker is not None:
                marker.rows_written = stats.records
            if bar is not None:
                bar.records(stats.records)

        blocks = read_blocks(source, progress=None if bar is None else bar.bytes_read)
        if workers is None:
            checker = make_checker(settings)
            for block in blocks:
                interrupts.check()  # a Ctrl+C Python lost on the way stops us here
                emit(checker.block(block))
        else:
            fan_out(workers, blocks, emit, jobs * IN_FLIGHT_PER_JOB, work_block)
    interrupts.check()
    sink.flush()
    if not quiet:
        sys.stderr.write(stats.summary(time.perf_counter() - started) + "\n")
    return stats.exit_status()


def worker_pool(settings: BatchSettings, jobs: int) -> Any:
    """A process pool of checkers for ``jobs > 1`` (else None): :func:`pool.worker_pool`."""
    return pool.worker_pool(jobs, _init_worker, (settings,))
