"""Check a model's reply (or a decoded value) against a contract: every error, each at its path.

Two entry points, neither of which raises:

* ``check_contract(text_or_dict, contract)`` — a REPLY: a ``str`` is always reply text and
  goes through the gate parser's extraction and repair (:mod:`gate_tui.contracts.extract`),
  so ``"see {}"`` is checked as the object ``{}`` found in it; a ``dict`` is an object
  already decoded. ``check_contract(value=..., contract=contract)`` is :func:`check_value`.
* ``check_value(value, contract)`` — an already-parsed Python VALUE of any JSON type
  (object, array, string, number, boolean, None), checked as it is: no extraction, so the
  string ``"https://example.org/foobar{}.txt"`` is that string, not the ``{}`` inside it.

Then values JSON cannot carry (NaN, Infinity, lone surrogates) are reported as
``invalid_value`` at their path, and the compiled validator lists every schema error,
which :mod:`gate_tui.contracts.errors` turns into stable codes (200 at most, then one
record counting the rest).
"""

from __future__ import annotations

import math
import re
from typing import Any

from gate_tui.contracts.errors import schema_errors
from gate_tui.contracts.extract import extract_reply
from gate_tui.contracts.loading import Contract
from gate_tui.contracts.results import (
    ContractError,
    ContractResult,
    ContractWarning,
    ErrorList,
    pointer,
)
from gate_tui.limits import MAX_DEPTH
from gate_tui.models import Repair

# A cheap look at the text decides whether the value needs a walk for non-JSON numbers
# and lone surrogates; a plain search, no backtracking. (A literal that overflows, 1e999,
# is refused by the extraction itself, with its line:column, as NaN is.)
_SUSPECT = re.compile(r"NaN|Infinity|\\u[dD][89a-fA-F]")
_NEW = ContractResult  # validating init: measured faster than model_construct (2.2 vs 2.7 µs)
_ERROR = ContractError
_NO_VALUE: Any = object()


def check_contract(
    reply: str | dict[str, Any] | None = None,
    contract: Contract | None = None,
    *,
    value: Any = _NO_VALUE,
) -> ContractResult:
    """Extract, repair and validate ``reply`` (or check ``value`` as it is); see the module
    docstring."""
    if contract is None:
        raise TypeError("check_contract() needs a contract")  # a programming error, not input
    if value is not _NO_VALUE:
        return check_value(value, contract)
    try:
        return _check(reply, contract)
    except Exception as exc:  # noqa: BLE001 - "never raises": report, do not propagate
        return _internal(exc, reply if isinstance(reply, str) else None)


def check_value(value: Any, contract: Contract) -> ContractResult:
    """Check an already-parsed value of any JSON type against the contract, as it is."""
    try:
        return _validate(value, contract, [], "value", None, suspect=True)
    except Exception as exc:  # noqa: BLE001 - "never raises": report, do not propagate
        return _internal(exc, None)


def _internal(exc: Exception, raw: str | None) -> ContractResult:
    error = _ERROR(
        code="invalid_json",
        path="",
        message=f"could not check the reply: internal {type(exc).__name__}",
        expected=None,
        actual=None,
    )
    return _result(False, None, [error], [], [], None, raw)


def _check(reply: Any, contract: Contract) -> ContractResult:
    if isinstance(reply, dict):
        return _validate(reply, contract, [], "object", None, suspect=True)
    if not isinstance(reply, str):
        error = _ERROR(
            code="invalid_type",
            path="",
            message=f"expected reply text or a JSON object, got {type(reply).__name__}",
            expected="text or object",
            actual=type(reply).__name__,
        )
        return _result(False, None, [error], [], [], None, None)
    found = extract_reply(reply, want=contract.want)
    notes = [ContractWarning(code=w["code"], path="", message=w["message"]) for w in found.warnings]
    if (
        found.error is not None
    ):  # (a `null` reply to a root that admits it has no value and no error)
        code = (
            found.error_code
            if found.error_code in ("invalid_json", "invalid_value")
            else "invalid_json"
        )
        error = _ERROR(
            code=code,
            path="",
            message=found.error or "no JSON object found",
            expected="one JSON object"
            if contract.want == "object"
            else f"one JSON value ({contract.want})",
            actual=None,
        )
        return _result(False, None, [error], notes, list(found.repairs), None, reply)
    suspect = _SUSPECT.search(reply) is not None or not _encodable(reply)
    result = _validate(
        found.value, contract, list(found.repairs), found.source, reply, suspect=suspect
    )
    if notes:
        result.warnings[:0] = notes
    return result


def _validate(
    value: Any,
    contract: Contract,
    repairs: list[Repair],
    source: str | None,
    raw: str | None,
    *,
    suspect: bool,
) -> ContractResult:
    bounded = ErrorList()
    checked = value
    skip: frozenset[str] = frozenset()
    if suspect:
        bad: list[tuple[list[str | int], str]] = []
        checked = _clean(value, [], bad, 0)
        for parts, message in bad:
            bounded.add(
                _ERROR(
                    code="invalid_value",
                    path=pointer(parts),
                    message=message,
                    expected="a JSON value",
                    actual=None,
                )
            )
        skip = frozenset(pointer(parts) for parts, _ in bad)
    schema_errors(contract, checked, bounded, skip)
    errors = bounded.finish()
    warnings = [
        ContractWarning(
            code="guessed_repair",
            path="",
            message=f"line {r.line}:{r.column}: {r.message} (a guess: check it)",
        )
        for r in repairs
        if r.certainty == "guess"
    ]
    # The value carries null where the reply held NaN or a lone surrogate: those are
    # reported above, and the result must stay writable as JSON.
    return _result(not errors, checked, errors, warnings, repairs, source, raw)


def _result(
    ok: bool,
    value: Any,
    errors: list[ContractError],
    warnings: list[ContractWarning],
    repairs: list[Repair],
    source: str | None,
    raw: str | None,
) -> ContractResult:
    return _NEW(
        ok=ok,
        value=value,
        errors=errors,
        warnings=warnings,
        repairs=repairs,
        source=source,
        raw=raw,
    )


def _encodable(text: str) -> bool:
    if text.isascii():
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _clean(
    value: Any, parts: list[str | int], bad: list[tuple[list[str | int], str]], depth: int = 0
) -> Any:
    """A copy of ``value`` with NaN/Infinity and lone-surrogate text replaced by None, each one
    noted.

    Iterative (a value handed over by a caller may be nested thousands deep, or contain
    itself), and no deeper than the extraction reads a reply (:data:`MAX_DEPTH`): below
    that, a container is replaced by None and noted once as "nested too deeply".
    """
    root: list[Any] = [None]
    stack: list[tuple[Any, list[str | int], Any, Any, int]] = [(value, parts, root, 0, depth)]
    while stack:
        node, where, into, slot, level = stack.pop()
        into[slot] = _leaf(node, where, bad) if not isinstance(node, (dict, list)) else None
        if not isinstance(node, (dict, list)):
            continue
        if level >= MAX_DEPTH:
            bad.append((where, "nested too deeply"))
            continue
        if isinstance(node, list):
            copy: Any = [None] * len(node)
            children = [
                (child, [*where, index], copy, index, level + 1) for index, child in enumerate(node)
            ]
        else:
            copy, children = {}, []
            for key, child in node.items():
                if not isinstance(key, str):
                    bad.append(
                        (
                            [*where, str(key)],
                            f"a {type(key).__name__} key is not a JSON key (keys are text)",
                        )
                    )
                elif not _encodable(key):
                    bad.append(
                        (
                            [*where, key.encode("utf-8", "backslashreplace").decode("ascii")],
                            "a key holds a lone surrogate, which is not valid Unicode",
                        )
                    )
                else:
                    copy[key] = None
                    children.append((child, [*where, key], copy, key, level + 1))
        into[slot] = copy
        stack.extend(reversed(children))
    return root[0]


def _leaf(node: Any, parts: list[str | int], bad: list[tuple[list[str | int], str]]) -> Any:
    """A scalar as it is, or None with a note when JSON cannot carry it."""
    if isinstance(node, float) and not math.isfinite(node):
        if math.isnan(node):
            bad.append((parts, "NaN is not a JSON number (JSON numbers are finite)"))
        else:  # a float('inf') handed over in a dict, or 1e999 in a --jsonl reply object
            sign = "-" if node < 0 else ""  # worded as for reply text: no output says "Infinity"
            bad.append(
                (
                    parts,
                    f"the number is too large: it overflows to {sign}infinity, which is not a "
                    "number JSON allows",
                )
            )
        return None
    if isinstance(node, str):
        if not _encodable(node):
            bad.append(
                (parts, "text holds a lone surrogate (\\ud800-\\udfff), which is not valid Unicode")
            )
            return None
        return node
    if node is None or isinstance(node, (bool, int, float)):
        return node
    bad.append((parts, f"a Python {type(node).__name__} is not a JSON value"))
    return None
