"""Random but reproducible editing steps, applied to a Session the way the editor does.

Used in-process by the session tests and in a subprocess by the crash worker: each
step is a user edit, a model reply (sometimes needing repairs, sometimes lying about
PASS), a rejected payload, an undo, a redo or a jump, all through ``parse`` and the
Session API.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

from gate_tui.models import GateConfig, GateState
from gate_tui.parsing.pipeline import parse
from gate_tui.session.history import Transition
from gate_tui.session.live import Session

WORDS = [
    "store",
    "sales",
    "weekly",
    "lake",
    "privacy",
    "approved",
    "pilot",
    "MAPE",
    "owner",
    "café",
    "📈",
    "a|b",
    "`x`",
    "*bold*",
]


def state_hash(state: GateState) -> str:
    """A short fingerprint of a state, for comparing histories across processes."""
    text = json.dumps(state.model_dump(mode="json"), sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _text(rng: random.Random) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 6)))


def user_patch(rng: random.Random, config: GateConfig) -> dict[str, Any]:
    key = rng.choice(config.gate_order)
    gate = config.gates[key]
    value: dict[str, Any] = {"raw": None if rng.random() < 0.15 else _text(rng)}
    if gate.expected_categories:
        value["classified"] = rng.choice([*gate.expected_categories, None])
    patch: dict[str, Any] = {"gates": {key: value}}
    if rng.random() < 0.2:
        patch["summary"] = _text(rng)
    return patch


def model_reply(rng: random.Random, config: GateConfig) -> str:
    gates = {}
    for key in config.gate_order:
        gate = config.gates[key]
        filled = rng.random() < 0.75
        classified = (
            rng.choice(gate.expected_categories) if gate.expected_categories and filled else None
        )
        gates[key] = {"raw": _text(rng) if filled else None, "classified": classified}
    state = {
        "summary": _text(rng),
        "gates": gates,
        "status": {"pass": rng.random() < 0.5, "next_gate": None, "next_query": None},
    }
    body = json.dumps(state, ensure_ascii=False, indent=1)
    if rng.random() < 0.3:
        body = body.replace(
            '"next_query": null', '"next_query": null,'
        )  # a trailing comma to repair
    return f"Here is the state:\n```json\n{body}\n```\n"


def step(session: Session, config: GateConfig, rng: random.Random) -> Transition | None:
    """Apply one random step; the transition it produced, or None (rejected / nothing to do)."""
    roll = rng.random()
    if roll < 0.4:
        patch = user_patch(rng, config)
        result = parse(patch, config, session.state, actor="user")
        return _take(session, result, patch, "user")
    if roll < 0.62:
        text = model_reply(rng, config)
        return _take(
            session, parse(text, config, session.state, actor="assistant"), text, "assistant"
        )
    if roll < 0.7:
        text = "sorry, I cannot help with that"
        session.reject(parse(text, config, session.state), text, "assistant")
        return None
    if roll < 0.82:
        return session.undo()
    if roll < 0.92:
        return session.redo()
    return session.jump_to(rng.randint(-1, len(session.timeline) - 1)) if session.timeline else None


def _take(session: Session, result: Any, payload: Any, actor: Any) -> Transition | None:
    if not result.ok:
        session.reject(result, payload, actor)
        return None
    return session.accept(result, payload, actor)


def run_steps(session: Session, config: GateConfig, seed: int, count: int) -> list[Transition]:
    """Apply ``count`` random steps; the transitions they produced."""
    rng = random.Random(seed)
    made = []
    for _ in range(count):
        transition = step(session, config, rng)
        if transition is not None:
            made.append(transition)
    return made
