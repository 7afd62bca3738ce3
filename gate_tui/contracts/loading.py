"""Read a contract file (a JSON Schema of any draft from 04 to 2020-12, JSON or YAML) and report
every problem.

Contract files are written by hand and handed over, so loading never shows a traceback,
never blocks and never reaches the network: :func:`check_contract_file` returns the contract
or the list of problems, each with the file, the line when the file tells us, and the JSON
Pointer of the schema keyword at fault. :func:`load_contract` raises
:class:`ContractLoadError` carrying those problems.

The steps, each in its own module: the bounded reader (:mod:`gate_tui.config.json_data`:
size cap, depth limit, duplicate keys, JSON values only), the draft
(:mod:`gate_tui.contracts.drafts`), the meta-schema check in that draft's terms
(:mod:`gate_tui.contracts.meta_check`), the contract's own rules
(:mod:`gate_tui.contracts.contract_rules`), the offline references
(:mod:`gate_tui.contracts.retrieval`, :mod:`gate_tui.contracts.references`,
:mod:`gate_tui.contracts.cycles`), and the compiled ``jsonschema-rs`` validator of that draft. A
text that passed before comes from :mod:`gate_tui.contracts.contract_cache`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from gate_tui.contracts.contract_problems import ContractLoadError, ContractProblem, located
from gate_tui.contracts.contract_rules import MAX_CONTRACT_BYTES
from gate_tui.contracts.results import pointer
from gate_tui.contracts.sniff import looks_like_contract

__all__ = [
    "Contract",
    "ContractLoadError",
    "ContractProblem",
    "LoadOptions",
    "check_contract_file",
    "contract_from_schema",
    "load_contract",
    "looks_like_contract",
]

META_KEY = "x-gate-tui"


@dataclass(frozen=True)
class LoadOptions:
    """What the user said about reading contracts: ``--draft N`` and ``--schemas DIR``."""

    draft: int | None = None
    """The draft of a contract without ``$schema`` (jsonschema-rs numbering: 4, 6, 7, 19, 20)."""
    schemas: str | None = None
    """A folder of schema files whose ``$id``s answer remote references."""


@dataclass(frozen=True, eq=False)
class Contract:
    """A loaded contract: its schema, its ``x-gate-tui`` block and the compiled validator."""

    schema: dict[str, Any]
    path: str = "<contract>"
    validator: Any = field(default=None, repr=False)
    draft: int = 20
    """The JSON Schema draft it is read as (4, 6, 7, 19 for 2019-09, 20 for 2020-12)."""
    warnings: tuple[str, ...] = ()
    """Load warnings (a draft assumed for draft-dependent keywords)."""
    options: LoadOptions = field(default_factory=LoadOptions)
    validator_map: Any = field(default=None, repr=False)
    """Compiles the validators of every subschema (``jsonschema_rs.validator_map_for`` with the
    validator's own options), so a big array can be checked item by item; None if unknown."""

    want: str = field(default="object", init=False, repr=False)
    """What a reply to it is, as ``extract_json``'s ``want`` (object, array or any): from its
    root."""

    def __post_init__(self) -> None:
        from gate_tui.contracts.contract_rules import root_want

        object.__setattr__(
            self,
            "want",
            root_want(self.schema, self.draft) if isinstance(self.schema, dict) else "any",
        )

    @property
    def meta(self) -> dict[str, Any]:
        block = self.schema.get(META_KEY)
        return block if isinstance(block, dict) else {}

    @property
    def title(self) -> str:
        title = self.meta.get("title") or self.schema.get("title") or Path(self.path).stem
        return str(title)

    @property
    def draft_name(self) -> str:
        from gate_tui.contracts.drafts import DRAFT_NAMES

        return DRAFT_NAMES.get(self.draft, str(self.draft))

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


def load_contract(path: str | Path, options: LoadOptions | None = None) -> Contract:
    """Read and compile a contract; raise :class:`ContractLoadError` listing every problem."""
    contract, problems = check_contract_file(path, options)
    if contract is None:
        raise ContractLoadError(problems)
    return contract


def contract_from_schema(
    schema: Any, path: str = "<contract>", options: LoadOptions | None = None
) -> tuple[Contract | None, list[ContractProblem]]:
    """A contract from an already-decoded schema (tests, batch workers, callers holding a dict);
    never raises."""
    try:
        return _from_schema(schema, path, options or LoadOptions())
    except Exception as exc:  # noqa: BLE001 - as check_contract_file
        return None, [
            ContractProblem(
                path, f"cannot load the contract (internal {type(exc).__name__}; please report it)"
            )
        ]


def _from_schema(
    schema: Any, path: str, options: LoadOptions
) -> tuple[Contract | None, list[ContractProblem]]:
    if not isinstance(schema, dict):
        return None, [ContractProblem(path, _not_an_object(schema))]
    checked, problems = schema_problems(schema, path, None, options)
    if checked is None:
        return None, problems
    return _compile(schema, path, checked, options, lambda: None)


def check_contract_file(
    path: str | Path, options: LoadOptions | None = None
) -> tuple[Contract | None, list[ContractProblem]]:
    """The contract, or None and every problem found; never raises, never blocks."""
    try:
        return _check_file(path, options)
    except Exception as exc:  # noqa: BLE001 - a contract is input: a bug here is a problem line, never exit 70
        return None, [
            ContractProblem(
                str(path),
                f"cannot load the contract (internal {type(exc).__name__}; please report it)",
            )
        ]


def _check_file(
    path: str | Path, options: LoadOptions | None
) -> tuple[Contract | None, list[ContractProblem]]:
    from gate_tui.config.json_data import yaml_data
    from gate_tui.contracts.contract_cache import (
        CachedContract,
        contract_key,
        load_cached,
        store_cached,
    )

    options = options or LoadOptions()
    name = str(path)
    text, problem = _read(path)
    if problem is not None:
        return None, [problem._replace(path=name)]
    assert text is not None
    is_json = name.lower().endswith(".json")
    key = contract_key(Path(name).suffix.lower(), options.draft, text)
    cached = load_cached(key)

    def reparsed() -> dict[str, int] | None:  # lines are wanted only when something is wrong
        return yaml_data(text)[1] or None

    if cached is not None:
        return _compile(cached.schema, name, cached, options, reparsed)
    schema, line_map, problem = _decode(text, is_json, name)
    if problem is not None:
        return None, [problem]
    lines = reparsed if line_map is None else (lambda: line_map)
    checked, problems = schema_problems(schema, name, lines, options)
    if checked is None:
        return None, problems
    contract, problems = _compile(schema, name, checked, options, lines)
    if contract is not None:
        store_cached(key, CachedContract(schema, checked.draft, checked.warnings))
    return contract, problems


def _read(path: str | Path) -> tuple[str | None, ContractProblem | None]:
    from gate_tui.safe_read import read_regular

    name = str(path)
    try:
        data = read_regular(path, MAX_CONTRACT_BYTES, "contract file")
    except FileNotFoundError:
        return None, ContractProblem(name, "file not found")
    except ValueError:  # a NUL byte in the name
        return None, ContractProblem(name, "is not a file name")
    if isinstance(data, str):
        return None, ContractProblem(name, data)
    try:
        return data.decode("utf-8-sig"), None
    except UnicodeDecodeError as exc:
        return None, ContractProblem(name, f"not UTF-8 text ({exc.reason} at byte {exc.start})")


def _decode(
    text: str, is_json: bool, name: str
) -> tuple[dict[str, Any], dict[str, int] | None, ContractProblem | None]:
    """The schema and, for YAML, the line of every JSON Pointer in it (JSON: found on demand)."""
    from gate_tui.config.json_data import json_data, yaml_data

    if is_json:
        value, problem = json_data(text, True)
        line_map = None
    else:
        value, line_map, problem = yaml_data(text)
    if problem is not None:
        return {}, None, ContractProblem(name, problem.message, line=problem.line)
    if not isinstance(value, dict):
        return {}, None, ContractProblem(name, _not_an_object(value))
    return value, line_map, None


def _not_an_object(value: Any) -> str:
    kind = {bool: "true/false", list: "a list", str: "text", type(None): "empty"}.get(
        type(value), "a number"
    )
    return (
        'a contract is a JSON Schema object ({"type": "object", ...}), and this file holds '
        f"{kind}"
    )


class _Checked(NamedTuple):
    draft: int
    warnings: tuple[str, ...]


def schema_problems(
    schema: dict[str, Any], name: str, lines: Any = None, options: LoadOptions | None = None
) -> tuple[_Checked | None, list[ContractProblem]]:
    """The draft and warnings of a schema that passes its meta-schema and our rules, or every
    problem.

    ``lines`` is called (only when there are problems) for the line of each JSON Pointer.
    """
    from gate_tui.contracts.contract_rules import block_draft, block_problems, root_problems
    from gate_tui.contracts.drafts import DRAFT_NAMES, assumed_draft_warning, choose_draft
    from gate_tui.contracts.meta_check import meta_problems

    options = options or LoadOptions()
    found: list[tuple[list[str | int], str]] = []
    draft, assumed, problem = choose_draft(
        schema, options.draft if options.draft is not None else block_draft(schema)
    )
    if problem is not None:
        found.append((["$schema"], problem))
    warning = assumed_draft_warning(schema, pointer) if assumed else None
    if problem is None and "$schema" in schema and options.draft not in (None, draft):
        warning = (
            f"--draft {DRAFT_NAMES.get(options.draft, options.draft)} is ignored: the contract's "
            f"$schema says {DRAFT_NAMES[draft]}"
        )
    found.extend(
        found_problem
        for found_problem in meta_problems(schema, draft)
        if not (problem and found_problem[0] == ["$schema"])
    )
    found.extend(block_problems(schema))
    if not found:
        found.extend(root_problems(schema, draft))
    line_map = lines() if found and callable(lines) else lines
    problems = located(name, found, line_map)
    if problems:
        return None, problems + ([ContractProblem(name, f"note: {warning}")] if warning else [])
    return _Checked(draft, (warning,) if warning else ()), []


def _compile(
    schema: dict[str, Any], name: str, checked: Any, options: LoadOptions, lines: Any
) -> tuple[Contract | None, list[ContractProblem]]:
    """Resolve references offline, refuse endless cycles, compile the draft's validator."""
    import jsonschema_rs

    from gate_tui.contracts.contract_rules import store_folder
    from gate_tui.contracts.cycles import cycle_problems
    from gate_tui.contracts.formats import format_checkers, validator_class
    from gate_tui.contracts.references import reference_problems
    from gate_tui.contracts.retrieval import OfflineRetriever, SchemaStore, base_uri

    draft = checked.draft
    folder = Path(name).parent if Path(name).is_file() else None
    store_path, problem = store_folder(schema, folder, options.schemas)
    id_key = "id" if draft == 4 else "$id"
    root_id = schema.get(id_key) if isinstance(schema.get(id_key), str) else None
    store = (
        SchemaStore(store_path, confined=None if options.schemas else folder)
        if store_path is not None
        else None
    )
    retriever = OfflineRetriever(folder, store, root_id)
    if (
        problem and options.schemas
    ):  # the command line's --schemas: no place in the file to point at
        return None, [ContractProblem(name, problem)]
    found = [([META_KEY, "schemas"], problem)] if problem else []
    found += reference_problems(schema, base_uri(name), id_key, retriever) + cycle_problems(
        schema, id_key
    )
    if found:
        return None, located(name, found, lines())
    try:
        borrowed = format_checkers(
            draft
        )  # uuid, duration… mean in a draft-07 contract what they mean in 2020-12
        validator = validator_class(draft)(
            schema,
            validate_formats=True,
            formats=borrowed or None,
            retriever=retriever,
            base_uri=base_uri(name),
        )
    except (ValueError, jsonschema_rs.ReferencingError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        return None, [
            ContractProblem(
                name, f"cannot compile the schema: {first[:200]}{'…' if len(first) > 200 else ''}"
            )
        ]
    except Exception as exc:  # noqa: BLE001 - a compiler failure is a problem with this file, not a crash
        return None, [ContractProblem(name, f"cannot compile the schema: {type(exc).__name__}")]
    from functools import partial

    mapper = partial(
        jsonschema_rs.validator_map_for,
        schema,
        validate_formats=True,
        formats=borrowed or None,
        retriever=retriever,
        base_uri=base_uri(name),
    )
    return Contract(schema, name, validator, draft, checked.warnings, options, mapper), []
