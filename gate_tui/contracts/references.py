"""Where a contract's ``$ref`` may lead: inside the contract, its own folder, a local store. Never the network.

A contract is input, so loading one must not reach the network or the disk beyond what the
user handed over. jsonschema-rs fetches a remote ``$ref`` over HTTP and reads ``file://`` by
default; every validator here is compiled with :class:`OfflineRetriever`, which answers only

* references inside the contract (the library resolves those itself, never asking us),
* relative file names, read from the contract's own folder only (regular files, the same
  1 MiB cap, depth limit and duplicate-key rule as the contract; symlinks out of the folder
  and ``../`` are refused), and
* remote URIs whose schema is in a local store: ``--schemas DIR`` or ``x-gate-tui: {schemas:
  DIR}`` (a folder inside the contract's), whose files are matched by their ``$id``.

Anything else is refused. :func:`reference_problems` checks every ``$ref`` before compiling,
so a refusal names the reference, where it is used and what to do; :func:`cycle_problems`
finds ``$ref`` cycles that return to the same schema without reading into the value, which
no validator can ever finish.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote, urldefrag, urljoin, urlsplit

from gate_tui.contracts.drafts import subschemas
from gate_tui.contracts.results import pointer

FOLDER_ROOT = "https://contract-folder.gate-tui.invalid/"
"""The base every contract is compiled under: relative references resolve below ``FOLDER_ROOT/folder/``
(a host that cannot exist, so nothing resolved against it can reach a real server)."""
_FOLDER = FOLDER_ROOT + "folder/"
MAX_DOCUMENTS = 64
"""The most schema files one contract may pull in (each is capped at the contract's size)."""
MAX_STORE_FILES = 2000
_SCHEMA_SUFFIXES = (".json", ".yaml", ".yml")


def base_uri(path: str) -> str:
    """The URI a contract file is compiled under (its name below the folder base)."""
    return _FOLDER + quote(Path(path).name or "contract.json")


def document_uri(uri: str) -> str:
    """A URI without its fragment (and without a bare ``#``), for matching ``$id``s."""
    return urldefrag(uri.strip())[0]


class SchemaStore:
    """A folder of schema files matched by their ``$id`` (read on first use, never written)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._by_id: dict[str, Any] | None = None
        self.skipped: list[str] = []

    def lookup(self, uri: str) -> Any | None:
        if self._by_id is None:
            self._by_id = self._index()
        return self._by_id.get(document_uri(uri))

    def _index(self) -> dict[str, Any]:
        from gate_tui.config.json_data import read_json_data
        from gate_tui.contracts.loading import MAX_CONTRACT_BYTES

        found: dict[str, Any] = {}
        try:
            names = sorted(entry for entry in self.folder.iterdir() if entry.name.lower().endswith(_SCHEMA_SUFFIXES))
        except OSError as exc:
            self.skipped.append(f"{self.folder}: cannot list ({exc.strerror or exc})")
            return found
        for entry in names[:MAX_STORE_FILES]:
            data, _text, problem = read_json_data(entry, "schema file", MAX_CONTRACT_BYTES)
            ident = data.get("$id", data.get("id")) if isinstance(data, dict) else None
            if problem is not None or not isinstance(ident, str):
                self.skipped.append(f"{entry.name}: {problem.message if problem else 'no $id'}")
                continue
            found.setdefault(document_uri(ident), data)
        return found


class OfflineRetriever:
    """The only way a compiled contract obtains a document it does not contain (see the module doc)."""

    def __init__(self, folder: Path | None, store: SchemaStore | None, root_id: str | None = None) -> None:
        self.folder = folder
        self.store = store
        self.prefixes = [_FOLDER]
        if root_id and urlsplit(root_id).scheme in {"http", "https"}:
            # The contract's own $id stands for its folder: "common.json" beside it answers
            # "https://example.org/schemas/common.json" when the contract is ".../schemas/main.json".
            self.prefixes.append(urljoin(document_uri(root_id), "."))
        self.documents: dict[str, Any] = {}
        self.refusals: dict[str, str] = {}

    def __call__(self, uri: str) -> Any:
        data, reason = self.fetch(uri)
        if reason is not None:
            raise ValueError(reason)
        return data

    def fetch(self, uri: str) -> tuple[Any, str | None]:
        """The document at ``uri``, or why it is refused (remembered either way)."""
        key = document_uri(uri)
        if key in self.documents:
            return self.documents[key], None
        if key in self.refusals:
            return None, self.refusals[key]
        data, reason = self._find(key)
        if reason is None and len(self.documents) >= MAX_DOCUMENTS:
            data, reason = None, f"is one schema file too many (a contract may use at most {MAX_DOCUMENTS})"
        if reason is None:
            self.documents[key] = data
        else:
            self.refusals[key] = reason
        return data, reason

    def _find(self, uri: str) -> tuple[Any, str | None]:
        stored = self.store.lookup(uri) if self.store is not None else None
        if stored is not None:
            return stored, None
        for prefix in self.prefixes:
            if uri.startswith(prefix):
                return self._from_folder(unquote(uri[len(prefix):]), uri)
        scheme = urlsplit(uri).scheme.lower()
        if uri.startswith(FOLDER_ROOT) or scheme == "file":
            name = Path(unquote(urlsplit(uri).path)).name or "the file"
            kind = "a file:// URL" if scheme == "file" else "a path outside the contract's folder (an absolute path or ../)"
            return None, f"is {kind}, and gate-tui reads no file outside the contract's folder; copy {name} next to the contract and refer to it by name"
        where = None
        if self.store is not None:
            skipped = f"; skipped: {'; '.join(self.store.skipped[:3])}" if self.store.skipped else ""
            where = f"is not in the schema store {self.store.folder} (no file there has that $id{skipped})"
        if scheme in {"http", "https"}:
            return None, (where or "is a remote schema, and gate-tui never fetches schemas over the network") + (
                f"; save it in a folder and pass --schemas DIR (the file's $id must be {uri}), or copy it next to the contract and refer to it by file name"
            )
        return None, (where or "is not a schema gate-tui has") + f"; pass --schemas DIR with a schema file whose $id is {uri}"

    def _from_folder(self, relative: str, uri: str) -> tuple[Any, str | None]:
        from gate_tui.config.json_data import read_json_data
        from gate_tui.contracts.loading import MAX_CONTRACT_BYTES

        if self.folder is None:
            return None, "names a file, but this contract was not read from a folder; give the schema inline or pass --schemas DIR"
        if not relative or "?" in uri:
            return None, "does not name a schema file"
        target = self.folder / relative
        try:
            inside = target.resolve().is_relative_to(self.folder.resolve())
        except (OSError, RuntimeError):
            inside = False
        if not inside:
            return None, f"leads outside the contract's folder ({relative}); copy the file next to the contract and refer to it by name"
        data, _text, problem = read_json_data(target, "schema file", MAX_CONTRACT_BYTES)
        if problem is not None and problem.message == "file not found":
            return None, f"names {relative}, which is not in the contract's folder; copy it there (or pass --schemas DIR)"
        if problem is not None:
            line = f" (line {problem.line})" if problem.line is not None else ""
            return None, f"names {relative} in the contract's folder: {problem.message}{line}"
        if not isinstance(data, (dict, bool)):
            return None, f"names {relative}, which is not a schema (a JSON object)"
        return data, None


def reference_problems(schema: dict[str, Any], base: str, id_key: str, retriever: OfflineRetriever) -> list[tuple[list[str | int], str]]:
    """``(path of the $ref, message)`` for every reference that cannot be resolved offline."""
    nodes = list(subschemas(schema, base, id_key))
    resources: dict[str, Any] = {}
    for parts, node, node_base in nodes:  # the contract and every schema in it with an $id of its own
        ident = node.get(id_key)
        if not parts or (isinstance(ident, str) and not ident.startswith("#")):
            resources.setdefault(document_uri(node_base), node)
    problems = []
    for parts, node, node_base in nodes:
        ref = node.get("$ref")
        if not isinstance(ref, str):
            continue
        target = node_base + ref if ref.startswith("#") else urljoin(node_base, ref)
        document, fragment = urldefrag(target)
        if document in resources:
            if fragment.startswith("/") and _at_pointer(resources[document], unquote(fragment)) is None:
                problems.append(([*parts, "$ref"], f'$ref "{ref}" points at {unquote(fragment)}, which is not in the contract'))
            continue
        _data, reason = retriever.fetch(document)
        if reason is not None:
            problems.append(([*parts, "$ref"], f'$ref "{ref}" {reason}'))
    return problems


def cycle_problems(schema: dict[str, Any]) -> list[tuple[list[str | int], str]]:
    """``$ref`` cycles inside the contract that come back to a schema without reading into the value."""
    nodes = {pointer(parts): (parts, node) for parts, node, _base in subschemas(schema)}
    state: dict[str, int] = {}  # 1 on the current path, 2 done
    problems = []
    for start in nodes:
        if state.get(start):
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
                loop = path[path.index(step):] + [step]
                problems.append((nodes[loop[0]][0], f"$ref cycle that never ends: {' → '.join(point or '/' for point in loop)} (each step checks the same value again without reading into it); put the $ref under properties or items, or remove it"))
            elif not state.get(step):
                state[step] = 1
                path.append(step)
                stack.append(iter(_in_place(step, nodes[step][1], nodes)))
    return problems


def _in_place(key: str, node: dict[str, Any], nodes: dict[str, Any]) -> list[str]:
    """The schemas always applied to the same value as ``node``: its local $ref, allOf, oneOf, not, if."""
    steps = []
    ref = node.get("$ref")
    if isinstance(ref, str) and (ref == "#" or ref.startswith("#/")) and unquote(ref[1:]) in nodes:
        steps.append(unquote(ref[1:]))
    for word in ("allOf", "oneOf"):
        if isinstance(node.get(word), list):
            steps.extend(f"{key}/{word}/{index}" for index in range(len(node[word])))
    steps.extend(f"{key}/{word}" for word in ("not", "if") if isinstance(node.get(word), dict))
    return [step for step in steps if step in nodes]


def _at_pointer(document: Any, pointer: str) -> Any:
    value = document
    for raw in pointer.split("/")[1:]:
        part = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(value, dict) and part in value:
            value = value[part]
        elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        else:
            return None
    return value
