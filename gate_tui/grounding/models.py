"""What grounding found, as pydantic v2 models (one per checked value, and the summary)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

GroundingPolicy = Literal["off", "warn", "require"]
FindingKind = Literal["grounded", "near", "ungrounded", "classified_ungrounded"]
Summary = Literal["grounded", "near", "ungrounded", "unchecked"]


class UserSpan(BaseModel):
    """The closest words the user said: their turn (1-based among the user's messages),
    the text of that span in the user's own characters, and its 0-100 score."""

    model_config = ConfigDict(extra="forbid")

    turn: int
    text: str
    score: float
    start: int = 0
    """Character offset of ``text`` in that turn."""


class GroundingFinding(BaseModel):
    """One checked value: the gate, its path, where it sits in the reply, and how it traces
    to the user (``grounded`` exact, ``near`` a close alignment, ``ungrounded`` not the
    user's words, ``classified_ungrounded`` a category for an answer nobody gave)."""

    model_config = ConfigDict(extra="forbid")

    gate: str
    path: str
    kind: FindingKind
    value: str
    line: int | None = None
    column: int | None = None
    closest: UserSpan | None = None

    @property
    def counts(self) -> bool:
        """Whether the value traces to the user (exact or near)."""
        return self.kind in ("grounded", "near")


class GroundingReport(BaseModel):
    """Every finding of one reply, the policy applied, and how many user turns were known."""

    model_config = ConfigDict(extra="ignore")  # ParseResult.grounding adds its "summary"

    policy: GroundingPolicy
    user_turns: int = 0
    findings: list[GroundingFinding] = Field(default_factory=list)

    @property
    def ungrounded(self) -> list[GroundingFinding]:
        return [f for f in self.findings if not f.counts]

    @property
    def summary(self) -> Summary:
        """One word for a results column: the worst finding (``unchecked`` when off)."""
        if self.policy == "off":
            return "unchecked"
        kinds = {f.kind for f in self.findings}
        if kinds & {"ungrounded", "classified_ungrounded"}:
            return "ungrounded"
        return "near" if "near" in kinds else "grounded"
