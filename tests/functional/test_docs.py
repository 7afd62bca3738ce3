"""The docs site holds to the code: it builds strictly, its examples run and print what they
say, the CLI reference is the programs' own ``--help``, and the README stays a front door.

An example is a fenced ``python`` (or ``py``) block right after the line ``<!-- example -->``
(an HTML comment: invisible on the page). Its statements run in order, from the repository
root, in one namespace; an expression followed by ``  # VALUE`` (or by a line ``# VALUE``)
must equal VALUE, a Python literal, which may be followed by prose (``# (False, 'x'): why``);
a list ending ``…]`` gives its first items only. A comment that is not a literal is prose.

A ``console`` block after the same marker is a terminal session: each ``$ gate-tui …`` line runs
(as ``python -m gate_tui …``, from the repository root, no shell), and the lines after it are
what it prints: each must appear in its output, in that order (a line ``…`` stands for lines
left out); a last line ``[exit N]`` is its exit status.
"""

from __future__ import annotations

import ast
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from gate_tui.cli.reference import WIDTH, help_texts, render
from gate_tui.cli.registry import SUBCOMMANDS

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
EXAMPLE = re.compile(r"^<!-- example -->\n```(?:python|py)\n(.*?)^```", re.MULTILINE | re.DOTALL)
CONSOLE = re.compile(r"^<!-- example -->\n```console\n(.*?)^```", re.MULTILINE | re.DOTALL)
PAGES = sorted(DOCS.glob("*.md"))


def examples(path: Path) -> list[str]:
    return EXAMPLE.findall(path.read_text(encoding="utf-8"))


def literal(comment: str) -> tuple[bool, object, bool]:
    """``(found, value, prefix_only)``: the longest start of ``comment`` that is a literal."""
    comment = comment.strip()
    if comment.startswith("[") and "…]" in comment:
        head = comment[: comment.index("…]")].rstrip().rstrip(",")
        try:
            return True, ast.literal_eval(head + "]"), True
        except (ValueError, SyntaxError):
            return False, None, False
    for end in range(len(comment), 0, -1):
        try:
            return True, ast.literal_eval(comment[:end]), False
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            continue
    return False, None, False


def statements(block: str) -> list[tuple[str, str]]:
    """``(code, expected comment)`` per statement; a statement may span lines."""
    found: list[tuple[str, str]] = []
    buffer: list[str] = []
    for line in block.splitlines():
        stripped = line.strip()
        if not buffer and stripped.startswith("#"):
            if found and not found[-1][1]:  # `# VALUE` on the line after an expression
                found[-1] = (found[-1][0], stripped[1:].strip())
            continue
        code, _, comment = line.partition("  # ")
        buffer.append(code)
        try:
            ast.parse("\n".join(buffer))
        except SyntaxError:
            continue  # an open bracket: the statement goes on
        found.append(("\n".join(buffer).strip(), comment.strip()))
        buffer = []
    assert not buffer, f"an example ends inside a statement: {buffer}"
    return [(code, comment) for code, comment in found if code]


def run_example(block: str) -> int:
    """Run one example from the repository root; return how many values it checked."""
    namespace: dict = {}
    checked = 0
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        for code, comment in statements(block):
            tree = ast.parse(code)
            found, expected, prefix_only = literal(comment) if comment else (False, None, False)
            if found and len(tree.body) == 1 and isinstance(tree.body[0], ast.Expr):
                value = eval(
                    compile(ast.Expression(tree.body[0].value), "<example>", "eval"), namespace
                )  # noqa: S307 - our docs
                shown = list(value)[: len(expected)] if prefix_only else value
                assert shown == expected, f"{code}\n  gives {value!r}\n  the docs say {expected!r}"
                checked += 1
            else:
                exec(compile(tree, "<example>", "exec"), namespace)  # noqa: S102 - our docs
    finally:
        os.chdir(cwd)
    return checked


# ------------------------------------------------------------------ the examples


@pytest.mark.parametrize("path", [ROOT / "README.md", *PAGES], ids=lambda p: p.name)
def test_every_marked_example_runs_and_prints_what_it_says(path: Path) -> None:
    for block in examples(path):
        run_example(block)


def test_the_examples_are_found_and_check_values() -> None:
    # A marker the pattern no longer matches would make the test above pass on nothing.
    blocks = [block for path in [ROOT / "README.md", *PAGES] for block in examples(path)]
    assert len(blocks) >= 4
    assert sum(run_example(block) for block in blocks) >= 10


def test_a_wrong_value_in_an_example_fails() -> None:
    with pytest.raises(AssertionError, match="the docs say"):
        run_example("1 + 1  # 3: prose after the value")
    assert run_example("[1, 2, 3]  # [1, 2, …]") == 1
    assert run_example("x = 2\nx * 2\n# 4") == 1
    assert run_example("len('ab')  # the length, prose") == 0


def test_the_readme_one_liner_exits_as_it_says() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    line = re.search(r"^(gate-tui check [^\n#]+?)\s*$", readme, re.MULTILINE)
    status = re.search(r"exits (\d) \(NO PASS\)", readme)
    assert line and status
    args = line.group(1).split()[1:]
    out = subprocess.run(
        [sys.executable, "-m", "gate_tui", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert out.returncode == int(status.group(1)), out.stderr
    assert "NO PASS" in out.stdout and "assistant claimed pass=true" in out.stdout


def sessions(block: str) -> list[tuple[str, list[str], int | None]]:
    """``(command, expected lines, exit status or None)`` per ``$`` line of a console block."""
    found: list[tuple[str, list[str], int | None]] = []
    for line in block.splitlines():
        if line.startswith("$ "):
            found.append((line[2:], [], None))
        elif found and (status := re.fullmatch(r"\[exit (\d+)\]", line.strip())):
            found[-1] = (found[-1][0], found[-1][1], int(status.group(1)))
        elif found and line.strip() and line.strip() != "…":
            found[-1][1].append(line)
    return found


def run_console(block: str) -> int:
    """Run each command of a console example; return how many output lines it checked."""
    checked = 0
    for command, expected, status in sessions(block):
        words = shlex.split(command)
        assert words[0] == "gate-tui", f"a console example runs gate-tui only: {command}"
        out = subprocess.run(
            [sys.executable, "-m", "gate_tui", *words[1:]],
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=120,
        )
        printed = (out.stdout + out.stderr).splitlines()
        at = 0
        for line in expected:
            while at < len(printed) and printed[at].rstrip() != line.rstrip():
                at += 1
            assert at < len(printed), (
                f"{command}\n  did not print, in this order: {line!r}\n  it printed:\n"
                f"{out.stdout}{out.stderr}"
            )
            checked += 1
        if status is not None:
            assert out.returncode == status, (command, out.returncode, out.stderr)
            checked += 1
    return checked


@pytest.mark.parametrize("path", [ROOT / "README.md", *PAGES], ids=lambda p: p.name)
def test_every_console_example_prints_what_it_shows(path: Path) -> None:
    for block in CONSOLE.findall(path.read_text(encoding="utf-8")):
        assert run_console(block) > 0


def test_a_console_example_that_differs_fails() -> None:
    assert (
        run_console("$ gate-tui validate-config sample_configs/ml_project_intake.yaml\n[exit 0]")
        == 1
    )
    with pytest.raises(AssertionError, match="did not print"):
        run_console(
            "$ gate-tui validate-config sample_configs/ml_project_intake.yaml\nsomething it never "
            "says"
        )
    consoles = [
        block
        for path in [ROOT / "README.md", *PAGES]
        for block in CONSOLE.findall(path.read_text(encoding="utf-8"))
    ]
    assert len(consoles) >= 2


# ------------------------------------------------------------------ the CLI reference


def test_the_cli_reference_page_is_generated_from_the_registry() -> None:
    committed = (DOCS / "cli.md").read_text(encoding="utf-8")
    assert committed == render(), (
        "run `python -m gate_tui.cli.reference` (or `make docs`) and commit docs/cli.md"
    )
    for command in SUBCOMMANDS:
        assert f"## `gate-tui {command.name}`" in committed


def test_each_section_of_the_cli_reference_is_what_help_prints() -> None:
    page = (DOCS / "cli.md").read_text(encoding="utf-8")
    texts = help_texts()
    assert len(texts) == len(SUBCOMMANDS) + 1  # the editor and every subcommand
    env = {**os.environ, "COLUMNS": str(WIDTH), "PYTHONPATH": str(ROOT)}
    for name, text in texts:
        out = subprocess.run(
            [sys.executable, "-m", "gate_tui", *name.split()[1:], "--help"],
            capture_output=True,
            text=True,
            cwd=ROOT,
            env=env,
            timeout=120,
        )
        assert out.returncode == 0, out.stderr
        assert out.stdout == text, name
        assert f"```text\n{out.stdout.rstrip()}\n```" in page, name


# ------------------------------------------------------------------ the site


def test_the_site_builds_strictly(tmp_path: Path) -> None:
    # --strict with mkdocs.yml's validation: a broken link or anchor, a missing page or
    # picture, a page left out of the nav is a warning, and a warning fails the build.
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "mkdocs",
            "build",
            "--strict",
            "-f",
            str(ROOT / "mkdocs.yml"),
            "-d",
            str(tmp_path / "site"),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    assert (tmp_path / "site" / "index.html").is_file()
    assert (tmp_path / "site" / "screenshots" / "pass.svg").is_file()  # added by the hook


def test_a_broken_link_fails_the_strict_build(tmp_path: Path) -> None:
    # The same build on a copy of the docs with one link to a page that does not exist.
    import shutil

    shutil.copytree(DOCS, tmp_path / "docs")
    shutil.copytree(ROOT / "screenshots", tmp_path / "screenshots")
    shutil.copy(ROOT / "mkdocs.yml", tmp_path / "mkdocs.yml")
    page = tmp_path / "docs" / "index.md"
    page.write_text(
        page.read_text(encoding="utf-8") + "\n[gone](no-such-page.md)\n", encoding="utf-8"
    )
    out = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(tmp_path / "site")],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        timeout=300,
    )
    assert out.returncode != 0 and "no-such-page.md" in out.stderr


def test_every_page_is_in_the_nav() -> None:
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert [page.name for page in PAGES if f" {page.name}" not in nav] == []


# ------------------------------------------------------------------ figures, layers, README


def test_every_benchmark_named_in_the_docs_exists_and_every_figure_section_names_one() -> None:
    named = {
        name
        for page in PAGES
        for name in re.findall(r"bench/(\w+\.py)", page.read_text(encoding="utf-8"))
    }
    assert named and sorted(name for name in named if not (ROOT / "bench" / name).is_file()) == []
    performance = (DOCS / "performance.md").read_text(encoding="utf-8")
    for section in performance.split("\n## ")[1:]:
        if "| measured" in section or "| result" in section or "| run 1" in section:
            assert re.search(r"bench/\w+\.py", section), section.splitlines()[0]


def test_the_architecture_page_has_a_row_for_every_layer() -> None:
    from tests.unit.test_architecture import ALLOWED

    page = (DOCS / "architecture.md").read_text(encoding="utf-8")
    assert [layer for layer in ALLOWED if f"| `{layer}/` |" not in page] == []


def test_the_readme_is_a_front_door() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 250
    for needed in (
        "make run",
        "make test",
        'pipx install "gate-tui[model,data,serve]"',
        'uv tool install "gate-tui[model,data,serve]"',
        "from gate_tui import",
    ):
        assert needed in readme, needed
    pictures = re.findall(r"!\[[^\]]*\]\((screenshots/[^)]+)\)", readme)
    assert len(pictures) == 1 and (ROOT / pictures[0]).is_file()
    links = re.findall(r"\]\((docs/[^)#]+)", readme)
    assert len(links) >= 10 and [link for link in links if not (ROOT / link).is_file()] == []
