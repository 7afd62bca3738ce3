"""#28 item 4: rough edges of the gate editor found walking it as a new user would."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from gate_tui import load_config
from gate_tui.session.live import Session
from gate_tui.tui.app import GateApp
from gate_tui.tui.history_render import fitted_values
from gate_tui.tui.text import apart
from gate_tui.tui.widgets.choice_field import ChoiceField
from tests.tui_helpers import ML_CONFIG, wait_for


def make_app() -> GateApp:
    config = load_config(ML_CONFIG)
    return GateApp(config, ML_CONFIG, session=Session.in_memory(config, ML_CONFIG), blink=False)


@pytest.mark.parametrize("size", [(120, 40), (80, 24), (60, 20)])
async def test_at_start_typing_answers_the_first_gate(size: tuple[int, int]) -> None:
    """At start the gate list had the focus and typed letters did nothing."""
    app = make_app()
    async with app.run_test(size=size, notifications=True) as pilot:
        await wait_for(
            pilot,
            lambda: app.focused is not None and app.focused.id == "raw",
            message="Raw focused",
        )
        assert app.gate_screen.gate_editor.key == app.session.decision.next_gate
        await pilot.press(*"labelled")
        await wait_for(
            pilot, lambda: app.query_one("#raw").text == "labelled", message="typed into Raw"
        )


def _background(widget: ChoiceField) -> tuple[int, int, int]:
    color = widget.rich_style.bgcolor
    assert color is not None
    triplet = color.get_truecolor()
    return (triplet.red, triplet.green, triplet.blue)


async def test_a_focused_category_field_looks_focused() -> None:
    """Classified's focus shade was 235 on 234: no one could see where the keys went."""
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        field = app.query_one("#classified-select", ChoiceField)
        await wait_for(
            pilot, lambda: app.gate_screen.gate_editor.key is not None, message="a gate shown"
        )
        blurred = _background(field)
        field.focus()
        await wait_for(pilot, lambda: app.focused is field, message="Classified focused")
        await wait_for(pilot, lambda: _background(field) != blurred, message="a focus shade")
        distance = sum(abs(a - b) for a, b in zip(_background(field), blurred, strict=True))
        assert distance >= 60, f"a visible focus shade ({blurred} -> {_background(field)})"


def test_a_cut_before_and_after_show_where_they_differ() -> None:
    """#28: a middle cut made "Lift@10%…nt rules" → "Lift@10%…nt rules" of two answers."""
    before = "Lift@10% above 2.0 on the holdout set, measured under the agreement rules"
    after = "Lift@10% above 3.5 on the holdout set, measured under the agreement rules"
    for room in (20, 30, 40):
        shown_before, shown_after = fitted_values(before, after, room)
        assert shown_before != shown_after
        assert "2.0" in shown_before and "3.5" in shown_after
        assert len(shown_before) + len(shown_after) <= room


@settings(max_examples=300, deadline=None)
@given(
    st.text(alphabet="ab", max_size=60),
    st.text(alphabet="ab", max_size=60),
    st.integers(3, 30),
    st.integers(3, 30),
)
@example("bbaa", "bbba", 3, 3)  # a CI find: three cells cut at both ends hid the difference
def test_apart_keeps_a_difference_in_view(
    before: str, after: str, room_before: int, room_after: int
) -> None:
    cut_before, cut_after = apart(before, after, room_before, room_after)
    assert len(cut_before) <= max(room_before, 1) or cut_before == before
    assert len(cut_after) <= max(room_after, 1) or cut_after == after
    if before != after and room_before == room_after:
        assert cut_before != cut_after


def _in_view(app: GateApp, widget_id: str) -> bool:
    widget = app.query_one(f"#{widget_id}")
    try:
        geometry = app.screen.find_widget(widget)
    except Exception:  # not on screen at all (a hidden page)
        return False
    return geometry.region.height > 0 and geometry.visible_region == geometry.region


async def test_a_focused_field_is_scrolled_into_view_after_a_resize() -> None:
    """#28: a focused field below the fold stayed there after the terminal shrank."""
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(
            pilot, lambda: app.gate_screen.gate_editor.key is not None, message="a gate shown"
        )
        app.query_one("#summary").focus()
        await wait_for(
            pilot,
            lambda: app.focused is not None and app.focused.id == "summary",
            message="Summary focused",
        )
        await pilot.resize_terminal(60, 20)
        await wait_for(pilot, lambda: _in_view(app, "summary"), message="the summary field in view")
