"""Contract mode's screen at 80x24 and 120x40 (pytest-textual-snapshot): the lying
``llm_result_v1`` reply applied and one leaf fixed. Regenerate deliberately with
``pytest --snapshot-update`` and look at the result."""

from __future__ import annotations

import pytest

from gate_tui.tui.contract.scenes import make_contract_app, scene_contract

SIZES = {"80x24": (80, 24), "120x40": (120, 40)}


@pytest.mark.parametrize("size", SIZES, ids=list(SIZES))
def test_contract_mode(snap_compare, size: str) -> None:
    assert snap_compare(make_contract_app(), terminal_size=SIZES[size], run_before=scene_contract)
