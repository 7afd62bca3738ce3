"""The bytes of one output record of ``check --jsonl``: its head (id, line, ok, pass), its
result as compact JSON, the input id echoed as JSON, and the counts the record adds to.
Kept apart from the line checker (:mod:`gate_tui.runs.engine`), which decides *what* a
record says; this module only writes it, the same way for every engine."""

from __future__ import annotations

import json
from typing import Any

from gate_tui.json_text import model_json_bytes
from gate_tui.models import ParseResult
from gate_tui.runs.tally import BatchStats


def _count(result: ParseResult, stats: BatchStats) -> None:
    decision = result.decision
    if not result.ok or decision is None:
        stats.invalid += 1
        stats.error_codes.update(error.code for error in result.errors)
    elif decision.pass_:
        stats.passed += 1
    else:
        stats.no_pass += 1


_TO_JSON = (
    ParseResult.__pydantic_serializer__.to_json
)  # model_dump_json() without the str round trip
_ID_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False)
_ASCII_ID_ENCODER = json.JSONEncoder(ensure_ascii=True, separators=(",", ":"), allow_nan=False)
_BOOL = {True: b"true", False: b"false"}


def _head(ident: bytes, number: int, result: ParseResult) -> bytes:
    """``{"id", "line", "ok", "pass", "result":`` - a record up to its result."""
    decision = result.decision
    verdict = b"null" if decision is None or not result.ok else _BOOL[decision.pass_]
    return b'{"id":%b,"line":%d,"ok":%b,"pass":%b,"result":' % (
        ident,
        number,
        _BOOL[result.ok],
        verdict,
    )


def result_json(result: ParseResult) -> bytes:
    """The result as compact UTF-8 JSON, as a record carries it."""
    try:
        return _TO_JSON(result)
    except ValueError:  # a lone surrogate somewhere: escaped JSON, and the batch goes on
        return model_json_bytes(result)


def _id_json(value: Any) -> bytes:
    """The input id as JSON, echoed as given; null when it cannot be written back."""
    if type(value) is int:
        return b"%d" % value
    try:
        return _ID_ENCODER.encode(value).encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: echoed as its JSON escape, like the result
        return _ASCII_ID_ENCODER.encode(value).encode("ascii")
    except (TypeError, ValueError, RecursionError):
        return b"null"
