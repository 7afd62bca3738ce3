"""Which JSON Schema draft a contract is read as, and where its keywords would mean otherwise.

Five drafts are supported, each with its own semantics (the validator, jsonschema-rs, has
one implementation per draft): draft-04, -06, -07, 2019-09 and 2020-12. ``$schema`` chooses;
without it a contract is read as 2020-12 unless the user says otherwise (``--draft N`` or
``x-gate-tui: {draft: 7}``). Most real schemas mean the same in every draft, but four habits
of draft-07 and earlier do not, so when a contract relies on the default and uses one of
them, :func:`assumed_draft_warning` says which draft was assumed and where those keywords are.

Drafts are named by jsonschema-rs's numbers: 4, 6, 7, 19 (2019-09) and 20 (2020-12).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import urldefrag, urljoin

DEFAULT_DRAFT = 20
DRAFT_NAMES = {4: "draft-04", 6: "draft-06", 7: "draft-07", 19: "2019-09", 20: "2020-12"}
META_SCHEMAS = {
    4: "http://json-schema.org/draft-04/schema",
    6: "http://json-schema.org/draft-06/schema",
    7: "http://json-schema.org/draft-07/schema",
    19: "https://json-schema.org/draft/2019-09/schema",
    20: "https://json-schema.org/draft/2020-12/schema",
}
"""Each draft's meta-schema URI, as it is written in ``$schema`` (with or without a final ``#``)."""
_BY_URI = {uri.split("//", 1)[1]: draft for draft, uri in META_SCHEMAS.items()}
_OPTION = {
    "4": 4,
    "04": 4,
    "6": 6,
    "06": 6,
    "7": 7,
    "07": 7,
    "2019-09": 19,
    "201909": 19,
    "2019": 19,
    "2020-12": 20,
    "202012": 20,
    "2020": 20,
}
DRAFT_CHOICES = "4, 6, 7, 2019-09 or 2020-12"

# Keywords whose value is a schema, a list of schemas, or a map of names to schemas, in any draft.
_ONE = (
    "additionalItems",
    "additionalProperties",
    "contains",
    "contentSchema",
    "else",
    "if",
    "items",
    "not",
    "propertyNames",
    "then",
    "unevaluatedItems",
    "unevaluatedProperties",
)
_MANY = ("allOf", "anyOf", "oneOf", "prefixItems", "items")
_NAMED = (
    "$defs",
    "definitions",
    "dependentSchemas",
    "patternProperties",
    "properties",
    "dependencies",
)
# Words beside a $ref that change nothing in any draft (draft-07 ignores them, 2020-12 only
# annotates).
_ANNOTATIONS = {
    "title",
    "description",
    "$comment",
    "examples",
    "default",
    "deprecated",
    "readOnly",
    "writeOnly",
    "$id",
    "$schema",
    "$anchor",
    "$defs",
    "definitions",
}


def draft_option(word: Any) -> int | None:
    """The draft named by ``--draft`` / ``x-gate-tui: {draft: …}`` (``7``, ``"2019-09"``…), or
    None."""
    if isinstance(word, bool):
        return None
    text = str(word).strip().lower().removeprefix("draft-").removeprefix("draft")
    return _OPTION.get(text)


def declared_draft(value: Any) -> tuple[int | None, str | None]:
    """The draft a ``$schema`` value names, or the message saying why it names none."""
    if not isinstance(value, str):
        shown = "null" if value is None else type(value).__name__
        return (
            None,
            f"$schema must be the text of a draft's meta-schema URI, not {shown} (drafts "
            f"{DRAFT_CHOICES} are supported)",
        )
    key = value.strip().rstrip("#").split("//", 1)[-1]
    draft = _BY_URI.get(key)
    if draft is None:
        supported = ", ".join(f"{uri}#" if d < 19 else uri for d, uri in META_SCHEMAS.items())
        return (
            None,
            f"$schema {value[:200]!r} is not a draft gate-tui knows; use one of {supported}",
        )
    return draft, None


def choose_draft(schema: dict[str, Any], option: int | None) -> tuple[int, bool, str | None]:
    """``(draft, assumed, problem)``: ``$schema`` first, then the option, then 2020-12."""
    if "$schema" in schema:
        draft, problem = declared_draft(schema["$schema"])
        return (draft or DEFAULT_DRAFT), False, problem
    if option is not None:
        return option, False, None
    return DEFAULT_DRAFT, True, None


def subschemas(
    schema: Any, base: str = "", id_key: str = "$id"
) -> Iterator[tuple[list[str | int], dict[str, Any], str]]:
    """Every schema object in ``schema``: its path, itself, and its base URI (no recursion)."""
    stack: list[tuple[list[str | int], Any, str]] = [([], schema, base)]
    while stack:
        parts, node, node_base = stack.pop()
        if not isinstance(node, dict):
            continue
        ident = node.get(id_key)
        if isinstance(ident, str) and not ident.startswith("#"):
            # "id": "http://…/schema.json#" (a draft-04 habit) names the document: the empty
            # fragment goes
            node_base = urldefrag(urljoin(node_base, ident) if node_base else ident)[0]
        yield parts, node, node_base
        children: list[tuple[list[str | int], Any, str]] = []
        for key, value in node.items():
            if key in _ONE and isinstance(value, dict):
                children.append(([*parts, key], value, node_base))
            if key in _MANY and isinstance(value, list):
                children.extend(
                    ([*parts, key, index], item, node_base) for index, item in enumerate(value)
                )
            if key in _NAMED and isinstance(value, dict):
                children.extend(
                    ([*parts, key, name], item, node_base) for name, item in value.items()
                )
        stack.extend(reversed(children))


def draft_dependent_uses(schema: dict[str, Any]) -> list[tuple[str, list[str | int]]]:
    """Where the schema uses a keyword whose meaning differs between drafts: (what, path)."""
    uses: list[tuple[str, list[str | int]]] = []
    for parts, node, _base in subschemas(schema):
        if isinstance(node.get("items"), list):
            uses.append(("items as an array", [*parts, "items"]))
        if "$ref" in node and any(
            key not in _ANNOTATIONS and key != "$ref" and not key.startswith("x-") for key in node
        ):
            uses.append(("$ref with sibling keywords", [*parts, "$ref"]))
        if isinstance(node.get("definitions"), dict) and not parts:
            uses.append(("definitions", [*parts, "definitions"]))
        if isinstance(node.get("id"), str) and "$id" not in node:
            uses.append(("id", [*parts, "id"]))
    return uses


def assumed_draft_warning(schema: dict[str, Any], show: Any) -> str | None:
    """The load warning for a contract read as 2020-12 by default that uses draft-dependent
    keywords.

    ``show`` turns a path into the text of a JSON Pointer (the caller's one way of writing them).
    """
    uses = draft_dependent_uses(schema)
    if not uses:
        return None
    kinds = sorted({what for what, _path in uses})
    places = ", ".join(f"{what} at {show(path)}" for what, path in uses[:3]) + (
        f" and {len(uses) - 3} more" if len(uses) > 3 else ""
    )
    return (
        f"no $schema, so this contract is read as JSON Schema {DRAFT_NAMES[DEFAULT_DRAFT]}, but it "
        f"uses {', '.join(kinds)}, whose meaning differs in draft-07 and earlier ({places}). "
        f'If it was written for draft-07, add "$schema": "{META_SCHEMAS[7]}#" (or pass --draft 7, '
        "or x-gate-tui: {draft: 7})."
    )
