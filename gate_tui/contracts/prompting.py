"""A system-prompt block for a contract: the shape, each field's rule and an example.

Plain text a team pastes into a model's system prompt (``gate-tui prompt --contract``),
built from the schema itself so the prompt and the checker cannot disagree. Nested
objects and array items are described under their parent with a deeper indent;
``$ref`` to ``#/$defs/…`` is followed (a cycle is shown as "see above").
"""

from __future__ import annotations

import json
from typing import Any

from gate_tui.contracts.loading import Contract

_MAX_DEPTH = 6


def contract_prompt(contract: Contract) -> str:
    """The prompt block; deterministic for a given contract."""
    schema = contract.schema
    lines = [f"# {contract.title}", ""]
    intro = contract.meta.get("prompt") or schema.get("description")
    if isinstance(intro, str) and intro.strip():
        lines += [intro.strip(), ""]
    lines += ["Reply with exactly one JSON object (no other text is needed). Its fields:", ""]
    lines += _fields(schema, schema, 0, set())
    rules = _rules(schema)
    if rules:
        lines += ["", "Rules across fields:"] + [f"- {rule}" for rule in rules]
    examples = schema.get("examples")
    if isinstance(examples, list) and examples:
        lines += ["", "Example:", "```json", json.dumps(examples[0], indent=2, ensure_ascii=False), "```"]
    return "\n".join(lines) + "\n"


def _resolve(root: dict[str, Any], node: Any, seen: set[str]) -> tuple[Any, set[str]]:
    while isinstance(node, dict) and isinstance(node.get("$ref"), str) and node["$ref"].startswith("#/"):
        ref = node["$ref"]
        if ref in seen:
            return {"description": "see above"}, seen
        seen = seen | {ref}
        target: Any = root
        for part in ref[2:].split("/"):
            target = target.get(part.replace("~1", "/").replace("~0", "~")) if isinstance(target, dict) else None
        merged = dict(target) if isinstance(target, dict) else {}
        merged.update({k: v for k, v in node.items() if k != "$ref"})
        node = merged
    return node, seen


def _fields(root: dict[str, Any], schema: Any, depth: int, seen: set[str]) -> list[str]:
    schema, seen = _resolve(root, schema, seen)
    properties = schema.get("properties") if isinstance(schema, dict) else None
    if not isinstance(properties, dict) or depth > _MAX_DEPTH:
        return []
    required = set(schema.get("required") or [])
    pad = "  " * depth
    lines = []
    for name, sub in properties.items():
        sub, sub_seen = _resolve(root, sub, seen)
        need = "required" if name in required else "optional"
        lines.append(f"{pad}- {name} ({need}): {_rule(root, sub)}")
        lines += _fields(root, sub, depth + 1, sub_seen)
        items, item_seen = _resolve(root, sub.get("items") if isinstance(sub, dict) else None, sub_seen)
        if isinstance(items, dict) and isinstance(items.get("properties"), dict):
            lines.append(f"{pad}  each item:")
            lines += _fields(root, items, depth + 2, item_seen)
    if schema.get("additionalProperties") is False:
        lines.append(f"{pad}- no other keys")
    return lines


def _rule(root: dict[str, Any], schema: Any) -> str:
    if not isinstance(schema, dict):
        return "any value"
    parts = []
    if "enum" in schema:
        parts.append("one of " + ", ".join(json.dumps(v, ensure_ascii=False) for v in schema["enum"]))
    elif "type" in schema:
        parts.append(f"{schema['type']}" if isinstance(schema["type"], str) else " or ".join(schema["type"]))
    items = schema.get("items")
    if isinstance(items, dict) and "enum" in items:
        parts.append("each one of " + ", ".join(json.dumps(v, ensure_ascii=False) for v in items["enum"]))
    for key, word in (("minLength", "at least {} characters"), ("maxLength", "at most {} characters"), ("minItems", "at least {} items"), ("maxItems", "at most {} items"), ("minimum", "≥ {}"), ("maximum", "≤ {}"), ("format", "format {}")):
        if key in schema:
            parts.append(word.format(schema[key]))
    extra = schema.get("additionalProperties")
    if isinstance(extra, dict):
        parts.append("each value " + _rule(root, _resolve(root, extra, set())[0]))
    elif isinstance(items, dict) and "type" in items and "enum" not in items and "properties" not in items:
        parts.append(f"of {items['type']}")
    text = "; ".join(parts) if parts else "any value"
    if isinstance(schema.get("description"), str):
        text += f" — {schema['description']}"
    return text


def _rules(schema: dict[str, Any]) -> list[str]:
    found = []
    candidates = [schema] + [s for s in schema.get("allOf") or [] if isinstance(s, dict)]
    for node in candidates:
        if "if" in node and ("then" in node or "else" in node):
            text = node.get("description") or node.get("$comment")
            found.append(str(text) if text else "see the schema's if/then")
    return found
