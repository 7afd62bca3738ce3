"""Pilot tests of the analyst's journeys of issue 11: undo from anywhere, F3 right after
typing, multi-line answers, gates without categories, pasting over a paste, clearing the
reply pane, and the preview's warnings.

Keys are pressed back to back (no pauses between them); every test waits on the
condition it asserts (``wait_for``).
"""

from __future__ import annotations

from typing import Any

import pytest
from textual import events
from textual.widgets import Input, TextArea

from gate_tui.config.loading import load_config
from gate_tui.models import GateConfig, GateState, ParseWarning
from gate_tui.tui import controller
from gate_tui.tui.app import GateApp
from gate_tui.tui.widgets.choice_field import ChoiceMenu
from tests.tui_helpers import (
    ML_CONFIG,
    make_app,
    paste,
    reply,
    run_command,
    screen_text,
    state_after,
    wait_for,
    word,
)


def focused_id(app: GateApp) -> str | None:
    return None if app.focused is None else app.focused.id


def footer_text(app: GateApp) -> str:
    """The footer row (the last line of the screen)."""
    return screen_text(app).rstrip("\n").splitlines()[-1]




def burst(app: GateApp, *keys: str) -> None:
    """Post ``keys`` to the app in one go, as a terminal delivers fast typing: no key
    waits for the one before it to be handled (``pilot.press`` waits after each)."""
    for key in keys:
        character = key if len(key) == 1 else None
        app.post_message(events.Key(key, character))


async def apply_lying_reply(pilot: Any, app: GateApp) -> None:
    await paste(pilot, app, reply("ml_lying_pass.md"))
    await pilot.press("ctrl+j")
    await wait_for(
        pilot,
        lambda: [t.kind for t in app.session.timeline] == ["reply"],
        message="the reply applied",
    )


# ------------------------------------------------------------------ item 1: undo


async def test_ctrl_z_right_after_apply_undoes_the_reply_in_the_reply_pane() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await apply_lying_reply(pilot, app)
        assert focused_id(app) == "reply", "focus stays in the reply pane after Ctrl+J"
        await wait_for(
            pilot,
            lambda: "Undo" in footer_text(app),
            message="the footer offers Undo in the reply pane",
        )
        await pilot.press("ctrl+z")
        await wait_for(
            pilot, lambda: app.session.timeline[-1].kind == "undo", message="Ctrl+Z undid the reply"
        )
        assert not app.session.state.summary and word(app) == "NO PASS"
        await pilot.press("ctrl+y")
        await wait_for(
            pilot, lambda: app.session.timeline[-1].kind == "redo", message="Ctrl+Y redid it"
        )
        assert app.session.state.summary is not None


async def test_reply_pane_text_undo_while_it_holds_typing() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await apply_lying_reply(pilot, app)
        await pilot.press(*"abc", "ctrl+z")
        await wait_for(
            pilot,
            lambda: app.gate_screen.reply_pane.text_area.text == "",
            message="text undo while the pane holds typing",
        )
        assert [t.kind for t in app.session.timeline] == ["reply"]
        await pilot.press("ctrl+z")
        await wait_for(
            pilot,
            lambda: app.session.timeline[-1].kind == "undo",
            message="then the empty pane undoes the reply",
        )


async def test_ctrl_z_with_the_category_menu_open_undoes() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await apply_lying_reply(pilot, app)
        await pilot.press("f5")
        await wait_for(pilot, lambda: app.focused is app.gate_screen.gate_list)
        app.gate_screen.select_gate("1_data_availability")
        app.gate_screen.gate_form.focus_field()
        await wait_for(pilot, lambda: focused_id(app) == "classified-select")
        await wait_for(
            pilot,
            lambda: "Undo" in footer_text(app),
            message="the footer offers Undo on a category field",
        )
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ChoiceMenu), message="the menu open")
        await pilot.press("ctrl+z")
        await wait_for(
            pilot,
            lambda: app.session.timeline[-1].kind == "undo",
            message="Ctrl+Z undid the reply from the menu",
        )
        await wait_for(
            pilot, lambda: not isinstance(app.screen, ChoiceMenu), message="the menu closed"
        )
        assert app.query_one("#classified-select").value == ""


# ------------------------------------------------------- item 2: F3 after typing


async def test_f3_right_after_typing_keeps_each_answer_in_its_gate() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await pilot.press("f3", "enter", "down", "enter")  # 1_data_availability: available
        await wait_for(
            pilot, lambda: app.session.state.gates["1_data_availability"].classified == "available"
        )
        await pilot.press("f3", *"Rank tickets", "f3", *"Median time down", "f3")
        await wait_for(
            pilot,
            lambda: app.session.state.gates["3_success_metric"].raw == "Median time down",
            message="the second answer in its gate",
        )
        gates = app.session.state.gates
        assert gates["2_use_case"].raw == "Rank tickets"
        assert gates["3_success_metric"].raw == "Median time down"
        assert app.gate_screen.gate_editor.key == "4_data_privacy"
        assert focused_id(app) == "classified-select", (
            "F3 moved the focus to the next gate's field at once"
        )


async def test_a_burst_of_keys_across_f3_keeps_every_character_in_its_gate() -> None:
    config = load_config(ML_CONFIG)
    app = make_app(
        config, state_after(config, {"gates": {"1_data_availability": {"classified": "available"}}})
    )
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        app.gate_screen.select_gate("2_use_case")
        app.gate_screen.gate_form.focus_field()
        await wait_for(pilot, lambda: focused_id(app) == "raw")
        burst(app, *"Rank tickets", "f3", *"Median time down", "f3")
        await wait_for(
            pilot,
            lambda: app.gate_screen.gate_editor.key == "4_data_privacy",
            message="two F3s moved on twice",
        )
        await wait_for(
            pilot,
            lambda: app.session.state.gates["3_success_metric"].raw == "Median time down",
            message="the second answer whole, in its gate",
        )
        assert app.session.state.gates["2_use_case"].raw == "Rank tickets"
        assert focused_id(app) == "classified-select"


# ------------------------------------------------- item 3: multi-line raw answers


async def test_a_multi_line_answer_is_typed_and_stored_with_its_line_break() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        app.gate_screen.select_gate("2_use_case")
        app.gate_screen.gate_form.focus_field()
        await wait_for(pilot, lambda: focused_id(app) == "raw")
        await pilot.press(*"line one", "shift+enter", *"line two", "enter")
        await wait_for(
            pilot,
            lambda: app.session.state.gates["2_use_case"].raw == "line one\nline two",
            message="stored with the line break",
        )
        raw = app.query_one("#raw", TextArea)
        for _ in range(
            20
        ):  # the field groups typing into undo steps by time: a busy machine makes more steps
            if raw.text == "":
                break
            before = raw.text
            await pilot.press("ctrl+z")
            await wait_for(pilot, lambda before=before: raw.text != before, message="one undo step")
        await wait_for(
            pilot,
            lambda: "(Ctrl+N: new" in screen_text(app),
            message="the empty field names the line-break key",
        )


async def test_ctrl_n_in_a_burst_breaks_the_line_where_it_was_typed() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        app.gate_screen.select_gate("2_use_case")
        app.gate_screen.gate_form.focus_field()
        await wait_for(pilot, lambda: focused_id(app) == "raw")
        burst(app, *"line one", "ctrl+n", *"line two", "left", "left", "left", "X", "enter")
        await wait_for(
            pilot,
            lambda: app.session.state.gates["2_use_case"].raw == "line one\nline Xtwo",
            message="each key in turn",
        )


# ------------------------------------------- item 4: a gate without categories


async def test_a_gate_without_categories_shows_no_categories_text_and_no_input() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        app.gate_screen.select_gate("2_use_case")
        await wait_for(pilot, lambda: "no categories" in screen_text(app))
        assert not app.gate_screen.gate_editor.query(Input), (
            "no input stands for a Classified that cannot be set"
        )
        app.query_one("#raw").focus()
        await pilot.press("tab")
        await wait_for(pilot, lambda: focused_id(app) == "summary", message="tab skips Classified")
        await pilot.press("shift+tab")
        await wait_for(pilot, lambda: focused_id(app) == "raw", message="shift+tab skips it too")


# ------------------------------------------- item 5: paste replaces, clear reply


async def test_a_second_paste_replaces_an_unchanged_first_paste() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await paste(pilot, app, reply("ml_lying_pass.md"))
        app.post_message(events.Paste(reply("ml_good.md")))
        await wait_for(
            pilot,
            lambda: app.gate_screen.reply_pane.text_area.text == reply("ml_good.md"),
            message="the second paste replaced the first",
        )
        await wait_for(
            pilot,
            lambda: "If applied: PASS" in screen_text(app),
            message="the preview judges the second paste",
        )
        await pilot.press("ctrl+z")
        await wait_for(
            pilot,
            lambda: app.gate_screen.reply_pane.text_area.text == reply("ml_lying_pass.md"),
            message="Ctrl+Z brings the first back",
        )
        assert app.session.timeline == []


async def test_a_paste_into_an_edited_reply_is_inserted() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await paste(pilot, app, "first")
        await pilot.press(*" typed ")
        await wait_for(pilot, lambda: app.gate_screen.reply_pane.text_area.text == "first typed ")
        app.post_message(events.Paste("second"))
        await wait_for(
            pilot,
            lambda: app.gate_screen.reply_pane.text_area.text == "first typed second",
            message="an edited pane takes the paste at the cursor",
        )


async def test_clear_reply_by_key_and_by_palette() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await paste(pilot, app, reply("ml_good.md"))
        await pilot.press("ctrl+l")
        await wait_for(
            pilot,
            lambda: app.gate_screen.reply_pane.text_area.text == "",
            message="Ctrl+L cleared the reply",
        )
        await pilot.press("ctrl+z")
        await wait_for(
            pilot,
            lambda: app.gate_screen.reply_pane.text_area.text == reply("ml_good.md"),
            message="Ctrl+Z brings it back",
        )
        await run_command(pilot, app, "Clear reply")
        await wait_for(
            pilot,
            lambda: app.gate_screen.reply_pane.text_area.text == "",
            message="the palette's Clear reply",
        )
        assert app.session.timeline == []


async def test_help_lists_select_all_and_clear_reply() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await pilot.press("f1")
        await wait_for(pilot, lambda: "gate-tui help" in screen_text(app))
        seen = screen_text(app)
        # Page through the whole text (it is longer than a screen): every page is read.
        for _ in range(10):
            if "closes this screen" in seen:
                break
            await pilot.press("pagedown")
            await pilot.pause()
            seen += screen_text(app)
        assert "closes this screen" in seen, "PageDown reaches the last line"
        assert "select all" in seen.lower() and "Clear reply" in seen and "Ctrl+L" in seen


# ------------------------------------------------------ item 15: F1 help scrolls


async def test_help_scrolls_with_keys_at_once_and_wrapped_lines_keep_their_indent() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.press("f1", "pagedown")
        await wait_for(
            pilot,
            lambda: app.screen.query_one("#help-body").scroll_y > 0,
            message="PageDown scrolled the help at once",
        )
        body = app.screen.query_one("#help-body")
        await wait_for(pilot, lambda: "Undo the last" in screen_text(app))
        rows = screen_text(app).splitlines()
        first = next(i for i, row in enumerate(rows) if "Undo the last" in row)
        column = rows[first].index("Undo the last")
        follow = rows[first + 1]
        indented = follow[column - 8 : column].strip() == "" and follow[column] != " "
        assert indented, f"the wrapped line keeps its indent:\n{rows[first]}\n{follow}"
        await pilot.press("end")
        await wait_for(
            pilot, lambda: body.scroll_y == body.max_scroll_y > 0, message="End reached the bottom"
        )
        await pilot.press("up")
        await wait_for(
            pilot, lambda: body.scroll_y == body.max_scroll_y - 1, message="Up scrolled one line"
        )


# --------------------------------------------- item 6: the preview's warnings


async def test_the_preview_shows_a_several_candidates_warning(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real = controller.parse

    def parse_with_candidates(
        payload: Any,
        config: GateConfig,
        previous_state: GateState | None,
        actor: str,
        candidate: int | None = None,
    ) -> Any:
        result = real(payload, config, previous_state, actor, candidate)
        if actor != "assistant":
            return result
        extra = ParseWarning(
            code="several_candidates",
            message="used the object at 3:1; 1 more at 40:1 ignored",
            line=3,
            column=1,
        )
        return result.model_copy(update={"warnings": [*result.warnings, extra]})

    monkeypatch.setattr(controller, "parse", parse_with_candidates)
    app = make_app()
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await paste(pilot, app, reply("ml_good.md"))
        await wait_for(
            pilot,
            lambda: "! 3:1  used the object at 3:1; 1 more at 40:1 ignored" in screen_text(app),
            message="the warning in the preview, with its position",
        )


# ------------------------------------------- item 14: key hints from the keymap


REBOUND = {
    "apply_reply": "f9",
    "next_gate": "f8",
    "focus_reply": "f10",
    "history": "f11",
    "undo": "ctrl+u",
}


async def test_every_key_hint_follows_a_rebound_keymap() -> None:
    config = load_config(ML_CONFIG).model_copy(update={"keymap": REBOUND})
    app = make_app(config)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await wait_for(
            pilot, lambda: "F9 apply" in screen_text(app), message="the reply pane's title"
        )
        shown = screen_text(app)
        assert "Next ▶ 1_data_availability — Data availability  F8" in shown
        assert "(F10 focuses it)" in shown and "F9 applies it" in shown
        assert "Last change · F11" in shown and "apply a reply (F10)" in shown
        assert "Ctrl+J" not in shown and "F3" not in shown and "F2" not in shown
        await pilot.press("f10")
        await wait_for(pilot, lambda: focused_id(app) == "reply")
        app.post_message(events.Paste(reply("ml_good.md")))
        await wait_for(
            pilot,
            lambda: "F9 applies it." in screen_text(app),
            message="the preview names the rebound key",
        )
        await pilot.press("f9")
        await wait_for(pilot, lambda: word(app) == "PASS")
        await pilot.press("ctrl+u")
        await wait_for(
            pilot,
            lambda: app.session.timeline[-1].kind == "undo",
            message="the rebound undo works in the reply pane",
        )
        await pilot.press("f1")
        await wait_for(pilot, lambda: "gate-tui help" in screen_text(app))
        assert "Ctrl+J" not in screen_text(app) and "F9" in screen_text(app)


async def test_the_page_bar_of_a_narrow_terminal_follows_the_keymap() -> None:
    config = load_config(ML_CONFIG).model_copy(update={"keymap": REBOUND})
    app = make_app(config)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await wait_for(pilot, lambda: "Reply F10" in screen_text(app), message="the page bar")
        assert "History F11" in screen_text(app) and "Gates F5" in screen_text(app)
        await pilot.press("f11")
        await wait_for(pilot, lambda: "Last change · F11" in screen_text(app))


async def test_the_footer_offers_undo_in_every_pane_where_it_works() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await apply_lying_reply(pilot, app)
        app.gate_screen.select_gate("1_data_availability")
        for target in (
            "#gate-list",
            "#raw",
            "#classified-select",
            "#summary",
            "#reply",
            "#timeline",
        ):
            app.query_one(target).focus()
            widget = app.query_one(target)
            await wait_for(pilot, lambda: app.focused is widget, message=f"{target} focused")  # noqa: B023 - awaited here
            await wait_for(
                pilot,
                lambda: "^z Undo" in footer_text(app),
                message=f"Undo in the footer with {target} focused",
            )
        await pilot.press("ctrl+z")
        await wait_for(
            pilot,
            lambda: app.session.timeline[-1].kind == "undo",
            message="Ctrl+Z in the timeline undoes",
        )


async def test_a_paste_then_apply_at_once_applies_the_pasted_reply() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await pilot.press("f2")
        await wait_for(pilot, lambda: focused_id(app) == "reply")
        app.post_message(events.Paste(reply("ml_good.md")))
        burst(app, "ctrl+j")
        await wait_for(
            pilot,
            lambda: [t.kind for t in app.session.timeline] == ["reply"],
            message="Ctrl+J applied the paste before it",
        )
        assert word(app) == "PASS"


async def test_undo_and_redo_of_a_paste_taller_than_a_small_pane() -> None:
    # At 60x20 a pasted reply overflows the pane; Textual scrolled to the cursor mid-undo,
    # before restoring it, and a cursor past the shrunken text crashed the editor.
    app = make_app()
    text = reply("ml_good.md")
    async with app.run_test(size=(60, 20), notifications=True) as pilot:
        await paste(pilot, app, text)
        area = app.gate_screen.reply_pane.text_area
        await pilot.press("ctrl+z")
        await wait_for(pilot, lambda: area.text == "", message="Ctrl+Z took the paste back")
        await pilot.press("ctrl+y")
        await wait_for(pilot, lambda: area.text == text, message="Ctrl+Y put it back")
        await pilot.press("ctrl+l")
        await wait_for(pilot, lambda: area.text == "", message="Ctrl+L cleared the pane")
        await pilot.press("ctrl+z", "ctrl+y")
        await wait_for(pilot, lambda: area.text == "", message="the clear undone and redone")
        assert app.is_running and app.session.timeline == []
