"""JSON data written as YAML or JSON, read within bounds, with the line of every value.

A JSON Schema is JSON data, but a contract may be written in YAML, and YAML has values JSON
has not (dates, ``.inf``, ``!!binary``, non-text keys) that would otherwise surface later as
"Unsupported type: 'date'" with no line. :func:`read_json_data` reads a file as a regular
file (a FIFO or a device is refused without blocking), caps its size, and refuses, naming
the line: nesting deeper than ``max_depth``, aliases, duplicate keys (both lines), and any
value JSON cannot hold. It never raises and never names a Python exception.

YAML goes through libyaml when it is there (a 100 KB schema in milliseconds): the event
stream is read first with a depth counter and no recursion, so a file of a million ``[``
is refused before anything recursive (the composer, the constructor) sees it.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from gate_tui.config.bounded_yaml import YamlProblem, load_json

MAX_DATA_DEPTH = 128
"""Deep enough for any real schema (Kubernetes CRDs reach ~40), far below any recursion limit."""

_JSON_TAGS = {
    "tag:yaml.org,2002:str",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
}


def read_json_data(
    path: str | Path, what: str, limit: int, max_depth: int = MAX_DATA_DEPTH
) -> tuple[Any, str | None, YamlProblem | None]:
    """``(data, text, None)`` or ``(None, None, problem)`` for a ``.json`` / YAML file."""
    from gate_tui.safe_read import read_regular

    try:
        raw = read_regular(path, limit, what)
    except FileNotFoundError:
        return None, None, YamlProblem("file not found")
    if isinstance(raw, str):
        return None, None, YamlProblem(raw)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        return None, None, YamlProblem(f"not UTF-8 text ({exc.reason} at byte {exc.start})")
    data, problem = json_data(text, str(path).lower().endswith(".json"), max_depth)
    return (None, None, problem) if problem is not None else (data, text, None)


def json_data(
    text: str, is_json: bool, max_depth: int = MAX_DATA_DEPTH
) -> tuple[Any, YamlProblem | None]:
    """The data of a JSON or YAML text, or the first reason it is not bounded JSON data."""
    if is_json:
        return _json(text, max_depth)
    data, _lines, problem = yaml_data(text, max_depth)
    return data, problem


def _json(text: str, max_depth: int) -> tuple[Any, YamlProblem | None]:
    data, problem = load_json(text)
    if problem is not None:
        if "appears twice" in problem.message:  # name both lines, as YAML does (JSON is YAML here)
            _data, _lines, yaml_problem = yaml_data(text, max_depth)
            if yaml_problem is not None and "duplicate key" in yaml_problem.message:
                return None, yaml_problem
        return None, problem
    deepest, bad, pointer = _walk_json(data, max_depth)
    if deepest > max_depth:
        return None, YamlProblem(f"nested more than {max_depth} levels deep")
    if bad is not None:  # JSON is YAML: its line map finds the line (error path only)
        return None, YamlProblem(bad, yaml_data(text, max_depth)[1].get(pointer))
    return data, None


def _walk_json(data: Any, max_depth: int) -> tuple[int, str | None, str]:
    """The depth of ``data`` (stopping past ``max_depth``), the first value JSON cannot hold
    and its JSON Pointer (so the message names the place and its line, as for YAML)."""
    stack: list[tuple[Any, int, str]] = [(data, 1, "")]
    deepest = 0
    while stack:
        value, depth, pointer = stack.pop()
        deepest = max(deepest, depth)
        if depth > max_depth:
            return deepest, None, ""
        if isinstance(value, dict):
            stack.extend(
                (child, depth + 1, f"{pointer}/{_escape(key)}") for key, child in value.items()
            )
        elif isinstance(value, list):
            stack.extend(
                (child, depth + 1, f"{pointer}/{index}") for index, child in enumerate(value)
            )
        elif isinstance(value, float) and not math.isfinite(value):
            what = (
                "NaN is out of range"
                if math.isnan(value)
                else "the number is out of range (it overflows to infinity)"
            )
            return deepest, f"{pointer or '/'}: {what}; a JSON number must be finite", pointer
    return deepest, None, ""


def _escape(key: Any) -> str:
    return str(key).replace("~", "~0").replace("/", "~1")


def yaml_data(
    text: str, max_depth: int = MAX_DATA_DEPTH
) -> tuple[Any, dict[str, int], YamlProblem | None]:
    """The data of one YAML document and the 1-based line of each JSON Pointer in it."""
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        problem = _check_events(yaml.parse(text, Loader=loader), max_depth)
        if problem is not None:
            return None, {}, problem
        node = yaml.compose(text, Loader=loader)
    except yaml.MarkedYAMLError as exc:
        line = exc.problem_mark.line + 1 if exc.problem_mark is not None else None
        if "nesting depth" in str(
            exc.problem
        ):  # libyaml's own limit, met before ours on a long run of [
            return None, {}, YamlProblem(f"nested more than {max_depth} levels deep", line)
        return (
            None,
            {},
            YamlProblem(f"invalid YAML: {exc.problem or exc.context or 'cannot be read'}", line),
        )
    except yaml.YAMLError:
        return None, {}, YamlProblem("invalid YAML: it cannot be read (a control character?)")
    if node is None:
        return None, {}, YamlProblem("the file is empty")
    lines: dict[str, int] = {}
    problem = _check_nodes(node, lines)
    if problem is not None:
        return None, lines, problem
    data = yaml.constructor.SafeConstructor().construct_document(node)
    _deepest, bad, pointer = _walk_json(data, max_depth)  # 1.0e+999 is a YAML float that overflows
    return (
        (None, lines, YamlProblem(bad, lines.get(pointer)))
        if bad is not None
        else (data, lines, None)
    )


def _check_events(events: Any, max_depth: int) -> YamlProblem | None:
    import yaml

    depth = 0
    for event in events:
        if isinstance(event, yaml.AliasEvent):
            return YamlProblem(
                f"YAML aliases (*{event.anchor}) are not allowed here; write the value out (or use "
                "$ref)",
                event.start_mark.line + 1,
            )
        if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            depth += 1
            if depth > max_depth:
                return YamlProblem(
                    f"nested more than {max_depth} levels deep", event.start_mark.line + 1
                )
        elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            depth -= 1
    return None


def _check_nodes(root: Any, lines: dict[str, int]) -> YamlProblem | None:
    """Record lines; refuse duplicate keys, non-text keys and values JSON cannot hold."""
    import yaml

    stack: list[tuple[Any, str]] = [(root, "")]
    while stack:
        node, where = stack.pop()
        line = node.start_mark.line + 1
        lines[where] = line
        if isinstance(node, yaml.MappingNode):
            seen: dict[str, int] = {}
            for key, child in node.value:
                key_line = key.start_mark.line + 1
                if not (isinstance(key, yaml.ScalarNode) and key.tag == "tag:yaml.org,2002:str"):
                    shown = key.value if isinstance(key, yaml.ScalarNode) else "a collection"
                    return YamlProblem(
                        f"the key {shown!r} is not text (quote it: JSON keys are strings)", key_line
                    )
                if key.value in seen:
                    return YamlProblem(
                        f"duplicate key {key.value!r} on lines {seen[key.value]} and {key_line} "
                        "(the first one would be lost)",
                        key_line,
                    )
                seen[key.value] = key_line
                stack.append((child, f"{where}/{key.value.replace('~', '~0').replace('/', '~1')}"))
        elif isinstance(node, yaml.SequenceNode):
            stack.extend((child, f"{where}/{index}") for index, child in enumerate(node.value))
        elif node.tag not in _JSON_TAGS:
            kind = node.tag.rsplit(":", 1)[-1]
            return YamlProblem(
                f"{node.value!r} is a YAML {kind}, which JSON has not: quote it to make it text",
                line,
            )
        elif node.tag == "tag:yaml.org,2002:float" and node.value.lower().lstrip("+-") in {
            ".inf",
            ".nan",
        }:
            return YamlProblem(
                f"{node.value} is not a JSON number (JSON numbers are finite): write a number or "
                "quote it",
                line,
            )
    return None
