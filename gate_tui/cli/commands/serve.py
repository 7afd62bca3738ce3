"""``gate-tui serve``: the same editor in a web browser, for demos and for colleagues
without a terminal.

textual-serve runs a small web server; each browser connection (each tab) starts its
own editor process with the command built here — ``python -m gate_tui CONFIG --files DIR
(--new | --state FILE)`` — so every tab has its own session: a fresh one (a visitor is
never offered someone else's), or the ``--state`` file's (a second tab opens it
read-only). ``--files DIR`` keeps the tab's file commands inside one folder.

Safe on a laptop that browses the web (see :mod:`gate_tui.tui.web_guard`): a token made
at start is printed in the URL and needed for the page and its websocket, the websocket
accepts only its own page's origin, and at most ``--max-sessions`` editors run at once.
It binds to localhost by default; any other address is said loudly. The port is checked
before the server starts, so a busy one is a one-line error (exit 3), not a traceback.
"""

from __future__ import annotations

import argparse
import ipaddress
import socket
import sys
from importlib.util import find_spec
from pathlib import Path

from gate_tui.cli.common import load_config, say, usage
from gate_tui.exit_codes import EXIT_USAGE
from gate_tui.session.paths import state_dir
from gate_tui.tui.web_guard import is_loopback

DESCRIPTION = (
    "Serve the editor to a web browser (one editor process and session per browser tab). "
    "Binds to 127.0.0.1 by default; open the printed URL. Ctrl+C stops the server."
)
MAX_SESSIONS = 4


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "config",
        nargs="?",
        metavar="CONFIG",
        help="gate config (default: the bundled ML project intake)",
    )
    parser.add_argument(
        "--contract",
        metavar="FILE",
        help="serve the contract editor on a JSON Schema contract instead of a gate config",
    )
    parser.add_argument(
        "--host", default="127.0.0.1", help="address to bind (default 127.0.0.1: this machine only)"
    )
    parser.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000)")
    parser.add_argument(
        "--state",
        metavar="FILE",
        help=(
            "state file every tab opens (a second tab opens it read-only); without it each tab "
            "starts a fresh session"
        ),
    )
    parser.add_argument(
        "--max-sessions",
        type=int,
        default=MAX_SESSIONS,
        metavar="N",
        help=(
            f"editors that may run at once (default {MAX_SESSIONS}); a further visitor is told to "
            "wait"
        ),
    )
    parser.add_argument(
        "--files",
        metavar="DIR",
        help=(
            "the one folder the served editors' Save as / Open / Export may use (default: the "
            "gate-tui state folder)"
        ),
    )
    from gate_tui.cli.contract_options import add_contract_options

    add_contract_options(parser)


def run(ns: argparse.Namespace) -> int:
    from gate_tui.config.loading import default_config_path

    if ns.contract:
        if ns.config or ns.state:
            return usage(
                "serve",
                "--contract FILE takes no CONFIG and no --state (each tab starts a fresh session "
                "of the contract)",
            )
        from gate_tui.cli.contract_check import load_contract_or_report
        from gate_tui.cli.contract_options import load_options

        if load_contract_or_report(ns.contract, "gate-tui serve", load_options(ns)) is None:
            return EXIT_USAGE
        config_path = Path(ns.contract)
    else:
        config_path = Path(ns.config) if ns.config else default_config_path()
        if load_config(config_path, "gate-tui serve") is None:
            return EXIT_USAGE
    if not 0 < ns.port < 65536:
        return usage("serve", f"--port {ns.port}: not a port number (1-65535)")
    if not 1 <= ns.max_sessions <= 1000:
        return usage(
            "serve", f"--max-sessions {ns.max_sessions}: give a number of editors from 1 to 1000"
        )
    host, problem = bind_host(ns.host)
    if problem is not None:
        return usage("serve", problem)
    files, problem = files_folder(ns.files)
    if problem is not None:
        return usage("serve", problem)
    busy = port_problem(host, ns.port)
    if busy is not None:
        return usage("serve", busy)
    if find_spec("textual_serve") is None:
        return usage("serve", "textual-serve is not installed (pip install 'gate-tui[serve]')")
    from gate_tui.tui.web import serve_editor
    from gate_tui.tui.web_guard import new_token

    loopback = is_loopback(host)
    if not loopback:
        say(
            f"gate-tui serve: warning: listening on {host}: anyone who can reach this address and "
            "has the URL's token can open the editor and edit the state"
        )
    argv = editor_command(
        config_path,
        Path(ns.state) if ns.state else None,
        files,
        contract=bool(ns.contract),
        draft=ns.draft,
        schemas=ns.schemas,
    )
    token = new_token()
    sys.stdout.write(
        f"gate-tui serve: open {page_url(host, ns.port, token)} in a browser "
        f"(each tab is its own editor, at most {ns.max_sessions} at once; files stay in {files}); "
        "Ctrl+C stops\n"
    )
    sys.stdout.flush()
    serve_editor(
        argv, host, ns.port, token=token, max_sessions=ns.max_sessions, loopback_only=loopback
    )
    sys.stdout.write("gate-tui serve: stopped\n")
    return 0


def editor_command(
    config_path: Path,
    state_file: Path | None,
    files: Path,
    *,
    contract: bool = False,
    draft: int | None = None,
    schemas: str | None = None,
) -> list[str]:
    """What each browser connection runs: this Python, this config (or contract, read as the
    server read it), its files folder, and the ``--state`` file — or ``--new``, so a visitor
    never resumes (nor is asked about) someone else's session."""
    words = (
        [sys.executable, "-m", "gate_tui"]
        + (["--contract"] if contract else [])
        + [str(config_path.resolve())]
    )
    if draft is not None:
        from gate_tui.contracts.drafts import DRAFT_NAMES

        words += ["--draft", DRAFT_NAMES[draft]]
    words += ["--schemas", str(Path(schemas).resolve())] if schemas is not None else []
    words += ["--files", str(files)]
    words += ["--state", str(state_file.resolve())] if state_file is not None else ["--new"]
    return words


def page_url(host: str, port: int, token: str) -> str:
    """The URL to open: an IPv6 address in brackets, the token in the query."""
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/?token={token}"


def bind_host(host: str) -> tuple[str, str | None]:
    """The address to listen on, or why not. An IPv4-mapped IPv6 address (``::ffff:127.0.0.1``)
    is its IPv4 address (an IPv6 socket cannot listen on it); brackets are taken off."""
    bare = host.strip().removeprefix("[").removesuffix("]")
    if not bare:
        return host, "--host: give an address or a name (default 127.0.0.1)"
    try:
        address = ipaddress.ip_address(bare)
    except ValueError:
        return bare, None  # a name: port_problem resolves it
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return str(address.ipv4_mapped), None
    return str(address) if "%" not in bare else bare, None


def files_folder(given: str | None) -> tuple[Path, str | None]:
    """The served editors' one folder for file commands (made if missing), or why not."""
    folder = Path(given).expanduser() if given else state_dir() / "files"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        folder = folder.resolve()
    except (OSError, RuntimeError) as exc:
        return folder, f"--files {folder}: {getattr(exc, 'strerror', None) or exc}"
    if not folder.is_dir():
        return folder, f"--files {folder}: not a folder"
    return folder, None


def port_problem(host: str, port: int) -> str | None:
    """Why the server could not listen on ``host:port`` (busy, unknown host), or None."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError as exc:
        return f"--host {host}: {exc.strerror or exc}"
    family, kind, proto, _name, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            return (
                f"cannot listen on {host}:{port}: {exc.strerror or exc} (is another server using "
                "the port? try --port)"
            )
    return None
