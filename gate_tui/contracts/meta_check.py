"""Every way a schema breaks its draft's meta-schema, in that draft's terms, fast.

The meta-schemas are checked with jsonschema-rs, the same library that later checks replies:
each draft's meta-schema is compiled once per process into a validator, and a schema is just
an instance of it (a 100 KB schema in milliseconds, where the pure-Python ``jsonschema``
took 700 ms; ``bench/bench_contract.py`` measures both). Every problem is kept, with its
path; the same problem reached through several ``$dynamicRef`` routes is listed once.

``format: regex`` in the meta-schemas (on ``pattern`` and the keys of ``patternProperties``)
is checked by compiling the pattern with the validator's own regex engine, so what the
validator accepts (``\\p{Letter}``, ``\\cC``), the load accepts, and what it cannot compile
is refused here, with the pattern named, rather than at the first reply.

Messages are rewritten where the library's words would puzzle a contract author, with a
hint where a habit of one draft meets another (an ``items`` array in 2020-12 is ``prefixItems``;
``$id: "#x"`` is ``$anchor: x``; ``exclusiveMaximum`` changed from a flag to a number in draft-06).
"""

from __future__ import annotations

import json
from functools import cache, lru_cache
from typing import Any

from gate_tui.contracts.drafts import DRAFT_NAMES, META_SCHEMAS

MAX_SHOWN = 120
"""Values quoted in a message longer than this are cut in the middle, with their length."""
_TYPES = "array, boolean, integer, null, number, object, string"
_FORMS = {
    "items": "a schema or a list of schemas (the tuple form)",
    "dependencies": "an object mapping property names to schemas or lists of names",
}


def meta_problems(schema: Any, draft: int) -> list[tuple[list[str | int], str]]:
    """``(path, message)`` for every meta-schema problem of ``schema`` read as ``draft``."""
    seen: set[tuple[tuple[str | int, ...], str]] = set()
    problems: list[tuple[list[str | int], str]] = []
    for error in meta_validator(draft).iter_errors(schema):
        path = list(error.instance_path)
        message = _message(error, path, draft)
        key = (tuple(path), message)
        if key not in seen:
            seen.add(key)
            problems.append((path, message))
    problems.sort(key=lambda problem: [str(part) for part in problem[0]])
    return problems


@cache
def meta_validator(draft: int) -> Any:
    """The compiled validator of ``draft``'s meta-schema (its vocabularies are built into
    jsonschema-rs)."""
    import jsonschema_rs
    from jsonschema_specifications import REGISTRY

    return jsonschema_rs.validator_for(
        REGISTRY.contents(META_SCHEMAS[draft]),
        validate_formats=True,
        formats={"regex": engine_accepts},
    )


@lru_cache(maxsize=4096)
def engine_accepts(pattern: Any) -> bool:
    """Whether the validator's regex engine compiles ``pattern`` (the one that will run it)."""
    if not isinstance(pattern, str):
        return (
            True  # a number where a pattern goes is the meta-schema's "type" problem, not this one
        )
    import jsonschema_rs

    try:
        jsonschema_rs.validator_for({"pattern": pattern})
    except Exception:  # noqa: BLE001 - any refusal by the engine means "not a pattern it can run"
        return False
    return True


def shown(value: Any) -> str:
    """A value as JSON, cut in the middle (with its length) when it is long."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    if len(text) <= MAX_SHOWN:
        return text
    half = MAX_SHOWN // 2
    return f"{text[:half]}…{text[-half:]} ({len(text):,} characters)"


def _message(error: Any, path: list[str | int], draft: int) -> str:
    keyword = path[-1] if path else None
    kind = error.kind.name
    value = error.instance
    name = DRAFT_NAMES[draft]
    hint = _hint(keyword, kind, value, draft)
    if hint is not None:
        return hint
    if kind == "format" and getattr(error.kind, "format", "") == "regex":
        return (
            f"{shown(value)} is not a regular expression the validator can run (it uses ECMA-262 "
            "syntax)"
        )
    if keyword == "type" and kind == "anyOf":
        return _type_message(value)
    if kind == "anyOf" and keyword in _FORMS:
        return f'"{keyword}" must be {_FORMS[keyword]}, not {shown(value)}'
    if kind == "anyOf" and len(path) >= 2 and path[-2] == "dependencies":
        return (
            f'{shown(value)}: each entry of "dependencies" is a schema or a list of property names'
        )
    if kind == "type":
        expected = " or ".join(getattr(error.kind, "types", []) or ["another type"])
        return f"{shown(value)} must be {expected} here in {name}"
    if kind == "propertyNames":  # a key of patternProperties that is not a pattern the engine runs
        return (
            f"the key {shown(error.kind.error.instance)} is not a regular expression the validator "
            "can run (it uses ECMA-262 syntax)"
        )
    if (
        kind == "required"
        and isinstance(value, dict)
        and ("exclusiveMaximum" in value or "exclusiveMinimum" in value)
    ):
        return (
            f"{error.message}: in {name} exclusiveMaximum / exclusiveMinimum only qualify a "
            "maximum / minimum beside them"
        )
    return _cut_instance(error.message, value)


def _type_message(value: Any) -> str:
    """What is wrong with a ``type``: a word that is not a type, or a list with a repeat."""
    names = value if isinstance(value, list) else [value]
    unknown = [name for name in names if name not in _TYPES.split(", ")]
    if unknown:
        return (
            f"{shown(unknown[0])} is not a JSON Schema type: use one of {_TYPES} (or a list of "
            "them)"
        )
    if len(set(map(str, names))) < len(names):
        return f"{shown(value)} lists a type twice: each type once"
    return f"{shown(value)} is not a JSON Schema type: use one of {_TYPES} (or a list of them)"


def _hint(keyword: Any, kind: str, value: Any, draft: int) -> str | None:
    """The message for a draft habit used in another draft, or None."""
    if keyword == "items" and isinstance(value, list) and draft == 20:
        return (
            '"items" is a list of schemas, the tuple form of draft-07 and earlier; in 2020-12 '
            'write "prefixItems": [...] (and "items" for the rest), or declare the draft the '
            'schema was written for ("$schema")'
        )
    if keyword == "$id" and isinstance(value, str) and value.startswith("#") and draft >= 19:
        return (
            f'"$id": {shown(value)} names a place with a fragment, as draft-07 did; since 2019-09 '
            f'write "$anchor": {shown(value[1:])}'
        )
    if (
        keyword in {"exclusiveMaximum", "exclusiveMinimum"}
        and isinstance(value, bool)
        and draft >= 6
    ):
        bound = "maximum" if keyword == "exclusiveMaximum" else "minimum"
        return (
            f'"{keyword}": {json.dumps(value)} is the draft-04 flag; since draft-06 it is a '
            f'number: write "{keyword}": N in place of "{bound}": N'
        )
    if (
        keyword in {"exclusiveMaximum", "exclusiveMinimum"}
        and not isinstance(value, bool)
        and draft == 4
    ):
        bound = "maximum" if keyword == "exclusiveMaximum" else "minimum"
        return (
            f'in draft-04 "{keyword}" is true or false beside "{bound}" (a number is draft-06 and '
            "later)"
        )
    if keyword == "required" and isinstance(value, bool):
        return (
            '"required" is a list of property names on the object schema (true/false on a property '
            "is draft-03)"
        )
    del kind
    return None


def _cut_instance(message: str, value: Any) -> str:
    """The library's message with the quoted instance cut to size (it quotes it whole)."""
    full = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    if len(full) > MAX_SHOWN and full in message:
        return message.replace(full, shown(value), 1)
    return message
