"""The registry of ``gate-tui`` subcommands: one row per subcommand, the only list of them.

The dispatcher (:mod:`gate_tui.cli.main`), the editor's ``--help`` epilog and the
subcommands' own parsers all come from :data:`SUBCOMMANDS`, so adding a subcommand is one
new module under :mod:`gate_tui.cli.commands` and one row here. A row names its module
instead of importing it: a command's module (and what it needs: pydantic, the parser, the
session layer) is imported only when that command runs, and never on the editor's path.

A command module provides ``DESCRIPTION`` (the long help), ``configure(parser)`` (adds its
arguments) and ``run(ns) -> int`` (the exit status); it may provide ``EPILOG``.
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType
from typing import NamedTuple


class Subcommand(NamedTuple):
    """One subcommand: its name, its one-line help and the module that implements it."""

    name: str
    help: str
    module: str

    def load(self) -> ModuleType:
        """The command's module (imported now, on first use)."""
        return import_module(self.module)


SUBCOMMANDS: tuple[Subcommand, ...] = (
    Subcommand(
        "check",
        "check model replies headlessly: PASS / NO PASS, errors, repairs",
        "gate_tui.cli.commands.check",
    ),
    Subcommand(
        "schema",
        "print the JSON Schema of a valid state (structured outputs)",
        "gate_tui.cli.commands.schema",
    ),
    Subcommand(
        "prompt",
        "print a system-prompt block describing the gates and the JSON shape",
        "gate_tui.cli.commands.prompt",
    ),
    Subcommand(
        "validate-config",
        "check config files and list every problem with its location",
        "gate_tui.cli.commands.validate_config",
    ),
    Subcommand(
        "validate-contract",
        "check contract files (JSON Schema) and list every problem with its location",
        "gate_tui.cli.commands.validate_contract",
    ),
    Subcommand(
        "ask",
        "ask a model (OpenAI-compatible endpoint) about a session; the system decides",
        "gate_tui.cli.commands.ask",
    ),
    Subcommand("sessions", "list saved editor sessions", "gate_tui.cli.commands.sessions"),
    Subcommand("report", "write a report of a saved session", "gate_tui.cli.commands.report"),
    Subcommand(
        "stats",
        "statistics of an eval run: claims vs decisions, rates, codes, agreement; or two runs "
        "compared",
        "gate_tui.cli.commands.stats",
    ),
    Subcommand(
        "review",
        "review an eval run's results: filters, previews, verdicts",
        "gate_tui.cli.commands.review",
    ),
    Subcommand("serve", "serve the editor to a web browser (demos)", "gate_tui.cli.commands.serve"),
)
BY_NAME = {command.name: command for command in SUBCOMMANDS}


def epilog() -> str:
    """The editor's ``--help`` epilog: every subcommand with its help line."""
    width = max(len(command.name) for command in SUBCOMMANDS) + 2
    rows = "".join(f"  {command.name:<{width}} {command.help}\n" for command in SUBCOMMANDS)
    return (
        "commands (gate-tui COMMAND --help for each):\n"
        + rows
        + (
            "\nexit status of check: 0 all PASS, 1 some NO PASS, 2 some reply invalid, 3 usage or "
            "config error\n"
        )
    )
