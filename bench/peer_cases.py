"""Other projects' repair cases through gate-tui's extractor: how many agree.

Reads the test files of a checkout of another JSON-repair project whose tests state
``repair_json(BROKEN, …) == EXPECTED`` with literal arguments (json_repair's do), and runs
each ``BROKEN`` through :func:`gate_tui.extract_json` (``want="any"``; a cut-off text is
refused, as gate-tui's default is, unless ``--accept-truncated``). Nothing of theirs is
stored here: point it at a checkout.

Each case is one of:

- ``agree``: the same value;
- ``refused``: gate-tui says it cannot read the text with certainty (never a wrong object);
- ``differ``: another value (listed, to be read by a person: a different reading of a
  broken text is not always wrong).

Cases whose expected value is empty (the text holds no JSON) count as ``agree`` when
gate-tui finds none either. Run:
``python bench/peer_cases.py [--accept-truncated] PATH/json_repair/tests``.
"""

from __future__ import annotations

import ast
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gate_tui.parsing.extraction import extract_json  # noqa: E402

NOTHING = object()
ACCEPT_CUT = "--accept-truncated" in sys.argv


def cases(folder: Path) -> list[tuple[str, str, Any]]:
    """``(file:line, broken text, expected value or NOTHING)`` of every literal case."""
    found = []
    for path in sorted(folder.glob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Compare) and isinstance(node.left, ast.Call)):
                continue
            call, right = node.left, node.comparators[0]
            name = getattr(call.func, "id", getattr(call.func, "attr", ""))
            if name != "repair_json" or not call.args or len(node.ops) != 1:
                continue
            keywords = {k.arg: k.value for k in call.keywords}
            if set(keywords) - {"return_objects"}:
                continue  # other options (a schema, strictness, …): not the same question
            try:
                broken = ast.literal_eval(call.args[0])
                expected = ast.literal_eval(right)
            except ValueError:
                continue
            if not isinstance(broken, str):
                continue
            objects = "return_objects" in keywords and ast.literal_eval(keywords["return_objects"])
            if not objects:
                if not isinstance(expected, str):
                    continue
                try:
                    expected = json.loads(expected) if expected.strip() else NOTHING
                except json.JSONDecodeError:
                    continue
            elif expected in ("", None):
                expected = NOTHING
            found.append((f"{path.name}:{node.lineno}", broken, expected))
    return found


def main() -> int:
    args = [arg for arg in sys.argv[1:] if arg != "--accept-truncated"]
    if len(args) != 1 or not Path(args[0]).is_dir():
        print(__doc__.strip().splitlines()[-1].strip())
        return 2
    counts = {"agree": 0, "refused": 0, "differ": 0}
    differ = []
    for where, broken, expected in cases(Path(args[0])):
        result = extract_json(broken, want="any", accept_truncated=ACCEPT_CUT)
        if result.error is not None:
            kind = "agree" if expected is NOTHING else "refused"
        elif expected is not NOTHING and result.value == expected:
            kind = "agree"
        else:
            kind = "differ"
            differ.append((where, broken, expected, result.value))
        counts[kind] += 1
    total = sum(counts.values())
    print(f"{total} cases: " + ", ".join(f"{count} {kind}" for kind, count in counts.items()))
    for where, broken, expected, value in differ:
        shown = "nothing" if expected is NOTHING else json.dumps(expected)[:80]
        print(f"  differ {where}: {broken[:60]!r} → {json.dumps(value)[:80]} (theirs {shown})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
