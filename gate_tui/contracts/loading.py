"""Read a contract file (JSON Schema Draft 2020-12, JSON or YAML) and report every problem.

Contract files are written by hand, so loading never shows a traceback:
:func:`check_contract_file` returns the contract or the list of problems, each with the
file, the line when the file tells us, and the JSON Pointer of the schema keyword at
fault. :func:`load_contract` raises :class:`ContractLoadError` carrying those problems.

The schema itself is checked against the Draft 2020-12 meta-schema with ``jsonschema``
(it lists *every* problem with its path); replies are checked with ``jsonschema-rs``,
compiled once per contract here (130–220× faster than ``jsonschema`` per reply, every
error collected by both: the last row of ``bench/bench_contract.py``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from gate_tui.contracts.results import pointer
from gate_tui.contracts.sniff import looks_like_contract

__all__ = ["Contract", "ContractLoadError", "ContractProblem", "check_contract_file", "contract_from_schema", "load_contract", "looks_like_contract"]

MAX_CONTRACT_BYTES = 1024 * 1024
"""The largest contract file read (a schema is hand-written; more is a mistake or an attack)."""
DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"
META_KEY = "x-gate-tui"


class ContractProblem(NamedTuple):
    """One thing wrong with a contract file."""

    path: str
    message: str
    location: str = ""
    line: int | None = None

    def __str__(self) -> str:
        where = self.path if self.line is None else f"{self.path}:{self.line}"
        at = f" {self.location or '/'}:" if self.location or self.line is None else ""
        return f"{where}:{at} {self.message}"


class ContractLoadError(ValueError):
    """Raised by :func:`load_contract`; ``problems`` lists everything that is wrong."""

    def __init__(self, problems: list[ContractProblem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(problem) for problem in problems))


@dataclass(frozen=True, eq=False)
class Contract:
    """A loaded contract: its schema, its ``x-gate-tui`` block and the compiled validator."""

    schema: dict[str, Any]
    path: str = "<contract>"
    validator: Any = field(default=None, repr=False)

    @property
    def meta(self) -> dict[str, Any]:
        block = self.schema.get(META_KEY)
        return block if isinstance(block, dict) else {}

    @property
    def title(self) -> str:
        title = self.meta.get("title") or self.schema.get("title") or Path(self.path).stem
        return str(title)

    @property
    def verdict_field(self) -> str | None:
        """The top-level field the decision panel shows next to VALID / INVALID, if any."""
        name = self.meta.get("verdict_field")
        return name if isinstance(name, str) and name else None

    def sample_path(self, kind: str) -> Path | None:
        """The sample reply of that kind (``good``, ``repairable``…), relative to the file."""
        samples = self.meta.get("samples")
        name = samples.get(kind) if isinstance(samples, dict) else None
        return Path(self.path).parent / name if isinstance(name, str) else None


def load_contract(path: str | Path) -> Contract:
    """Read and compile a contract; raise :class:`ContractLoadError` listing every problem."""
    contract, problems = check_contract_file(path)
    if contract is None:
        raise ContractLoadError(problems)
    return contract


def contract_from_schema(schema: dict[str, Any], path: str = "<contract>") -> tuple[Contract | None, list[ContractProblem]]:
    """A contract from an already-decoded schema (tests, callers holding a dict)."""
    problems = schema_problems(schema, path, None)
    if problems:
        return None, problems
    return _compile(schema, path)


def check_contract_file(path: str | Path) -> tuple[Contract | None, list[ContractProblem]]:
    """The contract, or None and every problem found; never raises."""
    name = str(path)
    text, problem = _read(Path(path))
    if problem is not None:
        return None, [ContractProblem(name, problem)]
    assert text is not None
    schema, lines, problem = _decode(text, name)
    if problem is not None:
        return None, [problem]
    problems = schema_problems(schema, name, lines)
    if problems:
        return None, problems
    return _compile(schema, name)


def _read(path: Path) -> tuple[str | None, str | None]:
    try:
        with path.open("rb") as stream:
            data = stream.read(MAX_CONTRACT_BYTES + 1)
    except FileNotFoundError:
        return None, "file not found"
    except IsADirectoryError:
        return None, "is a directory, not a contract file"
    except OSError as exc:
        return None, f"cannot read: {exc.strerror or exc}"
    if len(data) > MAX_CONTRACT_BYTES:
        return None, f"the file is larger than {MAX_CONTRACT_BYTES:,} bytes"
    try:
        return data.decode("utf-8-sig"), None
    except UnicodeDecodeError as exc:
        return None, f"not UTF-8 text ({exc.reason} at byte {exc.start})"


def _decode(text: str, name: str) -> tuple[dict[str, Any], dict[str, int] | None, ContractProblem | None]:
    """The schema as a dict and, for YAML, the line of every JSON Pointer in it."""
    if name.endswith(".json"):
        try:
            value = json.loads(text, parse_constant=_reject_constant)
        except json.JSONDecodeError as exc:
            return {}, None, ContractProblem(name, f"invalid JSON: {exc.msg} (column {exc.colno})", line=exc.lineno)
        except (ValueError, RecursionError) as exc:
            return {}, None, ContractProblem(name, f"invalid JSON: {exc}")
        lines = None
    else:
        value, lines, problem = _decode_yaml(text, name)
        if problem is not None:
            return {}, None, problem
    if not isinstance(value, dict):
        return {}, None, ContractProblem(name, f"a contract is a JSON Schema object, not {type(value).__name__}")
    return value, lines, None


def _decode_yaml(text: str, name: str) -> tuple[Any, dict[str, int] | None, ContractProblem | None]:
    import yaml

    try:
        # Aliases could make a small file a huge tree for the meta-schema check to walk
        # (a "billion laughs"); a hand-written schema has $ref for sharing.
        for event in yaml.parse(text, Loader=yaml.SafeLoader):
            if isinstance(event, yaml.AliasEvent):
                line = event.start_mark.line + 1 if event.start_mark else None
                return None, None, ContractProblem(name, f"YAML aliases (*{event.anchor}) are not allowed in a contract; use $ref", line=line)
        node = yaml.compose(text, Loader=yaml.SafeLoader)
        value = yaml.safe_load(text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        return None, None, ContractProblem(name, f"invalid YAML: {exc.problem}", line=None if mark is None else mark.line + 1)
    except (yaml.YAMLError, RecursionError, ValueError) as exc:
        return None, None, ContractProblem(name, f"invalid YAML: {type(exc).__name__}")
    lines: dict[str, int] = {}
    if node is not None:
        _node_lines(node, [], lines, 0)
    return value, lines, None


def _node_lines(node: Any, parts: list[str | int], lines: dict[str, int], depth: int) -> None:
    """Record the 1-based line of each node under its JSON Pointer (bounded depth)."""
    import yaml

    lines[pointer(parts)] = node.start_mark.line + 1
    if depth > 64:
        return
    if isinstance(node, yaml.MappingNode):
        for key, child in node.value:
            _node_lines(child, [*parts, str(key.value)], lines, depth + 1)
    elif isinstance(node, yaml.SequenceNode):
        for index, child in enumerate(node.value):
            _node_lines(child, [*parts, index], lines, depth + 1)


def _reject_constant(word: str) -> Any:
    raise ValueError(f"{word} is not valid JSON")


def schema_problems(schema: dict[str, Any], name: str, lines: dict[str, int] | None) -> list[ContractProblem]:
    """Every way the schema breaks the Draft 2020-12 meta-schema, plus ``x-gate-tui`` rules."""
    from jsonschema import Draft202012Validator, FormatChecker

    declared = schema.get("$schema")
    problems: list[ContractProblem] = []
    if declared is not None and declared.rstrip("#") != DRAFT_2020_12:
        problems.append(_problem(name, "/$schema", f"only Draft 2020-12 is supported ({DRAFT_2020_12}), not {declared!r}", lines))
    meta_validator = Draft202012Validator(Draft202012Validator.META_SCHEMA, format_checker=FormatChecker())
    try:
        errors = sorted(meta_validator.iter_errors(schema), key=lambda error: [str(part) for part in error.absolute_path])
    except RecursionError:
        return [ContractProblem(name, "the schema is nested too deeply")]
    for error in errors:
        problems.append(_problem(name, pointer(list(error.absolute_path)), error.message, lines))
    problems.extend(_meta_problems(schema, name, lines))
    return problems


def _meta_problems(schema: dict[str, Any], name: str, lines: dict[str, int] | None) -> list[ContractProblem]:
    block = schema.get(META_KEY)
    if block is None:
        return []
    if not isinstance(block, dict):
        return [_problem(name, f"/{META_KEY}", "must be an object (title, prompt, samples, verdict_field)", lines)]
    problems = []
    for key in ("title", "prompt", "verdict_field"):
        if key in block and not isinstance(block[key], str):
            problems.append(_problem(name, f"/{META_KEY}/{key}", "must be text", lines))
    if "samples" in block and not (isinstance(block["samples"], dict) and all(isinstance(v, str) for v in block["samples"].values())):
        problems.append(_problem(name, f"/{META_KEY}/samples", "must map a kind (good, repairable…) to a file name", lines))
    verdict = block.get("verdict_field")
    properties = schema.get("properties")
    if isinstance(verdict, str) and not (isinstance(properties, dict) and verdict in properties):
        problems.append(_problem(name, f"/{META_KEY}/verdict_field", f"names {verdict!r}, which is not a top-level property", lines))
    return problems


def _problem(name: str, location: str, message: str, lines: dict[str, int] | None) -> ContractProblem:
    line = None
    if lines is not None:
        probe = location
        while probe not in lines and probe:
            probe = probe.rsplit("/", 1)[0]
        line = lines.get(probe)
    return ContractProblem(name, message, location, line)


def _compile(schema: dict[str, Any], name: str) -> tuple[Contract | None, list[ContractProblem]]:
    import jsonschema_rs

    try:
        validator = jsonschema_rs.validator_for(schema, validate_formats=True)
    except (ValueError, jsonschema_rs.ReferencingError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        return None, [ContractProblem(name, f"cannot compile the schema: {first}")]
    except Exception as exc:  # noqa: BLE001 - a compiler failure is a problem with this file, not a crash
        return None, [ContractProblem(name, f"cannot compile the schema: {type(exc).__name__}")]
    return Contract(schema, name, validator), []
