"""The files-folder rule of served editors (issue 17, item 1): no path typed into Save as,
Open or Export reaches outside ``--files DIR``."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from gate_tui.session.file_folder import inside_folder


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    inside = tmp_path / "files"
    (inside / "sub").mkdir(parents=True)
    return inside


@pytest.mark.parametrize(
    "name", ["gate-state.json", "sub/review.md", "./x.json", "sub/../y.json", "new/deeper/z.json"]
)
def test_names_inside_the_folder_resolve_there(folder: Path, name: str) -> None:
    path, problem = inside_folder(folder, name)
    assert problem is None and path is not None
    assert path.is_relative_to(folder.resolve()) and path == (folder / name).resolve()


def test_an_absolute_path_inside_the_folder_is_fine(folder: Path) -> None:
    assert inside_folder(folder, str(folder / "a.json")) == ((folder / "a.json").resolve(), None)


@pytest.mark.parametrize(
    "name",
    ["../x", "/tmp/x", "~/.bashrc", "sub/../../x", "..", ".", "", "  ", "a\x00b", "x" * 5000, "/"],
)
def test_paths_outside_or_unusable_are_refused_with_a_reason(folder: Path, name: str) -> None:
    path, problem = inside_folder(folder, name)
    assert path is None and problem


def test_a_symlink_that_leads_out_is_refused(folder: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    os.symlink(outside, folder / "door")
    os.symlink(
        tmp_path / "secret.txt", folder / "dangling"
    )  # not there yet: would be created outside
    for name in ("door/x.json", "dangling"):
        path, problem = inside_folder(folder, name)
        assert path is None and "outside the files folder" in str(problem)


def test_a_symlink_loop_is_refused_not_raised(folder: Path) -> None:
    os.symlink(folder / "loop", folder / "loop")
    path, problem = inside_folder(folder, "loop/x")
    assert path is None and problem
