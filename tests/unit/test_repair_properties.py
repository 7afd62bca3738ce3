"""Property (hypothesis): any valid JSON object with one *exact* damage applied at a random
valid place comes back as the original value, with one repair of that kind reported.

The object is written token by token (so damage lands between tokens, never inside a
string by accident); strings hold quotes, braces, fences and line breaks on purpose.
"""

from __future__ import annotations

import json

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from gate_tui.parsing.extraction import extract_json
from tests.helpers.json_strategies import OBJECTS, TEXT, tokens


def damage(kind: str, toks: list[str], pick: int) -> str | None:
    """The text with one damage of ``kind`` at the ``pick``-th possible place, or None."""
    places: list[int] = []
    for i, tok in enumerate(toks):
        if kind == "missing_comma" and tok == ",":
            places.append(i)
        elif kind == "trailing_comma" and tok in "}]" and toks[i - 1] not in "{[":
            places.append(i)
        elif kind == "comment" and i and tok in ",:}]":
            places.append(i)
        elif kind == "python_literal" and tok in ("true", "false", "null"):
            places.append(i)
        elif kind == "literal_case" and tok in ("true", "false", "null"):
            places.append(i)
        elif (
            kind == "control_character"
            and tok.startswith('"')
            and ("\\n" in tok)
            and toks[i + 1] != ":"
        ):
            places.append(i)
        elif kind == "number_format" and tok in ("0.25", "1.0", "-2.5"):
            places.append(i)
    if not places:
        return None
    i = places[pick % len(places)]
    new = list(toks)
    tok = toks[i]
    if kind == "missing_comma":
        new[i] = "\n"  # members on separate lines, the comma forgotten
    elif kind == "trailing_comma":
        new[i] = "," + tok
    elif kind == "comment":
        new[i] = " /* note */ " + tok
    elif kind == "python_literal":
        new[i] = {"true": "True", "false": "False", "null": "None"}[tok]
    elif kind == "literal_case":
        new[i] = tok.upper()
    elif kind == "control_character":
        new[i] = tok.replace("\\n", "\n", 1)
    elif kind == "number_format":
        new[i] = {"0.25": ".25", "1.0": "1.", "-2.5": "-2.5"}[tok] if tok != "-2.5" else "-.5"
        if tok == "-2.5":
            return None
    return " ".join(new)


KINDS = [
    "missing_comma",
    "trailing_comma",
    "comment",
    "python_literal",
    "literal_case",
    "control_character",
    "number_format",
]


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(
    OBJECTS,
    st.sampled_from(KINDS),
    st.integers(0, 50),
    st.sampled_from(["", "Here you go:\n", "```json\n"]),
)
def test_one_exact_damage_is_repaired_to_the_original(
    value: dict, kind: str, pick: int, before: str
) -> None:
    text = damage(kind, tokens(value), pick)
    assume(text is not None)
    assert text is not None
    result = extract_json(before + text)
    assert result.error is None, (text, result.error)
    assert result.value == value
    assert [r.code for r in result.repairs] == [kind], text
    assert all(r.certainty == "exact" for r in result.repairs)


@settings(max_examples=150, deadline=None)
@given(
    TEXT,
    TEXT,
    st.sampled_from(["", "Answer:\n", "<think>x</think>\n"]),
    st.sampled_from(["", "\nthanks", '\nAlso {"status": "echo"}']),
)
def test_objects_inside_strings_never_win(head: str, tail: str, before: str, after: str) -> None:
    summary = head + '\n```json\n{"summary": "hijack", "gates": {}}\n```\n' + tail
    value = {"summary": summary, "gates": {}}
    text = json.dumps(value, ensure_ascii=False).replace(
        "\\n", "\n"
    )  # raw line breaks: not strict JSON
    result = extract_json(before + text + after)
    assert result.value == value, (text, result.error)
