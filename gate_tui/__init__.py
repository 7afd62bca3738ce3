"""gate-tui: a model's reply or a person's edit in, a validated gate state and a
system-owned PASS / NO PASS decision out.

This package root is the public, headless API; it never imports Textual (the editor
lives in :mod:`gate_tui.tui` and is imported only when the app starts). Its names load
lazily, on first use, so that importing one small module does not load them all.
"""

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gate_tui.config.loading import (
        ConfigError,
        ConfigProblem,
        check_config,
        config_fingerprint,
        default_config_path,
        load_config,
    )
    from gate_tui.contracts.checking import check_contract, check_value
    from gate_tui.contracts.loading import (
        Contract,
        ContractLoadError,
        LoadOptions,
        check_contract_file,
        load_contract,
    )
    from gate_tui.contracts.prompting import contract_prompt
    from gate_tui.contracts.results import ContractError, ContractResult
    from gate_tui.decision import decide
    from gate_tui.models import (
        CandidateInfo,
        FieldChange,
        GateConfig,
        GateDecision,
        GateDef,
        GateDiff,
        GateState,
        GateValue,
        ParseError,
        ParseResult,
        ParseWarning,
        Policy,
        Repair,
        StatusInfo,
    )
    from gate_tui.parsing.diff import diff_states
    from gate_tui.parsing.entry import parse
    from gate_tui.parsing.extraction import Extraction, extract_json
    from gate_tui.parsing.pipeline import GateJsonParser, empty_state
    from gate_tui.runs.arrow_rows import GateCheck, check_arrow, gate_settings

# Where each public name lives. The names are loaded on first use (PEP 562): importing
# any ``gate_tui.*`` module runs this file first, and the editor's first frame must not
# wait for pydantic (about 120 ms with our models) — see gate_tui.tui.app.
_HOMES = {
    "gate_tui.config.loading": (
        "ConfigError",
        "ConfigProblem",
        "check_config",
        "config_fingerprint",
        "default_config_path",
        "load_config",
    ),
    "gate_tui.contracts.checking": ("check_contract", "check_value"),
    "gate_tui.contracts.loading": (
        "Contract",
        "ContractLoadError",
        "LoadOptions",
        "check_contract_file",
        "load_contract",
    ),
    "gate_tui.contracts.prompting": ("contract_prompt",),
    "gate_tui.contracts.results": ("ContractError", "ContractResult"),
    "gate_tui.decision": ("decide",),
    "gate_tui.parsing.diff": ("diff_states",),
    "gate_tui.parsing.extraction": ("Extraction", "extract_json"),
    "gate_tui.models": (
        "CandidateInfo",
        "FieldChange",
        "GateConfig",
        "GateDecision",
        "GateDef",
        "GateDiff",
        "GateState",
        "GateValue",
        "ParseError",
        "ParseResult",
        "ParseWarning",
        "Policy",
        "Repair",
        "StatusInfo",
    ),
    "gate_tui.parsing.entry": ("parse",),  # the pipeline (and pydantic) load on the first call
    "gate_tui.parsing.pipeline": ("GateJsonParser", "empty_state"),
    "gate_tui.runs.arrow_rows": ("GateCheck", "check_arrow", "gate_settings"),
    "gate_tui.version": ("__version__",),
}
_HOME_OF = {name: module for module, names in _HOMES.items() for name in names}

__all__ = [
    "CandidateInfo",
    "ConfigError",
    "ConfigProblem",
    "Contract",
    "ContractError",
    "ContractLoadError",
    "ContractResult",
    "Extraction",
    "FieldChange",
    "GateConfig",
    "GateDecision",
    "GateDef",
    "GateCheck",
    "GateDiff",
    "GateJsonParser",
    "GateState",
    "GateValue",
    "LoadOptions",
    "ParseError",
    "ParseResult",
    "ParseWarning",
    "Policy",
    "Repair",
    "StatusInfo",
    "check_arrow",
    "check_config",
    "check_contract",
    "check_contract_file",
    "check_value",
    "config_fingerprint",
    "contract_prompt",
    "decide",
    "default_config_path",
    "diff_states",
    "empty_state",
    "extract_json",
    "gate_settings",
    "load_config",
    "load_contract",
    "parse",
]



def __getattr__(name: str) -> Any:
    home = _HOME_OF.get(name)
    if home is None:
        raise AttributeError(f"module 'gate_tui' has no attribute {name!r}")
    value = getattr(import_module(home), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_HOME_OF])
