"""A system-prompt block for a contract: the shape, each field's rule, the definitions, an example.

Plain text a team pastes into a model's system prompt (``gate-tui prompt --contract``),
built from the schema itself so the prompt and the checker cannot disagree
(:mod:`gate_tui.contracts.describing` writes the lines). The opening line says what kind of
JSON value to reply with, from the root: an object ("Its fields:" only when there are
fields), an array ("each item: …"), a string or number, or one of several shapes
(``oneOf``/``anyOf`` roots). Named definitions follow the fields, each described once.

:func:`prompt_report` also says how long the prompt is and, past :data:`PROMPT_WARN_AT`
characters, which parts are the biggest (a context window is finite; a team should know
which definition to trim).
"""

from __future__ import annotations

import json
from typing import Any, NamedTuple

from gate_tui.contracts.describing import Describer
from gate_tui.contracts.loading import Contract
from gate_tui.contracts.shape_words import about, branches

PROMPT_WARN_AT = 8000
"""Characters past which a prompt is called long (a sizeable share of a small context window)."""


class PromptReport(NamedTuple):
    """The prompt, its size in characters, and the sizes of its parts (biggest first)."""

    text: str
    size: int
    parts: list[tuple[str, int]]

    @property
    def note(self) -> str:
        """One line for people: the size, and past the limit a warning naming the biggest parts."""
        line = f"the prompt is {self.size:,} characters"
        if self.size <= PROMPT_WARN_AT:
            return line
        biggest = ", ".join(f"{name} ({size:,})" for name, size in self.parts[:3])
        return f"{line}, over {PROMPT_WARN_AT:,}: the biggest parts are {biggest}"


def contract_prompt(contract: Contract) -> str:
    """The prompt block; deterministic for a given contract."""
    return prompt_report(contract).text


def prompt_report(contract: Contract) -> PromptReport:
    """The prompt block with its size and its biggest parts (see the module docstring)."""
    schema = contract.schema
    describer = Describer(schema)
    lines = [f"# {contract.title}", ""]
    intro = contract.meta.get("prompt") or schema.get("description")
    if isinstance(intro, str) and intro.strip():
        lines += [intro.strip(), ""]
    parts: list[tuple[str, int]] = []
    body = _root(describer, schema)
    lines += body
    parts += _field_sizes(body)
    done: set[str] = set()
    while len(done) < len(describer.definitions):  # describing one may name more
        name = next(name for name in describer.definitions if name not in done)
        done.add(name)
        if len(done) == 1:
            lines += ["", "Definitions (each is named where it is used):"]
        block = _definition(describer, name, describer.definitions[name])
        lines += block
        parts.append((f"definition {name}", sum(len(line) + 1 for line in block)))
    rules = _rules(schema)
    if rules:
        lines += ["", "Rules across fields:"] + [f"- {rule}" for rule in rules]
    examples = schema.get("examples")
    if isinstance(examples, list) and examples:
        example = [
            "",
            "Example:",
            "```json",
            json.dumps(examples[0], indent=2, ensure_ascii=False),
            "```",
        ]
        lines += example
        parts.append(("the example", sum(len(line) + 1 for line in example)))
    text = "\n".join(lines) + "\n"
    return PromptReport(text, len(text), sorted(parts, key=lambda part: -part[1]))


def _root(describer: Describer, schema: dict[str, Any]) -> list[str]:
    """The opening line, from the root's kind, and the root's own lines."""
    shape = describer.merged(schema)
    if describer.is_object(schema):
        fields = describer.fields(schema, 0)
        if not fields:
            return [
                "Reply with exactly one JSON object (no other text is needed); it may have any "
                "keys."
            ]
        return [
            "Reply with exactly one JSON object (no other text is needed). Its fields:",
            "",
            *fields,
        ]
    kind = shape.get("type")
    if kind == "array" or "items" in shape or "prefixItems" in shape:
        nested = describer.nested(shape, 0)
        return [
            "Reply with exactly one JSON array (no other text is needed): "
            f"{describer.rule(shape)}.",
            *([""] + nested if nested else []),
        ]
    if branches(shape) and "type" not in shape:
        return [
            "Reply with exactly one JSON value (no other text is needed) of one of the shapes "
            "below.",
            "",
            *describer.nested(shape, 0),
        ]
    what = "value" if not isinstance(kind, str) else kind
    nested = describer.nested(shape, 0)
    return [
        f"Reply with exactly one JSON {what} (no other text is needed): {describer.rule(shape)}.",
        *([""] + nested if nested else []),
    ]


def _definition(describer: Describer, name: str, schema: Any) -> list[str]:
    alias = (
        describer.named({"$ref": schema["$ref"]})
        if isinstance(schema, dict) and isinstance(schema.get("$ref"), str)
        else None
    )
    if alias is not None:
        # A definition that is another big one plus a few keywords ("$ref": "#" and a
        # description, as Renovate's 138 manager definitions are): named, never copied in.
        rest = {key: value for key, value in schema.items() if key != "$ref"}
        extra = describer.rule(rest)
        head = (
            f"{name}: {alias}" + (f"; also {extra}" if extra != "any value" else "") + about(rest)
        )
        return ["", head, *describer.nested(rest, 1)]
    shape = describer.resolve(schema)
    head = (
        f"{name}: {describer.rule(shape) if isinstance(shape, dict) else 'any value'}{about(shape)}"
    )
    if not isinstance(shape, dict):
        return ["", head]
    return ["", head, *describer.nested(shape, 1)]


def _field_sizes(lines: list[str]) -> list[tuple[str, int]]:
    """The size of each top-level field's lines (a field line starts at column 0 with ``- ``)."""
    sizes: list[tuple[str, int]] = []
    for line in lines:
        if line.startswith("- ") and "(" in line:
            sizes.append((f"field {line[2:].split(' (', 1)[0]}", 0))
        if sizes:
            sizes[-1] = (sizes[-1][0], sizes[-1][1] + len(line) + 1)
    return sizes


def _rules(schema: dict[str, Any]) -> list[str]:
    found = []
    allof = schema.get("allOf")
    candidates = [schema] + [
        s for s in (allof if isinstance(allof, list) else []) if isinstance(s, dict)
    ]
    for node in candidates:
        if "if" in node and ("then" in node or "else" in node):
            text = node.get("description") or node.get("$comment")
            found.append(str(text) if text else "see the schema's if/then")
    return found
