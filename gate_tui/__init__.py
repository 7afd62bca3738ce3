"""gate-tui: a model's reply or a person's edit in, a validated gate state and a
system-owned PASS / NO PASS decision out.

This package root is the public, headless API; it never imports Textual (the editor
lives in :mod:`gate_tui.tui` and is imported only when the app starts).
"""

from gate_tui.config import (
    ConfigError,
    ConfigProblem,
    check_config,
    config_fingerprint,
    default_config_path,
    load_config,
)
from gate_tui.decision import decide
from gate_tui.diff import diff_states
from gate_tui.extraction import Extraction, extract_json
from gate_tui.models import (
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
from gate_tui.parser import GateJsonParser, empty_state, parse

__all__ = [
    "ConfigError",
    "ConfigProblem",
    "Extraction",
    "FieldChange",
    "GateConfig",
    "GateDecision",
    "GateDef",
    "GateDiff",
    "GateJsonParser",
    "GateState",
    "GateValue",
    "ParseError",
    "ParseResult",
    "ParseWarning",
    "Policy",
    "Repair",
    "StatusInfo",
    "check_config",
    "config_fingerprint",
    "decide",
    "default_config_path",
    "diff_states",
    "empty_state",
    "extract_json",
    "load_config",
    "parse",
]

__version__ = "0.1.0"
