"""Shared fixtures: the bundled configs and sample replies, and a tidy state directory."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

from gate_tui.config.loading import load_config
from gate_tui.models import GateConfig

ROOT = Path(__file__).resolve().parent.parent
CONFIGS = ROOT / "sample_configs"
REPLIES = CONFIGS / "replies"

# `make test` (and so CI) runs each property test on the same examples every time: a gate
# that passes or fails by the luck of a seed cannot say whether a change broke something.
# New examples are looked for on purpose: `make fuzz` (GATE_TUI_FUZZ=1), and a find there
# becomes an `@example` in the test, so the gate keeps it.
settings.register_profile("gate", derandomize=True, print_blob=True)
settings.register_profile("fuzz", derandomize=False, print_blob=True)
settings.load_profile("fuzz" if os.environ.get("GATE_TUI_FUZZ") else "gate")


@pytest.fixture(autouse=True)
def _private_state_dir(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No test may write sessions into the real user state directory, nor configs into its cache."""
    monkeypatch.setenv("GATE_TUI_STATE_DIR", str(tmp_path_factory.mktemp("state")))
    monkeypatch.setenv("GATE_TUI_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))


@pytest.fixture(scope="session")
def ml_config() -> GateConfig:
    return load_config(CONFIGS / "ml_project_intake.yaml")


@pytest.fixture(scope="session")
def vendor_config() -> GateConfig:
    return load_config(CONFIGS / "vendor_security_review.yaml")


@pytest.fixture(scope="session")
def release_config() -> GateConfig:
    return load_config(CONFIGS / "release_go_no_go.yaml")


def reply(name: str) -> str:
    """The text of a bundled sample reply."""
    return (REPLIES / name).read_text(encoding="utf-8")


KINDS = ("unit", "functional", "e2e")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark each test with its kind, the folder it lives in (``pytest -m "not e2e"``)."""
    for item in items:
        kind = item.path.parent.name
        if kind in KINDS and item.path.parent.parent == Path(__file__).resolve().parent:
            item.add_marker(kind)
