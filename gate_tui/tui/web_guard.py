"""Who may use a served editor: the rules ``gate-tui serve`` applies to every request,
as plain functions (no web framework, no Textual), so they are tested on their own.

A browser lets any web page open a websocket to ``127.0.0.1`` — the port is no secret —
so, as Jupyter's server does, the editor is guarded three ways:

- a random **token**, made at start and printed in the URL, needed for the page and the
  websocket (compared in constant time, so timing tells nothing about it);
- the websocket's **Origin** must be the page's own (``Origin`` equal to ``Host``): a page
  of another site always sends its own origin and is refused;
- on a loopback address the **Host** must be a loopback name, so a site that re-points its
  DNS name at 127.0.0.1 ("DNS rebinding") is refused even before the token is checked.

Terminal sizes sent by the page are clamped: a screen of 20000x20000 cells would make
the editor lay out 400 million cells.
"""

from __future__ import annotations

import hmac
import ipaddress
import re
import secrets
from urllib.parse import urlsplit

MAX_WIDTH = 500
MAX_HEIGHT = 200
LOCAL_NAMES = frozenset({"localhost", "ip6-localhost", "ip6-loopback"})
# host[:port] or [v6]:port and nothing else (the page repeats the Host in its websocket URL)
_HOST = re.compile(r"(?:[a-z0-9.-]{1,253}|\[[0-9a-f:.]{2,45}\])(?::[0-9]{1,5})?", re.IGNORECASE)


def new_token() -> str:
    """A fresh secret for one run of the server (192 random bits, URL-safe)."""
    return secrets.token_urlsafe(24)


def token_matches(given: str | None, token: str) -> bool:
    """Whether ``given`` is the server's token, compared in constant time."""
    if not given:
        return False
    return hmac.compare_digest(given.encode("utf-8", "replace"), token.encode("utf-8"))


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a name or address, IPv6 with or without brackets) is this machine only."""
    name = host.strip().lower().removeprefix("[").removesuffix("]")
    if name in LOCAL_NAMES:
        return True
    try:
        address = ipaddress.ip_address(name.split("%", 1)[0])
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address.is_loopback


def host_name(netloc: str) -> str:
    """The host part of ``host[:port]`` / ``[v6]:port`` (lower case, brackets removed)."""
    netloc = netloc.strip().lower()
    if netloc.startswith("["):
        return netloc[1 : netloc.find("]")] if "]" in netloc else netloc[1:]
    return netloc.rsplit(":", 1)[0] if netloc.count(":") == 1 else netloc


def host_allowed(host_header: str | None, *, loopback_only: bool) -> bool:
    """Whether a request's ``Host`` is acceptable: any, unless the server listens on a
    loopback address only — then it must name this machine (no DNS rebinding)."""
    if not host_header or not _HOST.fullmatch(host_header):
        return False
    return not loopback_only or is_loopback(host_name(host_header))


def origin_allowed(origin: str | None, host_header: str | None) -> bool:
    """Whether a websocket's ``Origin`` is the served page's own: an http(s) origin whose
    ``host:port`` is the request's ``Host``. No Origin is refused too (every browser sends
    one; a client that leaves it out is not the page)."""
    if not origin or not host_header:
        return False
    try:
        parts = urlsplit(origin.strip())
    except ValueError:
        return False
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return False
    return _with_port(parts.netloc, parts.scheme) == _with_port(host_header, parts.scheme)


def _with_port(netloc: str, scheme: str) -> str:
    netloc = netloc.strip().lower()
    has_port = (
        netloc.rsplit("]", 1)[-1].count(":") == 1
        if netloc.startswith("[")
        else netloc.count(":") == 1
    )
    return netloc if has_port else f"{netloc}:{443 if scheme == 'https' else 80}"


def clamp_size(width: object, height: object) -> tuple[int, int]:
    """A terminal size from the page, made sane: whole numbers in 1..500 x 1..200
    (anything that is not a number becomes 80x24)."""
    return _clamp(width, 80, MAX_WIDTH), _clamp(height, 24, MAX_HEIGHT)


def _clamp(value: object, default: int, most: int) -> int:
    if isinstance(value, bool):
        return default
    if isinstance(value, str):
        try:
            value = int(value.strip()[:12])
        except ValueError:
            return default
    if not isinstance(value, int | float) or value != value:  # NaN
        return default
    return int(min(max(value, 1), most))
