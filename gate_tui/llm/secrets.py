"""The API key never reaches a screen, a journal or a report, in whatever form text carries it.

A key reaches text in more shapes than its own: an HTTP library's error repeats the header
value ``repr``-escaped (a key read from a file saved with Windows line endings shows as
``sk-…\\r``, two characters); a gateway echoes the ``Authorization`` header into its reply or
error body, sometimes base64-encoded (``Basic``), percent-encoded (a query string) or spaced
out. :class:`Redactor` knows each of those shapes of one key and replaces them all with
``***`` in one linear pass (one compiled alternation of literal forms, plus a spaced-out form
whose separators are bounded, so no input makes the search super-linear).

:func:`clean_key` trims whitespace and control characters around a key read from the
environment: they are never part of a key, and sent as they are they break the header and
put the whole key in an error message.
"""

from __future__ import annotations

import base64
import re
import urllib.parse
from dataclasses import dataclass, field

MASK = "***"
MIN_SECRET = 8  # shorter values (placeholders such as "no-key") are not secrets worth a pass
_EDGE = "".join(chr(c) for c in range(33)) + "\x7f"


def clean_key(raw: str | None) -> tuple[str | None, str | None]:
    """The key without surrounding whitespace or control characters, and a warning when some
    were trimmed (naming what, never the key)."""
    if raw is None:
        return None, None
    key = raw.strip(_EDGE)
    if key == raw:
        return key, None
    trimmed = [repr(ch)[1:-1] for ch in raw[: len(raw) - len(raw.lstrip(_EDGE))]]
    trimmed += [repr(ch)[1:-1] for ch in raw[len(raw.rstrip(_EDGE)) :]]
    shown = " ".join(sorted(set(trimmed))) or "whitespace"
    return (
        key,
        f"the API key had {shown} around it (a key file with Windows line endings?): trimmed",
    )


def _forms(secret: str) -> set[str]:
    """Every literal shape of ``secret`` that text may hold."""
    forms = {secret, repr(secret)[1:-1]}
    forms.add(urllib.parse.quote(secret, safe=""))
    forms.add(urllib.parse.quote_plus(secret))
    for prefix in ("", "Bearer ", ":", "Authorization: Bearer "):
        raw = (prefix + secret).encode("utf-8", "surrogatepass")
        for encode in (base64.b64encode, base64.urlsafe_b64encode):
            encoded = encode(raw).decode("ascii")
            forms.add(encoded)
            forms.add(encoded.rstrip("="))
    return {form for form in forms if len(form) >= MIN_SECRET}


@dataclass(frozen=True)
class Redactor:
    """Replaces every known shape of ``secret`` in text; a no-op for no or short secrets."""

    secret: str | None
    _pattern: re.Pattern[str] | None = field(init=False, repr=False, compare=False, default=None)

    def __post_init__(self) -> None:
        key, _ = clean_key(self.secret)
        if not key or len(key) < MIN_SECRET:
            return
        literal = sorted(_forms(key), key=len, reverse=True)
        # Spaced out: the key's characters with up to 3 whitespace or escape-ish separators
        # between them (a wrapped header, "s k - 1 2 3"); bounded so matching stays linear.
        spaced = r"(?:[\s\\]{0,3})".join(re.escape(ch) for ch in key)
        pattern = "|".join([*(re.escape(form) for form in literal), spaced])
        object.__setattr__(self, "_pattern", re.compile(pattern))

    def __call__(self, text: str) -> str:
        if self._pattern is None or not text:
            return text
        return self._pattern.sub(MASK, text)

    def matches(self, text: str) -> list[re.Match[str]]:
        return [] if self._pattern is None else list(self._pattern.finditer(text))

    @property
    def longest(self) -> int:
        """How many trailing characters of a growing text may still be the start of a form
        (a streaming echo holds that many back until the next piece decides)."""
        key, _ = clean_key(self.secret)
        return 0 if self._pattern is None or not key else 4 * len(key) + 64


def redact_text(text: str, secret: str | None) -> str:
    """``text`` with every shape of ``secret`` replaced (see :class:`Redactor`)."""
    return Redactor(secret)(text)
