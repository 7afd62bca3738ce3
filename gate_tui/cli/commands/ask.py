"""``gate-tui ask``: one round trip to a model (plus bounded retries) on a saved session.

The reply streams to stderr when stderr is a terminal, goes through the same parser as
any pasted reply (``actor="assistant"``: the model's claimed ``pass`` is overruled), is
applied when valid, and is journaled exactly as the editor's F6 does it, so
``gate-tui ask`` three times and then ``gate-tui CONFIG --state FILE`` opens the same
conversation. The result prints like ``check``'s and the exit status is ``check``'s:
0 PASS, 1 NO PASS, 2 the reply is not valid, 3 usage, config or endpoint error
(unreachable, 401, 404 model, timeout: one line naming the endpoint).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from gate_tui.cli.common import isatty, load_config, say, usage
from gate_tui.exit_codes import EXIT_USAGE

DESCRIPTION = (
    "Ask a model (any OpenAI-compatible endpoint) about a session's gates: the message, the "
    "conversation so far and the current state are sent; the reply is parsed, applied when valid "
    "and journaled. Exit status as check: 0 PASS, 1 NO PASS, 2 reply not valid, 3 "
    "usage/config/endpoint error."
)
EPILOG = (
    "The endpoint: --base-url / --model, else OPENAI_BASE_URL / GATE_TUI_MODEL, else [model] in "
    "settings.toml (platform config folder). The key is read from OPENAI_API_KEY (or the variable "
    "[model] api_key_env names) and is never written anywhere."
)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("config", metavar="CONFIG", help="gate config file")
    parser.add_argument(
        "message", metavar="MESSAGE", help="your answer or question, in your own words"
    )
    parser.add_argument(
        "--state",
        metavar="FILE",
        help="the session's state file (created if missing); default: the newest session of CONFIG",
    )
    parser.add_argument(
        "--model", metavar="M", help="model name (over GATE_TUI_MODEL and settings)"
    )
    parser.add_argument(
        "--base-url",
        metavar="URL",
        help="endpoint, e.g. http://127.0.0.1:8080/v1 (over OPENAI_BASE_URL and settings)",
    )
    parser.add_argument(
        "--structured",
        action="store_true",
        default=None,
        help="send the state's JSON Schema as response_format",
    )
    parser.add_argument(
        "--retries",
        type=_retries,
        default=0,
        metavar="N",
        help="ask again with the errors at most N times (0-5; default 0)",
    )
    parser.add_argument(
        "--format",
        choices=("text", "json"),
        default="text",
        help="text (default): a summary; json: the ParseResult",
    )


def _retries(text: str) -> int:
    from gate_tui.llm.settings import MAX_RETRIES

    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if not 0 <= value <= MAX_RETRIES:
        raise argparse.ArgumentTypeError(f"must be 0..{MAX_RETRIES}")
    return value


def run(ns: argparse.Namespace) -> int:
    try:
        import openai  # noqa: F401 - only to say clearly when the extra is missing
    except ImportError:
        return usage("ask", 'the model extra is not installed: pip install "gate-tui[model]"')
    from gate_tui.llm.endpoint import insecure_warning, url_problem
    from gate_tui.llm.settings import load_settings

    loaded = load_settings(
        {"model": ns.model, "base_url": ns.base_url, "structured": ns.structured}
    )
    for problem in loaded.problems:
        say(f"gate-tui ask: {problem}")
    settings = loaded.settings
    key_warning = settings.key_warning()
    if key_warning is not None:
        say(f"gate-tui ask: {key_warning}")
    from gate_tui.llm.transport import proxy_in_use

    proxy = proxy_in_use(settings.base_url)
    if proxy is not None:
        say(f"gate-tui ask: through the proxy {proxy} (from the environment)")
    problem = settings.missing() or url_problem(settings.base_url)
    if problem is not None:
        return usage("ask", problem)
    if not ns.message.strip():
        return usage("ask", "MESSAGE is empty")
    from gate_tui.llm.failures import local_text_problem

    local = local_text_problem([{"role": "user", "content": ns.message}])
    if local is not None:  # the user's own shell, not the endpoint: said before anything is sent
        return usage("ask", local)
    warning = insecure_warning(settings.base_url)
    if warning:
        say(f"gate-tui ask: {warning}")
    config = load_config(Path(ns.config), "gate-tui ask")
    if config is None:
        return EXIT_USAGE
    return _ask(ns, config, settings)


def _ask(ns: argparse.Namespace, config: object, settings: object) -> int:
    from gate_tui.cli.check import exit_status, render_json, render_text
    from gate_tui.llm.asking import Asker
    from gate_tui.llm.client import LiveReply
    from gate_tui.llm.gate_target import GateTarget
    from gate_tui.safe_text import visible
    from gate_tui.session.opening import open_session

    session = open_session(config, Path(ns.config), state_file=Path(ns.state) if ns.state else None)  # type: ignore[arg-type]
    with session:
        for notice in session.take_notices():
            say(f"gate-tui ask: {notice}")
        if session.read_only or not session.persistent:
            say(
                f"gate-tui ask: session {session.name} is not being saved; the reply is parsed but "
                "nothing is kept"
            )
        asker = Asker(GateTarget(session), settings)  # type: ignore[arg-type]
        echo = isatty(sys.stderr)

        def live() -> LiveReply:
            return LiveReply(on_piece=_echo if echo else None)

        calls = asyncio.run(asker.ask_with_retries(ns.message, ns.retries, live))
        for call in calls:
            for notice in call.notices:
                say(f"gate-tui ask: {notice}")
        last = calls[-1]
        if echo:
            sys.stderr.write("\n")
        if last.result is None:
            say(f"gate-tui ask: {last.outcome.error or 'no reply'}")
            return EXIT_USAGE
        if last.outcome.error:
            say(f"gate-tui ask: {last.outcome.error} (the partial reply was checked as cut off)")
        if last.result.ok and not asker.apply(last):
            say("gate-tui ask: the reply was not applied")
        elif not last.result.ok:
            asker.reject(last)
        name = f"{settings.model} reply"  # type: ignore[attr-defined]
        sys.stdout.write(
            render_json(last.result)
            if ns.format == "json"
            else render_text(visible(name), last.result, color=isatty(sys.stdout))
        )
        return exit_status(last.result)



def _echo(piece: str) -> None:
    """Show streamed text on stderr as it arrives, control characters made visible."""
    from gate_tui.safe_text import visible

    sys.stderr.write(visible(piece))
    sys.stderr.flush()
