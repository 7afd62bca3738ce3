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
MAX_FOLDER_BYTES = 16 * 1024 * 1024
"""The most bytes read from the contract's folder for its references, in all."""
MAX_CYCLES_SHOWN = 20
MAX_STORE_FILES = 2000
MAX_STORE_BYTES = 64 * 1024 * 1024
_SCHEMA_SUFFIXES = (".json", ".yaml", ".yml")


def base_uri(path: str) -> str:
    """The URI a contract file is compiled under (its name below the folder base)."""
    return _FOLDER + quote(Path(path).name or "contract.json")


def document_uri(uri: str) -> str:
    """A URI without its fragment (and without a bare ``#``), for matching ``$id``s."""
    return urldefrag(uri.strip())[0]


class SchemaStore:
    """A folder of schema files matched by their ``$id`` (read on first use, never written).

    ``confined`` (the contract's folder, for a store the contract names itself) refuses
    entries that are symlinks leading out of it; ``--schemas DIR`` is the user's own folder.
    At most :data:`MAX_STORE_FILES` files and :data:`MAX_STORE_BYTES` in all are read.
    """

    def __init__(self, folder: Path, confined: Path | None = None) -> None:
        self.folder = folder
        self.confined = confined
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
        budget = MAX_STORE_BYTES
        for entry in names[:MAX_STORE_FILES]:
            problem = self._refused(entry, budget)
            if problem is None:
                budget -= entry.stat().st_size
                data, _text, read_problem = read_json_data(entry, "schema file", MAX_CONTRACT_BYTES)
                ident = data.get("$id", data.get("id")) if isinstance(data, dict) else None
                problem = read_problem.message if read_problem else None if isinstance(ident, str) else "no $id"
            if problem is not None:
                self.skipped.append(f"{entry.name}: {problem}")
                continue
            found.setdefault(document_uri(ident), data)
        return found

    def _refused(self, entry: Path, budget: int) -> str | None:
        try:
            if self.confined is not None and not entry.resolve().is_relative_to(self.confined.resolve()):
                return "leads outside the contract's folder"
            if entry.stat().st_size > budget:
                return f"not read: the store's files may hold {MAX_STORE_BYTES:,} bytes in all"
        except (OSError, RuntimeError, ValueError):
            return "cannot be read"
        return None


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
        self.bytes_left = MAX_FOLDER_BYTES

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
        try:
            data, reason = self._find(key)
        except (OSError, ValueError) as exc:  # a name the OS refuses (a NUL byte…): a refusal, not a crash
            data, reason = None, f"cannot be read ({type(exc).__name__.replace('Error', ' error').strip()})"
        if reason is None and len(self.documents) >= MAX_DOCUMENTS:
            data, reason = None, f"is one schema file too many (a contract may use at most {MAX_DOCUMENTS})"
        if reason is None:
            self.documents[key] = data
        else:
            self.refusals[key] = reason
        return data, reason

    def _find(self, uri: str) -> tuple[Any, str | None]:
        meta = _meta_schema(uri)  # "$ref": "http://json-schema.org/draft-07/schema#" (a schema of schemas)
        if meta is not None:
            return meta, None
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
        if not relative or "?" in uri or "\x00" in relative:
            return None, "does not name a schema file"
        if any(part.startswith(".") and part not in (".", "..") for part in relative.split("/")):
            # secrets live in dot-folders (~/.config, ~/.ssh): a contract in a home folder must not reach them
            return None, f"names a hidden file or folder ({relative}), which gate-tui never reads through $ref; copy the schema to a visible name"
        target = self.folder / relative
        try:
            inside = target.resolve().is_relative_to(self.folder.resolve())
        except (OSError, RuntimeError, ValueError):
            inside = False
        if not inside:
            return None, f"leads outside the contract's folder ({relative}); copy the file next to the contract and refer to it by name"
        try:
            size = target.stat().st_size
        except OSError:
            size = 0  # a missing file: the reader says so, in its words
        if size > self.bytes_left:
            return None, f"names {relative}: the files a contract refers to may hold {MAX_FOLDER_BYTES:,} bytes in all"
        self.bytes_left -= size
        data, _text, problem = read_json_data(target, "schema file", MAX_CONTRACT_BYTES)
        if problem is not None and problem.message == "file not found" and not target.suffix:
            # "$ref": "grunt-task#/definitions/x" beside grunt-task.json: schema sets name files by their $id's last word
            data, _text, problem = read_json_data(target.with_name(target.name + ".json"), "schema file", MAX_CONTRACT_BYTES)
        if problem is not None and problem.message == "file not found":
            return None, f"names {relative}, which is not in the contract's folder; copy it there (or pass --schemas DIR)"
        if problem is not None:
            line = f" (line {problem.line})" if problem.line is not None else ""
            return None, f"names {relative} in the contract's folder: {problem.message}{line}"
        if not isinstance(data, (dict, bool)):
            return None, f"names {relative}, which is not a schema (a JSON object)"
        return data, None


def reference_problems(schema: dict[str, Any], base: str, id_key: str, retriever: OfflineRetriever) -> list[tuple[list[str | int], str]]:
    """``(path of the $ref, message)`` for every reference that cannot be resolved offline.

    Files the contract refers to are followed too (each once, at most :data:`MAX_DOCUMENTS`);
    a problem inside one is reported at the contract's ``$ref`` that led there.
    """
    problems: list[tuple[list[str | int], str]] = []
    queue: list[tuple[Any, str, str, list[str | int] | None]] = [(schema, base, id_key, None)]
    followed = {document_uri(base)}
    anchors: dict[int, set[str]] = {}
    while queue:
        document, document_base, key, via = queue.pop(0)
        name = "the contract" if via is None else (Path(unquote(urlsplit(document_base).path)).name or document_base)
        nodes = list(subschemas(document, document_base, key))
        resources = _resources(nodes, key)
        for parts, node, node_base in nodes:
            ref = node.get("$ref")
            if not isinstance(ref, str):
                continue
            site = [*parts, "$ref"] if via is None else via
            said = f'$ref "{ref}"' if via is None else f'$ref "{ref}" in {name} (at {pointer(parts) or "/"})'
            target_document, fragment = urldefrag(node_base + ref if ref.startswith("#") else urljoin(node_base, ref))
            where, data = (name, resources[target_document]) if target_document in resources else (None, None)
            if where is None:
                data, reason = retriever.fetch(target_document)
                if reason is not None:
                    problems.append((site, f"{said} {reason}"))
                    continue
                where = Path(unquote(urlsplit(target_document).path)).name or target_document
                if target_document not in followed:
                    followed.add(target_document)
                    queue.append((data, target_document, _id_key(data, key), site))
            missing = _missing(data, unquote(fragment), key, anchors)
            if missing is not None:
                problems.append((site, f"{said} points at {missing}, which is not in {where}"))
            elif fragment.startswith("/") and not isinstance(_at_pointer(data, unquote(fragment)), (dict, bool)):
                # never quote the value: it may be anything a file holds (a token…)
                problems.append((site, f"{said} points at {unquote(fragment)} in {where}, which is not a schema (a JSON object)"))
    return problems


def _meta_schema(uri: str) -> Any | None:
    """A JSON Schema meta-schema (any draft, with 2019-09's and 2020-12's vocabularies) from the
    copies installed with ``jsonschema``, or None: such a ``$ref`` is answered locally."""
    if "json-schema.org/" not in uri:
        return None
    from jsonschema_specifications import REGISTRY

    key = document_uri(uri).rstrip("#")
    for candidate in (key, key.replace("https://", "http://", 1), key.replace("http://", "https://", 1)):
        try:
            return REGISTRY.contents(candidate)
        except LookupError:
            continue
    return None


def _resources(nodes: list[tuple[list[str | int], dict[str, Any], str]], id_key: str) -> dict[str, Any]:
    """The document and every schema in it with an ``$id`` of its own, by URI."""
    resources: dict[str, Any] = {}
    for parts, node, node_base in nodes:
        ident = node.get(id_key)
        if not parts or (isinstance(ident, str) and not ident.startswith("#")):
            resources.setdefault(document_uri(node_base), node)
    return resources


def _id_key(document: Any, default: str) -> str:
    """``id`` for a draft-04 document, ``$id`` otherwise (a retrieved file may be of another draft)."""
    if not isinstance(document, dict):
        return default
    declared = document.get("$schema")
    if isinstance(declared, str):
        return "id" if "draft-04" in declared else "$id"
    return default


def _missing(document: Any, fragment: str, id_key: str, anchors: dict[int, set[str]]) -> str | None:
    """What a fragment names that ``document`` lacks (a JSON Pointer or an anchor), or None.

    ``anchors`` remembers each document's anchors, so many references cost one walk each.
    """
    if not fragment:
        return None
    if fragment.startswith("/"):
        return fragment if _at_pointer(document, fragment) is None else None
    known = anchors.get(id(document))
    if known is None:
        known = anchors[id(document)] = set()
        for _parts, node, _base in subschemas(document, "", id_key):
            ident = node.get(id_key)
            known.update(name for name in (node.get("$anchor"), node.get("$dynamicAnchor")) if isinstance(name, str))
            if isinstance(ident, str) and ident.startswith("#"):
                known.add(ident[1:])
    return None if fragment in known else f'the anchor "{fragment}"'


def cycle_problems(schema: dict[str, Any], id_key: str = "$id") -> list[tuple[list[str | int], str]]:
    """``$ref`` cycles inside the contract that come back to a schema without reading into the value.

    Only the contract's own resource is followed (a ``#/...`` inside an embedded schema with
    an ``$id`` of its own means that schema, not the contract).
    """
    walked = list(subschemas(schema, "", id_key))
    root_base = walked[0][2] if walked else ""
    nodes = {pointer(parts): (parts, node if base == root_base else {}) for parts, node, base in walked}
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
    shown = " → ".join(steps) if len(steps) <= 6 else " → ".join([*steps[:3], "…", *steps[-2:]]) + f" ({len(steps) - 1} steps)"
    return f"$ref cycle that never ends: {shown} (each step checks the same value again without reading into it); put the $ref under properties or items, or remove it"


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
        if isinstance(ref, str) and (ref == "#" or ref.startswith("#/")) and unquote(ref[1:]) in nodes:
            todo.append(unquote(ref[1:]))
    return used


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
