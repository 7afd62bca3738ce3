"""``--input s3://…`` / ``gs://…`` without credentials or network: a clear error within a
bound, never a silent wait, and no cloud metadata-address probe unless credentials exist."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("pyarrow")

from gate_tui.results import sources  # noqa: E402
from tests.helpers.eval_data import ML  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
CLOUD = (
    "AWS_ACCESS_KEY_ID",
    "AWS_SECRET_ACCESS_KEY",
    "AWS_PROFILE",
    "GOOGLE_APPLICATION_CREDENTIALS",
    "AWS_EC2_METADATA_DISABLED",
)


@pytest.mark.parametrize("uri", ["s3://gate-tui-no-such-bucket/run/a.parquet", "gs://gate-tui-no-such-bucket/run/"])
def test_a_remote_input_without_network_fails_fast_and_clearly(uri: str, tmp_path: Path) -> None:
    env = {key: value for key, value in os.environ.items() if key not in CLOUD}
    env.update(
        PYTHONPATH=str(ROOT),
        HOME=str(tmp_path),
        AWS_ENDPOINT_URL="http://127.0.0.1:9",
        CLOUDSDK_CONFIG=str(tmp_path),
    )
    started = time.monotonic()
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "gate_tui",
            "check",
            "--config",
            str(ML),
            "--input",
            uri,
            "--output",
            str(tmp_path / "o.parquet"),
            "-q",
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert time.monotonic() - started < sources.REMOTE_TIMEOUT_S + 15
    assert done.returncode not in (0, 1, 2, 70)
    assert "gate-tui check" in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "o.parquet").exists()


def test_no_metadata_probe_without_aws_credentials(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    for name in CLOUD:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    sources.remote_filesystem("s3://bucket/key.parquet")
    assert os.environ["AWS_EC2_METADATA_DISABLED"] == "true"


def test_configured_aws_credentials_are_left_to_aws(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    for name in CLOUD:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("AWS_PROFILE", "work")
    sources.remote_filesystem("s3://bucket/key.parquet")
    assert "AWS_EC2_METADATA_DISABLED" not in os.environ


def test_bounded_gives_up_with_a_clear_error() -> None:
    with pytest.raises(TimeoutError, match="s3://x: no answer"):
        sources.bounded(lambda: time.sleep(5), "s3://x", seconds=0.2)
