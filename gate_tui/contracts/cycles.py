"""``$ref`` cycles that no validator can finish: a load error, not a hang or a crash later.

A schema that, through ``$ref``, ``allOf``, ``oneOf``, ``not`` or ``if``, comes back to itself
without reading into the value (a property, an item) checks the same value again forever. Such
a cycle is reported only where a validation can reach it (a definition nothing uses never
runs: the published ``cloudify.json`` has one that is used). Recursion through ``properties``
or ``items`` (a tree) is fine.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote

from gate_tui.contracts.drafts import subschemas
from gate_tui.contracts.results import pointer

MAX_CYCLES_SHOWN = 20


def cycle_problems(
    schema: dict[str, Any], id_key: str = "$id"
) -> list[tuple[list[str | int], str]]:
    """``$ref`` cycles inside the contract that come back to a schema without reading into the
    value.

    Only the contract's own resource is followed (a ``#/...`` inside an embedded schema with
    an ``$id`` of its own means that schema, not the contract).
    """
    walked = list(subschemas(schema, "", id_key))
    root_base = walked[0][2] if walked else ""
    nodes = {
        pointer(parts): (parts, node if base == root_base else {}) for parts, node, base in walked
    }
    state: dict[str, int] = {}  # 1 on the current path, 2 done
    problems = []
    used = _used(nodes)
    for start in nodes:
        if state.get(start) or start not in used:  # a definition nothing uses never runs
            continue
        path: list[str] = [start]
        stack = [iter(_in_place(start, nodes[start][1], nodes))]
        state[start] = 1
        while stack:
            step = next(stack[-1], None)
            if step is None:
                state[path.pop()] = 2
                stack.pop()
            elif state.get(step) == 1:
                problems.append((nodes[step][0], _cycle_message(path[path.index(step):] + [step])))
                if len(problems) >= MAX_CYCLES_SHOWN:
                    return problems
            elif not state.get(step):
                state[step] = 1
                path.append(step)
                stack.append(iter(_in_place(step, nodes[step][1], nodes)))
    return problems


def _cycle_message(loop: list[str]) -> str:
    steps = [point or "/" for point in loop]
    shown = (
        " → ".join(steps)
        if len(steps) <= 6
        else " → ".join([*steps[:3], "…", *steps[-2:]]) + f" ({len(steps) - 1} steps)"
    )
    return (
        f"$ref cycle that never ends: {shown} (each step checks the same value again without "
        "reading into it); put the $ref under properties or items, or remove it"
    )


def _used(nodes: dict[str, tuple[list[str | int], dict[str, Any]]]) -> set[str]:
    """The schemas a validation can reach: from the root through every keyword except the
    definition containers, and through every local ``$ref``."""
    children: dict[str, list[str]] = {}
    for key, (parts, _node) in nodes.items():
        for cut in (1, 2):
            parent = pointer(parts[:-cut]) if len(parts) >= cut else None
            if parent is not None and parent in nodes:
                if parts[-cut] not in ("$defs", "definitions"):
                    children.setdefault(parent, []).append(key)
                break
    used: set[str] = set()
    todo = [""] if "" in nodes else []
    while todo:
        key = todo.pop()
        if key in used:
            continue
        used.add(key)
        todo.extend(children.get(key, ()))
        ref = nodes[key][1].get("$ref")
        if (
            isinstance(ref, str)
            and (ref == "#" or ref.startswith("#/"))
            and unquote(ref[1:]) in nodes
        ):
            todo.append(unquote(ref[1:]))
    return used


def _in_place(key: str, node: dict[str, Any], nodes: dict[str, Any]) -> list[str]:
    """The schemas always applied to the same value as ``node``: its local $ref, allOf, oneOf, not,
    if."""
    steps = []
    ref = node.get("$ref")
    if isinstance(ref, str) and (ref == "#" or ref.startswith("#/")) and unquote(ref[1:]) in nodes:
        steps.append(unquote(ref[1:]))
    for word in ("allOf", "oneOf"):
        if isinstance(node.get(word), list):
            steps.extend(f"{key}/{word}/{index}" for index in range(len(node[word])))
    steps.extend(f"{key}/{word}" for word in ("not", "if") if isinstance(node.get(word), dict))
    return [step for step in steps if step in nodes]
