"""Pilot tests of the editor: real key presses, pasted replies, undo/redo, keys and scale.

Every test waits on the condition it asserts (``wait_for``), never on a bare pause.
"""

from __future__ import annotations

import time

import pytest
from textual import events
from textual.command import CommandList
from textual.widgets import Button, Input, OptionList, Static, TextArea

from gate_tui.config.loading import load_config
from gate_tui.tui.widgets import type_ahead
from gate_tui.tui.widgets.choice_field import ChoiceMenu
from gate_tui.tui.widgets.type_ahead import option_matching
from tests.tui_helpers import (
    ML_CONFIG,
    full_state_for,
    make_app,
    make_large_config,
    palette_highlight,
    paste,
    reply,
    screen_text,
    state_after,
    wait_for,
    word,
)


async def test_typing_into_the_last_gate_turns_no_pass_into_pass() -> None:
    config = load_config(ML_CONFIG)
    app = make_app(config, state_after(config, full_state_for(config, skip="2_use_case")))
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await wait_for(pilot, lambda: word(app) == "NO PASS")
        await wait_for(pilot, lambda: "2_use_case" in screen_text(app))
        await pilot.press("f3")
        await wait_for(
            pilot,
            lambda: app.focused is not None and app.focused.id == "raw",
            message="raw field of the next gate focused",
        )
        assert app.gate_screen.gate_editor.key == "2_use_case"
        await pilot.press(*"Rank tickets")
        await wait_for(pilot, lambda: word(app) == "PASS", message="decision panel says PASS")
        await wait_for(pilot, lambda: app.session.decision.pass_, message="the edit is recorded")
        assert len(app.session.timeline) == 1, "one transition for the whole typed answer"
        assert app.session.state.gates["2_use_case"].raw == "Rank tickets"
        assert app.session.timeline[-1].actor == "user"
        assert app.query_one("#raw", TextArea).text == "Rank tickets"


async def test_choosing_a_category_with_the_select() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await pilot.press("f3")
        await wait_for(
            pilot, lambda: app.focused is not None and app.focused.id == "classified-select"
        )
        await pilot.press("enter", "down", "enter")
        await wait_for(
            pilot, lambda: app.session.state.gates["1_data_availability"].classified == "available"
        )
        await wait_for(pilot, lambda: app.session.decision.next_gate == "2_use_case")
        await wait_for(pilot, lambda: "2_use_case" in screen_text(app).split("\n")[2])


async def test_category_menu_escape_click_and_click_outside() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await pilot.press("f3")
        await wait_for(
            pilot, lambda: app.focused is not None and app.focused.id == "classified-select"
        )
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ChoiceMenu), message="the menu opens")
        await pilot.press("down", "escape")
        await wait_for(
            pilot, lambda: not isinstance(app.screen, ChoiceMenu), message="Esc closes it"
        )
        await wait_for(
            pilot, lambda: app.focused is not None and app.focused.id == "classified-select"
        )
        assert app.session.timeline == [], "closing the menu changes nothing"
        await pilot.click("#classified-select")
        await wait_for(
            pilot, lambda: isinstance(app.screen, ChoiceMenu), message="a click opens it"
        )
        await pilot.click(offset=(0, 0))
        await wait_for(
            pilot,
            lambda: not isinstance(app.screen, ChoiceMenu),
            message="a click beside it closes it",
        )
        assert app.session.timeline == []
        await pilot.click("#classified-select")
        await wait_for(pilot, lambda: isinstance(app.screen, ChoiceMenu))
        menu = app.screen.query_one(OptionList)
        await pilot.click(menu, offset=(3, 1 + 2))  # below the top border: none, available, partial
        await wait_for(
            pilot, lambda: app.session.state.gates["1_data_availability"].classified == "partial"
        )
        assert len(app.session.timeline) == 1
        await wait_for(pilot, lambda: "partial" in screen_text(app))


async def test_typing_in_a_category_field_finds_the_category(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(
        type_ahead, "TYPE_AHEAD_SECONDS", 60.0
    )  # a slow machine must not reset the search
    app = make_app()
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await pilot.press("f3")
        await wait_for(
            pilot, lambda: app.focused is not None and app.focused.id == "classified-select"
        )
        await pilot.press(
            "u"
        )  # opens the menu on "unavailable" (a prefix wins over "available", which contains it)
        await wait_for(
            pilot, lambda: isinstance(app.screen, ChoiceMenu), message="typing opens the menu"
        )
        menu = app.screen.query_one(OptionList)
        await wait_for(pilot, lambda: menu.highlighted == 3, message="unavailable highlighted")
        assert app.session.timeline == [], "typing only moves the highlight"
        await pilot.press("escape", "p")
        await wait_for(
            pilot,
            lambda: (
                isinstance(app.screen, ChoiceMenu)
                and app.screen.query_one(OptionList).highlighted == 2
            ),
            message="partial",
        )
        await pilot.press("a")  # "pa" still partial; "a" alone would be available
        await wait_for(pilot, lambda: app.screen.query_one(OptionList).highlighted == 2)
        await pilot.press("enter")
        await wait_for(
            pilot, lambda: app.session.state.gates["1_data_availability"].classified == "partial"
        )
        assert len(app.session.timeline) == 1


async def test_enter_records_an_edit_at_once() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        app.gate_screen.EDIT_COMMIT_DELAY = 30.0
        await pilot.press("f5", "down", "enter")  # the Raw field has the focus at start
        await wait_for(pilot, lambda: app.focused is not None and app.focused.id == "raw")
        await pilot.press(*"rank", "enter")
        await wait_for(pilot, lambda: app.session.state.gates["2_use_case"].raw == "rank")
        assert len(app.session.timeline) == 1


async def test_paste_a_reply_preview_and_apply_it() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await paste(pilot, app, reply("ml_good.md"))
        await wait_for(
            pilot, lambda: "If applied: PASS" in screen_text(app), message="preview of the outcome"
        )
        assert app.session.timeline == [], "previewing changes nothing"
        await pilot.press("ctrl+j")
        await wait_for(pilot, lambda: word(app) == "PASS")
        assert app.session.timeline[-1].actor == "assistant"
        await wait_for(
            pilot,
            lambda: app.gate_screen.reply_pane.text_area.text == "",
            message="applied reply cleared",
        )
        app.gate_screen.gate_list.select_key("2_use_case")
        await wait_for(
            pilot, lambda: app.query_one("#raw", TextArea).text.startswith("Rank incoming")
        )
        await pilot.pause(app.gate_screen.EDIT_COMMIT_DELAY + 0.2)
        assert len(app.session.timeline) == 1, "loading the form from a reply is not a user edit"


async def test_a_failing_reply_leaves_the_state_untouched_and_keeps_its_text() -> None:
    config = load_config(ML_CONFIG)
    app = make_app(config, state_after(config, full_state_for(config, skip="3_success_metric")))
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        before = app.session.state
        garbage = reply("ml_garbage.md")
        await paste(pilot, app, garbage)
        await wait_for(pilot, lambda: "Cannot apply" in screen_text(app))
        await pilot.press("ctrl+j")
        await wait_for(
            pilot, lambda: "Reply rejected" in screen_text(app), message="rejection notice"
        )
        assert app.session.state == before
        assert app.session.timeline == []
        assert app.gate_screen.reply_pane.text_area.text == garbage
        assert word(app) == "NO PASS"


async def test_a_lying_reply_is_overruled_in_the_decision_panel() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await paste(pilot, app, reply("ml_lying_pass.md"))
        await wait_for(
            pilot, lambda: "model claimed PASS — overruled: 2_use_case missing" in screen_text(app)
        )
        await pilot.press("ctrl+j")
        await wait_for(pilot, lambda: app.session.timeline)
        assert word(app) == "NO PASS"
        top = "\n".join(screen_text(app).split("\n")[:7])
        assert "model claimed PASS — overruled: 2_use_case missing" in top


async def test_repairable_reply_lists_repairs_with_positions() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await paste(pilot, app, reply("ml_repairable.md"))
        await wait_for(
            pilot,
            lambda: (
                app.gate_screen.preview_result is not None and app.gate_screen.preview_result.ok
            ),
        )
        first = app.gate_screen.preview_result.repairs[0]
        # Poll the screen: a frame can be caught mid-refresh, so one read may be blank.
        await wait_for(pilot, lambda: "Repairs the parser applied" in screen_text(app))
        await wait_for(pilot, lambda: f"{first.line}:{first.column}" in screen_text(app))


async def test_undo_and_redo_keys_move_over_transitions() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await paste(pilot, app, reply("ml_good.md"))
        await pilot.press("ctrl+j")
        await wait_for(pilot, lambda: word(app) == "PASS")
        await pilot.press("f5")
        await wait_for(pilot, lambda: app.focused is app.gate_screen.gate_list)
        await pilot.press("ctrl+z")
        await wait_for(
            pilot, lambda: word(app) == "NO PASS", message="undo restores the empty state"
        )
        assert app.session.state.gates["2_use_case"].raw is None
        assert app.session.timeline[-1].kind == "undo"
        await pilot.press("ctrl+y")
        await wait_for(pilot, lambda: word(app) == "PASS", message="redo")
        assert app.session.timeline[-1].kind == "redo"
        assert app.query_one("#summary", Input).value.startswith("Ticket-routing")


async def test_ctrl_z_in_the_reply_pane_undoes_text_not_state() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await paste(pilot, app, reply("ml_good.md"))
        await pilot.press("ctrl+j")
        await wait_for(pilot, lambda: word(app) == "PASS")
        await pilot.press(*"abc")
        await wait_for(pilot, lambda: app.gate_screen.reply_pane.text_area.text == "abc")
        await pilot.press("ctrl+z")
        await wait_for(pilot, lambda: app.gate_screen.reply_pane.text_area.text != "abc")
        assert app.session.decision.pass_
        assert [t.kind for t in app.session.timeline] == ["reply"]


async def test_typed_edit_then_undo_reverts_the_whole_answer() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await pilot.press("f5", "down", "enter")
        await pilot.press(*"hello")
        await wait_for(pilot, lambda: app.session.state.gates["2_use_case"].raw == "hello")
        await pilot.press("ctrl+z")
        await wait_for(pilot, lambda: app.session.state.gates["2_use_case"].raw is None)
        await wait_for(pilot, lambda: app.query_one("#raw", TextArea).text == "")
        assert [t.kind for t in app.session.timeline] == ["edit", "undo"], (
            "Ctrl+Z in the raw field undoes the transition"
        )
        assert app.focused is not None and app.focused.id == "raw"
        await pilot.press("ctrl+y")
        await wait_for(
            pilot,
            lambda: app.query_one("#raw", TextArea).text == "hello",
            message="redo refills the field",
        )
        assert app.session.timeline[-1].kind == "redo"


async def test_raw_answers_wrap_and_keep_pasted_lines() -> None:
    app = make_app()
    answer = "Two years of labelled tickets in the warehouse, refreshed nightly by the data team"
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        app.gate_screen.EDIT_COMMIT_DELAY = (
            60.0  # a loaded machine's pause mid-typing must not record half an answer
        )
        await pilot.press("f5", "down", "enter")
        await wait_for(pilot, lambda: app.focused is not None and app.focused.id == "raw")
        await pilot.press(*answer, "enter")
        await wait_for(
            pilot,
            lambda: app.session.state.gates["2_use_case"].raw == answer,
            message="the typed answer recorded",
        )
        shown = screen_text(app)
        assert "Two years" in shown and "data team" in shown, (
            "a long answer wraps in the field instead of scrolling sideways"
        )
        area = app.query_one("#raw", TextArea)
        area.select_all()
        app.post_message(events.Paste("first line\nsecond line"))
        await wait_for(
            pilot,
            lambda: area.text == "first line\nsecond line",
            message="a pasted text keeps its lines",
        )
        await pilot.press("enter")
        await wait_for(
            pilot, lambda: app.session.state.gates["2_use_case"].raw == "first line\nsecond line"
        )
        assert len(app.session.timeline) == 2, "one transition per answer, not per key"


async def test_summary_too_long_is_shown_at_the_field_and_keeps_the_text() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        summary = app.query_one("#summary", Input)
        summary.focus()
        await wait_for(pilot, lambda: app.focused is summary)
        long_text = "x" * 201
        app.post_message(events.Paste(long_text))
        message = app.query_one("#summary-msg", Static)
        await wait_for(
            pilot,
            lambda: "at most 200 allowed" in str(message.content),
            message="error at the field",
        )
        assert message.display
        await wait_for(pilot, lambda: "201/200" in screen_text(app))
        assert summary.value == long_text
        await pilot.press("tab")
        await pilot.pause(app.gate_screen.EDIT_COMMIT_DELAY + 0.2)
        assert app.session.timeline == []
        assert app.session.state.summary == ""
        assert summary.value == long_text


async def test_help_screen_lists_keys_rules_and_actors() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await pilot.press("f1")
        await wait_for(pilot, lambda: "gate-tui help" in screen_text(app))
        assert "Ctrl+J" in screen_text(app)
        await pilot.press("end")
        await wait_for(
            pilot,
            lambda: (
                "Decision rules" in screen_text(app) and "user vs assistant" in screen_text(app)
            ),
        )
        await pilot.press("escape")
        await wait_for(pilot, lambda: "Decision rules" not in screen_text(app))


async def test_command_palette_lists_every_action_by_name() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await pilot.press("ctrl+p")
        await wait_for(
            pilot, lambda: "Apply reply" in screen_text(app), message="palette lists actions"
        )
        names = {
            str(option.prompt).split("\n")[0]
            for option in app.screen.query_one(CommandList).options
        }
        wanted = {
            "Help",
            "Focus reply pane",
            "Apply reply",
            "Jump to next gate",
            "Undo",
            "Redo",
            "Save state",
            "Quit",
            "Save state as…",
        }
        assert wanted <= names
        assert "Override decision: PASS" not in names, "this config's policy forbids overrides"
        await pilot.press(*"next gate")
        await wait_for(pilot, lambda: palette_highlight(app).startswith("Jump to next gate"))
        await pilot.press("enter")
        await wait_for(
            pilot, lambda: app.focused is not None and app.focused.id == "classified-select"
        )


async def test_command_palette_goes_to_any_gate_by_key_or_label() -> None:
    app = make_app(make_large_config(200))
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await pilot.press("ctrl+p")
        await wait_for(pilot, lambda: app.screen.query(CommandList), message="the palette")
        await pilot.press(*"gate 187")
        await wait_for(
            pilot,
            lambda: palette_highlight(app).startswith("Go to gate g187 — Gate 187"),
            message="the gate hit",
        )
        assert "What is the answer to question 187?" in palette_highlight(app)
        await pilot.press("enter")
        await wait_for(
            pilot,
            lambda: (
                app.gate_screen.gate_editor.key == "g187"
                and app.focused is not None
                and app.focused.id == "raw"
            ),
        )
        assert app.gate_screen.gate_list.selected_key == "g187"


async def test_keymap_from_the_config_rebinds_apply() -> None:
    config = load_config(ML_CONFIG).model_copy(
        update={"keymap": {"apply_reply": "f9", "no_such_action": "f10"}}
    )
    app = make_app(config)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await wait_for(
            pilot, lambda: "no_such_action" in screen_text(app), message="unknown id reported"
        )
        await paste(pilot, app, reply("ml_good.md"))
        await pilot.press("f9")
        await wait_for(pilot, lambda: word(app) == "PASS")


async def test_narrow_terminal_reaches_every_pane() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await wait_for(pilot, lambda: "NO PASS" in screen_text(app))
        await paste(pilot, app, reply("ml_good.md"))
        await wait_for(pilot, lambda: "If applied: PASS" in screen_text(app))
        await pilot.press("ctrl+j")
        await wait_for(pilot, lambda: word(app) == "PASS")
        await pilot.press("f4")
        await wait_for(
            pilot, lambda: "Timeline" in screen_text(app) and "assistant" in screen_text(app)
        )
        await pilot.press("f3")
        await wait_for(pilot, lambda: "Nothing to jump to" in screen_text(app))


async def test_two_hundred_gates_open_and_respond() -> None:
    config = make_large_config(200)
    app = make_app(config, state_after(config, full_state_for(config, skip="g199")))
    started = time.perf_counter()
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await wait_for(pilot, lambda: word(app) == "NO PASS")
        opened = time.perf_counter() - started
        assert opened < 5.0, f"200-gate config took {opened:.1f}s to open"
        await pilot.press("f3")
        await wait_for(pilot, lambda: app.focused is not None and app.focused.id == "raw")
        await pilot.press("x")
        await wait_for(pilot, lambda: word(app) == "PASS")
        assert len(app.query("*")) < 300, "the DOM does not grow with the number of gates"


async def test_enter_on_a_timeline_row_restores_that_state() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await paste(pilot, app, reply("ml_lying_pass.md"))
        await pilot.press("ctrl+j")
        await wait_for(pilot, lambda: len(app.session.timeline) == 1)
        app.post_message(events.Paste(reply("ml_good.md")))
        await wait_for(pilot, lambda: "If applied: PASS" in screen_text(app))
        await pilot.press("ctrl+j")
        await wait_for(pilot, lambda: word(app) == "PASS")
        await pilot.press("f4")
        await wait_for(pilot, lambda: app.focused is app.gate_screen.history_pane.table)
        await pilot.press("up", "enter")
        await wait_for(
            pilot, lambda: app.session.timeline[-1].kind == "jump", message="a jump transition"
        )
        assert word(app) == "NO PASS"
        assert app.session.state.summary.startswith("Demand forecast")


async def test_a_gate_without_categories_says_so_and_its_classified_field_takes_no_focus() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        app.gate_screen.select_gate("2_use_case")
        field = app.query_one("#classified-none", Static)
        assert field.display and not field.can_focus and "no categories" in str(field.render())
        app.query_one("#raw").focus()
        await pilot.press("tab")
        await wait_for(
            pilot,
            lambda: app.focused is not None and app.focused.id == "summary",
            message="tab skips Classified",
        )
        await pilot.press(*"abc")
        await wait_for(pilot, lambda: app.query_one("#summary", Input).value == "abc")
        assert "no categories" in str(field.render())


async def test_user_override_where_the_policy_allows_it() -> None:
    config = load_config(ML_CONFIG.parent / "release_go_no_go.yaml")
    app = make_app(config)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await wait_for(pilot, lambda: word(app) == "NO PASS")
        await pilot.press("ctrl+p")
        await pilot.press(*"Override decision: PASS")
        await wait_for(pilot, lambda: palette_highlight(app).startswith("Override decision: PASS"))
        await pilot.press("enter")
        await wait_for(pilot, lambda: word(app) == "PASS", message="the parser's override decision")
        assert app.session.decision.reason == "user_override"
        await wait_for(pilot, lambda: "user override" in screen_text(app))


def test_option_matching_prefers_a_prefix_then_a_substring() -> None:
    labels = ["none", "available", "partial", "unavailable"]
    assert [
        option_matching(labels, typed) for typed in ("n", "A", "av", "u", "vail", "PART", "x", "")
    ] == [0, 1, 1, 3, 1, 2, None, 0]


async def test_focus_news_of_a_widget_already_gone_is_ignored() -> None:
    """A modal dismissed at once (Esc on the resume question) leaves a focus event behind
    for a button that has no screen any more; the editor must shrug it off."""
    app = make_app()
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        app.post_message(events.DescendantFocus(Button("gone")))
        await pilot.press("f3")
        await wait_for(
            pilot,
            lambda: app.focused is not None and app.focused.id == "classified-select",
            message="the editor still working",
        )
        assert app.return_code is None and app.is_running


async def test_a_cut_off_reply_is_refused_and_the_preview_shows_what_was_read() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        cut = (
            '```json\n{"summary": "Ticket routing", "gates": {"1_data_availability": {"raw": '
            '"Two years of tickets", "classified": "available"}, "2_use_case": {"raw": "Not'
        )
        await paste(pilot, app, cut)
        await wait_for(
            pilot,
            lambda: "What the parser could read" in screen_text(app),
            message="the recovered part in the preview",
        )
        text = screen_text(app)
        assert "cut off" in text and "Two years of tickets" in text and "Cannot apply" in text
        await pilot.press("ctrl+j")
        await wait_for(
            pilot, lambda: "Reply rejected" in screen_text(app), message="the cut-off reply refused"
        )
        assert app.session.timeline == []
