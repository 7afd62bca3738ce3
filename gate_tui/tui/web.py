"""The editor served to web browsers (``gate-tui serve``), built on textual-serve.

Kept in the UI package because it is the editor's other front end; the command line
(:mod:`gate_tui.cli.commands.serve`) checks the arguments and the port, then calls
:func:`serve_editor`. Each browser connection runs the editor in a process of its own
(:mod:`gate_tui.tui.web_process`).

textual-serve alone lets any web page the user visits open the websocket and drive an
editor. This server adds what Jupyter's does (rules in :mod:`gate_tui.tui.web_guard`):
the page and the websocket need the token printed at start, the websocket must come from
the page's own origin, at most ``max_sessions`` editors run at once (a further visitor is
told so on the page), malformed or oversized messages are dropped, and every editor ends
with its connection and with the server.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import logging
import re
from collections.abc import Sequence
from typing import Any

import aiohttp_jinja2
from aiohttp import WSCloseCode, WSMsgType, web
from textual_serve.server import Server

from gate_tui.tui.web_guard import clamp_size, host_allowed, origin_allowed, token_matches
from gate_tui.tui.web_process import EditorProcess

log = logging.getLogger("gate-tui.serve")
DOWNLOAD_COOKIE = "gate_tui_token"


class TokenFilter(logging.Filter):
    """Every log record as one line without the token: the message is formatted here with
    the token replaced, and the traceback (which quotes request lines) is dropped."""

    def __init__(self, token: str) -> None:
        super().__init__()
        self.token = token

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            text = record.getMessage()
        except Exception:  # noqa: BLE001 - a record that cannot be formatted is still said
            text = str(record.msg)
        if record.exc_info and record.exc_info[1] is not None:
            text += f" ({type(record.exc_info[1]).__name__})"
        record.msg, record.args = text.replace(self.token, "[token]"), None
        record.exc_info, record.exc_text, record.stack_info = None, None, None
        return True
MAX_MESSAGE = 1 << 20  # one websocket message from the page (a paste) at most 1 MiB

# The page's terminal (xterm.js) sends Shift+Enter as a plain Enter ("\r"), and a browser
# keeps Ctrl+N (a new window) for itself, so a served Raw answer had no line-break key.
# This script, added to textual-serve's page, sends Shift+Enter as the key's unambiguous
# (kitty protocol) sequence, which Textual reads as "shift+enter" — the editor's line
# break. It keeps a handle on the page's one websocket to do so.
SHIFT_ENTER_SCRIPT = """<script>
(() => {
  const Native = window.WebSocket;
  let socket = null;
  window.WebSocket = class extends Native {
    constructor(...args) { super(...args); socket = this; }
  };
  window.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" || !event.shiftKey) return;
    if (event.ctrlKey || event.altKey || event.metaKey) return;
    if (!socket || socket.readyState !== Native.OPEN) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    socket.send(JSON.stringify(["stdin", "\\u001b[13;2u"]));
  }, true);
})();
</script>
"""
# The page's terminal took keys only after a click, and until then Textual (told the app has
# no focus) drew no footer. This script focuses the terminal as soon as it exists, and again
# whenever the tab comes back, so keys work at once and the footer shows its keys.
FOCUS_SCRIPT = """<script>
(() => {
  // Focus moves are told to the app over the websocket: one made before it opened is lost,
  // so the terminal is focused (again) once the socket is open.
  const focusTerminal = () => {
    const area = document.querySelector(".xterm-helper-textarea");
    if (!area) return false;
    if (document.activeElement === area) area.blur();
    area.focus();
    return true;
  };
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener("open", () => {
        let tries = 0;
        const timer = setInterval(() => {
          if (focusTerminal() || ++tries > 300) clearInterval(timer);
        }, 100);
      });
    }
  };
  window.addEventListener("focus", () => setTimeout(focusTerminal, 0));
})();
</script>
"""
# textual-serve's page fetches its font from Google; the package ships the font itself, so
# the page asks nothing of any other site (no third party learns who runs an editor).
_REMOTE_FONT = re.compile(r"<link[^>]*fonts\.googleapis\.com[^>]*>", re.DOTALL)
LOCAL_FONT = (
    '<style>@font-face { font-family: "Roboto Mono"; '
    'src: url("/static/fonts/RobotoMono-VariableFont_wght.ttf") format("truetype"); }</style>'
)


def _page(status: int, title: str, text: str) -> web.Response:
    """A small HTML page saying why the editor is not shown (text escaped)."""
    body = (
        "<!DOCTYPE html><html><head><meta charset='utf-8'><title>gate-tui</title></head>"
        "<body style='font-family: monospace; background: #0c181f; color: #eee; padding: 2em'>"
        f"<h1>{html.escape(title)}</h1><p>{html.escape(text)}</p></body></html>"
    )
    return web.Response(status=status, text=body, content_type="text/html")


def _font_size(asked: str | None) -> int:
    try:
        return min(max(int((asked or "16")[:4]), 6), 64)
    except ValueError:
        return 16


@web.middleware
async def _assets_only(request: web.Request, handler: Any) -> web.StreamResponse:
    """``/static`` answers its files only. textual-serve serves the fonts, script, style and
    image inside its own package there (aiohttp's static route: a path is resolved within
    that folder, so ``..`` or an encoded ``%2e%2e`` never leaves it), with folder listings
    on; a listing (the only HTML under ``/static``) is a 404 here like an unknown file."""
    response = await handler(request)
    if request.path.startswith("/static") and response.content_type == "text/html":
        raise web.HTTPNotFound()
    return response


class GuardedServer(Server):
    """textual-serve's server with a token, an origin check and a session limit."""

    def __init__(
        self,
        argv: Sequence[str],
        *,
        host: str,
        port: int,
        token: str,
        max_sessions: int,
        loopback_only: bool,
    ) -> None:
        super().__init__(" ".join(argv), host=host, port=port, title="gate-tui")
        self.argv = list(argv)
        self.token = token
        self.max_sessions = max_sessions
        self.loopback_only = loopback_only
        self.editors: dict[int, tuple[EditorProcess, web.WebSocketResponse]] = {}
        self._starting = 0  # connections admitted whose editor is still starting

    def initialize_logging(self) -> None:
        # Plain log lines: textual-serve's handler prints tracebacks with local variables.
        logging.basicConfig(level=logging.WARNING, format="gate-tui serve: %(message)s")
        # aiohttp logs a bad request (a NUL byte in its request line) with a traceback
        # quoting the line, token and all: every record loses its traceback and the token.
        for handler in logging.getLogger().handlers:
            handler.addFilter(TokenFilter(self.token))

    async def on_startup(self, app: web.Application) -> None:
        """The command line has printed the URL (with the token); nothing more to say."""

    async def on_shutdown(self, app: web.Application) -> None:
        """Ctrl+C / SIGTERM: close every page and end every editor before exiting."""
        editors = list(self.editors.values())
        for _editor, websocket in editors:
            with contextlib.suppress(Exception):
                await websocket.close(code=WSCloseCode.GOING_AWAY, message=b"server stopped")
        await asyncio.gather(*(editor.stop() for editor, _ws in editors), return_exceptions=True)

    async def _make_app(self) -> web.Application:
        app = await super()._make_app()
        app.middlewares.append(_assets_only)
        app.router.add_get("/ws/{token}", self.handle_websocket, name="guarded-websocket")
        return app

    def serve(self, debug: bool = False) -> None:
        """Like textual-serve's, without the access log (its lines would carry the token)."""
        import signal

        self.debug = debug
        self.initialize_logging()
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        for signal_number in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(signal_number, self.request_exit)
        web.run_app(
            self._make_app(), host=self.host, port=self.port, handle_signals=False, loop=loop,
            print=lambda *args: None, access_log=None, shutdown_timeout=10.0,
        )

    # ------------------------------------------------------------------ the page

    def _refusal(self, request: web.Request, token: str | None) -> web.Response | None:
        if not host_allowed(request.headers.get("Host"), loopback_only=self.loopback_only):
            return _page(
                403,
                "Refused",
                "This server answers only to this machine's own address (127.0.0.1 or localhost).",
            )
        if not token_matches(token, self.token):
            return _page(
                403,
                "Token needed",
                "Open the full URL that gate-tui serve printed when it started"
                " (it ends in ?token=...).",
            )
        return None

    def _full(self) -> bool:
        return len(self.editors) + self._starting >= self.max_sessions

    def _full_text(self) -> str:
        return (
            f"{self.max_sessions} editors are open on this server already"
            " (gate-tui serve --max-sessions "
            f"{self.max_sessions}). Close one of their tabs, then reload this page."
        )

    async def handle_index(self, request: web.Request) -> web.StreamResponse:  # type: ignore[override]
        """The page, only with the token; a full server says so instead."""
        refused = self._refusal(request, request.query.get("token"))
        if refused is not None:
            return refused
        if self._full():
            return _page(503, "All editors are in use", self._full_text())
        context = {
            "font_size": _font_size(request.query.get("fontsize")),
            # The websocket is asked for on the host the page came from, so its Origin matches.
            "app_websocket_url": f"ws://{request.host}/ws/{self.token}",
            "config": {"static": {"url": "/static/"}},
            "application": {"name": self.title},
        }
        response = aiohttp_jinja2.render_template("app_index.html", request, context)
        page = _REMOTE_FONT.sub(LOCAL_FONT, response.text or "", count=1)
        response.text = page.replace("</head>", SHIFT_ENTER_SCRIPT + FOCUS_SCRIPT + "</head>", 1)
        response.headers["Referrer-Policy"] = "no-referrer"  # the URL carries the token
        response.headers["Cache-Control"] = "no-store"
        # Downloads are opened by the page's script without the token in their URL: the
        # page's cookie carries it (only to /download, never to another site).
        response.set_cookie(
            DOWNLOAD_COOKIE, self.token, path="/download", httponly=True, samesite="Strict"
        )
        return response

    async def handle_download(self, request: web.Request) -> web.StreamResponse:  # type: ignore[override]
        """A file the editor offers, only with the token (cookie or ``?token=``)."""
        given = request.query.get("token") or request.cookies.get(DOWNLOAD_COOKIE)
        refused = self._refusal(request, given)
        if refused is not None:
            return refused
        return await super().handle_download(request)

    # ------------------------------------------------------------- the websocket

    async def handle_websocket(self, request: web.Request) -> web.StreamResponse:  # type: ignore[override]
        """One editor for one websocket: refused without the token or from another origin,
        refused (503) when ``max_sessions`` editors run already."""
        refused = self._refusal(request, request.match_info.get("token"))
        if refused is not None:
            return refused
        if not origin_allowed(request.headers.get("Origin"), request.headers.get("Host")):
            return _page(403, "Refused", "The editor's websocket accepts only its own page.")
        if self._full():
            return _page(503, "All editors are in use", self._full_text())
        self._starting += 1
        websocket = web.WebSocketResponse(heartbeat=15, max_msg_size=MAX_MESSAGE)
        editor: EditorProcess | None = None
        try:
            await websocket.prepare(request)
            width, height = clamp_size(
                request.query.get("width", "80"), request.query.get("height", "24")
            )
            editor = EditorProcess(
                self.argv, write_bytes=websocket.send_bytes, write_str=websocket.send_str,
                close=websocket.close, download_manager=self.download_manager,
            )
            await editor.start(width, height)
            self.editors[id(editor)] = (editor, websocket)
            self._starting -= 1
            await self._process_messages(websocket, editor)
        except asyncio.CancelledError:
            with contextlib.suppress(Exception):
                await websocket.close()
        except Exception as error:  # a broken connection must not take the server down
            log.warning("connection ended: %s", type(error).__name__)
        finally:
            if editor is None or id(editor) not in self.editors:
                self._starting -= 1
            if editor is not None:
                self.editors.pop(id(editor), None)
                await editor.stop()
        return websocket

    async def _process_messages(self, websocket: web.WebSocketResponse, app_service: Any) -> None:  # type: ignore[override]
        """The page's messages, each checked; a malformed one is dropped, never raised on."""
        async for message in websocket:
            if message.type != WSMsgType.TEXT:
                continue
            try:
                envelope = json.loads(message.data)
            except ValueError:
                continue
            if not isinstance(envelope, list) or not envelope or not isinstance(envelope[0], str):
                continue
            kind, data = envelope[0], envelope[1] if len(envelope) > 1 else None
            if kind == "stdin" and isinstance(data, str):
                await app_service.send_bytes(data.encode("utf-8", "replace"))
            elif kind == "resize" and isinstance(data, dict):
                await app_service.set_terminal_size(
                    *clamp_size(data.get("width"), data.get("height"))
                )
            elif kind == "ping" and isinstance(data, str):
                await websocket.send_json(["pong", data[:64]])
            elif kind == "blur":
                await app_service.blur()
            elif kind == "focus":
                await app_service.focus()


def serve_editor(
    argv: Sequence[str], host: str, port: int, *, token: str, max_sessions: int, loopback_only: bool
) -> None:
    """Serve the editor ``argv`` at ``host:port`` until Ctrl+C or SIGTERM. Raises
    ImportError when textual-serve is not installed."""
    GuardedServer(
        argv,
        host=host,
        port=port,
        token=token,
        max_sessions=max_sessions,
        loopback_only=loopback_only,
    ).serve()
