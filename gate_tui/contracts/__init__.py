"""Contract mode: extraction, repair and every schema error for any JSON contract a model must
follow.

A *contract* is a JSON Schema (Draft 2020-12) file with an optional ``x-gate-tui`` block.
The public entry points live in the modules that hold them (nothing is imported eagerly,
so importing the package costs nothing):

* :func:`gate_tui.contracts.loading.load_contract` / ``check_contract_file``
* :func:`gate_tui.contracts.checking.check_contract` (reply text or a dict) and
  ``check_value`` (a decoded value of any JSON type, as it is)
* :mod:`gate_tui.contracts.results` — ``ContractResult``, ``ContractError``
* :func:`gate_tui.contracts.prompting.contract_prompt` / ``prompt_report`` (with its size)
"""

from __future__ import annotations

from typing import Any

_EXPORTS = {
    "Contract": "gate_tui.contracts.loading",
    "ContractLoadError": "gate_tui.contracts.loading",
    "ContractProblem": "gate_tui.contracts.loading",
    "load_contract": "gate_tui.contracts.loading",
    "check_contract_file": "gate_tui.contracts.loading",
    "check_contract": "gate_tui.contracts.checking",
    "check_value": "gate_tui.contracts.checking",
    "ContractResult": "gate_tui.contracts.results",
    "ContractError": "gate_tui.contracts.results",
    "ContractWarning": "gate_tui.contracts.results",
    "contract_prompt": "gate_tui.contracts.prompting",
    "prompt_report": "gate_tui.contracts.prompting",
}
__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:  # PEP 562: import on first use, never at package import
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'gate_tui.contracts' has no attribute {name!r}")
    from importlib import import_module

    return getattr(import_module(module), name)
