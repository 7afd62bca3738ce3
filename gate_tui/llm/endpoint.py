"""How an endpoint is named in messages and journals, and when talking to it is unsafe.

A base URL may carry secrets of its own (``https://user:token@host/v1?key=…``), so every
message, journal record and report names an endpoint through :func:`endpoint_label` or
:func:`endpoint_host`, which keep only scheme, host, port and path.
"""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

OPENAI_DEFAULT = "https://api.openai.com/v1"


def _parts(base_url: str | None) -> tuple[str, str, str]:
    """(scheme, host[:port], path) of ``base_url`` without user, password, query or fragment."""
    try:
        split = urlsplit(base_url or OPENAI_DEFAULT)
        host = split.hostname or ""
        port = split.port
    except ValueError:  # a malformed port or IPv6 literal: name it without parsing further
        return "", "(malformed URL)", ""
    if ":" in host:
        host = f"[{host}]"
    where = f"{host}:{port}" if port else host
    return split.scheme, where, split.path.rstrip("/")


def endpoint_label(base_url: str | None) -> str:
    """``http://127.0.0.1:8080/v1``: the endpoint as messages name it (never a secret)."""
    scheme, where, path = _parts(base_url)
    return f"{scheme}://{where}{path}" if scheme else where


def endpoint_host(base_url: str | None) -> str:
    """``127.0.0.1:8080``: the endpoint's host as the journal records it."""
    return _parts(base_url)[1]


def url_problem(base_url: str | None) -> str | None:
    """Why ``base_url`` cannot be an endpoint (None when it can)."""
    if base_url is None:
        return None
    scheme, where, _ = _parts(base_url)
    if scheme not in ("http", "https") or not where or where.startswith("("):
        return f"base URL {endpoint_label(base_url)!r} is not an http:// or https:// URL"
    return None


def is_loopback(host: str) -> bool:
    """Whether ``host`` (no port) names this machine."""
    host = host.strip("[]").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def insecure_warning(base_url: str | None) -> str | None:
    """A warning for plain ``http://`` to another machine: prompts, replies and the key travel
    unencrypted. Loopback (a local llama.cpp, Ollama or vLLM) is fine."""
    try:
        split = urlsplit(base_url or OPENAI_DEFAULT)
        host = split.hostname or ""
    except ValueError:
        return None
    if split.scheme == "http" and not is_loopback(host):
        return (
            f"warning: {endpoint_label(base_url)} is plain http to another machine: "
            "the conversation and the API key travel unencrypted"
        )
    return None
