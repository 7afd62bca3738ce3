"""Rules of the architecture that a test can hold: the headless core never imports Textual,
and the README's example does what the README says."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HEADLESS = [
    "gate_tui",
    "gate_tui.parsing.pipeline",
    "gate_tui.session.history",
    "gate_tui.session",
    "gate_tui.cli.main",
    "gate_tui.config.loading",
    "gate_tui.contracts.checking",
    "gate_tui.llm.asking",
    "gate_tui.llm.client",
    "gate_tui.cli.commands.ask",
]


def test_headless_core_imports_without_textual() -> None:
    code = (
        "import sys\n"
        + "".join(f"import {name}\n" for name in HEADLESS)
        + "print('textual' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
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
LOWER = {
    "version",
    "models",
    "views",
    "limits",
    "decision",
    "decision_rules",
    "exit_codes",
    "safe_text",
    "json_text",
    "safe_read",
    "atomic",
    "warning_codes",
    "__init__",
}
ALLOWED = {
    "parsing": LOWER | {"parsing"},
    "grounding": LOWER | {"grounding"},
    "config": LOWER | {"config", "parsing"},
    "session": LOWER | {"session", "parsing", "config"},
    "contracts": LOWER | {"contracts", "parsing", "config"},
    "llm": LOWER | {"llm", "grounding", "parsing", "config", "session", "contracts"},
    "results": LOWER | {"results", "session"},
    "runs": LOWER | {"runs", "grounding", "parsing", "config", "session", "contracts", "results"},
    "editing": LOWER | {"editing", "parsing", "config", "session", "contracts"},
    "cli": LOWER
    | {
        "cli",
        "grounding",
        "parsing",
        "config",
        "session",
        "tui",
        "contracts",
        "llm",
        "results",
        "runs",
        "editing",
    },
    "tui": LOWER
    | {
        "tui",
        "grounding",
        "parsing",
        "config",
        "session",
        "contracts",
        "llm",
        "results",
        "runs",
        "editing",
    },
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
        ".".join(init.parent.relative_to(ROOT).parts)
        for init in (ROOT / "gate_tui").rglob("__init__.py")
    )
    code = (
        "import sys\n"
        + "".join(f"import {name}\n" for name in packages)
        + (
            "print(sorted(m for m in sys.modules if m.startswith('gate_tui') and m not in "
            + repr(packages)
            + "))"
        )
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert out.stdout.strip() == "[]"


def test_controller_and_render_load_no_textual_app() -> None:
    code = (
        "import sys\nimport gate_tui.tui.controller\nprint('textual' in sys.modules)\n"
        "import gate_tui.tui.render\nprint('gate_tui.tui.app' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert out.stdout.split() == ["False", "False"]


def test_no_module_over_400_lines() -> None:
    long = [
        str(p.relative_to(ROOT))
        for p in (ROOT / "gate_tui").rglob("*.py")
        if len(p.read_text(encoding="utf-8").splitlines()) > 400
    ]
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
            if expected.startswith(("(", "[", "True", "False")) and not code.startswith(
                ("result =", "after =", "bad =", "edit =")
            ):
                value = eval(code, namespace)  # noqa: S307 - our own README
                shown = (
                    expected.split(":")[0].strip()
                    if expected.startswith("(") and ":" in expected
                    else expected
                )
                if shown.endswith("…]"):
                    assert repr(value).startswith(shown[:-2].rstrip(", ")), (code, value)
                else:
                    assert repr(value) == shown, (code, value, shown)
            else:
                exec(code, namespace)  # noqa: S102 - our own README
    finally:
        os.chdir(cwd)


# ------------------------------------------------------------------- import circles
#
# Decision: every import counts, at module level, inside functions ("lazy" imports,
# which keep the first frame fast, are still a dependency of the module) and under
# ``if TYPE_CHECKING:`` alike (a type hint naming a module is a dependency of the design
# too: two modules that name each other are one part, whichever way it is written). A
# part that needs its host names what it needs in a ``typing.Protocol`` instead.


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph(root: Path, package: str) -> dict[str, set[str]]:
    """Module → the package's modules it imports (anywhere, type-only imports included)."""
    paths = {_module_name(path, root): path for path in (root / package).rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        base_package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        found: set[str] = set()
        pending: list[ast.AST] = [ast.parse(path.read_text(encoding="utf-8"))]
        while pending:
            node = pending.pop()
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.Import):
                    found.update(alias.name for alias in child.names)
                elif isinstance(child, ast.ImportFrom):
                    module = child.module or ""
                    if child.level:
                        parts = base_package.split(".")[
                            : len(base_package.split(".")) - child.level + 1
                        ]
                        module = ".".join([*parts, module] if module else parts)
                    for alias in child.names:
                        submodule = f"{module}.{alias.name}"
                        found.add(submodule if submodule in paths else module)
                pending.append(child)
        graph[name] = {target for target in found if target in paths and target != name}
    return graph


def import_circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, targets = work[-1]
            target = next(targets, None)
            if target is not None:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph[target]))))
                elif target in on_stack:
                    low[node] = min(low[node], index[target])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    circles.append(sorted(group))
    return circles


def test_no_import_circle_anywhere_in_the_package() -> None:
    assert import_circles(import_graph(ROOT, "gate_tui")) == []


def test_the_circle_check_finds_a_circle_through_a_lazy_import(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "sub" / "__init__.py").write_text("")
    (package / "a.py").write_text("from pkg.sub import b\n")
    (package / "sub" / "b.py").write_text("def f():\n    from ..c import g\n    return g\n")
    (package / "c.py").write_text("import pkg.a\n")
    assert import_circles(import_graph(tmp_path, "pkg")) == [["pkg.a", "pkg.c", "pkg.sub.b"]]


def test_the_circle_check_counts_type_only_imports(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "screen.py").write_text("from pkg.helper import Helper\n")
    (package / "helper.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.screen import Screen\n"
    )
    (package / "free.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import pkg.helper\n"
    )
    assert import_circles(import_graph(tmp_path, "pkg")) == [["pkg.helper", "pkg.screen"]]
