"""``gate-tui serve``: the token never reaches its log (a request line with a NUL byte once
printed a traceback quoting it), and ``/download/{key}`` needs the token; ``/static`` is
the page's fonts and scripts only (no token there, nothing secret)."""

from __future__ import annotations

import socket
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from tests.helpers.browser import serving


def _raw(port: int, data: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(data)
        chunks = []
        try:
            while chunk := sock.recv(65536):
                chunks.append(chunk)
        except OSError:
            pass
        return b"".join(chunks)


def _status(url: str, headers: dict[str, str] | None = None) -> int:
    try:
        with urllib.request.urlopen(
            urllib.request.Request(url, headers=headers or {}), timeout=10
        ) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


@pytest.mark.timeout(120)
def test_a_request_line_with_a_nul_byte_never_puts_the_token_in_the_log(tmp_path: Path) -> None:
    with serving(tmp_path) as (url, _server):
        parts = urlsplit(url)
        token = parse_qs(parts.query)["token"][0]
        for line in (
            f"GET /?token={token}\0x HTTP/1.1",
            f"GET /ws/{token}\0 HTTP/1.1",
            f"G\0ET /{token} HTTP/1.1",
        ):
            _raw(parts.port, line.encode() + b"\r\nHost: 127.0.0.1\r\n\r\n")
        time.sleep(1.0)
    log = (tmp_path / "serve.log").read_text(encoding="utf-8", errors="replace")
    after_start = log.split("in a browser", 1)[-1]
    assert token not in after_start
    assert "Traceback" not in log


@pytest.mark.timeout(120)
def test_download_needs_the_token_and_static_is_public(tmp_path: Path) -> None:
    with serving(tmp_path) as (url, _server):
        parts = urlsplit(url)
        token = parse_qs(parts.query)["token"][0]
        base = f"http://127.0.0.1:{parts.port}"
        assert _status(f"{base}/download/anything") == 403
        assert _status(f"{base}/download/anything?token=wrong") == 403
        # With the token the request reaches the download manager: an unknown key is a 404.
        assert _status(f"{base}/download/anything?token={token}") == 404
        assert _status(f"{base}/download/anything", {"Cookie": f"gate_tui_token={token}"}) == 404
        assert _status(f"{base}/static/fonts/RobotoMono-VariableFont_wght.ttf") == 200


def _raw_status(port: int, path: str) -> tuple[int, bytes]:
    """A GET sent as typed (no client normalises ``..`` or ``%2e`` away first)."""
    request = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n"
    data = _raw(port, request.encode())
    return int(data.split(b" ", 2)[1]), data


@pytest.mark.timeout(120)
def test_static_serves_the_packages_assets_only_without_traversal_or_listing(
    tmp_path: Path,
) -> None:
    (tmp_path / "secret.txt").write_text("user data", encoding="utf-8")
    with serving(tmp_path) as (url, _server):
        port = urlsplit(url).port
        assert port is not None
        escapes = [
            "/static/../",
            "/static/../../../../etc/passwd",
            "/static/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
            "/static/..%2f..%2fserver.py",
            "/static/js/../../server.py",
            "/static/css/../../templates/app_index.html",
            "/static//etc/passwd",
            "/static/%2fetc%2fpasswd",
            f"/static/{'../' * 12}{str(tmp_path / 'secret.txt').lstrip('/')}",
            "/static/no-such-file.js",
            "/static/",  # a folder listing, once
            "/static/js",
        ]
        for path in escapes:
            status, body = _raw_status(port, path)
            assert status == 404, path  # not 403: no token is asked for, nothing is there
            assert b"root:" not in body and b"user data" not in body and b"import " not in body
        # The page's own assets are public and need no token.
        status, body = _raw_status(port, "/static/js/textual.js")
        assert status == 200 and len(body) > 10_000
        # A download still needs the token.
        assert _status(f"http://127.0.0.1:{port}/download/anything") == 403
