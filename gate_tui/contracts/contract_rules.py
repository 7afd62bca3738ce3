"""What a contract must be beyond a valid JSON Schema: a root some reply can pass and a well-formed
``x-gate-tui`` block.

A reply is read as the root's type (:func:`root_want`: an object, an array, or any JSON
value for a scalar root); a root that admits nothing at all is refused at load by
:func:`root_problems`, in one line. The
``x-gate-tui`` block is the contract's own settings (title, prompt, samples, verdict field,
the draft of a schema without ``$schema``, and a schema store folder inside the contract's).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gate_tui.contracts.drafts import DRAFT_CHOICES, draft_option

META_KEY = "x-gate-tui"
MAX_CONTRACT_BYTES = 1024 * 1024
"""The largest contract file read, and the largest file it may refer to (a schema is
hand-written; more is a mistake or an attack)."""
_Found = list[tuple[list[str | int], str]]


def root_problems(schema: dict[str, Any], draft: int = 20) -> _Found:
    """A root that admits no value at all (``"not": {}``, ``"type": []``, ``"enum": []``): no
    reply could ever pass it. A root of any other type loads (see :func:`root_want`)."""
    if schema.get("not") is True or schema.get("not") == {}:
        return [
            (["not"], "the root admits nothing (not of everything), so no reply could ever pass")
        ]
    for word in ("type", "enum"):
        if schema.get(word) == []:
            return [
                ([word], f"the root admits nothing (an empty {word}), so no reply could ever pass")
            ]
    if schema.get("type") in ("object", ["object"]):
        found = _no_object(schema, schema, [], draft, {})
        if found is not None:  # an object root whose other keywords admit no object: nothing
            where, described = found
            return [
                (
                    where,
                    f"the root is an object whose schema here describes {described}, so no reply "
                    "could ever pass",
                )
            ]
    return []


def root_want(schema: dict[str, Any], draft: int = 20) -> str:
    """What a reply to this contract is, as ``extract_json``'s ``want``: ``"object"`` when the
    root admits objects and names no other type, ``"array"`` when it admits arrays only,
    else ``"any"`` (a scalar root, or several types).

    Conservative and linear: each schema node is judged once (a root this cannot decide
    keeps the object reading every contract had before)."""
    kinds = schema.get("type")
    names = [kinds] if isinstance(kinds, str) else kinds if isinstance(kinds, list) else None
    if _no_object(schema, schema, [], draft, {}) is None:
        return "object" if names is None or set(names) <= {"object"} else "any"
    return "array" if names == ["array"] else "any"


def _no_object(
    node: Any, schema: dict[str, Any], where: list[str | int], draft: int, seen: dict[int, Any]
) -> tuple[list[str | int], str] | None:
    """``(path, what it describes)`` when ``node`` admits no JSON object, else None."""
    if node is False:
        return where, "nothing (false)"
    if not isinstance(node, dict) or id(node) in seen or len(seen) > 100_000:
        return seen.get(id(node)) if isinstance(node, dict) else None
    seen[id(node)] = None  # in progress: a $ref cycle back here admits objects (conservative)
    seen[id(node)] = found = _judge(node, schema, where, draft, seen)
    return found


def _judge(
    node: dict[str, Any],
    schema: dict[str, Any],
    where: list[str | int],
    draft: int,
    seen: dict[int, Any],
) -> tuple[list[str | int], str] | None:
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#"):
        target = _local(schema, ref[1:]) if ref != "#" else schema
        parts = (
            [part.replace("~1", "/").replace("~0", "~") for part in ref[2:].split("/")]
            if ref.startswith("#/")
            else where
        )
        found = (
            _no_object(target, schema, parts, draft, seen)
            if isinstance(target, (dict, bool))
            else None
        )
        if found is not None or draft <= 7:  # before 2019-09 the keywords beside a $ref are ignored
            return found
    kinds = node.get("type")
    names = [kinds] if isinstance(kinds, str) else kinds if isinstance(kinds, list) else None
    if names is not None and "object" not in names:
        return [*where, "type"], " or ".join(str(name) for name in names) or "nothing"
    if "const" in node and not isinstance(node["const"], dict):
        return [*where, "const"], "one constant that is not an object"
    if isinstance(node.get("enum"), list) and not any(
        isinstance(value, dict) for value in node["enum"]
    ):
        return [*where, "enum"], "a list of constants none of which is an object"
    refused = node.get("not")
    if (
        refused is True
        or refused == {}
        or (
            isinstance(refused, dict)
            and set(refused) <= {"type", "title", "description"}
            and refused.get("type") in ("object", ["object"])
        )
    ):
        return [*where, "not"], "anything but an object"
    for index, part in enumerate(node.get("allOf") if isinstance(node.get("allOf"), list) else []):
        found = _no_object(part, schema, [*where, "allOf", index], draft, seen)
        if found is not None:
            return found
    for word in ("oneOf", "anyOf"):
        branches = node.get(word)
        if isinstance(branches, list) and branches:
            judged = [
                _no_object(branch, schema, [*where, word, index], draft, seen)
                for index, branch in enumerate(branches)
            ]
            if all(found is not None for found in judged):
                kinds_named = sorted({found[1] for found in judged if found is not None})
                return [*where, word], f"{' or '.join(kinds_named)} in every branch of its {word}"
    return None


def block_draft(schema: dict[str, Any]) -> int | None:
    """The draft ``x-gate-tui: {draft: N}`` names (None when absent or not a draft)."""
    block = schema.get(META_KEY)
    return (
        draft_option(block.get("draft")) if isinstance(block, dict) and "draft" in block else None
    )


def block_problems(schema: dict[str, Any]) -> _Found:
    """Every way the ``x-gate-tui`` block is malformed."""
    block = schema.get(META_KEY)
    if block is None:
        return []
    if not isinstance(block, dict):
        return [
            (
                [META_KEY],
                "must be an object (title, prompt, samples, verdict_field, draft, schemas)",
            )
        ]
    found: _Found = []
    for key in ("title", "prompt", "verdict_field"):
        if key in block and not isinstance(block[key], str):
            found.append(([META_KEY, key], "must be text"))
    if "samples" in block and not (
        isinstance(block["samples"], dict)
        and all(isinstance(v, str) for v in block["samples"].values())
    ):
        found.append(([META_KEY, "samples"], "must map a kind (good, repairable…) to a file name"))
    verdict = block.get("verdict_field")
    properties = schema.get("properties")
    if isinstance(verdict, str) and not (isinstance(properties, dict) and verdict in properties):
        found.append(
            ([META_KEY, "verdict_field"], f"names {verdict!r}, which is not a top-level property")
        )
    if "draft" in block and draft_option(block["draft"]) is None:
        found.append(
            ([META_KEY, "draft"], f"must be one of {DRAFT_CHOICES}, not {block['draft']!r}")
        )
    if "schemas" in block and not (isinstance(block["schemas"], str) and block["schemas"].strip()):
        found.append(
            (
                [META_KEY, "schemas"],
                "must be the name of a folder of schema files, next to the contract",
            )
        )
    return found


def store_folder(
    schema: dict[str, Any], folder: Path | None, option: str | None
) -> tuple[Path | None, str | None]:
    """The schema store to use: ``--schemas DIR`` first, else ``x-gate-tui: {schemas: DIR}``.

    The block's folder must lie inside the contract's own folder: a contract handed over
    must not make gate-tui read schema files elsewhere on the disk (``--schemas`` is the
    user's own choice, so it may be anywhere).
    """
    if option is not None:
        path = Path(option)
        return (path, None) if path.is_dir() else (None, f"--schemas {option}: not a folder")
    block = schema.get(META_KEY)
    name = block.get("schemas") if isinstance(block, dict) else None
    if not isinstance(name, str):
        return None, None
    if folder is None:
        return None, f"schemas: {name!r} needs a contract read from a folder"
    path = folder / name
    try:
        inside = path.resolve().is_relative_to(folder.resolve())
    except (OSError, RuntimeError):
        inside = False
    if not inside:
        return (
            None,
            f"schemas: {name!r} leads outside the contract's folder; keep the store beside the "
            "contract, or pass --schemas DIR",
        )
    return (
        (path, None)
        if path.is_dir()
        else (None, f"schemas: {name!r} is not a folder next to the contract")
    )


def _local(schema: dict[str, Any], pointer: str) -> Any:
    value: Any = schema
    for raw in pointer.split("/")[1:]:
        part = raw.replace("~1", "/").replace("~0", "~")
        value = value.get(part) if isinstance(value, dict) else None
    return value
