"""Bounded reading of YAML (and JSON) handed over by someone else: the one loader to call.

A config is input like any other, so reading one must stay within a second and a few MB
whatever the file holds. PyYAML's ``safe_load`` expands aliases: nine levels of nine
aliases ("billion laughs") build 9⁹ nodes, 19 s and 2.9 GB. So :func:`load_yaml`

* refuses any text over :data:`MAX_CONFIG_BYTES` (checked before parsing),
* refuses aliases (``*name`` and ``<<: *name`` merges): a config never needs them, and
  refusing is simpler and stricter than counting expansions against a budget,
* refuses nesting deeper than :data:`MAX_CONFIG_DEPTH` (PyYAML recurses once per level), and
* refuses duplicate mapping keys, naming both lines (the last one would silently win).

It never raises for bad input: it returns the data or a :class:`YamlProblem` saying what
is wrong and on which line, never the name of a Python exception. :func:`load_json`
applies the same rules to JSON, and :func:`load_data_file` reads a file (regular files
only, never blocking) and applies the one that fits its suffix. Contracts and configs both call
these; ``yaml`` is imported on first use only (the editor's first frame must not pay for it).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, NamedTuple

MAX_CONFIG_BYTES = 1024 * 1024
MAX_CONFIG_DEPTH = 64
"""The deepest nesting a config may have (JSON nesting in replies is
:data:`gate_tui.limits.MAX_DEPTH`)."""


class YamlProblem(NamedTuple):
    """Why a YAML/JSON text was refused, and the 1-based line when known."""

    message: str
    line: int | None = None


def too_large(size: int) -> str:
    """The message for a file over the cap (used before and after reading)."""
    return f"too large for a config ({size:,} bytes; the limit is {MAX_CONFIG_BYTES:,})"


def load_yaml(text: str) -> tuple[Any, YamlProblem | None]:
    """The data of one YAML document, or the problem that stops us using it (never raises)."""
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_CONFIG_BYTES:
        return None, YamlProblem(too_large(size))
    import yaml

    loader = None
    try:
        loader = _loader_class()(text)  # the reader refuses control characters right here
        return loader.get_single_data(), None
    except _Refused as exc:
        return None, YamlProblem(exc.message, exc.line)
    except yaml.MarkedYAMLError as exc:
        line = exc.problem_mark.line + 1 if exc.problem_mark is not None else None
        return None, YamlProblem(
            f"invalid YAML: {exc.problem or exc.context or 'cannot be read'}", line
        )
    except yaml.YAMLError as exc:  # ReaderError (a control character) and friends: no marks
        return None, YamlProblem(f"invalid YAML: {_reader_message(exc)}")
    except RecursionError:
        return None, YamlProblem(f"invalid YAML: nested more than {MAX_CONFIG_DEPTH} levels deep")
    finally:
        if loader is not None:
            loader.dispose()


def load_json(text: str) -> tuple[Any, YamlProblem | None]:
    """The data of a JSON text under the same rules (size, depth, duplicate keys)."""
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_CONFIG_BYTES:
        return None, YamlProblem(too_large(size))
    try:
        return json.loads(text, object_pairs_hook=_unique_pairs), None
    except json.JSONDecodeError as exc:
        return None, YamlProblem(f"invalid JSON: {exc.msg} (column {exc.colno})", exc.lineno)
    except _Refused as exc:
        return None, YamlProblem(exc.message)
    except RecursionError:
        return None, YamlProblem("invalid JSON: nested too deeply")
    except ValueError as exc:  # a number too long for int(): say so, not the interpreter's advice
        return None, YamlProblem(
            f"invalid JSON: {'number too long' if 'digits' in str(exc) else 'cannot be read'}"
        )


def load_data_file(path: str | Path) -> tuple[Any, YamlProblem | None]:
    """A YAML (``.yaml``/``.yml``) or JSON file's data under the same bounds, read as a
    regular file without blocking (a FIFO or a device is refused); never raises."""
    from gate_tui.safe_read import read_regular

    try:
        data = read_regular(path, MAX_CONFIG_BYTES, "config file")
    except FileNotFoundError:
        return None, YamlProblem("file not found")
    if isinstance(data, str):
        return None, YamlProblem(data)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return None, YamlProblem(f"not UTF-8 text ({exc.reason} at byte {exc.start})")
    return load_json(text) if str(path).lower().endswith(".json") else load_yaml(text)


class _Refused(Exception):
    """Raised inside the loader to stop at the first refused construct."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line


def _unique_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _Refused(f"invalid JSON: the key {key!r} appears twice in one object")
        out[key] = value
    return out


def _reader_message(exc: Exception) -> str:
    """PyYAML's ReaderError says which character it refused; keep that, drop the class."""
    character = getattr(exc, "character", None)
    position = getattr(exc, "position", None)
    if character is not None:
        code = ord(character) if isinstance(character, str) else int(character)
        return f"the character U+{code:04X} is not allowed in YAML (at character {position})"
    return "cannot be read"


_LOADER: Any = None


def _loader_class() -> Any:
    """The SafeLoader subclass with the refusals (built once, on first use)."""
    global _LOADER
    if _LOADER is None:
        _LOADER = _build_loader()
    return _LOADER


def _build_loader() -> Any:
    import yaml

    class BoundedLoader(yaml.SafeLoader):
        """SafeLoader that refuses aliases, deep nesting and duplicate keys."""

        def __init__(self, stream: str) -> None:
            super().__init__(stream)
            self._depth = 0

        def compose_node(self, parent: Any, index: Any) -> Any:
            if self.check_event(yaml.AliasEvent):
                event = self.peek_event()
                raise _Refused(
                    f"YAML aliases (*{event.anchor}) are not allowed in a config; write the value "
                    "out",
                    event.start_mark.line + 1,
                )
            self._depth += 1
            if self._depth > MAX_CONFIG_DEPTH:
                event = self.peek_event()
                raise _Refused(
                    f"invalid YAML: nested more than {MAX_CONFIG_DEPTH} levels deep",
                    event.start_mark.line + 1,
                )
            try:
                return super().compose_node(parent, index)
            finally:
                self._depth -= 1

        def construct_mapping(self, node: Any, deep: bool = False) -> Any:
            seen: dict[Any, int] = {}
            for key_node, _value in node.value:
                key = key_node.value if isinstance(key_node, yaml.ScalarNode) else id(key_node)
                line = key_node.start_mark.line + 1
                if key in seen:
                    raise _Refused(
                        f"duplicate key {str(key)!r} on lines {seen[key]} and {line} (the first "
                        "one would be lost)",
                        line,
                    )
                seen[key] = line
            return super().construct_mapping(node, deep=deep)

    return BoundedLoader
