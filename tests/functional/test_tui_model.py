"""The editor's F6 "Ask the model" against the scripted OpenAI-compatible server (Pilot).

Asserts on what the user sees (the reply pane, its preview, the decision, toasts) and on
the journal records; every wait polls its condition (``wait_for``).
"""

from __future__ import annotations

import pytest

pytest.importorskip("openai")

from gate_tui.llm import structured  # noqa: E402
from tests.helpers.scripted_openai import ScriptedServer, Step  # noqa: E402
from tests.tui_helpers import make_app, reply, screen_text, wait_for, word  # noqa: E402

SIZE = (120, 40)


@pytest.fixture(autouse=True)
def _endpoint_env(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("GATE_TUI_MODEL", "scripted")
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    structured.forget_all()


def use(monkeypatch: pytest.MonkeyPatch, server: ScriptedServer) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)


async def ask(pilot, app, message: str = "We have labelled tickets") -> None:
    await pilot.press("f6")
    await wait_for(pilot, lambda: app.screen.query("#ask-input"), message="message box open")
    await pilot.press(*message)
    await pilot.press("enter")
    await wait_for(
        pilot, lambda: app.gate_screen.workbench.asking.run is not None, message="request started"
    )


def preview_text(app) -> str:
    return str(app.gate_screen.reply_pane.query_one("#preview").render())


def model_calls(app) -> list[dict]:
    return [r for r in app.session.records if r["kind"] == "model_call"]


async def test_a_reply_streams_in_shows_so_far_then_the_preview_and_applies_as_the_assistant(
    monkeypatch,
) -> None:
    text = reply("ml_lying_pass.md")
    with ScriptedServer([Step(text=text, chunk=16, delay=0.05)]) as server:
        use(monkeypatch, server)
        app = make_app()
        async with app.run_test(size=SIZE, notifications=True) as pilot:
            await ask(pilot, app)
            await wait_for(
                pilot,
                lambda: "so far: gates.1_data_availability" in preview_text(app),
                timeout=20,
                message="so-far preview",
            )
            shown = preview_text(app)
            assert "No decision until the reply ends" in shown and "PASS" not in shown.replace(
                "claimed", ""
            )
            assert (
                app.gate_screen.workbench.asking.run.running
                and "scripted" in app.sub_title
                and "token" in app.sub_title
            )
            await wait_for(
                pilot,
                lambda: app.gate_screen.workbench.asking.run.call is not None,
                timeout=30,
                message="stream ended",
            )
            assert app.gate_screen.reply_pane.text_area.text == text
            await wait_for(
                pilot, lambda: "overruled" in preview_text(app), message="normal preview"
            )
            await pilot.press("ctrl+j")
            await wait_for(pilot, lambda: len(app.session.timeline) == 1, message="reply applied")
            assert app.session.timeline[-1].actor == "assistant" and word(app) == "NO PASS"
    call = model_calls(app)[0]
    applied = next(r for r in app.session.records if r["kind"] == "reply")
    assert (
        applied["call"] == call["seq"]
        and call["message"] == "We have labelled tickets"
        and call["outcome"] == "ok"
    )
    sent = server.requests[0]["messages"]
    assert sent[0]["role"] == "system" and sent[-1]["content"].startswith(
        "We have labelled tickets"
    )


async def test_a_key_press_during_a_slow_stream_is_handled_while_it_streams(monkeypatch) -> None:
    with ScriptedServer([Step(text=reply("ml_good.md"), chunk=8, delay=0.25)]) as server:
        use(monkeypatch, server)
        app = make_app()
        async with app.run_test(size=SIZE, notifications=True) as pilot:
            await ask(pilot, app)
            await wait_for(
                pilot,
                lambda: app.gate_screen.workbench.asking.run.live.chars > 0,
                timeout=20,
                message="first text",
            )
            await pilot.press("f3")  # jump to the next gate: handled while the reply streams
            await wait_for(
                pilot,
                lambda: app.focused is not None and app.focused.id in ("raw", "classified-select"),
                message="F3 handled",
            )
            assert app.gate_screen.workbench.asking.run.running
            await pilot.press("escape")
            await wait_for(
                pilot, lambda: not app.gate_screen.workbench.asking.run.running, timeout=10
            )


async def test_escape_cancels_keeps_the_partial_text_marked_and_applies_nothing(
    monkeypatch,
) -> None:
    with ScriptedServer([Step(text=reply("ml_good.md"), chunk=8, delay=0.2)]) as server:
        use(monkeypatch, server)
        app = make_app()
        async with app.run_test(size=SIZE, notifications=True) as pilot:
            await ask(pilot, app)
            await wait_for(
                pilot,
                lambda: app.gate_screen.reply_pane.text_area.text != "",
                timeout=20,
                message="partial text shown",
            )
            await pilot.press("escape")
            await wait_for(
                pilot,
                lambda: app.gate_screen.workbench.asking.run.call is not None,
                timeout=10,
                message="request ended",
            )
            assert app.gate_screen.workbench.asking.run.call.status == "cancelled"
            assert app.gate_screen.reply_pane.text_area.text and str(
                app.gate_screen.reply_pane.border_subtitle
            ).startswith("cancelled")
            assert app.session.timeline == [] and not app.gate_screen.reply_pane.text_area.read_only
    call = model_calls(app)[0]
    assert (
        call["outcome"] == "cancelled"
        and call["reply"]
        and len(call["reply"]) < len(reply("ml_good.md"))
    )


async def test_a_dropped_stream_is_kept_marked_incomplete_and_previewed_as_cut_off(
    monkeypatch,
) -> None:
    text = reply("ml_good.md")
    chunks = text.index('"2_use_case"') // 10 + 1  # the stream stops inside the JSON
    with ScriptedServer([Step(text=text, chunk=10, drop_after=chunks)]) as server:
        use(monkeypatch, server)
        app = make_app()
        async with app.run_test(size=SIZE, notifications=True) as pilot:
            await ask(pilot, app)
            await wait_for(
                pilot, lambda: app.gate_screen.workbench.asking.run.call is not None, timeout=20
            )
            assert str(app.gate_screen.reply_pane.border_subtitle).startswith("incomplete")
            await wait_for(pilot, lambda: "cut off" in preview_text(app), message="cut-off preview")
            assert (
                app.gate_screen.reply_pane.text_area.text == text[: chunks * 10]
                and app.session.timeline == []
            )


async def test_an_endpoint_error_is_one_toast_and_changes_nothing(monkeypatch) -> None:
    with ScriptedServer([Step(status=401)]) as server:
        use(monkeypatch, server)
        app = make_app()
        async with app.run_test(size=SIZE, notifications=True) as pilot:
            await ask(pilot, app)
            await wait_for(
                pilot,
                lambda: "refused the API key" in screen_text(app),
                timeout=20,
                message="error toast",
            )
            assert app.session.timeline == [] and "Traceback" not in screen_text(app)


async def test_ask_again_with_the_errors_then_auto_retry(monkeypatch) -> None:
    bad = (
        '{"summary": "x", "gates": {"1_data_availability": {"raw": "r", "classified": '
        '"plenty"}}, "status": {"pass": true}}'
    )
    with ScriptedServer(
        [
            Step(text=bad),
            Step(text=reply("ml_good.md")),
            Step(text=bad),
            Step(text=bad),
            Step(text=reply("ml_good.md")),
        ]
    ) as server:
        use(monkeypatch, server)
        app = make_app()
        async with app.run_test(size=SIZE, notifications=True) as pilot:
            await ask(pilot, app)
            await wait_for(
                pilot, lambda: app.gate_screen.workbench.asking.run.call is not None, timeout=20
            )
            assert app.gate_screen.workbench.asking.run.call.status == "invalid"
            await pilot.press("f7")
            await wait_for(
                pilot,
                lambda: (
                    len(server.requests) == 2
                    and app.gate_screen.workbench.asking.run.call is not None
                    and app.gate_screen.workbench.asking.run.kind == "retry"
                ),
                timeout=20,
            )
            again = server.requests[1]["messages"][-1]["content"]
            assert "gates.1_data_availability.classified" in again and "plenty" in again
            await wait_for(pilot, lambda: app.gate_screen.workbench.asking.run.call.status == "ok")
            await pilot.press("f8")  # auto-retry on: the next invalid reply goes back by itself
            assert app.gate_screen.workbench.asking.auto_retry
            await ask(pilot, app, "again")
            await wait_for(
                pilot,
                lambda: (
                    len(server.requests) == 5
                    and app.gate_screen.workbench.asking.run.call is not None
                    and app.gate_screen.workbench.asking.run.call.status == "ok"
                ),
                timeout=30,
                message=lambda: (
                    len(server.requests),
                    app.gate_screen.workbench.asking.run.kind,
                    app.gate_screen.workbench.asking.run.call
                    and app.gate_screen.workbench.asking.run.call.status,
                    [c["outcome"] for c in model_calls(app)],
                ),
            )
            assert [c["call_kind"] for c in model_calls(app)] == [
                "ask",
                "retry",
                "ask",
                "retry",
                "retry",
            ]


async def test_gate_tui_ask_then_the_editor_continues_the_same_conversation(
    monkeypatch, tmp_path
) -> None:
    import subprocess
    import sys

    from gate_tui.config.loading import load_config
    from gate_tui.session.opening import open_session
    from gate_tui.tui.app import GateApp
    from tests.tui_helpers import ML_CONFIG

    state = tmp_path / "s.json"
    with ScriptedServer(
        [Step(text=reply("ml_lying_pass.md")), Step(text=reply("ml_good.md"))]
    ) as server:
        use(monkeypatch, server)
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "gate_tui",
                "ask",
                str(ML_CONFIG),
                "--state",
                str(state),
                "from the shell",
            ],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 1, done.stderr
        config = load_config(ML_CONFIG)
        app = GateApp(
            config,
            ML_CONFIG,
            session=open_session(config, ML_CONFIG, state_file=state),
            blink=False,
        )
        async with app.run_test(size=SIZE, notifications=True) as pilot:
            await wait_for(pilot, lambda: len(app.session.timeline) == 1, message="resumed session")
            await ask(pilot, app, "from the editor")
            await wait_for(
                pilot, lambda: app.gate_screen.workbench.asking.run.call is not None, timeout=20
            )
    sent = server.requests[1]["messages"]
    assert [m["role"] for m in sent] == ["system", "user", "assistant", "user"]
    assert sent[1]["content"] == "from the shell" and sent[3]["content"].startswith(
        "from the editor"
    )


async def test_the_contract_editor_asks_with_the_contracts_prompt_and_schema(monkeypatch) -> None:
    from gate_tui.contracts.loading import load_contract
    from gate_tui.tui.contract.app import ContractApp
    from tests.conftest import CONFIGS

    contract = load_contract(CONFIGS / "contracts" / "llm_result_v1.yaml")
    good = (CONFIGS / "contracts" / "replies" / "llm_result_v1_good.md").read_text(encoding="utf-8")
    with ScriptedServer([Step(text=good, chunk=20, delay=0.02)]) as server:
        use(monkeypatch, server)
        app = ContractApp(contract, journal=False, blink=False)
        async with app.run_test(size=SIZE, notifications=True) as pilot:
            screen = app.contract_screen
            await pilot.press("f6")
            await wait_for(
                pilot, lambda: app.screen.query("#ask-input"), message="message box open"
            )
            await pilot.press(*"classify this", "enter")
            await wait_for(
                pilot,
                lambda: (
                    screen.workbench.asking.run is not None
                    and screen.workbench.asking.run.call is not None
                ),
                timeout=20,
            )
            assert screen.workbench.asking.run.call.status == "ok"
            await wait_for(pilot, lambda: screen.workbench.text_area.text == good)
            await pilot.press("ctrl+j")
            await wait_for(pilot, lambda: screen.editor.value is not None, message="value applied")
            assert [c.get("applied") for c in screen.editor.model_calls] == [
                True
            ]  # the change links back to its call
    sent = server.requests[0]["messages"]
    assert "The current JSON value" in sent[-1]["content"] and sent[0]["content"] != ""


async def test_hostile_reply_text_and_model_name_are_shown_as_data(monkeypatch) -> None:
    from tests.tui_helpers import DANGEROUS

    text = "\n".join(DANGEROUS) + '\n{"summary": "[/", "gates": {'
    monkeypatch.setenv("GATE_TUI_MODEL", "[/evil [@click=app.quit]x[/]")
    with ScriptedServer(
        [Step(text=text, chunk=5, delay=0.02), Step(status=500, error="[/ [b]boom")]
    ) as server:
        use(monkeypatch, server)
        app = make_app()
        async with app.run_test(size=SIZE, notifications=True) as pilot:
            await ask(pilot, app)
            await wait_for(
                pilot, lambda: app.gate_screen.workbench.asking.run.call is not None, timeout=20
            )
            assert app.gate_screen.reply_pane.text_area.text == text
            await ask(pilot, app, "again")
            await wait_for(
                pilot,
                lambda: "[/ [b]boom" in screen_text(app),
                timeout=20,
                message="the error shown literally",
            )
            assert app.is_running


async def test_a_key_with_whitespace_is_trimmed_with_one_toast_naming_no_key(monkeypatch) -> None:
    key = "sk-tui-trim-SECRET-13579"
    monkeypatch.setenv("OPENAI_API_KEY", f" {key}\r\n")
    with ScriptedServer([Step(text=reply("ml_good.md")), Step(text=reply("ml_good.md"))]) as server:
        use(monkeypatch, server)
        app = make_app()
        said: list[str] = []
        notify = app.notify
        def recording(message, *args, **kwargs):
            said.append(str(message))
            return notify(message, *args, **kwargs)

        monkeypatch.setattr(app, "notify", recording)
        async with app.run_test(size=SIZE, notifications=True) as pilot:
            await ask(pilot, app)
            await wait_for(
                pilot, lambda: app.gate_screen.workbench.asking.run.call is not None, timeout=20
            )
            await ask(pilot, app, "again")
            await wait_for(pilot, lambda: len(model_calls(app)) == 2, timeout=20, message="call 2")
            toasts = [m for m in said if "trimmed" in m]
            assert len(toasts) == 1 and "OPENAI_API_KEY" in toasts[0] and key not in toasts[0]
            assert key not in screen_text(app)
    assert server.auth[0] == f"Bearer {key}"  # the trimmed key was sent


async def test_auto_retry_says_its_round_and_when_it_gave_up(monkeypatch) -> None:
    bad = (
        '{"summary": "x", "gates": {"1_data_availability": {"raw": "r", "classified": '
        '"plenty"}}, "status": {"pass": true}}'
    )
    with ScriptedServer([Step(text=bad), Step(text=bad), Step(text=bad)]) as server:
        use(monkeypatch, server)
        app = make_app()
        async with app.run_test(size=SIZE, notifications=True) as pilot:
            await wait_for(
                pilot,
                lambda: app.gate_screen.workspace.reply() is not None,
                message="the reply pane",
            )
            bench = app.gate_screen.workbench
            await pilot.press("f8")
            await wait_for(pilot, lambda: bench.asking.auto_retry, message="auto-retry on")
            await ask(pilot, app)
            await wait_for(
                pilot,
                lambda: len(server.requests) == 3 and "gave up" in screen_text(app),
                timeout=30,
                message="gave up",
            )
            assert bench.asking.rounds == 2 and [c["call_kind"] for c in model_calls(app)] == [
                "ask",
                "retry",
                "retry",
            ]


async def test_a_dead_endpoint_says_what_to_check_and_f6_keeps_the_message(monkeypatch) -> None:
    monkeypatch.setenv(
        "OPENAI_BASE_URL", "http://127.0.0.1:9/v1"
    )  # the discard port: nothing listens
    app = make_app()
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await ask(pilot, app, "labelled tickets")
        bench = app.gate_screen.workbench
        await wait_for(
            pilot,
            lambda: bench.asking.run is not None and not bench.asking.run.running,
            timeout=30,
            message="the request failed",
        )
        await wait_for(
            pilot, lambda: "Is the model server running" in screen_text(app), message="the hint"
        )
        assert "--model" not in screen_text(app)
        await pilot.press("f6")
        await wait_for(
            pilot, lambda: app.screen.query("#ask-input"), message="the message box again"
        )
        assert app.screen.query_one("#ask-input").text == "labelled tickets"
