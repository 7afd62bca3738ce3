"""``gate_tui.parse`` as the package exports it: the pipeline is imported on the first call.

The pipeline validates with pydantic, whose import is most of a fresh process's start-up
(over 100 ms with our models). A program that imports the package for ``extract_json``,
or a CLI that only prints its help, must not pay for it; the first ``parse`` does, once.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gate_tui.models import GateConfig, GateState, ParseResult

_pipeline_parse: Callable[..., Any] | None = None


def parse(
    payload: Any,
    gate_config: GateConfig,
    previous_state: GateState | Mapping[str, Any] | None = None,
    actor: str = "assistant",
    candidate: int | None = None,
) -> ParseResult:
    """Parse a model reply (``actor="assistant"``) or a user's patch (``actor="user"``).

    See :func:`gate_tui.parsing.pipeline.parse`; this is the same function, loaded when
    first called.
    """
    global _pipeline_parse
    if _pipeline_parse is None:
        from gate_tui.parsing.pipeline import parse as loaded

        _pipeline_parse = loaded
    return _pipeline_parse(payload, gate_config, previous_state, actor, candidate)
