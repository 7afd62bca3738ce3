"""``gate-tui serve``: the same editor in a web browser, for demos and for colleagues
without a terminal.

textual-serve runs a small web server; each browser connection (each tab) starts its
own editor process with the command built here — ``python -m gate_tui CONFIG [--state
FILE]`` — so every tab has its own session (journal, autosave, resume, the read-only
protection of a second editor on the same ``--state`` file), exactly as in a terminal.

It binds to localhost by default. Any other address is said loudly: whoever can reach
the port can edit the state. The port is checked before the server starts, so a busy one
is a one-line error (exit 3), not a traceback.
"""

from __future__ import annotations

import argparse
import ipaddress
import shlex
import socket
import sys
from importlib.util import find_spec
from pathlib import Path

from gate_tui.cli.common import load_config, say, usage
from gate_tui.exit_codes import EXIT_USAGE

DESCRIPTION = (
    "Serve the editor to a web browser (one editor process and session per browser tab). "
    "Binds to 127.0.0.1 by default; open the printed URL. Ctrl+C stops the server."
)
LOCAL_NAMES = {"localhost", "ip6-localhost"}


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("config", nargs="?", metavar="CONFIG", help="gate config (default: the bundled ML project intake)")
    parser.add_argument("--contract", metavar="FILE", help="serve the contract editor on a JSON Schema contract instead of a gate config")
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1: this machine only)")
    parser.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000)")
    parser.add_argument("--state", metavar="FILE", help="state file every tab opens (a second tab opens it read-only)")
    from gate_tui.cli.contract_options import add_contract_options

    add_contract_options(parser)


def run(ns: argparse.Namespace) -> int:
    from gate_tui.config.loading import default_config_path

    if ns.contract:
        if ns.config or ns.state:
            return usage("serve", "--contract FILE takes no CONFIG and no --state (each tab resumes the contract's own session)")
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
    busy = port_problem(ns.host, ns.port)
    if busy is not None:
        return usage("serve", busy)
    if find_spec("textual_serve") is None:
        return usage("serve", "textual-serve is not installed (pip install 'gate-tui[serve]')")
    from gate_tui.tui.web import serve_editor
    if not is_loopback(ns.host):
        say(f"gate-tui serve: warning: listening on {ns.host}: anyone who can reach this address can open the editor and edit the state")
    command = editor_command(config_path, Path(ns.state) if ns.state else None, contract=bool(ns.contract), draft=ns.draft, schemas=ns.schemas)
    url = f"http://{ns.host}:{ns.port}"
    sys.stdout.write(f"gate-tui serve: open {url} in a browser (each tab is its own editor session); Ctrl+C stops\n")
    sys.stdout.flush()
    serve_editor(command, ns.host, ns.port, url)
    sys.stdout.write("gate-tui serve: stopped\n")
    return 0


def editor_command(config_path: Path, state_file: Path | None, *, contract: bool = False, draft: int | None = None, schemas: str | None = None) -> str:
    """The shell command each browser connection runs: this Python, this config (or contract, read as the server read it)."""
    words = [sys.executable, "-m", "gate_tui"] + (["--contract"] if contract else []) + [str(config_path.resolve())]
    if draft is not None:
        from gate_tui.contracts.drafts import DRAFT_NAMES

        words += ["--draft", DRAFT_NAMES[draft]]
    words += ["--schemas", str(Path(schemas).resolve())] if schemas is not None else []
    if state_file is not None:
        words += ["--state", str(state_file.resolve())]
    return shlex.join(words)


def is_loopback(host: str) -> bool:
    """Whether ``host`` is an address (or name) of this machine only."""
    if host.lower() in LOCAL_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


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
            return f"cannot listen on {host}:{port}: {exc.strerror or exc} (is another server using the port? try --port)"
    return None
