"""Parser fidelity (issue 10): every repair kind on a real-looking gate reply, with its code,
position and certainty; objects inside strings never win; errors say where; cut-off replies
and guesses follow the policy; several candidates are named; NaN and lone surrogates are
``invalid_value``; repair records are bounded.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from gate_tui import GateConfig, parse
from gate_tui.parsing.extraction import NO_OBJECT, extract_json
from gate_tui.parsing.repair.fixlog import MAX_FIXES
from gate_tui.parsing.text_checks import unstorable
from tests.conftest import CONFIGS

STATE = {
    "summary": "Ticket routing",
    "gates": {
        "1_data_availability": {
            "raw": "Labelled tickets in the warehouse",
            "classified": "available",
        },
        "2_use_case": {"raw": "Route urgent tickets first", "classified": None},
        "3_success_metric": {"raw": "Response time down 20%", "classified": None},
        "4_data_privacy": {"raw": "Approved in March", "classified": "approved"},
        "5_stakeholder": {"raw": "Ops lead", "classified": None},
    },
    "status": {"pass": True, "next_gate": None, "next_query": None},
}
PRETTY = json.dumps(STATE, indent=2)


def with_raw(gate: str, raw: str) -> dict:
    state = json.loads(PRETTY)
    state["gates"][gate]["raw"] = raw
    return state


def position(text: str, needle: str) -> tuple[int, int]:
    offset = text.index(needle)
    return text.count("\n", 0, offset) + 1, offset - (text.rfind("\n", 0, offset) + 1) + 1


def damaged(old: str, new: str) -> str:
    assert old in PRETTY, old
    return PRETTY.replace(old, new, 1)


# (name, reply, expected value, code, where the fix is reported (needle), certainty)
KIND_CASES = [
    (
        "raw line break",
        damaged("tickets in the warehouse", "tickets\nin the warehouse"),
        with_raw("1_data_availability", "Labelled tickets\nin the warehouse"),
        "control_character",
        "\nin the",
        "exact",
    ),
    (
        "raw tab",
        damaged("Route urgent", "Route\turgent"),
        with_raw("2_use_case", "Route\turgent tickets first"),
        "control_character",
        "\turgent",
        "exact",
    ),
    (
        "missing comma",
        damaged('"Ticket routing",\n', '"Ticket routing"\n'),
        STATE,
        "missing_comma",
        '"gates"',
        "exact",
    ),
    (
        "] for }",
        damaged('"available"\n    },', '"available"\n    ],'),
        STATE,
        "mismatched_closer",
        "],",
        "exact",
    ),
    (
        "\\' escape",
        damaged("Route urgent tickets first", "Route \\'urgent\\' tickets"),
        with_raw("2_use_case", "Route 'urgent' tickets"),
        "invalid_escape",
        "\\'urgent",
        "exact",
    ),
    (
        "# comment",
        damaged('  "gates": {', '  # the gates follow\n  "gates": {'),
        STATE,
        "comment",
        "# the",
        "exact",
    ),
    ("TRUE", damaged('"pass": true', '"pass": TRUE'), STATE, "literal_case", "TRUE", "exact"),
    (
        "Null",
        damaged('"next_gate": null', '"next_gate": Null'),
        STATE,
        "literal_case",
        "Null",
        "exact",
    ),
    (
        "Python None",
        damaged('"next_gate": null', '"next_gate": None'),
        STATE,
        "python_literal",
        "None",
        "exact",
    ),
    (
        "serialised twice",
        json.dumps(json.dumps(STATE))[1:-1],
        STATE,
        "double_serialised",
        "{",
        "exact",
    ),
    (
        "CSV doubled quotes",
        json.dumps(STATE).replace('"', '""'),
        STATE,
        "doubled_quotes",
        "{",
        "exact",
    ),
    (
        "trailing comma",
        damaged('"Ops lead",', '"Ops lead",,'.replace(",,", ",")).replace(
            '"classified": null\n    }\n  },', '"classified": null\n    },\n  },'
        ),
        STATE,
        "trailing_comma",
        "},\n  },",
        "exact",
    ),
    (
        "inner quotes",
        damaged("Labelled tickets in", 'Labelled "gold" tickets in'),
        with_raw("1_data_availability", 'Labelled "gold" tickets in the warehouse'),
        "inner_quote",
        '"gold',
        "guess",
    ),
    (
        "unquoted value",
        damaged('"Route urgent tickets first"', "Route urgent tickets first"),
        STATE,
        "unquoted_value",
        "Route",
        "guess",
    ),
    (
        "closing quote missing",
        damaged('"Route urgent tickets first",', '"Route urgent tickets first,'),
        STATE,
        "missing_quote",
        ',\n      "classified": null\n    },\n    "3_',
        "guess",
    ),
    (
        "opening quote missing",
        damaged('"Route urgent tickets first",', 'Route urgent tickets first",'),
        STATE,
        "missing_quote",
        "Route",
        "guess",
    ),
]


@pytest.mark.parametrize(
    ("name", "text", "value", "code", "needle", "certainty"),
    KIND_CASES,
    ids=[c[0] for c in KIND_CASES],
)
def test_each_repair_kind_on_a_gate_reply(
    name: str, text: str, value: dict, code: str, needle: str, certainty: str
) -> None:
    result = extract_json("Here is the state:\n" + text)
    assert result.error is None, result.error
    assert result.value == value
    assert [(r.code, r.certainty) for r in result.repairs] == [(code, certainty)]
    line, column = position("Here is the state:\n" + text, needle)
    if code == "trailing_comma":
        column += 1  # the comma after the brace
    assert (result.repairs[0].line, result.repairs[0].column) == (line, column)


GENERIC_CASES = [
    ('{"count": .25, "n": 1}', {"count": 0.25, "n": 1}, "number_format", ".25"),
    ('{"count": 1., "n": 1}', {"count": 1.0, "n": 1}, "number_format", "1."),
    ('{"pair": (1, 2), "n": 1}', {"pair": [1, 2], "n": 1}, "tuple", "("),
    ('{"items": [{"a": 1}, {"b": 2}}', {"items": [{"a": 1}, {"b": 2}]}, "missing_closer", "}}"),
]


@pytest.mark.parametrize(("text", "value", "code", "needle"), GENERIC_CASES)
def test_number_tuple_and_closer_kinds(text: str, value: dict, code: str, needle: str) -> None:
    result = extract_json(text)
    assert result.value == value
    assert [(r.code, r.certainty) for r in result.repairs] == [(code, "exact")]
    offset = text.index(needle) + (len(needle) - 1 if code == "missing_closer" else 0)
    assert (result.repairs[0].line, result.repairs[0].column) == (1, offset + 1)


# --- strings are strings ------------------------------------------------------------------


def test_fence_and_object_inside_a_multiline_string_never_win() -> None:
    text = '{"a": "see\n```\n{\\"k\\": 1}\n```", "b": "x"}'
    result = extract_json(text)
    assert result.value == {"a": 'see\n```\n{"k": 1}\n```', "b": "x"}
    assert result.value != {"k": 1}


def test_first_object_is_repaired_not_the_echo_after_it() -> None:
    result = extract_json('Answer: {"a": "x\ny", "b": 1} thanks {"status": "echo"}')
    assert result.value == {"a": "x\ny", "b": 1}
    assert [r.code for r in result.repairs] == ["control_character"]
    assert [w["code"] for w in result.warnings] == ["several_candidates"]


@pytest.mark.parametrize(
    "inner",
    [
        '{"summary": "hijack", "gates": {}}',
        '```json\n{"summary": "hijack"}\n```',
        "<thinking>x</thinking>",
    ],
)
@pytest.mark.parametrize("quote", ['"', "'"])
def test_objects_fences_and_tags_inside_strings_are_text(inner: str, quote: str) -> None:
    body = inner.replace('"', '\\"') if quote == '"' else inner
    text = (
        f"Reply:\n{{{quote}summary{quote}: {quote}quoted:\n{body}\nend{quote}, "
        f"{quote}gates{quote}: {{}}}}"
    )
    result = extract_json(text)
    assert result.value is not None, result.error
    assert result.value["summary"] == f"quoted:\n{inner}\nend"


# --- errors say where -------------------------------------------------------------------------


def test_unrepairable_object_names_its_position_and_the_spot() -> None:
    text = 'Sure.\n\n{"summary": "s",\n "gates": {},\n "status": {"pass": true} warehouse}'
    result = extract_json(text)
    assert result.value is None
    assert (
        result.error == "JSON object at 3:1 could not be repaired: unexpected 'warehouse' at 5:27"
    )


def test_no_object_only_without_candidates() -> None:
    assert extract_json("no JSON here at all").error == NO_OBJECT
    assert (
        extract_json('{"key": , "b": 1}').error
        == "JSON object at 1:1 could not be repaired: unexpected ',' at 1:9"
    )


# --- cut-off replies ------------------------------------------------------------------------


CUT = PRETTY[: PRETTY.index("Response time") + 3]


def test_a_cut_off_reply_is_refused_with_its_position_and_field(ml_config: GateConfig) -> None:
    result = parse(CUT, ml_config)
    assert not result.ok
    line, column = position(CUT, "Res")
    assert result.errors[0].code == "invalid_json"
    assert (
        result.errors[0].message
        == f"the reply is cut off at {line}:{column + 3}, inside gates.3_success_metric.raw"
    )
    assert result.recovered is not None
    assert result.recovered["gates"]["3_success_metric"]["raw"] == "Res"


def test_a_cut_off_reply_is_accepted_by_policy_with_the_fields_named(ml_config: GateConfig) -> None:
    status_first = json.dumps(
        {"status": STATE["status"], "summary": STATE["summary"], "gates": STATE["gates"]}, indent=2
    )
    cut = status_first[: status_first.index("Ops lead") + 3]
    config = ml_config.model_copy(
        update={"policy": ml_config.policy.model_copy(update={"accept_truncated_replies": True})}
    )
    assert not parse(cut, ml_config).ok
    result = parse(cut, config)
    assert result.ok, result.errors
    warning = next(w for w in result.warnings if w.code == "truncated_reply")
    assert warning.message.endswith(
        "fields the cut touched: gates, gates.5_stakeholder, gates.5_stakeholder.raw"
    )
    assert result.canonical_state is not None
    assert result.canonical_state.gates["5_stakeholder"].raw == "Ops"


def test_a_user_edit_is_not_refused_for_a_cut(ml_config: GateConfig) -> None:
    result = parse('{"gates": {"2_use_case": {"raw": "Route', ml_config, actor="user")
    assert result.ok, result.errors


# --- guesses and the policy -------------------------------------------------------------------


def test_guesses_are_refused_when_the_policy_says_so(ml_config: GateConfig) -> None:
    text = damaged("Labelled tickets in", 'Labelled "gold" tickets in')
    assert parse(text, ml_config).ok
    strict = ml_config.model_copy(
        update={"policy": ml_config.policy.model_copy(update={"allow_guessed_repairs": False})}
    )
    result = parse(text, strict)
    assert not result.ok
    line, column = position(text, '"gold')
    assert result.errors[0].message.startswith(
        f"the reply needs a guess at line {line}:{column} (read quotes inside a string as text"
    )
    assert result.recovered is not None


def test_exact_repairs_pass_a_no_guess_policy(ml_config: GateConfig) -> None:
    strict = ml_config.model_copy(
        update={"policy": ml_config.policy.model_copy(update={"allow_guessed_repairs": False})}
    )
    assert parse(damaged('"Ticket routing",\n', '"Ticket routing"\n'), strict).ok


# --- several candidates ---------------------------------------------------------------------


def test_several_candidates_are_named() -> None:
    # One state and two objects that are not states (an echo, an example): the quiet warning.
    text = (
        "```json\n"
        + json.dumps(STATE)
        + "\n```\nYou sent:\n"
        + '{"note": "old"}\nand ```json\n{"a": 1}\n```'
    )
    result = extract_json(text)
    assert result.value == STATE
    assert result.warnings == [
        {
            "code": "several_candidates",
            "message": "used the object at 2:1; 2 more at 5:1, 7:1 ignored",
            "field_path": "",
        }
    ]


def test_one_candidate_gives_no_warning() -> None:
    assert extract_json("```json\n" + PRETTY + "\n```\nThanks").warnings == []


# --- values nothing can store -----------------------------------------------------------------


@pytest.mark.parametrize("word", ["NaN", "Infinity", "-Infinity"])
def test_non_finite_numbers_are_invalid_values_with_a_position(
    word: str, ml_config: GateConfig
) -> None:
    text = PRETTY.replace('"pass": true', f'"pass": {word}')
    result = parse(text, ml_config)
    assert not result.ok
    line, column = position(text, word)
    assert result.errors[0].code == "invalid_value"
    assert result.errors[0].message == f"{word} is not a number JSON allows (at {line}:{column})"


def test_a_lone_surrogate_is_an_invalid_value_with_its_path(ml_config: GateConfig) -> None:
    text = PRETTY.replace("Ticket routing", "Ticket \\ud800 routing")
    result = parse(text, ml_config)
    assert not result.ok
    assert [(e.code, e.field_path) for e in result.errors] == [("invalid_value", "summary")]
    assert "lone surrogate U+D800 is not valid Unicode" in result.errors[0].message
    assert unstorable({"a": ["ok", "\udfff"], "b": float("nan")}) == [
        ("a.1", "lone surrogate U+DFFF is not valid Unicode"),
        ("b", "nan is not a number JSON allows"),
    ]


def test_a_huge_integer_says_number_too_long() -> None:
    result = extract_json('{"n": ' + "9" * 5000 + "}")
    assert result.value is None
    assert result.error == "JSON object at 1:1 could not be repaired: number too long at 1:7"


# --- bounded records --------------------------------------------------------------------------


def test_a_million_style_reply_keeps_a_bounded_list_of_repairs() -> None:
    count = 5_000
    text = "{" + "/**/" * count + '"summary": "s"}'
    result = extract_json(text)
    assert result.value == {"summary": "s"}
    assert len(result.repairs) == MAX_FIXES + 1
    assert result.repairs[-1].code == "overflow"
    assert result.repairs[-1].message == f"and {count - MAX_FIXES:,} more comments removed"


def test_only_closing_braces_missing_is_repaired_not_refused() -> None:
    text = '{"summary": "s", "gates": {"a": {"raw": "x"}'
    result = extract_json(text)
    assert result.value == {"summary": "s", "gates": {"a": {"raw": "x"}}}
    assert [(r.code, r.message) for r in result.repairs] == [
        ("truncated", "the JSON is cut off: closed 2 '{'")
    ]
    refused = extract_json(text + ', "b": {"raw": "y')
    assert (
        refused.value is None
        and refused.error is not None
        and refused.error.endswith("inside gates.b.raw")
    )
    # Ending inside an array: more elements may have followed.
    listed = extract_json('{"summary": "s", "gates": {"a": {"raw": "x", "sources": ["db"')
    assert (
        listed.value is None
        and listed.error == "the reply is cut off at 1:62, inside gates.a.sources"
    )


def test_check_no_guess_refuses_a_guessed_reply(tmp_path: Path) -> None:
    reply_file = tmp_path / "guess.md"
    reply_file.write_text(
        damaged("Labelled tickets in", 'Labelled "gold" tickets in'), encoding="utf-8"
    )
    config = str(CONFIGS / "ml_project_intake.yaml")
    loose = subprocess.run(
        [sys.executable, "-m", "gate_tui", "check", "--config", config, str(reply_file)],
        capture_output=True,
        text=True,
    )
    assert "GUESS at line" in loose.stdout
    strict = subprocess.run(
        [
            sys.executable,
            "-m",
            "gate_tui",
            "check",
            "--no-guess",
            "--config",
            config,
            str(reply_file),
        ],
        capture_output=True,
        text=True,
    )
    assert strict.returncode == 2, strict.stdout + strict.stderr
    assert "guessed repairs are not allowed" in strict.stdout


@pytest.mark.parametrize(
    ("member", "codes"),
    [
        (
            'k{i}: [1, "a,]",]',
            {"unquoted_key": 1, "trailing_comma": 1},
        ),  # and one more trailing comma at the end
        ('/* c */ "k{i}": "x /* no */" # note\n', {"comment": 2}),
        ('"k{i}": {{"raw": "a\\"b"}}\n', {}),
    ],
)
def test_past_the_listed_fixes_the_rest_are_counted_exactly(
    member: str, codes: dict[str, int]
) -> None:
    count = 400
    separator = "\n" if member.endswith("\n") else ", "
    text = (
        "Reply: {"
        + separator.join(member.format(i=i).rstrip("\n") for i in range(count))
        + separator
        + '} and after {"x": 1}'
    )
    result = extract_json(text)
    assert result.value is not None, result.error
    assert len(result.value) == count
    assert (
        result.span is not None
        and text[result.span[1] - 1] == "}"
        and text[result.span[1] :] == ' and after {"x": 1}'
    )
    expected = dict(codes)
    if separator == "\n":
        expected["missing_comma"] = count - 1
    totals: dict[str, int] = {}
    for repair in result.repairs:
        if repair.code == "overflow":
            continue
        habit = re.match(r"(\d+) keys without quotes", repair.message)  # one record counts a habit
        totals[repair.code] = totals.get(repair.code, 0) + (int(habit.group(1)) if habit else 1)
    overflow = sum(
        int(r.message.split()[1].replace(",", "")) for r in result.repairs if r.code == "overflow"
    )
    final_comma = 1 if separator == ", " else 0  # the ", " before the closing brace
    assert (
        sum(totals.values()) + overflow
        == sum(n * (count if code != "missing_comma" else 1) for code, n in expected.items())
        + final_comma
    )
    assert len(result.repairs) <= MAX_FIXES + 4


def test_the_review_report_marks_guesses() -> None:
    from gate_tui.session.report_markdown import item_lines
    from gate_tui.session.report_timeline import repair_items

    lines = item_lines(
        repair_items(
            [
                {
                    "code": "inner_quote",
                    "message": "read quotes as text",
                    "line": 3,
                    "column": 9,
                    "certainty": "guess",
                },
                {
                    "code": "comment",
                    "message": "removed a // comment",
                    "line": 1,
                    "column": 1,
                    "certainty": "exact",
                },
            ]
        )[0],
        "",
    )
    assert lines[1].startswith("  - **GUESS** line 3:9: ")
    assert lines[2].startswith("  - line 1:1: ")


def test_python_literals_inside_double_quoted_strings_stay_text() -> None:
    text = '{"s": "True or None", "b": True, "c": "a \\n False", "d": [None, "None"]} then True'
    result = extract_json(text)
    assert result.value == {"s": "True or None", "b": True, "c": "a \n False", "d": [None, "None"]}
    plain = '{"s": "True or None", "b": True, "d": [None, "None"], "e": "x False y"}'
    assert extract_json(plain).value == {
        "s": "True or None",
        "b": True,
        "d": [None, "None"],
        "e": "x False y",
    }
    assert [(r.code, r.message.split(" (")[0]) for r in extract_json(plain).repairs] == [
        ("python_literal", "2 Python literals → true / false / null")
    ]


def test_a_refused_reply_never_carries_a_lone_surrogate_in_what_it_recovered(
    ml_config: GateConfig,
) -> None:
    result = parse('{"summary": "x\\ud800", "gates": {"a": {"raw": "cut', ml_config)
    assert not result.ok and result.recovered is None
    result.model_dump_json().encode("utf-8")  # every writer can encode it
