"""``--draft N`` and ``--schemas DIR``: how every command that loads a contract reads it.

Kept apart from :mod:`gate_tui.cli.contract_check` because the editor's parser adds these
flags on every start, and that module imports the checker (pydantic), which the editor's
first frame must not wait for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gate_tui.contracts.loading import LoadOptions


def add_contract_options(parser: Any) -> None:
    """``--draft N`` and ``--schemas DIR``: how a contract is read (every command that loads
    one)."""
    parser.add_argument(
        "--draft",
        type=draft_argument,
        metavar="N",
        help=(
            "JSON Schema draft of a contract without $schema: 4, 6, 7, 2019-09 or 2020-12 (default "
            "2020-12)"
        ),
    )
    parser.add_argument(
        "--schemas",
        metavar="DIR",
        help=(
            "folder of schema files whose $id answer a contract's remote $refs (nothing is ever "
            "fetched over the network)"
        ),
    )


def draft_argument(word: str) -> int:
    """argparse type of ``--draft``: a draft number, or a usage error naming the choices."""
    import argparse

    from gate_tui.contracts.drafts import DRAFT_CHOICES, draft_option

    draft = draft_option(word)
    if draft is None:
        raise argparse.ArgumentTypeError(f"{word!r} is not a draft ({DRAFT_CHOICES})")
    return draft


def load_options(ns: Any) -> LoadOptions:
    """The contract reading options given on the command line (none when the command has no such
    flags)."""
    from gate_tui.contracts.loading import LoadOptions

    return LoadOptions(draft=getattr(ns, "draft", None), schemas=getattr(ns, "schemas", None))
