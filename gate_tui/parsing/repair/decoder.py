"""The one JSON decoder of the parser: strict, and watching what strict JSON lets through.

``json`` accepts ``NaN`` and ``Infinity`` (not JSON), reads ``1e999`` as an infinity (no
output can carry it) and keeps the last of a key given twice. This decoder refuses the
first two (the repair pass reports them as ``invalid_value`` with a position) and marks
objects with a repeated key (:mod:`gate_tui.parsing.duplicates` reports them). Every
decode of the package goes through it, so no path can let one of them in.
"""

from __future__ import annotations

import json


def _refuse_constant(name: str) -> float:
    raise ValueError(f"{name} is not a number JSON allows")


def finite_float(token: str) -> float:
    """``float(token)``, refusing a number that overflows to infinity (``1e999``, ``-1E400``).

    JSON allows the digits, but no output can carry the value (``json.dumps`` writes
    ``Infinity``, which is not JSON) and a range check would let it through."""
    value = float(token)
    if value - value != 0.0:  # only the infinities (NaN is refused as a word before this)
        shown = token if len(token) <= 24 else f"{token[:20]}… ({len(token):,} characters)"
        raise ValueError(f"{shown} is not a number JSON allows: it overflows to infinity")
    return value


class Duplicated(dict):  # type: ignore[type-arg]
    """An object whose text gave a key more than once: the last value kept (as ``json``
    does), and ``repeated`` maps each repeated key to all its values, in text order."""

    __slots__ = ("repeated",)


DUPLICATES_SEEN = [0]
"""Bumped for each object with a repeated key the decoder builds. A caller compares it
before and after decoding and walks the value only when it moved (threads can only make
it move more: a needless walk, never a missed duplicate)."""


def _members(pairs: list[tuple[str, object]]) -> dict[str, object]:
    value = dict(pairs)
    if len(value) == len(pairs):
        return value
    repeated: dict[str, list[object]] = {}
    for key, item in pairs:
        repeated.setdefault(key, []).append(item)
    found = Duplicated(value)
    found.repeated = {key: items for key, items in repeated.items() if len(items) > 1}
    DUPLICATES_SEEN[0] += 1
    return found


# NaN and the infinities are not JSON: the decoder refuses them, so the repair pass reports
# them (``invalid_value`` with a position) instead of letting them into a state. Repeated
# keys are kept track of (:mod:`gate_tui.parsing.duplicates` reports them).
DECODER = json.JSONDecoder(
    parse_constant=_refuse_constant, parse_float=finite_float, object_pairs_hook=_members
)
SCAN_ONCE = DECODER.scan_once  # the C scanner: decodes one JSON value at an index
SCAN_STRING = json.decoder.scanstring  # the C scanner's string reader
