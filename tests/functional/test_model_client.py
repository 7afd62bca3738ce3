"""The model client against a real HTTP server on loopback (the scripted OpenAI-compatible
server): every fault is one clear line naming the endpoint, the key never shows, the
partial text of a broken stream is kept, structured outputs fall back once per endpoint."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

pytest.importorskip("openai")

from gate_tui.llm import structured  # noqa: E402
from gate_tui.llm.client import LiveReply, stream_chat  # noqa: E402
from gate_tui.llm.endpoint import endpoint_host, endpoint_label, insecure_warning  # noqa: E402
from gate_tui.llm.settings import ModelSettings, load_settings  # noqa: E402
from tests.helpers.scripted_openai import ScriptedServer, Step  # noqa: E402

KEY = "sk-test-SECRET-0123456789"
MESSAGES = [{"role": "user", "content": "hello"}]


@pytest.fixture(autouse=True)
def _fresh_memory() -> None:
    structured.forget_all()


def ask(steps: list[Step], schema: dict | None = None, **settings: object):
    with ScriptedServer(steps) as server:
        env_settings = ModelSettings(
            base_url=server.base_url, model="m", timeout_s=2, api_key_env="TEST_KEY", **settings
        )
        live = LiveReply()
        import os

        os.environ["TEST_KEY"] = KEY
        try:
            outcome = asyncio.run(stream_chat(env_settings, MESSAGES, schema, live))
        finally:
            del os.environ["TEST_KEY"]
        return outcome, server, live


def test_a_streamed_reply_arrives_whole_with_finish_reason_usage_and_timings() -> None:
    outcome, server, live = ask([Step(text="Hello there, world", chunk=3)])
    assert outcome.text == "Hello there, world" and outcome.finish_reason == "stop"
    assert outcome.chunks == 6 and live.chunks == 6
    assert outcome.usage == {"prompt_tokens": 100, "completion_tokens": 6, "total_tokens": 106}
    assert outcome.ttft_s is not None and outcome.total_s >= outcome.ttft_s
    assert outcome.failure is None and not outcome.incomplete
    assert server.auth == [f"Bearer {KEY}"]  # the key is sent where it belongs, and only there
    assert server.requests[0]["stream"] is True and "response_format" not in server.requests[0]


@pytest.mark.parametrize(
    ("step", "kind", "words"),
    [
        (
            Step(status=401, error=f"bad key {KEY}"),
            "auth",
            "refused the API key (HTTP 401): set TEST_KEY",
        ),
        (Step(status=404, error="model m not found"), "not_found", "answered 404 for model 'm'"),
        (Step(garbage=True), "garbage", "not a chat-completions stream"),
        (Step(text="x" * 40, delay=3.0, chunk=10), "timeout", "within 2 s"),
        (
            Step(status=400, error="bad things"),
            "bad_request",
            "refused the request (HTTP 400): bad things",
        ),
        # a proxy's HTML error page: still one line, and an empty body leaves no empty "()"
        (
            Step(status=404, error="<html>\n<body>\n  not here\n</body>"),
            "not_found",
            "lacks /v1 (<html> <body> not here </body>)",
        ),
        (Step(status=404, error=""), "not_found", "the base URL lacks /v1"),
        (Step(status=500, error="boom\r\ntrace"), "server", "(HTTP 500): boom trace"),
    ],
)
def test_faults_are_one_line_naming_the_endpoint_never_the_key(
    step: Step, kind: str, words: str
) -> None:
    outcome, server, _ = ask([step])
    assert outcome.failure is not None and outcome.failure.kind == kind
    message = outcome.error or ""
    assert words in message and endpoint_label(server.base_url) in message
    assert (
        "\n" not in message
        and "\r" not in message
        and KEY not in message
        and "Traceback" not in message
    )
    assert not message.endswith("()") and not message.endswith(": ")


def test_unreachable_endpoint_is_a_message() -> None:
    settings = ModelSettings(
        base_url="http://127.0.0.1:9/v1", model="m", timeout_s=2, connect_timeout_s=2
    )
    outcome = asyncio.run(stream_chat(settings, MESSAGES))
    assert outcome.failure is not None and outcome.failure.kind == "connect"
    assert outcome.error.startswith("cannot reach http://127.0.0.1:9/v1")


def test_429_waits_for_retry_after_then_succeeds() -> None:
    outcome, server, _ = ask([Step(status=429, headers={"Retry-After": "0.1"}), Step(text="done")])
    assert outcome.text == "done" and outcome.failure is None and len(server.requests) == 2
    assert any("asked to wait 0.1 s (HTTP 429)" in n for n in outcome.notices)


def test_429_forever_is_bounded() -> None:
    outcome, server, _ = ask([Step(status=429, headers={"Retry-After": "0"})])
    assert outcome.failure is not None and outcome.failure.kind == "rate_limit"
    assert len(server.requests) == 3


def test_a_long_retry_after_is_reported_not_slept_through() -> None:
    outcome, server, _ = ask([Step(status=429, headers={"Retry-After": "3600"})])
    assert outcome.failure.kind == "rate_limit" and len(server.requests) == 1


def test_500_is_retried_once() -> None:
    outcome, server, _ = ask([Step(status=500), Step(text="recovered")])
    assert outcome.text == "recovered" and len(server.requests) == 2
    outcome, server, _ = ask([Step(status=503)])
    assert (
        outcome.failure.kind == "server"
        and "HTTP 503" in outcome.error
        and len(server.requests) == 2
    )


def test_a_stream_stopping_mid_reply_keeps_the_partial_text() -> None:
    outcome, _, live = ask([Step(text='{"summary": "abc", "gates": {', chunk=5, drop_after=3)])
    assert outcome.text == '{"summary": "ab' and live.text == outcome.text
    assert (
        outcome.incomplete and outcome.failure.kind == "dropped" and outcome.finish_reason is None
    )


def test_finish_reason_length_is_passed_on() -> None:
    outcome, _, _ = ask([Step(text='{"summary": "a', finish_reason="length")])
    assert outcome.finish_reason == "length" and outcome.failure is None


def test_structured_outputs_fall_back_once_and_are_remembered_per_endpoint() -> None:
    schema = {
        "type": "object",
        "properties": {"c": {"type": ["string", "null"], "enum": ["a", None]}},
    }
    with ScriptedServer([Step(text="{}", reject_response_format="json_schema")]) as server:
        settings = ModelSettings(base_url=server.base_url, model="m", structured=True, timeout_s=5)
        first = asyncio.run(stream_chat(settings, MESSAGES, schema))
        second = asyncio.run(stream_chat(settings, MESSAGES, schema))
    forms = [request["response_format"]["type"] for request in server.requests]
    assert forms == ["json_schema", "json_object", "json_object"]
    assert first.form == second.form == "json_object_schema"
    assert (
        len(first.notices) == 1 and "does not take response_format json_schema" in first.notices[0]
    )
    assert second.notices == []
    sent = server.requests[1]["response_format"]["schema"]
    assert sent["properties"]["c"] == {
        "enum": ["a", None]
    }  # enum alone: grammar engines enforce it


def test_structured_outputs_end_without_response_format_when_none_is_taken() -> None:
    outcome, server, _ = ask(
        [Step(text="{}", reject_response_format="any")], schema={"type": "object"}, structured=True
    )
    assert [("response_format" in r) for r in server.requests] == [True, True, False]
    assert outcome.form == "none" and outcome.text == "{}"


def test_settings_precedence_flags_over_env_over_file(tmp_path) -> None:
    file = tmp_path / "settings.toml"
    file.write_text(
        '[model]\nbase_url = "http://file/v1"\nmodel = "file-model"\ntemperature = 0.5\n'
        "structured = true\ntimeout_s = 9\n"
    )
    env = {"GATE_TUI_MODEL": "env-model", "OPENAI_BASE_URL": "http://env/v1"}
    loaded = load_settings({"model": "flag-model", "base_url": None}, env, file)
    s = loaded.settings
    assert (s.model, s.base_url, s.temperature, s.structured, s.timeout_s) == (
        "flag-model",
        "http://env/v1",
        0.5,
        True,
        9.0,
    )
    assert (
        s.sources["model"] == "flag"
        and s.sources["base_url"] == "env OPENAI_BASE_URL"
        and s.sources["temperature"] == str(file)
    )
    assert loaded.problems == []


def test_a_broken_settings_file_is_problems_not_an_exception(tmp_path) -> None:
    file = tmp_path / "settings.toml"
    file.write_text('[model]\napi_key = "sk-x"\ntimeout_s = -1\nbogus = 1\n')
    loaded = load_settings({}, {}, file)
    assert len(loaded.problems) == 3
    assert "api_key is ignored" in loaded.problems[0] and "sk-x" not in " ".join(loaded.problems)
    file.write_text("[model\n")
    assert "not valid TOML" in load_settings({}, {}, file).problems[0]
    assert load_settings({}, {}, tmp_path / "missing.toml").problems == []


def test_the_key_is_no_field_of_the_settings() -> None:
    settings = ModelSettings(model="m", api_key_env="K")
    assert "secret" not in repr(settings) and settings.api_key({"K": "secret"}) == "secret"


def test_endpoint_names_drop_secrets_and_plain_http_to_another_host_warns() -> None:
    url = "https://user:pw@example.com:8443/v1/?key=abc"
    assert (
        endpoint_label(url) == "https://example.com:8443/v1"
        and endpoint_host(url) == "example.com:8443"
    )
    assert insecure_warning("http://10.0.0.5:8000/v1") is not None
    assert (
        insecure_warning("http://127.0.0.1:8080/v1") is None
        and insecure_warning("http://localhost:1/v1") is None
    )
    assert insecure_warning("https://api.example.com/v1") is None


def test_structured_outputs_can_be_turned_on_from_the_environment(tmp_path) -> None:
    """The editor has no --structured flag: GATE_TUI_STRUCTURED is how `make run-local` sets it."""
    missing = tmp_path / "missing.toml"
    assert load_settings({}, {"GATE_TUI_STRUCTURED": "1"}, missing).settings.structured is True
    file = tmp_path / "settings.toml"
    file.write_text("[model]\nstructured = true\n")
    off = load_settings({}, {"GATE_TUI_STRUCTURED": "0"}, file)
    assert (
        off.settings.structured is False
        and off.settings.sources["structured"] == "env GATE_TUI_STRUCTURED"
    )
    odd = load_settings({}, {"GATE_TUI_STRUCTURED": "sometimes"}, missing)
    assert odd.settings.structured is False and "GATE_TUI_STRUCTURED" in odd.problems[0]


def test_the_bundled_local_model_is_asked_with_structured_outputs() -> None:
    """Unconstrained, the 270M base model writes prose: `make run-local` must send the schema."""
    from gate_tui.llm.local import local_env

    env = local_env("http://127.0.0.1:5/v1", {"PATH": "/bin"})
    assert (
        env["OPENAI_BASE_URL"],
        env["GATE_TUI_MODEL"],
        env["GATE_TUI_STRUCTURED"],
        env["PATH"],
    ) == ("http://127.0.0.1:5/v1", "gemma3-270m", "1", "/bin")
    assert (
        local_env("http://x/v1", {"GATE_TUI_STRUCTURED": "0"})["GATE_TUI_STRUCTURED"] == "0"
    )  # the user's choice stands
    assert load_settings({}, env, Path("/nonexistent/settings.toml")).settings.structured is True
