"""Rules of the architecture that a test can hold: the headless core never imports Textual,
and the README's example does what the README says."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HEADLESS = ["gate_tui", "gate_tui.parsing.pipeline", "gate_tui.session.history", "gate_tui.session", "gate_tui.cli.main", "gate_tui.config.loading", "gate_tui.contracts.checking"]


def test_headless_core_imports_without_textual() -> None:
    code = "import sys\n" + "".join(f"import {name}\n" for name in HEADLESS) + "print('textual' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == "False"


def test_only_the_ui_package_imports_textual() -> None:
    offenders = []
    for path in (ROOT / "gate_tui").rglob("*.py"):
        if "tui" in path.relative_to(ROOT / "gate_tui").parts[:1]:
            continue
        if re.search(r"^\s*(from|import) textual", path.read_text(encoding="utf-8"), re.MULTILINE):
            offenders.append(str(path))
    assert offenders == []


# Which layer may import which: a package of gate_tui may import only the names listed.
LOWER = {"models", "views", "limits", "decision", "exit_codes", "safe_text", "json_text", "safe_read", "atomic", "warning_codes", "__init__"}
ALLOWED = {
    "parsing": LOWER | {"parsing"},
    "config": LOWER | {"config", "parsing"},
    "session": LOWER | {"session", "parsing", "config"},
    "contracts": LOWER | {"contracts", "parsing", "config"},
    "results": LOWER | {"results", "session"},
    "cli": LOWER | {"cli", "parsing", "config", "session", "tui", "contracts", "results"},
    "tui": LOWER | {"tui", "parsing", "config", "session", "contracts", "results"},
}
_IMPORT = re.compile(r"^\s*(?:from|import)\s+gate_tui\.(\w+)", re.MULTILINE)


def test_imports_point_down_the_layers() -> None:
    wrong = []
    for package, allowed in ALLOWED.items():
        for path in (ROOT / "gate_tui" / package).rglob("*.py"):
            for target in _IMPORT.findall(path.read_text(encoding="utf-8")):
                if target not in allowed:
                    wrong.append(f"{path.relative_to(ROOT)} imports gate_tui.{target}")
    assert wrong == []


def test_the_top_level_modules_import_no_layer_package() -> None:
    wrong = []
    for path in (ROOT / "gate_tui").glob("*.py"):
        if path.name in ("__init__.py", "__main__.py"):
            continue  # the lazy public API and the entry point name the layers on purpose
        for target in _IMPORT.findall(path.read_text(encoding="utf-8")):
            if target in ALLOWED:
                wrong.append(f"{path.name} imports gate_tui.{target}")
    assert wrong == []


def test_package_init_files_import_nothing_eagerly() -> None:
    packages = sorted(
        ".".join(init.parent.relative_to(ROOT).parts) for init in (ROOT / "gate_tui").rglob("__init__.py")
    )
    code = "import sys\n" + "".join(f"import {name}\n" for name in packages) + (
        "print(sorted(m for m in sys.modules if m.startswith('gate_tui') and m not in " + repr(packages) + "))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == "[]"


def test_controller_and_render_load_no_textual_app() -> None:
    code = (
        "import sys\nimport gate_tui.tui.controller\nprint('textual' in sys.modules)\n"
        "import gate_tui.tui.render\nprint('gate_tui.tui.app' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_no_module_over_400_lines() -> None:
    long = [str(p.relative_to(ROOT)) for p in (ROOT / "gate_tui").rglob("*.py") if len(p.read_text(encoding="utf-8").splitlines()) > 400]
    assert long == []


def test_readme_python_example_runs_as_documented() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("```python\n", 1)[1].split("```", 1)[0]
    namespace: dict = {}
    lines = []
    for line in block.splitlines():
        code, _, expected = line.partition("  # ")
        lines.append((code.rstrip(), expected.strip()))
    import os

    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        for code, expected in lines:
            if not code:
                continue
            if expected.startswith(("(", "[", "True", "False")) and not code.startswith(("result =", "after =", "bad =", "edit =")):
                value = eval(code, namespace)  # noqa: S307 - our own README
                shown = expected.split(":")[0].strip() if expected.startswith("(") and ":" in expected else expected
                if shown.endswith("…]"):
                    assert repr(value).startswith(shown[:-2].rstrip(", ")), (code, value)
                else:
                    assert repr(value) == shown, (code, value, shown)
            else:
                exec(code, namespace)  # noqa: S102 - our own README
    finally:
        os.chdir(cwd)
