"""The HTTP client under the SDK: bounded in bytes, no redirects, proxies only when asked.

The SDK's default client follows redirects (a ``307`` to another port would re-send the
whole conversation there, silently) and reads whatever a server sends: one SSE line of a
gigabyte with no newline, or a small gzip body that inflates to gigabytes. Here:

* redirects are not followed: the ``3xx`` answer reaches :mod:`gate_tui.llm.failures`,
  which names the target in one line;
* every response body is counted as it is read, *after* decompression, which is done here
  (gzip and deflate, with an output bound) rather than by the HTTP library; past
  :data:`MAX_BODY_BYTES` the read stops with :class:`BodyTooLarge`. The cap covers a
  reply at the parser's limit (4 Mi characters, up to 4 bytes each in UTF-8) with the SSE
  framing around it, so an honest reply is never cut by it — the reply's own limit
  (characters, counted by the client while streaming) always comes first;
* other encodings are refused: we ask for ``gzip, deflate, identity`` only;
* proxies come from the environment (``HTTPS_PROXY`` …) exactly as the user's other tools
  use them, and :func:`proxy_in_use` names the one in force so ``ask`` can say so once.
"""

from __future__ import annotations

import os
import urllib.request
import zlib
from collections.abc import AsyncIterator
from typing import Any

try:  # the SDK's HTTP library: httpx2 in current releases, httpx before
    import httpx2 as http
except ImportError:  # pragma: no cover - depends on the installed SDK
    import httpx as http  # type: ignore[no-redef]

from gate_tui.limits import DEFAULT_MAX_CHARS

MAX_BODY_BYTES = 4 * DEFAULT_MAX_CHARS + (4 << 20)
ACCEPTED_ENCODINGS = "gzip, deflate, identity"


class BodyTooLarge(Exception):
    """A response body (decompressed) went past :data:`MAX_BODY_BYTES`."""


class _Capped(http.AsyncByteStream):
    def __init__(self, inner: Any, encoding: str, cap: int) -> None:
        self.inner, self.cap, self.seen = inner, cap, 0
        wbits = {"gzip": 16 + zlib.MAX_WBITS, "deflate": zlib.MAX_WBITS}.get(encoding)
        self.inflate = zlib.decompressobj(wbits) if wbits is not None else None

    def _count(self, data: bytes) -> bytes:
        self.seen += len(data)
        if self.seen > self.cap:
            raise BodyTooLarge(f"the response body passed {self.cap:,} bytes")
        return data

    async def __aiter__(self) -> AsyncIterator[bytes]:
        async for raw in self.inner:
            if self.inflate is None:
                yield self._count(raw)
                continue
            data = raw
            while data:  # inflate in bounded steps: a bomb never expands past the cap at once
                out = self.inflate.decompress(data, 1 << 16)
                yield self._count(out)
                data = self.inflate.unconsumed_tail
        if self.inflate is not None:
            yield self._count(self.inflate.flush())

    async def aclose(self) -> None:
        await self.inner.aclose()


class CappedTransport(http.AsyncBaseTransport):
    """Wraps the real transport: decompresses and counts every response body."""

    def __init__(self, inner: Any, cap: int = MAX_BODY_BYTES) -> None:
        self.inner, self.cap = inner, cap

    async def handle_async_request(self, request: Any) -> Any:
        request.headers["Accept-Encoding"] = ACCEPTED_ENCODINGS
        response = await self.inner.handle_async_request(request)
        encoding = response.headers.get("content-encoding", "identity").strip().lower()
        if encoding not in ("identity", "gzip", "deflate", ""):
            await response.aclose()
            raise BodyTooLarge(
                f"the response used content-encoding {encoding!r}, which was not asked for"
            )
        headers = [
            (k, v)
            for k, v in response.headers.raw
            if k.lower() not in (b"content-encoding", b"content-length")
        ]
        return http.Response(response.status_code, headers=headers,
                             stream=_Capped(response.stream, encoding, self.cap),
                             extensions=response.extensions, request=request)

    async def aclose(self) -> None:
        await self.inner.aclose()


def proxy_in_use(url: str | None) -> str | None:
    """The proxy the environment sets for ``url`` (credentials removed), or None."""
    if not url:
        return None
    scheme = url.split(":", 1)[0].lower()
    proxies = urllib.request.getproxies_environment()
    proxy = proxies.get(scheme) or proxies.get("all")
    host = url.split("://", 1)[-1].split("/", 1)[0].rsplit("@", 1)[-1].split(":", 1)[0]
    if not proxy or urllib.request.proxy_bypass_environment(host, proxies):
        return None
    bare = proxy.split("://", 1)
    return (
        bare[0] + "://" + bare[1].rsplit("@", 1)[-1] if len(bare) == 2 else proxy.rsplit("@", 1)[-1]
    )


PROXY_VARIABLES = (
    "HTTPS_PROXY",
    "https_proxy",
    "HTTP_PROXY",
    "http_proxy",
    "ALL_PROXY",
    "all_proxy",
)


def http_client(timeout: Any) -> Any:
    """The SDK's client: no redirects, capped bodies, proxies only from the environment."""
    if not any(os.environ.get(name) for name in PROXY_VARIABLES):
        return http.AsyncClient(timeout=timeout, follow_redirects=False, trust_env=False,
                                transport=CappedTransport(http.AsyncHTTPTransport(retries=0)))
    # With a proxy in the environment the library picks a transport per URL (and honours
    # NO_PROXY); each one it built is wrapped the same way.
    client = http.AsyncClient(timeout=timeout, follow_redirects=False, trust_env=True)
    client._transport = CappedTransport(client._transport)  # noqa: SLF001 - no public hook
    client._mounts = {pattern: (CappedTransport(t) if t is not None else None)  # noqa: SLF001
                      for pattern, t in client._mounts.items()}  # noqa: SLF001
    return client
