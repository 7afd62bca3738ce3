"""#18 item 10: the preview and ``check`` list every missing and every blocked required
gate (one round trip fixes them all); the decision still names the first as next."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from textual import events

from gate_tui import load_config, parse
from gate_tui.decision import outstanding
from gate_tui.session.live import Session
from gate_tui.tui.app import GateApp
from tests.tui_helpers import ML_CONFIG, screen_text, wait_for

ROOT = Path(__file__).resolve().parents[2]
HALF = {
    "summary": "Ticket routing",
    "gates": {
        "1_data_availability": {"raw": "none yet", "classified": "unavailable"},
        "2_use_case": {"raw": None, "classified": None},
        "3_success_metric": {"raw": None, "classified": None},
        "4_data_privacy": {"raw": "not signed off", "classified": "not_approved"},
        "5_stakeholder": {"raw": None, "classified": None},
    },
    "status": {"pass": False, "next_gate": "1_data_availability"},
}


def reply_text() -> str:
    return "Here is the state.\n```json\n" + json.dumps(HALF) + "\n```\n"


def test_outstanding_lists_every_missing_and_blocked_required_gate_in_order() -> None:
    config = load_config(ML_CONFIG)
    result = parse(reply_text(), config)
    assert result.ok and result.canonical_state is not None and result.decision is not None
    still = outstanding(config, result.canonical_state.gates)
    assert still.missing == ("2_use_case", "3_success_metric")  # 5_stakeholder is optional
    assert still.blocked == (
        ("1_data_availability", "unavailable"),
        ("4_data_privacy", "not_approved"),
    )
    assert result.decision.next_gate == "1_data_availability"  # the decision names the first
    assert outstanding(config, {}).missing == (
        "1_data_availability",
        "2_use_case",
        "3_success_metric",
        "4_data_privacy",
    )


def test_check_text_lists_them_all(tmp_path: Path) -> None:
    reply = tmp_path / "half.md"
    reply.write_text(reply_text(), encoding="utf-8")
    out = subprocess.run(
        [sys.executable, "-m", "gate_tui", "check", "--config", str(ML_CONFIG), str(reply)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    ).stdout
    assert "next gate: 1_data_availability (blocked: classified 'unavailable')" in out
    assert "  missing required gates (2):\n    - 2_use_case\n    - 3_success_metric\n" in out
    assert (
        "  blocked required gates (2):\n    - 1_data_availability (unavailable)\n    - "
        "4_data_privacy (not_approved)\n" in out
    )


async def test_the_preview_lists_them_all() -> None:
    config = load_config(ML_CONFIG)
    app = GateApp(config, ML_CONFIG, session=Session.in_memory(config, ML_CONFIG), blink=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("f2")
        await wait_for(
            pilot,
            lambda: app.focused is not None and app.focused.id == "reply",
            message="the reply pane",
        )
        app.post_message(events.Paste(reply_text()))
        await wait_for(
            pilot,
            lambda: "Required gates still outstanding (4)" in screen_text(app),
            message="the outstanding gates",
        )
        text = screen_text(app)
        assert "missing 2_use_case, 3_success_metric" in text
        assert (
            "blocked 1_data_availability (unavailable), 4_data_privacy" in text
            and "(not_approved)" in text
        )


async def test_a_blocked_required_gate_has_its_own_mark_in_the_list_and_the_detail_pane() -> None:
    """#18 item 5: never a green ✓ / "complete" for a gate the banner says blocks."""
    config = load_config(ML_CONFIG)
    app = GateApp(config, ML_CONFIG, session=Session.in_memory(config, ML_CONFIG), blink=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("f2")
        await wait_for(
            pilot,
            lambda: app.focused is not None and app.focused.id == "reply",
            message="the reply pane",
        )
        app.post_message(events.Paste(reply_text()))
        await wait_for(pilot, lambda: "If applied" in screen_text(app), message="the preview")
        await pilot.press("ctrl+j")
        await wait_for(pilot, lambda: len(app.session.timeline) == 1, message="applied")
        app.gate_screen.select_gate("4_data_privacy")
        await wait_for(
            pilot,
            lambda: "⊘ blocked (not_approved)" in screen_text(app),
            message="the detail pane's mark",
        )
        rows = {
            row.split("*")[1].split()[0]: row
            for row in screen_text(app).splitlines()
            if "* " in row and "_" in row
        }
        assert (
            "⊘ * 4_data_privacy" in rows["4_data_privacy"]
            and "⊘ * 1_data_availability" in rows["1_data_availability"]
        )
        assert "✗ * 2_use_case" in rows["2_use_case"]
        assert (
            "complete"
            not in screen_text(app).split("4_data_privacy  Data privacy")[-1].splitlines()[1]
        )


async def test_a_reply_that_clears_typed_answers_says_so_first() -> None:
    """#18 item 11: "this reply clears 1 answer you typed (2_use_case)", above the changes."""
    config = load_config(ML_CONFIG)
    app = GateApp(config, ML_CONFIG, session=Session.in_memory(config, ML_CONFIG), blink=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(
            pilot, lambda: "NO PASS" in screen_text(app), message="the first screen"
        )  # the session is open
        app.gate_screen.select_gate("2_use_case")
        app.gate_screen.gate_form.focus_field()
        await wait_for(
            pilot,
            lambda: (
                app.focused is not None
                and app.focused.id == "raw"
                and app.gate_screen.gate_editor.key == "2_use_case"
            ),
            message="the Raw field of 2_use_case",
        )
        # The calls above are programmatic: let the messages they queued (the gate's fields
        # loading, the focus) land before typing, as a person's keys would arrive after them.
        await pilot.pause()
        await wait_for(
            pilot,
            lambda: app.focused is not None and app.focused.id == "raw",
            message="the Raw field still focused",
        )
        await pilot.press(*"Rank tickets")
        await wait_for(
            pilot,
            lambda: app.focused.text == "Rank tickets",
            message=lambda: f"the typed answer in the field (focused: {app.focused!r})",
        )
        await pilot.press("enter")
        await wait_for(pilot, lambda: len(app.session.timeline) == 1, message="the answer recorded")
        await pilot.press("f2")
        await wait_for(
            pilot,
            lambda: app.focused is not None and app.focused.id == "reply",
            message="the reply pane",
        )
        app.post_message(events.Paste(reply_text()))  # 2_use_case: raw null
        await wait_for(
            pilot,
            lambda: "This reply clears 1 answer you typed (2_use_case)" in screen_text(app),
            message="the warning",
        )
        text = screen_text(app)
        assert text.index("This reply clears") < text.index("Fields that would change")
        await pilot.press("ctrl+l")
        app.post_message(
            events.Paste(
                reply_text().replace(
                    '"2_use_case": {"raw": null', '"2_use_case": {"raw": "Rank tickets"'
                )
            )
        )
        await wait_for(
            pilot,
            lambda: (
                "If applied" in screen_text(app) and "This reply clears" not in screen_text(app)
            ),
            message="no warning when it keeps the answer",
        )
