"""Every ``$ref`` of a contract checked before compiling, so a refusal names the reference.

:func:`reference_problems` resolves each reference the way the validator will (against the
``$id`` in scope), asks :class:`~gate_tui.contracts.retrieval.OfflineRetriever` for any
document outside the contract, follows the files it returns (each once), and checks that the
pointer or anchor after ``#`` exists and is a schema. A problem is reported at the contract's
``$ref`` that led there, with the reason and what to do. Values are never quoted (a pointer
into a file may land on anything it holds).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import unquote, urldefrag, urljoin, urlsplit

from gate_tui.contracts.drafts import subschemas
from gate_tui.contracts.results import pointer
from gate_tui.contracts.retrieval import OfflineRetriever, document_uri

_REF_WORDS = ("$ref", "$dynamicRef")


def reference_problems(
    schema: dict[str, Any], base: str, id_key: str, retriever: OfflineRetriever
) -> list[tuple[list[str | int], str]]:
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
        name = (
            "the contract"
            if via is None
            else (Path(unquote(urlsplit(document_base).path)).name or document_base)
        )
        nodes = list(subschemas(document, document_base, key))
        resources = _resources(nodes, key)
        # $dynamicRef (2020-12) leads to a document as $ref does: a remote one must be refused by
        # name too
        refs = [
            (parts, node, node_base, word)
            for parts, node, node_base in nodes
            for word in _REF_WORDS
            if isinstance(node.get(word), str)
        ]
        for parts, node, node_base, word in refs:
            ref = node[word]
            site = [*parts, word] if via is None else via
            said = (
                f'{word} "{ref}"'
                if via is None
                else f'{word} "{ref}" in {name} (at {pointer(parts) or "/"})'
            )
            target_document, fragment = urldefrag(
                node_base + ref if ref.startswith("#") else urljoin(node_base, ref)
            )
            where, data = (
                (name, resources[target_document]) if target_document in resources else (None, None)
            )
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
            elif fragment.startswith("/") and not isinstance(
                _at_pointer(data, unquote(fragment)), (dict, bool)
            ):
                # never quote the value: it may be anything a file holds (a token…)
                problems.append(
                    (
                        site,
                        f"{said} points at {unquote(fragment)} in {where}, which is not a schema "
                        "(a JSON object)",
                    )
                )
    return problems


def _resources(
    nodes: list[tuple[list[str | int], dict[str, Any], str]], id_key: str
) -> dict[str, Any]:
    """The document and every schema in it with an ``$id`` of its own, by URI."""
    resources: dict[str, Any] = {}
    for parts, node, node_base in nodes:
        ident = node.get(id_key)
        if not parts or (isinstance(ident, str) and not ident.startswith("#")):
            resources.setdefault(document_uri(node_base), node)
    return resources


def _id_key(document: Any, default: str) -> str:
    """``id`` for a draft-04 document, ``$id`` otherwise (a retrieved file may be of another
    draft)."""
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
            known.update(
                name
                for name in (node.get("$anchor"), node.get("$dynamicAnchor"))
                if isinstance(name, str)
            )
            if isinstance(ident, str) and ident.startswith("#"):
                known.add(ident[1:])
    return None if fragment in known else f'the anchor "{fragment}"'


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
