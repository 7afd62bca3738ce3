"""The real-model build is portable and a dead server is named at once (issue 27).

``tools/portable_llama.py`` builds llama.cpp without native tuning into a wheel folder keyed
by version and flags; the Makefile installs that wheel before the ``model-test`` extra; the
real-model fixture fails at once with the server's log when the server has died.
"""

from __future__ import annotations

import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import portable_llama  # noqa: E402

from gate_tui.llm.local import LocalServer  # noqa: E402
from tests.helpers.local_model import alive  # noqa: E402


def test_flags_are_portable_and_follow_the_cpu() -> None:
    with_avx2 = portable_llama.cmake_flags({"avx", "avx2", "fma", "f16c", "avx512f", "amx_tile"})
    assert "-DGGML_NATIVE=OFF" in with_avx2 and "-DGGML_AVX2=ON" in with_avx2
    assert not any("AVX512" in flag or "AMX" in flag for flag in with_avx2)
    without = portable_llama.cmake_flags({"avx", "f16c"})
    assert "-DGGML_AVX2=OFF" in without and "-DGGML_NATIVE=OFF" in without


def test_the_wheel_folder_is_keyed_by_version_and_flags(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GATE_TUI_WHEEL_CACHE", str(tmp_path))
    a = portable_llama.wheel_folder(["-DGGML_NATIVE=OFF", "-DGGML_AVX2=ON"])
    b = portable_llama.wheel_folder(["-DGGML_NATIVE=OFF", "-DGGML_AVX2=OFF"])
    assert a.parent == tmp_path and a != b and portable_llama.VERSION in a.name
    monkeypatch.setattr(portable_llama, "VERSION", "9.9.9")
    assert portable_llama.wheel_folder(["-DGGML_NATIVE=OFF", "-DGGML_AVX2=ON"]) != a


def test_a_half_built_folder_is_never_taken_for_a_wheel(tmp_path: Path) -> None:
    folder = tmp_path / "llama-cpp-python-0.3.36-abc"
    partial = folder.with_name(folder.name + ".partial")
    partial.mkdir()
    (partial / "llama_cpp_python-0.3.36-py3-none-linux_x86_64.whl").write_bytes(b"half")
    assert portable_llama.built_wheel(folder) is None
    folder.mkdir()
    (folder / "llama_cpp_python-0.3.36-py3-none-linux_x86_64.whl").write_bytes(b"whole")
    assert portable_llama.built_wheel(folder).name.endswith(".whl")


def test_the_install_builds_portably_before_the_extra_and_the_pins_agree() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    rule = makefile.split("$(VENV)/.installed-model-test:", 1)[1].split("\n\n", 1)[0]
    assert rule.index("tools/portable_llama.py") < rule.index('".[model-test]"')
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert re.search(
        r'"llama-cpp-python\[server\]==' + re.escape(portable_llama.VERSION) + '"', pyproject
    )
    assert "run-local: $(VENV)/.installed-model-test" in makefile


def _dead_server(tmp_path: Path) -> LocalServer:
    log = tmp_path / "server.log"
    script = (
        "import sys\nfor i in range(30): print('line', i)\nprint('general protection fault "
        "in libggml-cpu.so')\nsys.exit(139)"
    )
    with open(log, "wb") as sink:
        process = subprocess.Popen(
            [sys.executable, "-c", script], stdout=sink, stderr=subprocess.STDOUT
        )
    process.wait(30)
    return LocalServer(process, "http://127.0.0.1:9/v1", log=log)


def test_a_dead_server_is_named_with_its_last_log_lines(tmp_path: Path) -> None:
    server = _dead_server(tmp_path)
    death = server.death()
    assert death is not None and "exited with status 139" in death
    assert "general protection fault" in death and "line 29" in death and "line 0\n" not in death
    started = time.monotonic()
    with pytest.raises(pytest.fail.Exception, match="general protection fault"):
        alive(server)
    assert time.monotonic() - started < 5


def test_a_running_server_is_alive(tmp_path: Path) -> None:
    process = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        server = LocalServer(process, "http://127.0.0.1:9/v1", log=tmp_path / "none.log")
        assert server.death() is None and alive(server)
    finally:
        process.kill()
        process.wait(10)
