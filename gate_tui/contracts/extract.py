"""The one door from contract mode into the gate parser's extraction and repair.

Contracts use exactly the extraction of gate replies (thinking blocks, fences, prose,
first object (or the array or value the contract's root asks for), repairs with line:column and
certainty, errors that say where the object stops being JSON, cut-off replies refused, a warning
when the reply holds several candidates), through this single function. A contract prefers no
keys: the first object (the first fence's, else the text's first) is the answer, so the
gate parser's preference for ``summary`` / ``gates`` / ``status`` is switched off here.
"""

from __future__ import annotations

from gate_tui.parsing.extraction import Extraction, extract_json


def extract_reply(
    text: str, *, allow_guesses: bool = True, accept_truncated: bool = False, want: str = "object"
) -> Extraction:
    """The JSON value of a model's reply (an object unless the contract's root asks for an
    array, ``want="array"``, or any value, ``"any"``), with the repairs made to read it; never
    raises."""
    return extract_json(
        text,
        prefer_keys=(),
        allow_guesses=allow_guesses,
        accept_truncated=accept_truncated,
        want=want,
    )
