"""The official JSON-Schema-Test-Suite (vendored subset, tests/data/json-schema-test-suite)
run through the contract checker, drafts 2020-12 and 7: the checker must agree with the
suite's verdict on every case.

How a case is run:

* its schema is loaded as a contract (``contract_from_schema``, draft 7 given as
  ``LoadOptions(draft=7)``, the library's ``--draft 7``), whatever its root's type: a reply
  is read as the root asks (an object, an array, any value). Only a boolean root (a
  contract file is a JSON object) is compiled directly with the same draft's validator;
* EVERY instance is checked as a value (``check_value``: objects, arrays, strings, numbers,
  booleans, null, as they are) and ALSO as a reply (``check_contract`` on its JSON text,
  through extraction) when the contract's root reads that kind of reply: an object for an
  object root, an array for an array root, any value for the others (a ``str`` given to
  ``check_contract`` is reply text, never a value);
* groups whose schemas live elsewhere (the suite's ``localhost:1234`` server, or a ``$ref``
  to a meta-schema by URL) are skipped, since contracts never reach the network, and counted;
* formats count separately: contracts ENFORCE ``format`` (what contract authors expect), so
  the required ``format.json`` cases that say a bad format is "only an annotation by
  default" disagree by design, and exactly those may; the ``optional/format`` cases, which
  assume formats are enforced, must all agree.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest

from gate_tui.contracts.checking import check_contract, check_value
from gate_tui.contracts.contract_rules import root_problems
from gate_tui.contracts.loading import Contract, LoadOptions, contract_from_schema

SUITE = Path(__file__).resolve().parents[1] / "data" / "json-schema-test-suite"
DRAFTS = {"draft2020-12": None, "draft7": 7}
_VALIDATOR = {None: jsonschema_rs.Draft202012Validator, 7: jsonschema_rs.Draft7Validator}


def _files(draft: str) -> list[str]:
    folder = SUITE / draft
    return sorted(str(path.relative_to(folder)) for path in folder.rglob("*.json"))


def _offline(schema: Any, draft: int | None) -> bool:
    """True when the schema compiles without retrieving anything (no network, ever)."""
    try:
        _VALIDATOR[draft](schema, validate_formats=True, retriever=_refuse)
    except (ValueError, jsonschema_rs.ReferencingError):
        return False
    return True


def _refuse(uri: str) -> Any:
    raise ValueError(f"not offline: {uri}")


def _contract(schema: Any, draft: int | None) -> Contract | None:
    """The suite schema as a contract; None when it refers to a schema elsewhere (offline only).

    Every offline object schema loads, whatever its root's type (arrays, strings, numbers:
    no root is refused for not being an object); a boolean root is compiled directly.
    """
    if isinstance(schema, dict):
        contract, problems = contract_from_schema(schema, options=LoadOptions(draft=draft))
        if contract is not None:
            return contract
        if all("is a remote schema" in problem.message for problem in problems):
            return None
        assert root_problems(schema), problems  # only a root admitting nothing at all is refused
    validator = _VALIDATOR[draft](schema, validate_formats=True, retriever=_refuse)
    return Contract(schema if isinstance(schema, dict) else {}, "<suite>", validator)


def _run(draft: str, name: str) -> tuple[list[str], int, int]:
    """The disagreements (described), the cases run and the groups skipped as remote."""
    cases = json.loads((SUITE / draft / name).read_text(encoding="utf-8"))
    wrong: list[str] = []
    ran = skipped = 0
    for group in cases:
        contract = (
            _contract(group["schema"], DRAFTS[draft])
            if _offline(group["schema"], DRAFTS[draft])
            else None
        )
        if contract is None:
            skipped += 1
            continue
        for test in group["tests"]:
            ran += 1
            verdicts = [check_value(test["data"], contract).ok]
            if _reads_as_reply(test["data"], contract.want):
                verdicts.append(check_contract(json.dumps(test["data"]), contract).ok)
            if any(verdict != test["valid"] for verdict in verdicts):
                wrong.append(f"{group['description']} / {test['description']}")
    return wrong, ran, skipped


def _reads_as_reply(data: Any, want: str) -> bool:
    """Whether a reply holding ``data`` is read as that value for a root asking ``want``."""
    return (
        want == "any"
        or (want == "object" and isinstance(data, dict))
        or (want == "array" and isinstance(data, list))
    )


def test_non_object_roots_load_and_read_their_replies() -> None:
    """No suite schema is refused for its root's type, and array and scalar roots get replies
    checked."""
    wants: dict[str, int] = {}
    for draft in DRAFTS:
        for name in _files(draft):
            for group in json.loads((SUITE / draft / name).read_text(encoding="utf-8")):
                schema = group["schema"]
                if isinstance(schema, dict) and _offline(schema, DRAFTS[draft]):
                    contract, problems = contract_from_schema(
                        schema, options=LoadOptions(draft=DRAFTS[draft])
                    )
                    assert contract is not None or root_problems(schema), (
                        problems
                    )  # only roots admitting nothing
                    if contract is not None:
                        wants[contract.want] = wants.get(contract.want, 0) + 1
    assert wants.get("array", 0) > 0 and wants.get("any", 0) > 0, wants


@pytest.mark.parametrize(
    ("draft", "name"),
    [(draft, name) for draft in DRAFTS for name in _files(draft) if name != "format.json"],
)
def test_the_checker_agrees_with_the_suite(draft: str, name: str) -> None:
    wrong, ran, _skipped = _run(draft, name)
    assert ran > 0
    assert wrong == []


@pytest.mark.parametrize("draft", list(DRAFTS))
def test_format_annotations_are_the_only_disagreement_and_are_counted(draft: str) -> None:
    wrong, ran, _skipped = _run(draft, "format.json")
    # Every disagreement is a bad format the suite calls an annotation: enforced here by design.
    assert all("only an annotation" in case for case in wrong), wrong
    assert len(wrong) < ran
    if draft == "draft2020-12":  # draft 7's format.json has no such case
        assert len(wrong) == 19  # one bad value per format the suite lists: each is enforced here


def test_remote_groups_are_skipped_not_fetched_and_few() -> None:
    skipped = {
        name: _run("draft2020-12", name)[2]
        for name in ("dynamicRef.json", "ref.json", "anchor.json")
    }
    assert 0 < sum(skipped.values()) < 20, skipped
