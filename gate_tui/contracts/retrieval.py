"""Where a contract's ``$ref`` may lead: inside the contract, its own folder, a local store. Never
the network.

A contract is input, so loading one must not reach the network or the disk beyond what the
user handed over. jsonschema-rs fetches a remote ``$ref`` over HTTP and reads ``file://`` by
default; every validator here is compiled with :class:`OfflineRetriever`, which answers only

* references inside the contract (the library resolves those itself, never asking us),
* relative file names, read from the contract's own folder only (regular files, the same
  1 MiB cap, depth limit and duplicate-key rule as the contract; symlinks out of the folder,
  ``../`` and hidden files are refused; 16 MiB in all),
* JSON Schema meta-schemas, from the copies installed with ``jsonschema``, and
* remote URIs whose schema is in a local store: ``--schemas DIR`` or ``x-gate-tui: {schemas:
  DIR}`` (a folder inside the contract's), whose files are matched by their ``$id``.

Anything else is refused with a reason that says what to do; :mod:`gate_tui.contracts.references`
turns those reasons into load problems at each ``$ref``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote, urldefrag, urljoin, urlsplit

FOLDER_ROOT = "https://contract-folder.gate-tui.invalid/"
"""The base every contract is compiled under: relative references resolve below
``FOLDER_ROOT/folder/`` (a host that cannot exist, so nothing resolved against it can reach a real
server)."""
_FOLDER = FOLDER_ROOT + "folder/"
MAX_DOCUMENTS = 64
"""The most schema files one contract may pull in (each is capped at the contract's size)."""
MAX_FOLDER_BYTES = 16 * 1024 * 1024
"""The most bytes read from the contract's folder for its references, in all."""
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
        from gate_tui.contracts.contract_rules import MAX_CONTRACT_BYTES

        found: dict[str, Any] = {}
        try:
            names = sorted(
                entry
                for entry in self.folder.iterdir()
                if entry.name.lower().endswith(_SCHEMA_SUFFIXES)
            )
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
                problem = (
                    read_problem.message
                    if read_problem
                    else None
                    if isinstance(ident, str)
                    else "no $id"
                )
            if problem is not None:
                self.skipped.append(f"{entry.name}: {problem}")
                continue
            found.setdefault(document_uri(ident), data)
        return found

    def _refused(self, entry: Path, budget: int) -> str | None:
        try:
            if self.confined is not None and not entry.resolve().is_relative_to(
                self.confined.resolve()
            ):
                return "leads outside the contract's folder"
            if entry.stat().st_size > budget:
                return f"not read: the store's files may hold {MAX_STORE_BYTES:,} bytes in all"
        except (OSError, RuntimeError, ValueError):
            return "cannot be read"
        return None


class OfflineRetriever:
    """The only way a compiled contract obtains a document it does not contain (see the module
    doc)."""

    def __init__(
        self, folder: Path | None, store: SchemaStore | None, root_id: str | None = None
    ) -> None:
        self.folder = folder
        self.store = store
        self.prefixes = [_FOLDER]
        if root_id and urlsplit(root_id).scheme in {"http", "https"}:
            # The contract's own $id stands for its folder: "common.json" beside it answers
            # "https://example.org/schemas/common.json" when the contract is
            # ".../schemas/main.json".
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
        except (
            OSError,
            ValueError,
        ) as exc:  # a name the OS refuses (a NUL byte…): a refusal, not a crash
            data, reason = (
                None,
                f"cannot be read ({type(exc).__name__.replace('Error', ' error').strip()})",
            )
        if reason is None and len(self.documents) >= MAX_DOCUMENTS:
            data, reason = (
                None,
                f"is one schema file too many (a contract may use at most {MAX_DOCUMENTS})",
            )
        if reason is None:
            self.documents[key] = data
        else:
            self.refusals[key] = reason
        return data, reason

    def _find(self, uri: str) -> tuple[Any, str | None]:
        meta = _meta_schema(
            uri
        )  # "$ref": "http://json-schema.org/draft-07/schema#" (a schema of schemas)
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
            kind = (
                "a file:// URL"
                if scheme == "file"
                else "a path outside the contract's folder (an absolute path or ../)"
            )
            return (
                None,
                f"is {kind}, and gate-tui reads no file outside the contract's folder; copy {name} "
                "next to the contract and refer to it by name",
            )
        where = None
        if self.store is not None:
            skipped = (
                f"; skipped: {'; '.join(self.store.skipped[:3])}" if self.store.skipped else ""
            )
            where = (
                f"is not in the schema store {self.store.folder} (no file there has that "
                f"$id{skipped})"
            )
        if scheme in {"http", "https"}:
            return None, (
                where or "is a remote schema, and gate-tui never fetches schemas over the network"
            ) + (
                f"; save it in a folder and pass --schemas DIR (the file's $id must be {uri}), or "
                "copy it next to the contract and refer to it by file name"
            )
        return None, (
            where or "is not a schema gate-tui has"
        ) + f"; pass --schemas DIR with a schema file whose $id is {uri}"

    def _from_folder(self, relative: str, uri: str) -> tuple[Any, str | None]:
        from gate_tui.config.json_data import read_json_data
        from gate_tui.contracts.contract_rules import MAX_CONTRACT_BYTES

        if self.folder is None:
            return (
                None,
                "names a file, but this contract was not read from a folder; give the schema "
                "inline or pass --schemas DIR",
            )
        if not relative or "?" in uri or "\x00" in relative:
            return None, "does not name a schema file"
        if any(part.startswith(".") and part not in (".", "..") for part in relative.split("/")):
            # secrets live in dot-folders (~/.config, ~/.ssh): a contract in a home folder must not
            # reach them
            return (
                None,
                f"names a hidden file or folder ({relative}), which gate-tui never reads through "
                "$ref; copy the schema to a visible name",
            )
        target = self.folder / relative
        if (
            not target.suffix
            and not target.exists()
            and target.with_name(target.name + ".json").exists()
        ):
            # "$ref": "grunt-task#/definitions/x" beside grunt-task.json: schema sets name files by
            # their $id's last word
            target = target.with_name(target.name + ".json")
        try:
            inside = target.resolve().is_relative_to(self.folder.resolve())
        except (OSError, RuntimeError, ValueError):
            inside = False
        if not inside:
            return (
                None,
                f"leads outside the contract's folder ({relative}); copy the file next to the "
                "contract and refer to it by name",
            )
        try:
            size = target.stat().st_size
        except OSError:
            size = 0  # a missing file: the reader says so, in its words
        if size > self.bytes_left:
            return (
                None,
                f"names {relative}: the files a contract refers to may hold {MAX_FOLDER_BYTES:,} "
                "bytes in all",
            )
        self.bytes_left -= size
        data, _text, problem = read_json_data(target, "schema file", MAX_CONTRACT_BYTES)
        if problem is not None and problem.message == "file not found":
            return (
                None,
                f"names {relative}, which is not in the contract's folder; copy it there (or pass "
                "--schemas DIR)",
            )
        if problem is not None:
            line = f" (line {problem.line})" if problem.line is not None else ""
            return None, f"names {relative} in the contract's folder: {problem.message}{line}"
        if not isinstance(data, (dict, bool)):
            return None, f"names {relative}, which is not a schema (a JSON object)"
        return data, None


def _meta_schema(uri: str) -> Any | None:
    """A JSON Schema meta-schema (any draft, with 2019-09's and 2020-12's vocabularies) from the
    copies installed with ``jsonschema``, or None: such a ``$ref`` is answered locally."""
    if "json-schema.org/" not in uri:
        return None
    from jsonschema_specifications import REGISTRY

    key = document_uri(uri).rstrip("#")
    for candidate in (
        key,
        key.replace("https://", "http://", 1),
        key.replace("http://", "https://", 1),
    ):
        try:
            return REGISTRY.contents(candidate)
        except LookupError:
            continue
    return None
