"""The built wheel works as a tool (issue 27): ``python -m build`` makes it, pipx installs it
into an empty environment, and the commands a newcomer tries first work — or, for a missing
extra, say in one line which extra to add.

Slow (a wheel build and a fresh environment) and it reaches the package index for the base
dependencies, as a user's ``pipx install`` does; run in CI.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]


def run(command: list[str], env: dict[str, str], cwd: Path | None = None, timeout: float = 600,
        input_text: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command, capture_output=True, text=True, env=env, cwd=cwd, timeout=timeout, input=input_text
    )


@pytest.fixture(scope="module")
def tool(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """The wheel built from this tree, installed with pipx into a private PIPX_HOME."""
    pytest.importorskip("build", reason="the build package is not installed")
    pytest.importorskip("pipx", reason="pipx is not installed")
    work = tmp_path_factory.mktemp("wheel")
    # A copy of the tracked tree, so the build sees what a clone has (not .venv or caches).
    source = work / "src"
    files = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout
    for name in filter(None, files.decode().split("\0")):
        if (ROOT / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("VIRTUAL_ENV", "PYTHONPATH", "OPENAI_"))
    }
    env.update(
        PIPX_HOME=str(work / "pipx"),
        PIPX_BIN_DIR=str(work / "bin"),
        PIPX_MAN_DIR=str(work / "man"),
        XDG_CONFIG_HOME=str(work / "xdg"),
        XDG_DATA_HOME=str(work / "data"),
        XDG_STATE_HOME=str(work / "state"),
        HOME=os.environ.get("HOME", str(work)),
        NO_COLOR="1",
    )
    built = run(
        [sys.executable, "-m", "build", "--wheel", "--outdir", str(work / "dist"), str(source)], env
    )
    assert built.returncode == 0, built.stderr[-3000:]
    wheel = next((work / "dist").glob("gate_tui-*.whl"))
    installed = run(
        [sys.executable, "-m", "pipx", "install", "--python", sys.executable, str(wheel)], env
    )
    assert installed.returncode == 0, installed.stderr[-3000:]
    return work / "bin", env


def test_version_and_help_of_the_installed_tool(tool: tuple[Path, dict[str, str]]) -> None:
    bin_dir, env = tool
    version = run([str(bin_dir / "gate-tui"), "--version"], env)
    assert version.returncode == 0 and version.stdout.startswith("gate-tui ")
    for command in ("serve", "ask", "check"):
        helped = run([str(bin_dir / "gate-tui"), command, "--help"], env)
        assert helped.returncode == 0 and f"gate-tui {command}" in helped.stdout, helped.stderr


def bundled_config(bin_dir: Path, env: dict[str, str]) -> str:
    """The default config inside the installed package (never this tree's copy)."""
    python = next(bin_dir.parent.glob("pipx/venvs/gate-tui/bin/python"))
    config = run(
        [
            str(python),
            "-c",
            "import gate_tui, pathlib; "
            "print(pathlib.Path(gate_tui.__file__).parent / '_bundled' / 'ml_project_intake.yaml')",
        ],
        env,
        cwd=bin_dir,
    )  # not this tree's folder: its gate_tui would be imported instead
    assert "pipx/venvs" in config.stdout, config.stdout + config.stderr
    return config.stdout.strip()


def test_check_runs_on_the_bundled_config(tool: tuple[Path, dict[str, str]]) -> None:
    bin_dir, env = tool
    config = bundled_config(bin_dir, env)
    reply = (ROOT / "sample_configs" / "replies" / "ml_good.md").read_text(encoding="utf-8")
    checked = run([str(bin_dir / "gate-tui"), "check", "--config", config, "-"], env,
                  input_text=reply)
    assert checked.returncode in (0, 1), checked.stdout + checked.stderr
    assert "PASS" in checked.stdout


def test_a_missing_extra_is_one_line_naming_it(tool: tuple[Path, dict[str, str]]) -> None:
    bin_dir, env = tool
    asked = run([str(bin_dir / "gate-tui"), "ask", "--model", "m", "--base-url", "http://127.0.0.1:9/v1",
                 bundled_config(bin_dir, env), "hello"], env)
    assert asked.returncode != 0
    lines = [line for line in asked.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "gate-tui[model]" in lines[0], asked.stderr
    served = run([str(bin_dir / "gate-tui"), "serve"], env, timeout=60)
    lines = [line for line in served.stderr.splitlines() if line.strip()]
    assert served.returncode != 0 and len(lines) == 1 and "gate-tui[serve]" in lines[0], (
        served.stderr
    )


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_the_editor_opens_the_bundled_default_config(
    tool: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    bin_dir, env = tool
    socket = f"wheel{os.getpid()}"
    tmux = ["tmux", "-L", socket]
    command = f"cd {tmp_path} && {bin_dir / 'gate-tui'} --new"
    run(
        [
            *tmux,
            "new-session",
            "-d",
            "-x",
            "120",
            "-y",
            "40",
            "-e",
            f"XDG_CONFIG_HOME={env['XDG_CONFIG_HOME']}",
            "-e",
            f"XDG_DATA_HOME={env['XDG_DATA_HOME']}",
            "-e",
            f"XDG_STATE_HOME={env['XDG_STATE_HOME']}",
            command,
        ],
        env,
    )
    try:
        deadline = time.monotonic() + 60
        screen = ""
        while time.monotonic() < deadline:
            screen = run([*tmux, "capture-pane", "-p"], env, timeout=10).stdout
            if "NO PASS" in screen and "data" in screen.lower():
                break
            time.sleep(0.5)
        assert "NO PASS" in screen, screen
    finally:
        run([*tmux, "kill-server"], env, timeout=10)
