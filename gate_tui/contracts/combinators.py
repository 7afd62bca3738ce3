"""Which branch of a failed ``oneOf`` / ``anyOf`` the reply meant, and what to call it.

The validator reports a failed ``oneOf`` as one error whose ``context`` holds every
branch's own errors. Shown as one opaque "not valid under any of the schemas", it names
no mistake; shown all at once, it buries the one that matters under the errors of
branches the writer never meant. So the checker reports the CLOSEST branch's errors:

1. a branch that wants another kind of value altogether (a ``type`` error at the value
   itself) is the farthest;
2. then a branch whose discriminator does not match (a ``const``/``enum`` error on one of
   the value's own keys, as ``type: "step"`` picks the Step branch);
3. then the fewest errors (an unexpected-keys error counts each key); the first branch on
   a tie, so the choice is deterministic.

A branch is named by what a reader recognises: the ``$ref`` it stands for (``Step``), its
``title``, its discriminator (``type: "step"``) or its type; always with its number.
"""

from __future__ import annotations

from typing import Any

from gate_tui.contracts.wording import shown

_MANY = ("additionalProperties", "unevaluatedProperties", "unevaluatedItems")


def closest_branch(branches: list[list[Any]], depth: int) -> int:
    """The index of the branch the value came closest to (see the module docstring)."""
    return min(range(len(branches)), key=lambda index: _distance(branches[index], depth, index))


def valid_branches(branches: list[list[Any]]) -> list[int]:
    """The branches with no error (a ``oneOf`` that matched more than one)."""
    return [index for index, errors in enumerate(branches) if not errors]


def branch_name(schema: Any, keyword_path: list[Any], index: int) -> str:
    """``branch 2 (Step)``: the number a reader counts, and what the branch is."""
    what = _describe(schema, _walk(schema, [*keyword_path, index]))
    return f"branch {index + 1}" + (f" ({what})" if what else "")


def _distance(errors: list[Any], depth: int, index: int) -> tuple[bool, bool, int, int]:
    other_type = False
    mismatch = False
    weight = 0
    for error in errors:
        name = error.kind.name
        size = len(error.instance_path)
        other_type = other_type or (name == "type" and size == depth)
        mismatch = mismatch or (name in ("const", "enum") and size == depth + 1)
        weight += len(getattr(error.kind, "unexpected", ()) or ()) if name in _MANY else 1
    return other_type, mismatch, weight, index


def schema_at(schema: Any, parts: list[Any]) -> Any:
    """The schema node at an evaluation path: a ``$ref`` step follows a local reference."""
    node = schema
    for part in parts:
        if part == "$ref" and isinstance(node, dict) and isinstance(node.get("$ref"), str):
            node = _local(schema, node["$ref"])
        elif isinstance(node, dict):
            node = node.get(str(part))
        elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            node = node[part]
        else:
            return None
    return node


def _walk(schema: Any, parts: list[Any]) -> Any:
    """The schema node at a schema path (the validator's paths are already resolved)."""
    node = schema
    for part in parts:
        if isinstance(node, dict):
            node = node.get(str(part))
        elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            node = node[part]
        else:
            return None
    return node


def _describe(root: Any, node: Any) -> str:
    if not isinstance(node, dict):
        return ""
    ref = node.get("$ref")
    if isinstance(ref, str) and ref:
        target = _local(root, ref)
        title = target.get("title") if isinstance(target, dict) else None
        return str(title) if isinstance(title, str) and title else ref.rsplit("/", 1)[-1]
    if isinstance(node.get("title"), str) and node["title"]:
        return node["title"]
    tag = _discriminator(node)
    if tag:
        return tag
    kind = node.get("type")
    if isinstance(kind, str):
        return kind
    if isinstance(kind, list):
        return " or ".join(str(k) for k in kind)
    return ""


def _discriminator(node: dict[str, Any]) -> str:
    properties = node.get("properties")
    if not isinstance(properties, dict):
        return ""
    for key, sub in properties.items():
        if isinstance(sub, dict):
            if "const" in sub:
                return f"{key}: {shown(sub['const'], 40)}"
            enum = sub.get("enum")
            if isinstance(enum, list) and len(enum) == 1:
                return f"{key}: {shown(enum[0], 40)}"
    return ""


def _local(root: Any, ref: str) -> Any:
    if ref == "#":
        return root
    if not ref.startswith("#/"):
        return None
    return _walk(root, [part.replace("~1", "/").replace("~0", "~") for part in ref[2:].split("/")])
