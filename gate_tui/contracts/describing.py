"""A schema described in plain lines for a model: each field, its rule, nested shapes indented.

What keeps a prompt the size of its schema (SARIF 2.1.0's was 381,137 characters when every
``$ref`` was expanded at each use):

* a ``$ref`` to a definition with fields of its own is NAMED where it is used ("a Step, see
  below") and described ONCE, in :attr:`Describer.definitions` order; a small one (an enum,
  a bounded number) is shorter written out, so it is written out;
* ``allOf`` branches (and ``$ref`` beside ``properties``) are MERGED into the one object they
  describe, so keys the root requires through them are listed;
* ``patternProperties`` / ``additionalProperties`` maps are lines of their own: "any key
  matching `^x-`: …", "any other key: …", "no other keys";
* ``oneOf`` / ``anyOf`` list their branches ("one of these shapes:");
* enum lists and nesting depth are bounded.

The walk visits each schema node a bounded number of times (named definitions once), so its
cost is linear in the schema.
"""

from __future__ import annotations

from typing import Any

from gate_tui.contracts.shape_words import (
    ENUM_SHOWN,
    about,
    as_json,
    as_list,
    branches,
    options_line,
    see_below,
    unique_name,
)

_MAX_DEPTH = 8
_INLINE_LIMIT = 100
"""A referenced definition whose rule and description fit in this many characters is written out at
its use."""
_MAX_ENTRIES = 100_000
"""Lines described at most; a schema read from a file has fewer nodes than its size in bytes."""
_WORDS = (
    ("minLength", "at least {} characters"),
    ("maxLength", "at most {} characters"),
    ("minItems", "at least {} items"),
    ("maxItems", "at most {} items"),
    ("minProperties", "at least {} keys"),
    ("maxProperties", "at most {} keys"),
    ("minimum", "≥ {}"),
    ("maximum", "≤ {}"),
    ("exclusiveMinimum", "> {}"),
    ("exclusiveMaximum", "< {}"),
    ("multipleOf", "a multiple of {}"),
    ("pattern", "matching `{}`"),
    ("format", "format {}"),
)
_EXTERNAL = "\x00external $ref"
"""Marks a shape whose ``$ref`` leads to another file (a key no real schema uses: it starts with
NUL)."""
_NESTING = ("properties", "patternProperties", "allOf", "oneOf", "anyOf")


class Describer:
    """Describes one schema; :attr:`definitions` collects the named ones still to describe."""

    def __init__(self, root: dict[str, Any]) -> None:
        self.root = root
        self.definitions: dict[str, Any] = {}  # name -> schema, in order of first use
        self._names: dict[str, str] = {}  # $ref -> name
        self._merged: dict[int, tuple[Any, dict[str, Any]]] = {}
        self._merging: set[int] = set()
        self.budget = _MAX_ENTRIES

    # -- shapes ------------------------------------------------------------------------
    def resolve(self, node: Any, depth: int = 0) -> Any:
        """``node`` with a local ``$ref`` merged in (its own keywords win), bounded."""
        while isinstance(node, dict) and isinstance(node.get("$ref"), str) and depth < _MAX_DEPTH:
            target = self._target(node["$ref"])
            if not isinstance(
                target, dict
            ):  # another file's schema: named in the rule, never called "any value"
                return {**{k: v for k, v in node.items() if k != "$ref"}, _EXTERNAL: node["$ref"]}
            node = {**target, **{k: v for k, v in node.items() if k != "$ref"}}
            depth += 1
        return node

    def merged(self, node: Any, depth: int = 0) -> dict[str, Any]:
        """The object ``node`` describes, with its ``allOf`` branches' keys merged in.

        Memoised per node (the memo holds the node, so its id is never reused) and guarded
        against ``allOf``/``$ref`` cycles: a shared definition is merged once, not once per path.
        """
        key = id(node)
        if key in self._merged:
            return self._merged[key][1]
        if key in self._merging or depth >= _MAX_DEPTH:
            return {"properties": {}, "required": [], "patternProperties": {}, "x-keys-of": []}
        self._merging.add(key)
        try:
            out = self._merge(node, depth)
        finally:
            self._merging.discard(key)
        self._merged[key] = (node, out)
        return out

    def _merge(self, node: Any, depth: int) -> dict[str, Any]:
        node = self.resolve(node)
        if not isinstance(node, dict):
            return {"properties": {}, "required": [], "patternProperties": {}, "x-keys-of": []}
        out = {k: v for k, v in node.items() if k != "allOf"}
        properties = (
            dict(out.get("properties") or {}) if isinstance(out.get("properties"), dict) else {}
        )
        required = list(out.get("required") or []) if isinstance(out.get("required"), list) else []
        patterns = (
            dict(out.get("patternProperties") or {})
            if isinstance(out.get("patternProperties"), dict)
            else {}
        )
        keys_of: list[str] = []
        for branch in as_list(node.get("allOf")):
            named = self.named(branch) if self._is_object_ref(branch) else None
            if (
                named is not None
            ):  # a big shared definition: named, not copied; its required keys listed
                keys_of.append(named)
                target = self.merged(branch, depth + 1)
                for key in target["required"]:
                    if key not in required:
                        required.append(key)
                        properties.setdefault(key, {"description": f"as in {named.split(',')[0]}"})
                continue
            part = self.merged(branch, depth + 1)
            for key, sub in part["properties"].items():
                properties.setdefault(key, sub)
            required += [key for key in part["required"] if key not in required]
            for key, sub in part["patternProperties"].items():
                patterns.setdefault(key, sub)
            for key in ("additionalProperties", "type", "description"):
                if key in part and key not in out:
                    out[key] = part[key]
        out["properties"], out["required"], out["patternProperties"] = (
            properties,
            required,
            patterns,
        )
        out["x-keys-of"] = keys_of
        return out

    def _is_object_ref(self, node: Any) -> bool:
        return (
            isinstance(node, dict)
            and isinstance(node.get("$ref"), str)
            and set(node) == {"$ref"}
            and self.is_object(self._target(node["$ref"]))
        )

    def is_object(self, node: Any) -> bool:
        node = self.merged(node)
        kind = node.get("type")
        return (
            kind == "object"
            or bool(
                node.get("properties") or node.get("patternProperties") or node.get("x-keys-of")
            )
            or (
                kind is None
                and isinstance(node.get("additionalProperties"), (dict, bool))
                and "items" not in node
            )
        )

    # -- lines ---------------------------------------------------------------------------
    def fields(self, node: Any, depth: int) -> list[str]:
        """One line per key of the object ``node`` (and the lines nested under it)."""
        shape = self.merged(node)
        pad = "  " * depth
        lines: list[str] = []
        properties = shape["properties"]
        required = [key for key in shape["required"] if isinstance(key, str)]
        for key in [*properties, *(k for k in required if k not in properties)]:
            need = "required" if key in required else "optional"
            lines += self.entry(f"{pad}- {key} ({need}): ", properties.get(key, True), depth)
        for named in shape["x-keys-of"]:
            lines.append(f"{pad}- every key of {named}")
        for pattern, sub in shape["patternProperties"].items():
            lines += self.entry(f"{pad}- any key matching `{pattern}`: ", sub, depth)
        extra = shape.get("additionalProperties", shape.get("unevaluatedProperties"))
        if extra is False:
            lines.append(f"{pad}- no other keys")
        elif isinstance(extra, dict) and extra:
            lines += self.entry(f"{pad}- any {'other ' if lines else ''}key: ", extra, depth)
        return lines

    def entry(self, head: str, node: Any, depth: int) -> list[str]:
        """``head`` + the rule of ``node``, and its nested lines one level deeper."""
        self.budget -= 1
        if (
            self.budget < 0
        ):  # only a schema sharing nodes in memory (never one read from a file) gets here
            return (
                [head + "… (omitted: the schema is too large to describe)"]
                if self.budget == -1
                else []
            )
        named = self.named(node)
        if named is not None:
            return [head + named + about(node)]
        shape = self.resolve(node)
        if not isinstance(shape, dict):
            return [head + ("any value" if shape is not False else "not allowed")]
        text = head + self.rule(shape) + about(shape)
        if depth >= _MAX_DEPTH:
            return [
                text
                + (
                    " (nested too deep to describe here)"
                    if any(k in shape for k in _NESTING)
                    else ""
                )
            ]
        return [text, *self.nested(shape, depth + 1)]

    def nested(self, shape: dict[str, Any], depth: int) -> list[str]:
        """The lines under a field: its keys, its items, its branches."""
        pad = "  " * depth
        lines: list[str] = []
        if self.is_object(shape):
            lines += self.fields(shape, depth)
        items = shape.get("items")
        if (
            isinstance(items, dict)
            and self.named(items) is None
            and (self.is_object(items) or branches(self.resolve(items)))
        ):
            lines += self.entry(f"{pad}each item: ", items, depth)
        # a tuple: prefixItems (2019-09 on), or items as a list (draft-07 and earlier, refused in
        # 2020-12)
        tuple_items = as_list(shape.get("prefixItems")) or as_list(items)
        for index, item in enumerate(tuple_items):
            lines += self.entry(f"{pad}item {index + 1}: ", item, depth)
        rest = (
            shape.get("additionalItems")
            if isinstance(items, list)
            else items
            if "prefixItems" in shape
            else None
        )
        if tuple_items and rest is False:
            lines.append(f"{pad}no other items")
        for word, options in branches(shape):
            if self.values(options) is not None:
                continue  # written out in the rule: one of "a" (…), "b" (…)
            lines.append(f"{pad}{word}:")
            for index, branch in enumerate(options[:ENUM_SHOWN]):
                lines += self.entry(f"{pad}  - shape {index + 1}: ", branch, depth + 1)
            if len(options) > ENUM_SHOWN:
                lines.append(f"{pad}  - … ({len(options):,} shapes in all)")
        return lines

    def rule(self, shape: dict[str, Any]) -> str:
        """The one-line rule of a schema (its nested keys come as lines of their own)."""
        parts = []
        if "const" in shape:
            parts.append(f"exactly {as_json(shape['const'])}")
        elif isinstance(shape.get("enum"), list):
            parts.append("one of " + options_line(shape["enum"]))
        elif "type" in shape:
            kind = shape["type"]
            parts.append(
                str(kind)
                if isinstance(kind, str)
                else " or ".join(str(k) for k in kind)
                if isinstance(kind, list)
                else "any value"
            )
        elif self.is_object(shape):
            parts.append("object")
        items = shape.get("items")
        if isinstance(items, dict):
            named = self.named(items)
            item = self.resolve(items)
            if named is not None:
                parts.append(f"each item {named}")
            elif isinstance(item, dict) and not self.is_object(item) and not branches(item):
                parts.append("each item " + self.rule(item))
        for key, word in _WORDS:
            if key in shape and not isinstance(shape[key], (dict, list)):
                parts.append(word.format(shape[key]))
        for _word, options in branches(shape):
            values = self.values(options)
            if values is not None:
                parts.append("one of " + values)
            elif not parts:
                parts.append("one of the shapes below")
        if _EXTERNAL in shape and (not parts or parts == ["object"]):
            parts.insert(
                0, f"as the schema {shape[_EXTERNAL]} describes it (checked, not written out here)"
            )
        return "; ".join(parts) if parts else "any value"

    def values(self, options: list[Any]) -> str | None:
        """``"lf" (Line Feed only), "crlf" (…)`` when every branch is one constant, else None."""
        shown = []
        for option in options[:ENUM_SHOWN]:
            branch = self.resolve(option)
            if not isinstance(branch, dict) or set(branch) - {
                "const",
                "enum",
                "description",
                "title",
            }:
                return None
            enum = branch.get("enum")
            if "const" in branch:
                value = branch["const"]
            elif isinstance(enum, list) and len(enum) == 1:
                value = enum[0]
            else:
                return None
            note = branch.get("description") or branch.get("title")
            shown.append(
                as_json(value)
                + (f" ({' '.join(note.split())})" if isinstance(note, str) and note.strip() else "")
            )
        more = f", … ({len(options):,} in all)" if len(options) > ENUM_SHOWN else ""
        return ", ".join(shown) + more if shown else None

    def named(self, node: Any) -> str | None:
        """"a Step, see below" for a ``$ref`` worth naming (registered for later), else None."""
        if not isinstance(node, dict) or not isinstance(node.get("$ref"), str):
            return None
        ref = node["$ref"]
        if ref in self._names:
            return see_below(self._names[ref])
        target = self._target(ref)
        if not isinstance(target, dict):
            return None
        if ref == "#":
            return "the whole shape again (see the top)"
        simple = not any(
            key in target
            for key in (*_NESTING, "items", "prefixItems", "$ref", "additionalProperties")
        )
        if simple and len(self.rule(target) + about(target)) <= _INLINE_LIMIT:
            return None
        name = unique_name(
            ref.rstrip("/").rsplit("/", 1)[-1] or "definition", set(self._names.values())
        )
        self._names[ref] = name
        self.definitions[name] = target
        return see_below(name)

    def _target(self, ref: str) -> Any:
        if ref == "#":
            return self.root
        if not ref.startswith("#/"):
            return None
        node: Any = self.root
        for part in ref[2:].split("/"):
            part = part.replace("~1", "/").replace("~0", "~")
            if isinstance(node, dict):
                node = node.get(part)
            elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
                node = node[int(part)]
            else:
                return None
        return node
