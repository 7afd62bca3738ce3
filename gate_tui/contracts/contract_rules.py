"""What a contract must be beyond a valid JSON Schema: an object root and a well-formed ``x-gate-tui`` block.

A reply is a JSON object (the extractor and the seed's adapter refuse a top-level array), so
a schema whose root describes an array, a string or a number would load and then fail every
reply; :func:`root_problems` refuses it at load, in one line saying what to do. The
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


def root_problems(schema: dict[str, Any]) -> _Found:
    """A root (or the root's local ``$ref`` target) whose ``type`` leaves out ``object``."""
    node, where = schema, []
    for _hop in range(8):  # follow "$ref": "#/$defs/Root" chains a little way, never in circles
        ref = node.get("$ref")
        if "type" in node or not (isinstance(ref, str) and ref.startswith("#/")):
            break
        target = _local(schema, ref[1:])
        if not isinstance(target, dict):
            break
        node, where = target, [part.replace("~1", "/").replace("~0", "~") for part in ref[2:].split("/")]
    kinds = node.get("type")
    names = [kinds] if isinstance(kinds, str) else kinds if isinstance(kinds, list) else None
    if names is None or "object" in names:
        return []
    described = " or ".join(str(name) for name in names) or "nothing"
    return [
        (
            [*where, "type"],
            f"the root describes {described}, but a reply must be a JSON object, so no reply could ever pass; "
            'make the root {"type": "object"} and put this schema under one of its properties',
        )
    ]


def block_draft(schema: dict[str, Any]) -> int | None:
    """The draft ``x-gate-tui: {draft: N}`` names (None when absent or not a draft)."""
    block = schema.get(META_KEY)
    return draft_option(block.get("draft")) if isinstance(block, dict) and "draft" in block else None


def block_problems(schema: dict[str, Any]) -> _Found:
    """Every way the ``x-gate-tui`` block is malformed."""
    block = schema.get(META_KEY)
    if block is None:
        return []
    if not isinstance(block, dict):
        return [([META_KEY], "must be an object (title, prompt, samples, verdict_field, draft, schemas)")]
    found: _Found = []
    for key in ("title", "prompt", "verdict_field"):
        if key in block and not isinstance(block[key], str):
            found.append(([META_KEY, key], "must be text"))
    if "samples" in block and not (isinstance(block["samples"], dict) and all(isinstance(v, str) for v in block["samples"].values())):
        found.append(([META_KEY, "samples"], "must map a kind (good, repairable…) to a file name"))
    verdict = block.get("verdict_field")
    properties = schema.get("properties")
    if isinstance(verdict, str) and not (isinstance(properties, dict) and verdict in properties):
        found.append(([META_KEY, "verdict_field"], f"names {verdict!r}, which is not a top-level property"))
    if "draft" in block and draft_option(block["draft"]) is None:
        found.append(([META_KEY, "draft"], f"must be one of {DRAFT_CHOICES}, not {block['draft']!r}"))
    if "schemas" in block and not (isinstance(block["schemas"], str) and block["schemas"].strip()):
        found.append(([META_KEY, "schemas"], "must be the name of a folder of schema files, next to the contract"))
    return found


def store_folder(schema: dict[str, Any], folder: Path | None, option: str | None) -> tuple[Path | None, str | None]:
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
        return None, f"schemas: {name!r} leads outside the contract's folder; keep the store beside the contract, or pass --schemas DIR"
    return (path, None) if path.is_dir() else (None, f"schemas: {name!r} is not a folder next to the contract")


def _local(schema: dict[str, Any], pointer: str) -> Any:
    value: Any = schema
    for raw in pointer.split("/")[1:]:
        part = raw.replace("~1", "/").replace("~0", "~")
        value = value.get(part) if isinstance(value, dict) else None
    return value
