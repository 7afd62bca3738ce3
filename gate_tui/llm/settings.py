"""Where the model endpoint comes from: flags, then environment, then the settings file.

Most specific first, so a one-off ``--model`` wins over a standing setting:

1. command-line flags (``--model``, ``--base-url``, ``--structured``);
2. the environment: ``GATE_TUI_MODEL``, ``OPENAI_BASE_URL`` and ``OPENAI_API_KEY`` (the
   SDK's own conventions, so a shell already set up for OpenAI tools just works), and
   ``GATE_TUI_STRUCTURED`` (``1``/``0``: the editor has no ``--structured`` flag, and
   ``make run-local`` needs it on for a base model that writes prose unconstrained);
3. ``settings.toml`` in the platform's config folder (``~/.config/gate-tui/`` on Linux)::

       [model]
       base_url = "http://127.0.0.1:8080/v1"
       model = "gemma"
       api_key_env = "OPENAI_API_KEY"   # the variable holding the key: never the key itself
       temperature = 0.2
       structured = true
       timeout_s = 60

The key is only ever read from the environment at request time and is not a field of
:class:`ModelSettings`, so no dump, journal, report or message can carry it.
A broken settings file is a list of problems, never an exception.
"""

from __future__ import annotations

import math
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from gate_tui.llm.secrets import clean_key

SETTINGS_FILE = "settings.toml"
MAX_SETTINGS_BYTES = 65_536  # a settings file is a few lines; anything bigger is a mistake
DEFAULT_TIMEOUT_S = 120.0
DEFAULT_CONNECT_TIMEOUT_S = 10.0
MAX_RETRIES = 5
PLACEHOLDER_KEY = "no-key"  # local servers want no key, the SDK wants a non-empty one


@dataclass(frozen=True)
class ModelSettings:
    """Everything a request needs except the key (read from ``api_key_env`` when sending)."""

    base_url: str | None = None
    model: str | None = None
    api_key_env: str = "OPENAI_API_KEY"
    temperature: float | None = None
    structured: bool = False
    timeout_s: float = DEFAULT_TIMEOUT_S
    connect_timeout_s: float = DEFAULT_CONNECT_TIMEOUT_S
    auto_retry: bool = False
    retries: int = 2
    sources: Mapping[str, str] = field(
        default_factory=dict
    )  # field -> "flag" / "env VAR" / settings path

    def api_key(self, environ: Mapping[str, str] | None = None) -> str:
        """The key from the environment, trimmed of whitespace and control characters around
        it (never part of a key; sent as they are they break the header and an HTTP library's
        error then spells the whole key), or a placeholder local servers ignore."""
        env = os.environ if environ is None else environ
        key, _ = clean_key(env.get(self.api_key_env))
        return key or PLACEHOLDER_KEY

    def raw_api_key(self, environ: Mapping[str, str] | None = None) -> str | None:
        """The key exactly as the environment holds it: what redaction must also look for."""
        env = os.environ if environ is None else environ
        return env.get(self.api_key_env)

    def key_warning(self, environ: Mapping[str, str] | None = None) -> str | None:
        """One line when the key had to be trimmed (naming the variable, never the key)."""
        _, warning = clean_key(self.raw_api_key(environ))
        return f"{self.api_key_env}: {warning}" if warning else None

    def has_key(self, environ: Mapping[str, str] | None = None) -> bool:
        env = os.environ if environ is None else environ
        return bool(env.get(self.api_key_env))

    def missing(self, *, flags: bool = True) -> str | None:
        """Why no request can be sent with these settings, or None. ``flags``: whether the
        command has a ``--model`` flag to advise (the editor has none)."""
        if not self.model:
            flag = "give --model NAME, " if flags else ""
            return (
                f'no model name: {flag}set GATE_TUI_MODEL, or put model = "…" under [model] in '
                f"{settings_path()}"
            )
        return None


@dataclass(frozen=True)
class LoadedSettings:
    settings: ModelSettings
    problems: list[str] = field(default_factory=list)  # the file's problems, one line each


def settings_path() -> Path:
    """``settings.toml`` in the platform's user config folder (XDG_CONFIG_HOME is honoured)."""
    import platformdirs

    return platformdirs.user_config_path("gate-tui", appauthor=False) / SETTINGS_FILE


def load_settings(
    flags: Mapping[str, Any] | None = None,
    environ: Mapping[str, str] | None = None,
    path: Path | None = None,
) -> LoadedSettings:
    """The settings with flags over environment over file; ``None`` flags are not given."""
    env = os.environ if environ is None else environ
    file = settings_path() if path is None else path
    values, sources, problems = read_file(file)
    for name, var in (("model", "GATE_TUI_MODEL"), ("base_url", "OPENAI_BASE_URL")):
        if env.get(var):
            values[name], sources[name] = env[var], f"env {var}"
    switch = env.get("GATE_TUI_STRUCTURED", "").strip().lower()
    if switch in _SWITCH:
        values["structured"], sources["structured"] = _SWITCH[switch], "env GATE_TUI_STRUCTURED"
    elif switch:
        problems.append(
            f"GATE_TUI_STRUCTURED should be 1 or 0, not {env['GATE_TUI_STRUCTURED'][:20]!r}: "
            "ignored"
        )
    for name, value in (flags or {}).items():
        if value is not None and value is not False:
            values[name], sources[name] = value, "flag"
    settings = replace(ModelSettings(), **values, sources=sources)
    return LoadedSettings(settings, problems)


_SWITCH = {
    "1": True,
    "true": True,
    "yes": True,
    "on": True,
    "0": False,
    "false": False,
    "no": False,
    "off": False,
}


# The file's keys and how each is checked: (type name, converter returning None when wrong).
def _text(value: Any) -> str | None:
    return value.strip() or None if isinstance(value, str) else None


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if math.isfinite(value) and value >= 0 else None


def _positive(value: Any) -> float | None:
    number = _number(value)
    return number if number else None


def _flag(value: Any) -> bool | None:
    return value if isinstance(value, bool) else None


def _count(value: Any) -> int | None:
    ok = isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_RETRIES
    return value if ok else None


KEYS = {
    "base_url": ("a URL string", _text),
    "model": ("a model name", _text),
    "api_key_env": ("the name of an environment variable", _text),
    "temperature": ("a number ≥ 0", _number),
    "structured": ("true or false", _flag),
    "timeout_s": ("seconds > 0", _positive),
    "connect_timeout_s": ("seconds > 0", _positive),
    "auto_retry": ("true or false", _flag),
    "retries": (f"a whole number 0..{MAX_RETRIES}", _count),
}


def read_file(path: Path) -> tuple[dict[str, Any], dict[str, str], list[str]]:
    """The ``[model]`` table of ``path``: values, their source, and problems (never raises)."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_SETTINGS_BYTES + 1)
    except FileNotFoundError:
        return {}, {}, []
    except OSError as exc:
        return {}, {}, [f"{path}: cannot read: {exc.strerror or exc}"]
    if len(data) > MAX_SETTINGS_BYTES:
        return {}, {}, [f"{path}: over {MAX_SETTINGS_BYTES:,} bytes; not a settings file"]
    try:
        document = tomllib.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        return {}, {}, [f"{path}: not valid TOML: {exc}"]
    table = document.get("model", {})
    if not isinstance(table, dict):
        return {}, {}, [f"{path}: [model] must be a table"]
    values: dict[str, Any] = {}
    sources: dict[str, str] = {}
    problems: list[str] = []
    for key, raw in table.items():
        if key == "api_key":
            problems.append(
                f"{path}: [model] api_key is ignored: keep keys out of files, name the variable "
                "with api_key_env"
            )
            continue
        if key not in KEYS:
            problems.append(f"{path}: [model] {key} is not a setting (known: {', '.join(KEYS)})")
            continue
        what, convert = KEYS[key]
        value = convert(raw)
        if value is None:
            problems.append(f"{path}: [model] {key} must be {what}")
            continue
        values[key], sources[key] = value, str(path)
    return values, sources, problems
