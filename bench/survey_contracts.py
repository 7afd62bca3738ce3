"""Load every JSON schema of a folder as a contract and count the outcomes (a real-world check).

Run on a checkout of JSON Schema Store, for example::

    python bench/survey_contracts.py schemastore/src/schemas/json \\
        [--schemas schemastore/src/schemas/json]

It prints how many load, the drafts they were read as, and each kind of refusal with its
count and one example, so a change to loading can be judged on schemas nobody here wrote.
Nothing is fetched: references outside a file's folder (or the ``--schemas`` store) are refused.
"""

from __future__ import annotations

import argparse
import collections
import os
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, help="a folder of *.json schemas")
    parser.add_argument("--schemas", help="a schema store folder for remote references")
    args = parser.parse_args()
    os.environ["GATE_TUI_CACHE_DIR"] = tempfile.mkdtemp()  # measure loading, not the cache
    from gate_tui.contracts.drafts import DRAFT_NAMES
    from gate_tui.contracts.loading import LoadOptions, check_contract_file

    outcomes: collections.Counter[str] = collections.Counter()
    drafts: collections.Counter[str] = collections.Counter()
    examples: dict[str, str] = {}
    files = sorted(args.folder.glob("*.json"))
    for path in files:
        contract, problems = check_contract_file(path, LoadOptions(schemas=args.schemas))
        if contract is not None:
            drafts[DRAFT_NAMES[contract.draft]] += 1
            continue
        kind = re.sub(r'"[^"]*"', "…", problems[0].message)[:60]
        outcomes[kind] += 1
        examples.setdefault(kind, f"{path.name}: {problems[0].message}"[:200])
    loaded = sum(drafts.values())
    print(
        f"{loaded} of {len(files)} load ({loaded / max(1, len(files)):.0%}); drafts: "
        f"{dict(drafts.most_common())}"
    )
    for kind, count in outcomes.most_common():
        print(f"{count:5}  {examples[kind]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
