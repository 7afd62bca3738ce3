"""The journal's record format: building records from transitions, and reading them back.

Format 1. The first line is a header::

    {"kind": "header", "format": 1, "config_path", "fingerprint", "config_title", "started", "pid"}

and every later line is an event with ``"v": 1``, ``"seq"`` (1, 2, …) and ``"at"``.
``kind`` is ``edit`` / ``reply`` (an accepted payload), ``undo`` / ``redo`` / ``jump``
(moves over the history), ``rejected`` (a payload that changed nothing), ``open`` /
``close`` (a writer came and went), ``export`` (a file was written on request) or
``model_call`` (one request to a model: see :func:`model_call_record`).
State-changing records carry the canonical ``state`` and the ``decision`` after them,
so a journal can be replayed without parsing any payload again. Models are dumped with
``model_dump(mode="json")``, so the decision flag is spelled ``pass``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel

from gate_tui.models import ParseResult
from gate_tui.session.history import Transition, now_iso

FORMAT = 1
RECORD_VERSION = 1
STATE_KINDS = ("edit", "reply", "undo", "redo", "jump")
ACCEPT_KINDS = ("edit", "reply")
MOVE_KINDS = ("undo", "redo", "jump")

Record = dict[str, Any]


def header_record(
    config_path: str | None, fingerprint: str, title: str, started: str | None = None
) -> Record:
    """The first line of a journal: which config it belongs to and when it started."""
    return {
        "kind": "header",
        "format": FORMAT,
        "config_path": config_path,
        "fingerprint": fingerprint,
        "config_title": title,
        "started": started or now_iso(),
        "pid": os.getpid(),
    }


def transition_record(
    seq: int,
    transition: Transition,
    origin: str | None = None,
    call: int | None = None,
    grounding: Any = None,
) -> Record:
    """The record of an accepted payload or a move (undo, redo, jump); ``grounding``: the
    provenance of each answer the reply set (a ``GroundingReport`` as JSON), when checked."""
    record: Record = {
        "v": RECORD_VERSION,
        "seq": seq,
        "at": transition.at,
        "kind": transition.kind,
        "actor": transition.actor,
        "index": transition.index,
        "payload": jsonable(transition.payload),
        "warnings": dump_all(transition.warnings),
        "repairs": dump_all(transition.repairs),
        "diff": dump(transition.diff),
        "decision": dump(transition.decision),
        "state": dump(transition.state),
        "claimed_status": dump(transition.claimed_status),
        "target": transition.target,
    }
    if origin:
        record["origin"] = origin
    if call is not None:
        record["call"] = call  # the seq of the model_call record whose reply this is
    if grounding is not None:
        record["grounding"] = grounding
    return record


def rejected_record(
    seq: int,
    result: ParseResult,
    payload: Any,
    actor: str,
    origin: str | None = None,
    call: int | None = None,
) -> Record:
    """The record of a payload that was refused; it never changes the state."""
    record: Record = {
        "v": RECORD_VERSION,
        "seq": seq,
        "at": now_iso(),
        "kind": "rejected",
        "actor": actor,
        "payload": jsonable(payload),
        "errors": dump_all(result.errors),
        "warnings": dump_all(result.warnings),
        "repairs": dump_all(result.repairs),
        "claimed_status": dump(result.claimed_status),
    }
    if origin:
        record["origin"] = origin
    if call is not None:
        record["call"] = call
    return record


def payload_in_call(record: Record) -> Record:
    """``record`` (a reply or rejected record with a ``call``) without its payload, which is
    the call's ``reply`` word for word: a model's reply is stored once in a journal (a refused
    4 MiB reply is not written twice). Readers find it in the ``model_call`` record."""
    record["payload"] = None
    record["payload_in_call"] = True
    return record


MODEL_CALL_FIELDS = (
    "call_kind", "model", "endpoint", "message", "chars", "reply", "finish_reason", "usage",
    "ttft_s", "total_s", "outcome", "error", "structured",
)


def model_call_record(seq: int, **fields: Any) -> Record:
    """One request to a model, whatever came of it.

    ``model`` and ``endpoint`` (host and port only: never a key or a URL's secrets),
    ``message`` (the user's own words, or the errors sent back on "ask again"), ``chars``
    (character counts of the system prompt, earlier turns, state and message sent),
    ``reply`` (all text received, even cut off), ``finish_reason``, ``usage``,
    ``ttft_s`` / ``total_s`` (time to first token, total), ``outcome`` (``ok``,
    ``invalid``, ``error``, ``cancelled``, ``incomplete``; a dead endpoint as how it died:
    ``server_gone``, ``no_reply``, ``dropped``) and ``error`` (one line).
    Whether it was applied is journaled where it happens: the ``reply`` (or ``rejected``)
    record of that reply carries this record's ``seq`` as its ``call``.
    """
    unknown = set(fields) - set(MODEL_CALL_FIELDS)
    if unknown:
        raise TypeError(f"not model_call fields: {sorted(unknown)}")  # a bug in the caller
    return event_record(seq, "model_call", **fields)


def event_record(seq: int, kind: str, **fields: Any) -> Record:
    """A record without a state: ``open``, ``close`` or ``export``."""
    return {
        "v": RECORD_VERSION,
        "seq": seq,
        "at": now_iso(),
        "kind": kind,
        **{k: jsonable(v) for k, v in fields.items()},
    }


def dump(model: BaseModel | None) -> Any:
    """A model as JSON-ready data (aliases on), or None."""
    return None if model is None else model.model_dump(mode="json")


def dump_all(models: Iterable[BaseModel]) -> list[Any]:
    return [model.model_dump(mode="json") for model in models]


def jsonable(value: Any) -> Any:
    """``value`` if JSON can hold it as it is, else a faithful-as-possible stand-in."""
    if value is None or isinstance(value, str | int | float | bool):
        return value
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    try:
        return json.loads(json.dumps(value, default=str))
    except (TypeError, ValueError, RecursionError):
        return repr(value)[:10_000]


def last_seq(records: list[Record]) -> int:
    """The highest ``seq`` in ``records`` (0 when there are none)."""
    best = 0
    for record in records:
        seq = record.get("seq")
        if isinstance(seq, int) and seq > best:
            best = seq
    return best


def transitions_of(records: Iterable[Record]) -> list[Record]:
    """The records that moved the state, in order."""
    return [record for record in records if record.get("kind") in STATE_KINDS]
