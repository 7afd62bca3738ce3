"""Contract mode's screenshot scene, shared by the snapshot tests and ``make screenshots``.

The lying ``llm_result_v1`` reply pasted and applied, then the missing ``emotion`` chosen
from its enum: the tree shows the remaining errors on their nodes and the decision
panel INVALID. Real keys on the real app, no journal (nothing on disk).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from textual import events

from gate_tui.config.loading import bundled_config_dir
from gate_tui.contracts.loading import load_contract
from gate_tui.tui.contract.app import ContractApp
from gate_tui.tui.contract.tree import ValueTree
from gate_tui.tui.scene_wait import until as _until

SHOWN_PATH = "sample_configs/contracts/llm_result_v1.yaml"


def make_contract_app() -> ContractApp:
    """The contract editor on ``llm_result_v1`` with a path that does not depend on the checkout."""
    contract = load_contract(bundled_config_dir() / "contracts" / "llm_result_v1.yaml")
    return ContractApp(dataclasses.replace(contract, path=SHOWN_PATH), journal=False, blink=False)


async def scene_contract(pilot: Any) -> None:
    """Paste the lying reply, apply it, pick ``emotion: sad`` for the missing key."""
    app: ContractApp = pilot.app
    reply = (bundled_config_dir() / "contracts" / "replies" / "llm_result_v1_lying.md").read_text(
        encoding="utf-8"
    )
    await _until(pilot, lambda: app.focused is not None and app.focused.id == "reply")
    app.post_message(events.Paste(reply))
    await _until(pilot, lambda: app.editor.preview_count > 0)
    await pilot.press("ctrl+j")
    await _until(pilot, lambda: app.editor.index == 1)
    await pilot.press("f3")
    tree = app.query_one(ValueTree)
    await _until(pilot, lambda: tree.has_focus)
    target = next(
        n
        for n in range(tree.last_line + 1)
        if (node := tree.get_node_at_line(n)) is not None and node.data == "/emotion"
    )
    while tree.cursor_line < target:
        await pilot.press("down")
    await pilot.press("enter")
    await _until(
        pilot,
        lambda: (
            app.contract_screen.editing is not None
            and app.focused is not None
            and app.focused.id == "edit-choices"
        ),
    )
    await pilot.press("down", "down", "enter")
    await _until(pilot, lambda: app.editor.index == 2 and app.focused is tree)


async def capture_contract(directory: Path, size: tuple[int, int]) -> Path:
    """Save the contract scene's screenshot as ``contract.svg``."""
    app = make_contract_app()
    async with app.run_test(size=size, notifications=True) as pilot:
        await scene_contract(pilot)
        await pilot.pause(0.1)
        return Path(app.save_screenshot("contract.svg", str(directory)))
