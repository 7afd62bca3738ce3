"""Rules of the architecture that a test can hold: the headless core never imports Textual,
and the README's example does what the README says."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HEADLESS = ["gate_tui", "gate_tui.parsing.pipeline", "gate_tui.session.history", "gate_tui.session", "gate_tui.cli.main", "gate_tui.config.loading"]


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
