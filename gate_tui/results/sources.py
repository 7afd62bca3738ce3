"""Where an eval run's Parquet lives: one file, a folder of parts, a glob, or a URI.

Batch-inference jobs (Ray Data, Spark, an API batch export) write their replies as a folder
of Parquet parts, and people name them with a wildcard (``s3://bucket/run-7/*.parquet``).
Neither pyarrow's ``ParquetFile`` nor Ray's ``read_parquet`` expands a wildcard, so this
module does, once, before either reads: local paths with :mod:`glob`, remote URIs by
listing the folder the pattern names with pyarrow's filesystem for that URI (nothing is
fetched but the listing the user's own path asks for). A folder means the Parquet files in
it, at any depth; names starting with ``.`` or ``_`` (a writer's temporary files, Spark's
``_SUCCESS``) are not parts. Parts are read in sorted order, so a run is reproducible.
"""

from __future__ import annotations

import fnmatch
import glob
import os
from collections.abc import Callable
from pathlib import PurePosixPath
from typing import Any, TypeVar

T = TypeVar("T")

_WILDCARDS = "*?["
_PARQUET = (".parquet", ".pq")


def has_wildcard(source: str) -> bool:
    return any(mark in source for mark in _WILDCARDS)


def is_many(source: str) -> bool:
    """Whether ``source`` names several Parquet files (a folder, a wildcard, a URI folder)."""
    return (
        has_wildcard(source)
        or source.endswith("/")
        or ("://" not in source and os.path.isdir(source))
    )


def parquet_files(source: str) -> list[str]:
    """The Parquet files ``source`` names, sorted; FileNotFoundError naming ``source`` when none."""
    if "://" in source:
        found = bounded(lambda: _remote(source), source)
    elif has_wildcard(source):
        found = sorted(
            path
            for path in glob.glob(os.path.expanduser(source), recursive=True)
            if os.path.isfile(path) and _is_part(path)
        )
    elif os.path.isdir(source):
        found = sorted(
            os.path.join(folder, name)
            for folder, _dirs, names in os.walk(source)
            for name in names
            if _is_part(os.path.join(folder, name)) and not _hidden_below(source, folder)
        )
    else:
        found = [source]
    if not found:
        raise FileNotFoundError(2, "no Parquet file matches", source)
    return found


def _remote(source: str) -> list[str]:
    """The files a URI names (``s3://b/run/*.parquet``, ``s3://b/run/``), listed, not read."""
    import pyarrow.fs as pafs

    scheme = source.split("://", 1)[0]
    filesystem, path = remote_filesystem(source)
    if not has_wildcard(path):
        info = filesystem.get_file_info(path)
        if info.type == pafs.FileType.File:
            return [source]
        base, pattern = path.rstrip("/"), None
    else:
        cut = min(path.find(mark) for mark in _WILDCARDS if mark in path)
        base, pattern = path[:cut].rsplit("/", 1)[0], path
    listed = filesystem.get_file_info(pafs.FileSelector(base, recursive=True, allow_not_found=True))
    files = [
        info.path for info in listed if info.type == pafs.FileType.File and _is_part(info.path)
    ]
    if pattern is not None:
        depth = pattern.count("/")
        files = [
            name
            for name in files
            if fnmatch.fnmatchcase(name, pattern) and ("**" in pattern or name.count("/") == depth)
        ]
    return sorted(f"{scheme}://{name}" for name in files)


def _is_part(path: str) -> bool:
    name = PurePosixPath(path.replace(os.sep, "/")).name
    return name.lower().endswith(_PARQUET) and not name.startswith((".", "_"))


def _hidden_below(top: str, folder: str) -> bool:
    """Whether ``folder`` (under ``top``) is inside a hidden one (a writer's temp folder)."""
    relative = os.path.relpath(folder, top)
    return relative != "." and any(part.startswith((".", "_")) for part in relative.split(os.sep))


REMOTE_TIMEOUT_S = 20.0
"""The most a remote listing or footer may take before the run gives up (no network, a
firewall that drops packets): a clear error instead of a silent wait."""


def bounded(work: Callable[[], T], source: str, seconds: float = REMOTE_TIMEOUT_S) -> T:
    """``work()`` for a remote ``source``, or TimeoutError naming it after ``seconds``. The
    call runs in a daemon thread (a blocked socket cannot be interrupted); it never keeps
    the process alive."""
    import threading

    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["value"] = work()
        except BaseException as exc:  # noqa: BLE001 - handed to the caller's thread
            box["error"] = exc

    thread = threading.Thread(target=run, name="gate-tui-remote", daemon=True)
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        raise TimeoutError(
            f"{source}: no answer in {seconds:.0f} s (no network, or no access to it)"
        )
    if "error" in box:
        raise box["error"]
    return box["value"]


def _has_aws_credentials() -> bool:
    names = (
        "AWS_ACCESS_KEY_ID",
        "AWS_PROFILE",
        "AWS_WEB_IDENTITY_TOKEN_FILE",
        "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
        "AWS_CONTAINER_CREDENTIALS_FULL_URI",
    )
    if any(os.environ.get(name) for name in names):
        return True
    home = os.path.expanduser("~/.aws")
    files = (
        os.environ.get("AWS_SHARED_CREDENTIALS_FILE"),
        os.environ.get("AWS_CONFIG_FILE"),
        os.path.join(home, "credentials"),
        os.path.join(home, "config"),
    )
    return any(name and os.path.isfile(name) for name in files)


def _has_gcs_credentials() -> bool:
    if os.environ.get("GOOGLE_APPLICATION_CREDENTIALS"):
        return True
    folder = os.environ.get("CLOUDSDK_CONFIG") or os.path.expanduser("~/.config/gcloud")
    return os.path.isfile(os.path.join(folder, "application_default_credentials.json"))


def remote_filesystem(source: str) -> tuple[Any, str]:
    """pyarrow's filesystem for a URI and the path in it, with short network timeouts and,
    unless the user configured cloud credentials, no probe of the cloud metadata address
    (AWS: ``AWS_EC2_METADATA_DISABLED``; GCS: anonymous access)."""
    import pyarrow.fs as pafs

    scheme, rest = source.split("://", 1)
    if scheme == "s3":
        if not _has_aws_credentials():
            os.environ.setdefault("AWS_EC2_METADATA_DISABLED", "true")
        filesystem = pafs.S3FileSystem(
            connect_timeout=5,
            request_timeout=10,
            retry_strategy=pafs.AwsStandardS3RetryStrategy(max_attempts=2),
        )
        return filesystem, rest
    if scheme in ("gs", "gcs"):
        from datetime import timedelta

        filesystem = pafs.GcsFileSystem(
            anonymous=not _has_gcs_credentials(), retry_time_limit=timedelta(seconds=5)
        )
        return filesystem, rest
    return pafs.FileSystem.from_uri(source)
