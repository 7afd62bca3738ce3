"""Load gate configs from YAML, JSON or TOML and report every problem with its location.

Configs come from files people edit by hand, so loading never shows a traceback:
:func:`check_config` returns the config or the list of problems (file, line when the
format tells us, the field path and what is wrong). :func:`load_config` is the
convenient form that raises :class:`ConfigError` carrying those same problems.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from gate_tui.config.bounded_yaml import MAX_CONFIG_BYTES, load_yaml, too_large
from gate_tui.config.json_data import json_data
from gate_tui.safe_read import read_regular

if TYPE_CHECKING:
    from gate_tui.models import GateConfig

# yaml and pydantic (through gate_tui.models) are imported by the functions that need
# them: the editor's start-up path reads a config it validated before from the config
# cache (gate_tui.config.cache) and must not pay for either before its first frame.

CONFIG_SUFFIXES = (".yaml", ".yml", ".json", ".toml")
DEFAULT_CONFIG_NAME = "ml_project_intake.yaml"


class ConfigProblem(
    NamedTuple
):  # a named tuple: created at import before the first frame, ~8x cheaper than a frozen dataclass
    """One thing wrong with a config file."""

    path: str
    message: str
    location: str = ""
    line: int | None = None

    def __str__(self) -> str:
        where = self.path if self.line is None else f"{self.path}:{self.line}"
        field_part = f" {self.location}:" if self.location else ""
        return f"{where}:{field_part} {self.message}"


@dataclass(frozen=True)
class ConfigLoad:
    """The outcome of reading a config: exactly one of ``config`` / ``problems`` is set."""

    config: GateConfig | None
    problems: list[ConfigProblem] = field(default_factory=list)


class ConfigError(ValueError):
    """Raised by :func:`load_config`; ``problems`` lists everything that is wrong."""

    def __init__(self, problems: list[ConfigProblem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


def bundled_config_dir() -> Path:
    """Where the sample configs live, installed (wheel) or in a checkout (editable)."""
    here = Path(__file__).resolve().parent.parent  # the gate_tui package
    installed = here / "_bundled"
    return installed if installed.is_dir() else here.parent / "sample_configs"


def default_config_path() -> Path:
    return bundled_config_dir() / DEFAULT_CONFIG_NAME


def load_config(path: str | Path) -> GateConfig:
    """Read and validate a config file; raise :class:`ConfigError` listing every problem."""
    result = check_config(path)
    if result.config is None:
        raise ConfigError(result.problems)
    return result.config


def check_config(path: str | Path) -> ConfigLoad:
    """Read and validate a config file without raising."""
    text, problem = read_config_text(path)
    if problem is not None:
        return ConfigLoad(None, [problem])
    assert text is not None
    return config_from_text(text, Path(path).suffix.lower(), str(path))


def read_config_text(path: str | Path) -> tuple[str | None, ConfigProblem | None]:
    """A config file's text, or the problem that stops us reading it (never raises)."""
    name = str(path)
    file = Path(path)
    if file.suffix.lower() not in CONFIG_SUFFIXES:
        return None, ConfigProblem(
            name,
            f"unsupported file type {file.suffix or '(none)'!r}; use one of "
            f"{', '.join(CONFIG_SUFFIXES)}",
        )
    try:
        data = read_regular(file, MAX_CONFIG_BYTES, "config file")
    except FileNotFoundError:
        return None, ConfigProblem(name, "file not found")
    if isinstance(data, str):
        return None, ConfigProblem(name, data)
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError as exc:
        return None, ConfigProblem(name, f"not UTF-8 text ({exc.reason} at byte {exc.start})")


def config_from_text(text: str, suffix: str, name: str = "<config>") -> ConfigLoad:
    """Validate config text of the given format (``.yaml``, ``.json`` or ``.toml``)."""
    from pydantic import ValidationError

    from gate_tui.models import GateConfig

    data, problem = _decode(text, suffix, name)
    if problem is not None:
        return ConfigLoad(None, [problem])
    if not isinstance(data, dict):
        return _fail(name, f"the top level must be a mapping, not {_kind(data)}")
    try:
        return ConfigLoad(GateConfig.model_validate(data))
    except ValidationError as exc:
        lines = _yaml_lines(text) if suffix in (".yaml", ".yml", ".json") else {}  # JSON is YAML
        problems = [_problem_from_error(name, err, lines) for err in exc.errors()]
        # Field errors stop pydantic before the checks that span fields (gate_order…):
        # run those on the raw data too, so every problem shows in one pass.
        found = [_located(name, message, (), lines) for message in _whole_config_problems(data)]
        found += [_located(name, message, loc, lines) for loc, message in _gate_problems(data)]
        problems.extend(problem for problem in found if problem not in problems)
        return ConfigLoad(None, problems)


def config_fingerprint(config: GateConfig) -> str:
    """A short stable hash of everything that affects parsing and decisions."""
    canonical = json.dumps(config.model_dump(mode="json"), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:16]


def config_title(config: Any, path: str | Path | None = None) -> str:
    """The name shown in headers: the config's own name, else the file's stem."""
    if config.name:
        return config.name
    return Path(path).stem if path is not None else "gate config"


def _decode(text: str, suffix: str, name: str) -> tuple[Any, ConfigProblem | None]:
    """Text to data within bounds (size, aliases, depth, duplicate keys); never raises."""
    # A byte order mark (Windows editors write one) was accepted in YAML but made JSON
    # and TOML configs invalid at line 1; it is not content in any of the three.
    text = text.removeprefix("\ufeff")
    if suffix == ".toml":
        return _decode_toml(text, name)
    # JSON through the contracts' reader: a key given twice names both lines, as in YAML.
    data, problem = json_data(text, True) if suffix == ".json" else load_yaml(text)
    if problem is not None:
        return None, ConfigProblem(name, problem.message, line=problem.line)
    return data, None


def _decode_toml(text: str, name: str) -> tuple[Any, ConfigProblem | None]:
    import tomllib

    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_CONFIG_BYTES:
        return None, ConfigProblem(name, too_large(size))
    try:
        return tomllib.loads(text), None
    except tomllib.TOMLDecodeError as exc:
        return None, ConfigProblem(name, f"invalid TOML: {exc}")
    except RecursionError:
        return None, ConfigProblem(name, "invalid TOML: nested too deeply")


def _whole_config_problems(data: dict[str, Any]) -> list[str]:
    """:func:`gate_tui.models.whole_config_problems` on raw data, where its parts have the
    shape it needs (a malformed part already has its own field error)."""
    from gate_tui.models import whole_config_problems

    gates, order = data.get("gates"), data.get("gate_order", [])
    if not isinstance(gates, dict) or not isinstance(order, list):
        return []
    keys = [key for key in gates if isinstance(key, str)]
    return whole_config_problems(
        data.get("schema_version", "1.0"), keys, [k for k in order if isinstance(k, str)]
    )


def _gate_problems(data: dict[str, Any]) -> list[tuple[tuple[str, ...], str]]:
    """Each gate's own cross-field check on raw data: a typo elsewhere in a gate (``requird``)
    stops pydantic before that gate's checks, which must still show in the same pass."""
    from gate_tui.models import blocking_problem

    gates = data.get("gates")
    found: list[tuple[tuple[str, ...], str]] = []
    for key, gate in (gates.items() if isinstance(gates, dict) else ()):
        if not isinstance(gate, dict):
            continue
        blocking, expected = (
            gate.get("blocking_categories", []),
            gate.get("expected_categories", []),
        )
        if (
            isinstance(blocking, list)
            and isinstance(expected, list)
            and all(isinstance(c, str) for c in blocking + expected)
        ):
            problem = blocking_problem(blocking, expected)
            if problem:
                found.append((("gates", str(key)), problem))
    return found


def _problem_from_error(name: str, err: Any, lines: dict[tuple[str, ...], int]) -> ConfigProblem:
    loc = tuple(str(part) for part in err.get("loc", ()))
    message = str(err.get("msg", "invalid value"))
    if message.startswith("Value error, "):
        message = message[len("Value error, ") :]
    if err.get("type") == "extra_forbidden" and loc:
        message = f"unknown field {loc[-1]!r}{_near_field(loc)}"
    elif err.get("type") == "string_type" and isinstance(err.get("input"), bool):
        # YAML 1.1 reads unquoted yes/no/on/off as booleans: a category "no" arrives as False.
        words = "'yes', 'on' or 'true'" if err["input"] else "'no', 'off' or 'false'"
        message = f"must be text, but YAML read a boolean here: quote the word ({words})"
    return _located(name, message, loc, lines)


def _near_field(loc: tuple[str, ...]) -> str:
    """A near name for an unknown field, from the fields of the model that holds it."""
    from gate_tui.models import GateConfig, GateDef, Policy, near_name

    holder = {(): GateConfig, ("policy",): Policy}.get(loc[:-1])
    if holder is None and len(loc) == 3 and loc[0] == "gates":
        holder = GateDef
    return near_name(loc[-1], holder.model_fields) if holder is not None else ""


def _located(
    name: str, message: str, loc: tuple[str, ...], lines: dict[tuple[str, ...], int]
) -> ConfigProblem:
    """A problem with its field path and line (a whole-config message names its field first)."""
    from gate_tui.models import GateConfig

    if not loc:
        # Whole-config checks name the field they concern first (see GateConfig._check_order).
        field_name, sep, rest = message.partition(": ")
        if sep and field_name in GateConfig.model_fields:
            loc, message = (field_name,), rest
    line = None
    for cut in range(len(loc), -1, -1):
        if loc[:cut] in lines:
            line = lines[loc[:cut]]
            break
    return ConfigProblem(name, message, location=".".join(loc), line=line)


def _yaml_lines(text: str) -> dict[tuple[str, ...], int]:
    """Map each mapping key path of a YAML document to its 1-based line."""
    import yaml

    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except (yaml.YAMLError, RecursionError):
        return {}
    lines: dict[tuple[str, ...], int] = {}
    stack: list[tuple[tuple[str, ...], Any]] = [((), root)]
    while stack:
        prefix, node = stack.pop()
        if isinstance(node, yaml.MappingNode):
            for key_node, value_node in node.value:
                path = (*prefix, str(key_node.value))
                lines[path] = key_node.start_mark.line + 1
                stack.append((path, value_node))
        elif isinstance(node, yaml.SequenceNode):
            for index, item in enumerate(node.value):
                path = (*prefix, str(index))
                lines[path] = item.start_mark.line + 1
                stack.append((path, item))
    return lines


def _fail(name: str, message: str) -> ConfigLoad:
    return ConfigLoad(None, [ConfigProblem(name, message)])


def _kind(value: Any) -> str:
    return (
        "a list"
        if isinstance(value, list)
        else ("nothing" if value is None else type(value).__name__)
    )
