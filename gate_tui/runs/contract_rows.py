"""``gate-tui check --contract FILE --jsonl IN``: the batch machinery of :mod:`gate_tui.runs.engine`
with a contract's line checker.

Input lines are the gate batch's (``{"id": ..., "reply": ...}``; ``previous`` is ignored).
Each output line is ``{"id", "line", "ok", "result": <ContractResult>}`` in input order,
or ``{"id", "line", "ok", "envelope": {...}}`` with ``--envelope``. Reading, ordering,
workers, progress and the summary are the gate batch's own; only the per-line work differs.
"""

from __future__ import annotations

import json
from typing import Any

from gate_tui.contracts.checking import check_contract
from gate_tui.contracts.loading import Contract, LoadOptions, contract_from_schema
from gate_tui.contracts.results import ContractError, ContractResult
from gate_tui.json_text import model_json_bytes
from gate_tui.results.summary import CUT_REASONS
from gate_tui.runs.engine import BatchSettings, BatchStats, LineChecker

_BOOL = {True: b"true", False: b"false"}


def contract_settings(contract: Contract, envelope: bool) -> BatchSettings:
    """Batch settings that make every process check lines against this contract (read as
    the same draft, same store)."""
    config = {
        "schema": contract.schema,
        "path": contract.path,
        "envelope": envelope,
        "draft": contract.draft,
        "schemas": contract.options.schemas,
    }
    return BatchSettings(
        config=config, previous=None, actor="assistant", checker=ContractLineChecker
    )


class ContractLineChecker(LineChecker):
    """:class:`~gate_tui.runs.engine.LineChecker` for a contract: same lines in, contract
    records out."""

    WORDS = ("VALID", "")

    def __init__(self, settings: BatchSettings) -> None:  # noqa: D107 - no call to super: no gate config here
        options = LoadOptions(
            draft=settings.config.get("draft"), schemas=settings.config.get("schemas")
        )
        contract, problems = contract_from_schema(
            settings.config["schema"], settings.config["path"], options
        )
        if contract is None:  # the main process compiled it before; a worker cannot differ
            raise ValueError("; ".join(str(problem) for problem in problems))
        self.contract = contract
        self.envelope = bool(settings.config.get("envelope"))

    def _check(
        self, number: int, ident: bytes, item: dict[str, Any], reply: Any, stats: BatchStats
    ) -> bytes:
        """A well-formed line (the gate batch checked its shape): the reply against the contract."""
        result = check_contract(reply, self.contract)
        if (
            result.ok and self.signals[0] in CUT_REASONS
        ):  # the provider cut it: refused, as in gate mode
            message = (f"the reply is cut off: the provider stopped it at the token limit "
                f"(finish_reason: {self.signals[0]})")
            result = ContractResult(
                ok=False, errors=[ContractError(code="invalid_json", message=message)]
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
        error = ContractError(code=code, path=f"/{path}" if path else "", message=message)
        return self._emit(ident or b"null", number, ContractResult(ok=False, errors=[error]), stats)

    def _emit(self, ident: bytes, number: int, result: ContractResult, stats: BatchStats) -> bytes:
        if result.ok:
            stats.passed += 1
        else:
            stats.invalid += 1
            stats.error_codes.update(error.code for error in result.errors)
        head = b'{"id":%b,"line":%d,"ok":%b,' % (ident, number, _BOOL[result.ok])
        if self.envelope:
            body = json.dumps(result.envelope(), ensure_ascii=False, separators=(",", ":")).encode(
                "utf-8", "backslashreplace"
            )
            return self._record(head + b'"envelope":', body)
        self.last = result  # for the Arrow batch, as the gate checker's
        return self._record(head + b'"result":', model_json_bytes(result))

