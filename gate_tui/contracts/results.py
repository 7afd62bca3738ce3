"""What checking a reply against a contract returns: errors, warnings and the result itself.

Pydantic v2 models, so results cross boundaries (``check --format json``, the batch
records, the editor's journal) as JSON and come back with ``model_validate``. The checker
builds them with ``model_construct``: every field is already of the right type there,
and validating again would cost more than validating the reply.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from gate_tui.models import Repair

ContractErrorCode = Literal[
    "invalid_json",
    "missing_key",
    "extra_key",
    "invalid_type",
    "invalid_value",
    "rule_failed",
    "no_branch_matched",
]
"""The stable error codes; scripts may match on them. ``no_branch_matched``: a value fits
none of a ``oneOf``/``anyOf``'s branches (the closest branch's own errors come with it)."""

MAX_REPORTED = 200
"""How many errors one check lists (gate mode's rule); the rest are counted in one more record."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ContractError(_Model):
    """One way the reply breaks the contract; ``path`` is a JSON Pointer (``/choices/2/label``)."""

    code: ContractErrorCode
    path: str = ""
    message: str
    expected: str | None = None
    actual: str | None = None

    def expected_detail(self) -> str:
        """`` (expected one of "neutral", "happy", …)`` for an invalid value, else ``""``:
        what ``check`` and the editor's preview both print after the message."""
        return (
            f" (expected {self.expected})" if self.expected and self.code == "invalid_value" else ""
        )


class ContractWarning(_Model):
    """Something accepted that the reviewer should know (a guessed repair, say)."""

    code: str
    path: str = ""
    message: str


class ContractResult(_Model):
    """Everything one :func:`~gate_tui.contracts.checking.check_contract` call found out.

    ``ok`` is True exactly when ``errors`` is empty. ``value`` is the extracted JSON (set
    whenever an object was found, valid or not, so an editor can show and fix it), or the
    value given to :func:`~gate_tui.contracts.checking.check_value` (any JSON type);
    ``source`` says where it came from: ``fence``, ``scan`` (free text), ``object`` (a
    dict was given) or ``value`` (a decoded value of any type was given). ``raw`` is the reply as
    given; it is not serialised (a batch record would carry every reply twice) but :meth:`envelope`
    reports it.
    """

    ok: bool
    value: Any = None
    errors: list[ContractError] = Field(default_factory=list)
    warnings: list[ContractWarning] = Field(default_factory=list)
    repairs: list[Repair] = Field(default_factory=list)
    source: str | None = None
    raw: str | None = Field(default=None, exclude=True, repr=False)

    def envelope(self) -> dict[str, Any]:
        """The error response a service returns for this reply (``{"ok": true, "data": …}`` when
        valid)."""
        if self.ok:
            return {"ok": True, "data": self.value}
        details: dict[str, Any] = {"raw": self.raw}
        unparsed = [error for error in self.errors if error.code == "invalid_json"]
        if unparsed:
            message = "The reply is not a JSON object"
            details["parseError"] = unparsed[0].message
        else:
            count = len(self.errors)
            message = f"The reply does not match the contract ({count} issue{'s' * (count != 1)})"
            details["issues"] = [
                {"path": pointer_parts(error.path, self.value), "message": error.message}
                for error in self.errors
            ]
        return {
            "ok": False,
            "error": {"code": "VALIDATION_FAILED", "message": message, "details": details},
        }


class ErrorList:
    """The errors of one check, bounded: the first :data:`MAX_REPORTED` are kept, the rest
    only counted, and :meth:`finish` adds one record saying how many more there were (a
    reply with 420,000 unexpected keys costs 201 records, not 59 MB). The record takes
    the code of the first error left out, as gate mode's does."""

    __slots__ = ("errors", "limit", "more", "more_code", "skipped", "skipped_at")

    def __init__(self, limit: int = MAX_REPORTED) -> None:
        self.errors: list[Any] = []
        self.limit = limit
        self.more = 0
        self.more_code: ContractErrorCode = "invalid_value"
        self.skipped = 0
        self.skipped_at = ""

    @property
    def room(self) -> int:
        return self.limit - len(self.errors)

    def add(self, error: ContractError) -> None:
        if len(self.errors) < self.limit:
            self.errors.append(error)
        else:
            self.count(1, error.code)

    def count(self, how_many: int, code: ContractErrorCode) -> None:
        """Note ``how_many`` errors that are not listed."""
        if how_many > 0:
            if not self.more:
                self.more_code = code
            self.more += how_many

    def unexamined(self, how_many: int, path: str) -> None:
        """Note ``how_many`` more invalid items of the array at ``path`` whose errors were not
        built (counting them exactly would cost what the bound saves, see
        :mod:`gate_tui.contracts.splitting`)."""
        if how_many > 0:
            self.skipped += how_many
            self.skipped_at = path

    def finish(self) -> list[ContractError]:
        if self.more or self.skipped:
            counted = [f"{self.more:,} more error{'s' * (self.more != 1)}"] if self.more else []
            if self.skipped:
                counted.append(
                    f"{self.skipped:,} more invalid item{'s' * (self.skipped != 1)} of "
                    f"{self.skipped_at or '/'} not examined"
                )
            message = "and " + ", plus ".join(counted)
            message += f" (only the first {self.limit} are listed)"
            self.errors.append(ContractError(code=self.more_code, path="", message=message))
            self.more = self.skipped = 0
        return self.errors


def pointer(parts: list[str | int] | tuple[str | int, ...]) -> str:
    """A JSON Pointer (RFC 6901) from path segments: ``["choices", 2, "label"]`` →
    ``/choices/2/label``."""
    return "".join("/" + str(part).replace("~", "~0").replace("/", "~1") for part in parts)


def pointer_parts(path: str, value: Any = None) -> list[str | int]:
    """The segments of a JSON Pointer; a segment that indexes a list in ``value`` is an int.

    Without the value, an object key ``"7"`` and a list index 7 look the same; walking the
    value tells them apart (a path past the value's end keeps its segments as text).
    """
    if not path:
        return []
    parts: list[str | int] = []
    node = value
    for raw in path[1:].split("/"):
        part = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(node, list) and part.isdigit():
            index = int(part)
            parts.append(index)
            node = node[index] if index < len(node) else None
        else:
            parts.append(part)
            node = node.get(part) if isinstance(node, dict) else None
    return parts
