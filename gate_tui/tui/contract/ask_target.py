"""A contract document as something the model is asked about (the contract editor's F6).

System prompt: ``gate-tui prompt --contract``; schema: the contract's own; parse: the
contract check. The model calls are journaled in the contract session's journal as
``model_call`` records (the same fields as in gate sessions); the conversation is the
editor's ``model_calls``, replayed from the journal when a session is resumed. Applying stays the
editor's Ctrl+J: in contract mode an invalid value is kept too, to be fixed, so :meth:`apply` and
:meth:`reject` only record.
"""

from __future__ import annotations

import json
from typing import Any

from gate_tui.contracts.checking import check_contract
from gate_tui.contracts.prompting import contract_prompt
from gate_tui.contracts.results import ContractResult
from gate_tui.editing.contract_editor import ContractEditor
from gate_tui.session.records import MODEL_CALL_FIELDS


class ContractTarget:
    what = "JSON value"

    def __init__(self, editor: ContractEditor) -> None:
        self.editor = editor
        self._records = editor.model_calls  # the editor's own list: resumed calls included
        self._prompt: str | None = None

    def system_prompt(self) -> str:
        if self._prompt is None:
            self._prompt = contract_prompt(self.editor.contract)
        return self._prompt

    def schema(self) -> dict[str, Any]:
        return self.editor.contract.schema

    def state_json(self) -> str:
        return (
            json.dumps(self.editor.value, indent=2, ensure_ascii=False)
            if self.editor.value is not None
            else "null"
        )

    def parse(self, text: str) -> ContractResult:
        return check_contract(text, self.editor.contract)

    def records(self) -> list[dict[str, Any]]:
        return self._records

    def record_model_call(self, **fields: Any) -> int:
        seq = len(self._records) + 1
        record = {
            "kind": "model_call",
            "seq": seq,
            **{k: v for k, v in fields.items() if k in MODEL_CALL_FIELDS},
        }
        self._records.append(record)
        self.editor._record(record)  # noqa: SLF001 - the editor's one journal
        return seq

    def apply(self, result: ContractResult, text: str, call: int) -> None:
        self.editor.apply_reply(text, call)

    def reject(self, result: ContractResult, text: str, call: int) -> None:
        return None
