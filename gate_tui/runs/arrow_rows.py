"""The engine-neutral batch function: replies held in an Apache Arrow table in, checked rows out.

:func:`check_arrow` takes a ``pyarrow`` ``Table`` or ``RecordBatch`` with a ``reply`` column
(text, or a struct read as an object) and optional ``id``, ``previous_state`` (a gate state
as JSON text) and ``actor`` (``assistant`` / ``user``) columns, and returns a table of
:data:`OUTPUT_COLUMNS` in the same order: ``id`` (the input's, unchanged), ``line`` (the
row's 1-based number, null when the caller cannot know it), ``ok``, ``pass``, ``reason``,
``next_gate``, ``error_codes``, ``repairs``, ``guessed``, ``warnings``, ``grounding`` and
``result``. A ``messages`` column (a conversation, OpenAI chat format, as JSON text or a
list) checks each reply's ``raw`` answers against the user's words (docs/grounding.md).

Every row goes through the line checker of ``check --jsonl`` (:mod:`gate_tui.runs.engine`),
not a copy of it: ``result`` holds exactly the bytes that command writes as that line's
``"result"``, and :attr:`Checked.lines` the whole line when asked. Contract mode is the
same call with contract settings (:func:`gate_tui.runs.contract_rows.contract_settings`).

The arguments are plain data (:class:`~gate_tui.runs.engine.BatchSettings` holds the config
as its validated JSON), so the call pickles: a process pool, Ray or any engine that moves
Arrow batches can run it. It lives in ``cli`` because the line checker does.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from gate_tui.results.summary import fingerprint_column, reply_fingerprint
from gate_tui.runs import carry
from gate_tui.runs.blocks import Block
from gate_tui.runs.carry import OUTPUT_COLUMNS as OUTPUT_COLUMNS  # its home; named here too
from gate_tui.runs.carry import carried_label
from gate_tui.runs.collector import Checked, Collector
from gate_tui.runs.engine import BatchSettings, make_checker
from gate_tui.runs.records import _id_json

if TYPE_CHECKING:
    import pyarrow as pa

    from gate_tui.models import GateConfig, GateState

ACTORS = ("assistant", "user")


@dataclass(frozen=True)
class Columns:
    """The input's column names (``check --reply-column/--id-column`` change the first two)."""

    reply: str = "reply"
    id: str = "id"
    previous: str = "previous_state"
    actor: str = "actor"
    messages: str = "messages"
    finish_reason: str = "finish_reason"
    usage: str = "usage"
    carry: tuple[str, ...] | None = None
    """The input's other columns the results carry (``None``: every one; see
    :func:`carried_names`)."""


def carried_names(names: list[str], columns: Columns) -> list[str]:
    """The input columns the results carry: those asked for (or all), less the ones the
    check reads itself (reply, id, previous state, actor, messages, finish reason, usage)."""
    own = (columns.reply, columns.id, columns.previous, "previous", columns.actor)
    own += (columns.messages, columns.finish_reason, columns.usage)
    return carry.carried_names(names, own, columns.carry)


def gate_settings(
    config: GateConfig, previous: GateState | None = None, actor: str = "assistant"
) -> BatchSettings:
    """The settings of a gate check: the config as its validated JSON (cheap to pickle)."""
    return BatchSettings(
        config=config.model_dump(mode="json"),
        previous=None if previous is None else previous.model_dump(mode="json"),
        actor=actor,
    )


def check_arrow(
    batch: Any, settings: BatchSettings, first_line: int | None = 1, columns: Columns | None = None
) -> pa.Table:
    """Check every row of ``batch``; the output table (see the module's docstring).

    ``first_line`` numbers the rows (for ``line`` and the messages of malformed rows);
    ``None`` when the batch's place in the data is unknown (a Ray batch): ``line`` is then
    null and messages count rows within the batch. Pure: same batch, same table."""
    return _checker_for(settings).arrow(batch, first_line, columns or Columns()).table


_CHECKERS: dict[str, RowChecker] = {}


def _checker_for(settings: BatchSettings) -> RowChecker:
    """One checker per settings per process (building one validates the config)."""
    key = json.dumps(
        [
            settings.config,
            settings.previous,
            settings.actor,
            getattr(settings.checker, "__qualname__", None),
        ],
        sort_keys=True,
        default=str,
    )
    checker = _CHECKERS.get(key)
    if checker is None:
        checker = _CHECKERS[key] = RowChecker(make_checker(settings))
    return checker


class RowChecker:
    """Rows of Arrow batches or JSONL blocks through one line checker, into output columns."""

    def __init__(self, lines: Any) -> None:
        self.lines = lines
        self.default_actor = getattr(lines, "actor", "assistant")

    def arrow(
        self,
        batch: Any,
        first_line: int | None,
        columns: Columns,
        want_lines: bool = False,
        keep_reply: bool = False,
    ) -> Checked:
        """The rows of an Arrow table or record batch; ``keep_reply`` adds the input's replies
        as a last ``reply`` column (results files carry them for ``gate-tui review``)."""
        names = set(batch.schema.names)
        if columns.reply not in names:
            raise KeyError(
                f"no {columns.reply!r} column (columns: {', '.join(batch.schema.names) or 'none'})"
            )
        replies = batch.column(columns.reply).to_pylist()
        ids = batch.column(columns.id).to_pylist() if columns.id in names else None
        previous = batch.column(columns.previous).to_pylist() if columns.previous in names else None
        actors = batch.column(columns.actor).to_pylist() if columns.actor in names else None
        messages = batch.column(columns.messages).to_pylist() if columns.messages in names else None
        finishes = (
            batch.column(columns.finish_reason).to_pylist()
            if columns.finish_reason in names
            else None
        )
        usages = batch.column(columns.usage).to_pylist() if columns.usage in names else None
        # The carried columns go into JSON Lines records (Parquet results take the columns).
        kept = [name for name in columns.carry or () if name in names] if want_lines else []
        carried = [(name, batch.column(name).to_pylist()) for name in kept]
        was, self.lines.carry = self.lines.carry, tuple(kept)
        out = Collector(want_lines)
        start = 1 if first_line is None else first_line
        lines, stats = self.lines, out.stats
        lines.reply_key, lines.id_key = columns.reply, columns.id
        lines.finish_key, lines.usage_key = columns.finish_reason, columns.usage
        for index, reply in enumerate(replies):
            number = start + index
            ident = None if ids is None else ids[index]
            item: dict[str, Any] = {lines.id_key: ident, lines.reply_key: reply}
            if finishes is not None:
                item[columns.finish_reason] = finishes[index]
            if usages is not None:
                item[columns.usage] = usages[index]
            for name, values in carried:
                item[name] = values[index]
            lines.carried = item
            problem = where = None
            if previous is not None and previous[index] is not None:
                item["previous"], problem = _json_value(previous[index], number, columns.previous)
                where = columns.previous
            if messages is not None and messages[index] is not None and problem is None:
                cell = messages[index]
                item["messages"], problem = (
                    _json_value(cell, number, columns.messages)
                    if isinstance(cell, str)
                    else (cell, None)
                )
                where = columns.messages
            if actors is not None and problem is None:
                actor = actors[index] or self.default_actor
                if actor not in ACTORS:
                    problem, where = (
                        f"line {number}: {columns.actor} must be assistant or user,"
                        f" not {str(actor)[:40]!r}",
                        columns.actor,
                    )
                lines.actor = actor
            if problem is None:
                record = lines._item(number, item, stats)
            else:
                record = lines._bad(number, _id_json(ident), "invalid_value", problem, stats, where)
            out.add(record, lines)
        lines.actor, lines.carried, lines.carry = self.default_actor, None, was
        id_column = batch.column(columns.id) if ids is not None else None
        checked = out.finish(id_column, len(replies), first_line)
        if keep_reply:
            checked.table = checked.table.append_column("reply", batch.column(columns.reply))
            checked.table = checked.table.append_column(
                "fingerprint", fingerprint_column(batch.column(columns.reply))
            )
            for name in columns.carry or ():  # resolved by the caller (the Ray engine)
                if name in names:
                    label = carried_label(name)
                    checked.table = checked.table.append_column(label, batch.column(name))
        return checked

    def block(
        self,
        block: Block,
        want_lines: bool = False,
        keep_reply: bool = False,
        carry: tuple[str, ...] = (),
    ) -> Checked:
        """The lines of a JSON Lines block (``check --input x.jsonl``): ids become text;
        ``keep_reply`` adds each line's reply (an object as its JSON) as a ``reply`` column
        and the keys ``carry`` names as text columns (a value that is not text as its JSON)."""
        out = Collector(want_lines, ids=[])
        replies: list[str | None] = []
        kept: list[list[str | None]] = [[] for _ in carry]
        lines = self.lines
        for offset, raw in enumerate(block.lines()):
            lines.reply = lines.item = None
            record = lines.line(
                block.first + offset, None if offset in block.too_long else raw, out.stats
            )
            if record is not None:
                out.add(record, lines, block.first + offset)
                if keep_reply:
                    replies.append(_text(lines.reply))
                    item = lines.item if isinstance(lines.item, dict) else {}
                    for values, name in zip(kept, carry, strict=True):
                        values.append(_text(item.get(name)))
        checked = out.finish(None, len(out.results), None)
        if keep_reply:
            import pyarrow as pa

            checked.table = checked.table.append_column("reply", pa.array(replies, pa.string()))
            checked.table = checked.table.append_column(
                "fingerprint",
                pa.array([reply_fingerprint(reply) for reply in replies], pa.string()),
            )
            for values, name in zip(kept, carry, strict=True):
                checked.table = checked.table.append_column(
                    carried_label(name), pa.array(values, pa.string())
                )
        return checked


def _text(value: Any) -> str | None:
    """A JSON value as a text cell: text as itself, anything else as its JSON."""
    if value is None or isinstance(value, str):
        return value
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        return None


def _json_value(text: Any, number: int, column: str) -> tuple[Any, str | None]:
    """A ``previous_state`` cell decoded; a cell that is not JSON text is the row's error."""
    if not isinstance(text, str):
        return None, f"line {number}: {column} must be JSON text"
    try:
        return json.loads(text), None
    except (ValueError, RecursionError) as exc:
        return None, f"line {number}: {column} is not valid JSON: {str(exc)[:200]}"


class GateCheck:
    """:func:`check_arrow` as a callable class for engines that build one per worker (Ray Data)::

        ds.map_batches(GateCheck, fn_constructor_args=(config_path,),
                       batch_format="pyarrow", concurrency=N)

    ``config`` is a gate config file, or a contract file with ``contract=True``, or ready
    :class:`~gate_tui.runs.engine.BatchSettings`. A bad file raises ``ValueError`` listing
    every problem, in the constructor, before any batch runs. Batches have no known place
    in the data, so ``line`` is null (see :func:`check_arrow`).
    """

    def __init__(
        self,
        config: Any,
        *,
        contract: bool = False,
        reply_column: str = "reply",
        id_column: str = "id",
        keep_reply: bool = False,
    ) -> None:
        settings = (
            config
            if isinstance(config, BatchSettings)
            else _settings_from_file(str(config), contract)
        )
        self.rows = RowChecker(make_checker(settings))
        self.columns = Columns(reply=reply_column, id=id_column)
        self.keep_reply = keep_reply

    def __call__(self, batch: Any) -> pa.Table:
        return self.rows.arrow(batch, None, self.columns, keep_reply=self.keep_reply).table


def _settings_from_file(path: str, contract: bool) -> BatchSettings:
    if contract:
        from gate_tui.contracts.loading import check_contract_file
        from gate_tui.runs.contract_rows import contract_settings

        loaded, problems = check_contract_file(path)
        if loaded is None:
            raise ValueError("; ".join(str(problem) for problem in problems))
        return contract_settings(loaded, False)
    from gate_tui.config.loading import check_config

    result = check_config(path)
    if result.config is None:
        raise ValueError("; ".join(str(problem) for problem in result.problems))
    return gate_settings(result.config)
