"""``from gate_tui import extract_json`` stays light (issue 20): neither pydantic nor the
validation layer is imported to extract, and ``parse`` loads them on its first call.
(The time it takes is a bench row, bench/bench_parse.py: tests never assert on time.)
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import json, sys
heavy = ("pydantic", "gate_tui.models", "gate_tui.parsing.validation", "gate_tui.parsing.pipeline")
loaded = lambda: [name for name in heavy if name in sys.modules]
from gate_tui import extract_json, parse
steps = {"import": loaded()}
found = extract_json("Sure:\\n```json\\n{summary: 'x', 'gates': {},}\\n```")
steps["extract"] = loaded()
steps["value"] = found.value
steps["records"] = [r["code"] for r in found.repair_records]
from gate_tui import load_config
config = load_config(sys.argv[1])
result = parse('{"summary": "x", "gates": {}}', config)
steps["parse"] = loaded()
steps["parsed"] = result.errors[0].code if result.errors else "ok"
print(json.dumps(steps))
"""


def test_extraction_imports_neither_pydantic_nor_validation() -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(ROOT / "sample_configs" / "ml_project_intake.yaml")],
        capture_output=True, text=True, cwd=ROOT, timeout=120, check=True,
    )
    steps = json.loads(done.stdout)
    assert steps["import"] == [] and steps["extract"] == []
    assert steps["value"] == {"summary": "x", "gates": {}}
    assert steps["records"] == ["unquoted_key", "single_quotes", "trailing_comma"]
    assert set(steps["parse"]) == {
        "pydantic",
        "gate_tui.models",
        "gate_tui.parsing.validation",
        "gate_tui.parsing.pipeline",
    }
    assert steps["parsed"] == "missing_required_gate"  # the real pipeline ran on the first call
