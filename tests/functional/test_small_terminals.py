"""#18 item 14: on small terminals the gate key in the decision is never the part cut,
and contract mode's footer keeps Apply, Tree, Undo and Export at 60x20."""

from __future__ import annotations

import pytest

from gate_tui import load_config
from gate_tui.contracts.loading import load_contract
from gate_tui.session.live import Session
from gate_tui.tui.app import GateApp
from gate_tui.tui.contract.app import ContractApp
from tests.tui_helpers import ML_CONFIG, ROOT, screen_text, wait_for


@pytest.mark.parametrize("size", [(120, 40), (80, 24), (60, 20)])
async def test_the_decision_never_cuts_the_next_gate_key(size: tuple[int, int]) -> None:
    config = load_config(ML_CONFIG)
    app = GateApp(config, ML_CONFIG, session=Session.in_memory(config, ML_CONFIG), blink=False)
    async with app.run_test(size=size) as pilot:
        def whole_key() -> bool:
            top = screen_text(app).splitlines()[1:4]
            return (
                "1_data_availability missing" in top[0]
                or "gate 1_data_availability is missing" in top[0]
            ) and "▶ 1_data_availability" in top[1]

        await wait_for(pilot, whole_key, message="the decision with the whole gate key")
        assert "…" not in screen_text(app).splitlines()[1]
        await pilot.resize_terminal(120, 40)
        await wait_for(
            pilot,
            lambda: "NO PASS · required gate 1_data_availability is missing" in screen_text(app),
            message="the full words again",
        )
        await wait_for(
            pilot,
            lambda: "Next ▶ 1_data_availability — Data availability" in screen_text(app),
            message="the label again",
        )


async def test_the_contract_footer_keeps_its_main_keys_at_60x20() -> None:
    contract = load_contract(ROOT / "sample_configs" / "contracts" / "llm_result_v1.yaml")
    app = ContractApp(contract, journal=False, blink=False)
    async with app.run_test(size=(60, 20)) as pilot:
        await wait_for(
            pilot, lambda: "Apply" in screen_text(app).splitlines()[-1], message="the footer"
        )
        footer = screen_text(app).splitlines()[-1]
        for word in ("Apply", "Tree", "Undo", "Export"):
            assert word in footer, footer
        await pilot.press("f3")  # the tree focused: its own keys are in its title, not the footer
        await wait_for(
            pilot,
            lambda: app.focused is not None and app.focused.id == "value-tree",
            message="the tree",
        )
        footer = screen_text(app).splitlines()[-1]
        for word in ("Apply", "Tree", "Undo", "Export"):
            assert word in footer, footer
