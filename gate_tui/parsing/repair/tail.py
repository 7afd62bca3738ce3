"""A long string cut off at the end of a reply, kept out of the repaired text.

A reply cut off in a megabyte-long string would otherwise be copied three times (the
token, the repaired text, the decoded value). With ``detach_tail`` the tokenizer puts a
placeholder in the repaired text and keeps the string aside; :func:`decode_repaired`
puts it back after decoding.
"""

from __future__ import annotations

import json
from typing import Any

from gate_tui.parsing.repair.lexing import (
    DECODER,
    SCAN_ONCE,
    SCAN_STRING,
    TAIL_PLACEHOLDER,
    TAIL_VALUE,
)
from gate_tui.parsing.repair.vocabulary import RepairOutcome


def decode_repaired(outcome: RepairOutcome) -> Any:
    """``json.loads(outcome.json_text)``, with a detached tail put back (see :func:`repair_json`).

    The placeholder is found by walking the decoded value (linear); should the reply itself
    hold the placeholder's value, the tail is spliced into the text instead. Raises what
    ``json.loads`` raises.
    """
    assert outcome.json_text is not None
    if outcome.decoded is not None and outcome.tail is None:
        return outcome.decoded[0]
    value = _loads(outcome.json_text)
    if outcome.tail is None:
        return value
    holders = _placeholder_holders(value)
    if len(holders) == 1:
        container, key = holders[0]
        container[key] = outcome.tail
        return value
    # Ours is the last occurrence: nothing but closing brackets follows the cut.
    head, _, rest = outcome.json_text.rpartition(TAIL_PLACEHOLDER)
    return DECODER.decode("".join((head, '"', outcome.tail, '"', rest)))


def _loads(json_text: str) -> Any:
    """``json.loads(json_text)`` for the repaired text, which is one value from offset 0.

    The C scanner is called directly (``loads`` → ``decode`` → ``raw_decode`` cost as much
    as decoding a small reply); anything else — text after the value, no value — goes
    through ``decode`` to raise exactly what it raises. The shared decoder keeps track of
    repeated keys (:data:`~gate_tui.parsing.repair.lexing.DUPLICATES_SEEN`).
    """
    try:
        value, end = SCAN_ONCE(json_text, 0)
    except StopIteration:
        return DECODER.decode(json_text)
    if end != len(json_text):
        return DECODER.decode(json_text)
    return value


def _placeholder_holders(value: Any) -> list[tuple[Any, Any]]:
    """(container, key or index) of every string equal to the placeholder's value."""
    found: list[tuple[Any, Any]] = []
    pending = [value]
    while pending:
        container = pending.pop()
        pairs = container.items() if isinstance(container, dict) else enumerate(container)
        for key, item in pairs:
            if isinstance(item, str):
                if item == TAIL_VALUE:
                    found.append((container, key))
            elif isinstance(item, dict | list):
                pending.append(item)
    return found


def detachable_tail(text: str, start: int, limit: int) -> str | None:
    """The string body from ``start`` if it runs to the end of the text unescaped, else None.

    Its value is then its text as it is; anything else is read the ordinary way.
    """
    if limit < len(text) or text.find('"', start) >= 0:
        return None  # cut before the end of the text (a fence), or the string closes
    if text.find("\\", start) >= 0:
        return None  # escapes to decode
    try:
        SCAN_STRING(text, start, True)  # the C scanner's strict check, as json.loads does
    except json.JSONDecodeError as error:
        if not error.msg.startswith("Unterminated string"):
            return None  # a control character: read_string escapes it
    else:
        return None  # (it has no closing quote: the scanner always raises)
    return text[start:]
