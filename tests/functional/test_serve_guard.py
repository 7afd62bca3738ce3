"""``gate-tui serve`` cannot be driven by another web page (issue 17, item 1): the token,
the origin check, the session limit, clamped sizes and editors that end with their
connection — against a real server on loopback, with a real websocket client (aiohttp,
which textual-serve is built on)."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import aiohttp
import pytest

from gate_tui.cli.commands.serve import bind_host, editor_command, page_url
from gate_tui.tui.web_guard import (
    clamp_size,
    host_allowed,
    is_loopback,
    origin_allowed,
    token_matches,
)
from tests.helpers.browser import ROOT, free_port, printed_url, serving, wait_until


def test_the_token_is_compared_whole() -> None:
    assert token_matches("abc", "abc")
    assert (
        not token_matches("abd", "abc")
        and not token_matches("ab", "abc")
        and not token_matches("", "abc")
    )
    assert not token_matches(None, "abc") and not token_matches("abc\udcff", "abc")


def test_only_the_pages_own_origin_is_allowed() -> None:
    assert origin_allowed("http://127.0.0.1:8000", "127.0.0.1:8000")
    assert origin_allowed("http://[::1]:8000", "[::1]:8000")
    assert origin_allowed("http://localhost", "localhost:80")
    for foreign in (
        "http://evil.example",
        "http://evil.example:8000",
        "null",
        "",
        None,
        "http://127.0.0.1:8001",
        "file://",
        "ws://127.0.0.1:8000",
    ):
        assert not origin_allowed(foreign, "127.0.0.1:8000"), foreign


def test_a_loopback_server_answers_to_loopback_names_only() -> None:
    for host in ("127.0.0.1:8000", "localhost:8000", "[::1]:8000", "127.0.0.2"):
        assert host_allowed(host, loopback_only=True), host
    for host in (
        "evil.example:8000",
        "192.0.2.1:8000",
        "",
        None,
        '127.0.0.1:8000"><script>',
        "a b",
    ):
        assert not host_allowed(host, loopback_only=True), host
    assert host_allowed("192.0.2.1:8000", loopback_only=False)
    assert is_loopback("::ffff:127.0.0.1") and is_loopback("[::1]") and not is_loopback("0.0.0.0")


def test_terminal_sizes_are_clamped_to_a_screen() -> None:
    assert clamp_size(20000, 20000) == (500, 200)
    assert clamp_size(-5, 0) == (1, 1)
    assert clamp_size("120", "40") == (120, 40)
    assert clamp_size("x", None) == (80, 24) and clamp_size(True, float("nan")) == (80, 24)
    assert clamp_size(1e308, "9" * 400) == (500, 200)


def test_ipv6_hosts_get_brackets_and_mapped_addresses_their_ipv4() -> None:
    assert page_url("::1", 8000, "T") == "http://[::1]:8000/?token=T"
    assert page_url("127.0.0.1", 80, "T") == "http://127.0.0.1:80/?token=T"
    assert bind_host("::ffff:127.0.0.1") == ("127.0.0.1", None)
    assert bind_host("[::1]") == ("::1", None)
    assert bind_host(" ")[1] is not None


def test_each_tab_starts_fresh_unless_a_state_file_is_named(tmp_path: Path) -> None:
    fresh = editor_command(Path("c.yaml"), None, tmp_path)
    assert (
        "--new" in fresh
        and "--state" not in fresh
        and fresh[fresh.index("--files") + 1] == str(tmp_path)
    )
    named = editor_command(Path("c.yaml"), tmp_path / "s.json", tmp_path)
    assert "--new" not in named and named[named.index("--state") + 1] == str(
        (tmp_path / "s.json").resolve()
    )


# ------------------------------------------------------------------ a live server


def _parts(url: str) -> tuple[str, str]:
    split = urlsplit(url)
    return f"{split.scheme}://{split.netloc}", parse_qs(split.query)["token"][0]


def _children(pid: int) -> set[int]:
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found.update(int(child) for child in (task / "children").read_text().split())
        except OSError:
            continue
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


@asynccontextmanager
async def _client() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=60)) as session:
        yield session


async def _connect(
    session: aiohttp.ClientSession, base: str, token: str, origin: str | None
) -> aiohttp.ClientWebSocketResponse:
    headers = {"Origin": origin} if origin else {}
    return await session.ws_connect(
        f"{base.replace('http', 'ws', 1)}/ws/{token}?width=100&height=30", headers=headers
    )


async def _refused(session: aiohttp.ClientSession, url: str, headers: dict[str, str]) -> int:
    """The status of a refused websocket upgrade (fails the test when it was accepted)."""
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        await session.ws_connect(url, headers=headers)
    return refused.value.status


async def _first_frame(ws: aiohttp.ClientWebSocketResponse) -> bytes:
    while True:
        message = await asyncio.wait_for(ws.receive(), 60)
        if message.type == aiohttp.WSMsgType.BINARY and len(message.data) > 10:
            return message.data
        assert message.type not in (
            aiohttp.WSMsgType.CLOSE,
            aiohttp.WSMsgType.CLOSED,
            aiohttp.WSMsgType.ERROR,
        ), message


async def _screen_until(
    ws: aiohttp.ClientWebSocketResponse, text: bytes, limit: float = 60.0
) -> bool:
    seen = b""
    deadline = asyncio.get_running_loop().time() + limit
    while text not in seen and asyncio.get_running_loop().time() < deadline:
        message = await asyncio.wait_for(ws.receive(), limit)
        if message.type != aiohttp.WSMsgType.BINARY:
            return False
        seen += message.data
    return text in seen


async def _drain_until_quiet(
    ws: aiohttp.ClientWebSocketResponse, quiet: float = 2.0, limit: float = 60.0
) -> int:
    """Read frames until none came for ``quiet`` seconds (the editor has drawn); their size."""
    seen = 0
    deadline = asyncio.get_running_loop().time() + limit
    while asyncio.get_running_loop().time() < deadline:
        try:
            message = await asyncio.wait_for(ws.receive(), quiet)
        except TimeoutError:
            return seen
        if message.type == aiohttp.WSMsgType.BINARY:
            seen += len(message.data)
    return seen


async def test_the_page_and_the_websocket_need_the_token_and_the_pages_origin(
    tmp_path: Path,
) -> None:
    with serving(tmp_path) as (url, _server):
        base, token = _parts(url)
        async with _client() as session:
            for page in (f"{base}/", f"{base}/?token=", f"{base}/?token={token[:-1]}x"):
                async with session.get(page) as answer:
                    assert answer.status == 403 and "full URL" in await answer.text()
            async with session.get(url) as answer:
                page = await answer.text()
                assert answer.status == 200 and f"/ws/{token}" in page
                assert (
                    "googleapis" not in page and "RobotoMono" in page
                )  # nothing asked of another site
                assert answer.headers["Referrer-Policy"] == "no-referrer"
            async with session.get(
                url, headers={"Host": f"rebound.example:{urlsplit(base).port}"}
            ) as answer:
                assert answer.status == 403  # DNS rebinding: a foreign name for 127.0.0.1
            ws_base = base.replace("http", "ws", 1)
            assert await _refused(session, f"{ws_base}/ws", {"Origin": base}) == 403
            assert await _refused(session, f"{ws_base}/ws/wrong-token", {"Origin": base}) == 403
            assert (
                await _refused(session, f"{ws_base}/ws/{token}", {"Origin": "https://evil.example"})
                == 403
            )
            assert await _refused(session, f"{ws_base}/ws/{token}", {}) == 403
            ws = await _connect(session, base, token, base)
            assert await _screen_until(ws, b"NO PASS")  # the real editor, drawn on the page
            await ws.close()


async def test_a_huge_resize_leaves_the_editor_bounded(tmp_path: Path) -> None:
    with serving(tmp_path) as (url, server):
        base, token = _parts(url)
        async with _client() as session:
            ws = await _connect(session, base, token, base)
            await _first_frame(ws)
            assert wait_until(lambda: len(_children(server.pid)) == 1, timeout=30)
            (editor,) = _children(server.pid)
            await ws.send_str(json.dumps(["resize", {"width": 20000, "height": 20000}]))
            await ws.send_str("not json")  # dropped, the connection stays
            await ws.send_str(json.dumps(["resize", {"width": "x"}]))
            drawn = await _drain_until_quiet(ws)
            assert drawn > 0  # it redrew at the clamped size (500x200)
            assert _rss_mb(editor) < 400, _rss_mb(editor)
            assert not ws.closed
            await ws.close()
            # The editor ends with its connection.
            assert wait_until(lambda: not _alive(editor), timeout=60)


async def test_the_sixth_editor_is_refused_with_max_sessions_5_and_sigterm_ends_them_all(
    tmp_path: Path,
) -> None:
    with serving(tmp_path, "--max-sessions", "5") as (url, server):
        base, token = _parts(url)
        async with _client() as session:
            sockets = [await _connect(session, base, token, base) for _ in range(5)]
            assert (
                await _refused(
                    session, f"{base.replace('http', 'ws', 1)}/ws/{token}", {"Origin": base}
                )
                == 503
            )
            async with session.get(url) as answer:
                text = await answer.text()
                assert (
                    answer.status == 503
                    and "5 editors are open" in text
                    and "--max-sessions 5" in text
                )
            assert wait_until(lambda: len(_children(server.pid)) == 5, timeout=60)
            editors = _children(server.pid)
            await sockets.pop().close()
            assert wait_until(lambda: len(_children(server.pid)) == 4, timeout=60)

            async def page_status() -> int:
                async with session.get(url) as answer:
                    return answer.status

            assert await page_status() == 200  # a place is free again
            server.send_signal(signal.SIGTERM)
            assert await asyncio.to_thread(server.wait, 60) == 0
            assert wait_until(lambda: not any(_alive(pid) for pid in editors), timeout=30)
            for ws in sockets:
                await ws.close()


@pytest.mark.skipif(not os.path.exists("/proc/net/if_inet6"), reason="no IPv6 on this machine")
def test_serve_on_ipv6_loopback_prints_a_bracketed_url_that_works(tmp_path: Path) -> None:
    port = free_port()
    log = tmp_path / "serve.log"
    env = {**os.environ, "GATE_TUI_STATE_DIR": str(tmp_path)}
    with log.open("w") as out:
        server = subprocess.Popen(
            [sys.executable, "-m", "gate_tui", "serve", "--host", "::1", "--port", str(port)],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        assert wait_until(
            lambda: printed_url(log) is not None or server.poll() is not None, timeout=60
        )
        url = printed_url(log)
        assert url is not None and url.startswith(f"http://[::1]:{port}/?token="), log.read_text()

        async def fetch() -> tuple[int, str]:
            async with _client() as session:
                for _ in range(150):
                    try:
                        async with session.get(url) as answer:
                            return answer.status, await answer.text()
                    except aiohttp.ClientConnectionError:
                        await asyncio.sleep(0.2)
            return 0, ""

        status, page = asyncio.run(fetch())
        assert status == 200 and f'ws://[::1]:{port}/ws/' in page
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_an_ipv4_mapped_host_serves_on_its_ipv4_address(tmp_path: Path) -> None:
    with serving(tmp_path, "--host", "::ffff:127.0.0.1") as (url, _server):
        assert url.startswith("http://127.0.0.1:")
    assert "internal error" not in (tmp_path / "serve.log").read_text()


def test_a_served_editor_names_the_line_break_key_a_browser_lets_through() -> None:
    from gate_tui.tui.keymap import KeyHints

    assert KeyHints()["raw_newline"] == "Ctrl+N"  # a terminal: Ctrl+N, as before
    assert KeyHints(web=True)["raw_newline"] == "Shift+Enter"
    assert KeyHints(web=True)["apply_reply"] == "Ctrl+J"
    assert (
        KeyHints({"raw_newline": "ctrl+n"}, web=True)["raw_newline"] == "Ctrl+N"
    )  # the only key the keymap gives


async def test_an_editor_that_does_not_answer_is_ended_with_its_connection(tmp_path: Path) -> None:
    """A stopped (or stuck) editor ignores "quit" and SIGTERM: the server still ends it
    (quit, SIGTERM after a grace period, then SIGKILL) once its page has gone."""
    with serving(tmp_path) as (url, server):
        base, token = _parts(url)
        async with _client() as session:
            ws = await _connect(session, base, token, base)
            await _first_frame(ws)
            assert wait_until(lambda: len(_children(server.pid)) == 1, timeout=30)
            (editor,) = _children(server.pid)
            os.kill(editor, signal.SIGSTOP)
            await ws.close()
            assert await asyncio.to_thread(wait_until, lambda: not _alive(editor), 60)
            assert server.poll() is None  # the server goes on
