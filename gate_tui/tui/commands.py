"""The command palette provider: every editor action by name, the session's extras, and
"Go to gate" for every gate (how to find one gate among 200 by key or label).

Session actions that the Session API may or may not offer yet ("Save state as…",
"Export state JSON", "Export review report", "Copy state to clipboard") are listed
only when the session object has the method behind them.

Gate keys, labels and questions come from a config file, so they are shown as literal
:class:`Content`: Textual's own ``Matcher.highlight`` and ``Hit.help`` parse strings as
markup, so gate hits are highlighted here and carry their question in the prompt.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from textual.command import Hit
from textual.content import Content
from textual.fuzzy import Matcher

from gate_tui.tui.keymap import ACTIONS
from gate_tui.tui.palette import ActionPalette, PaletteEntry
from gate_tui.tui.text import visible

if TYPE_CHECKING:
    from gate_tui.views import ConfigView


@runtime_checkable
class PaletteHost(Protocol):
    """What the palette needs of the editor screen: its config. Everything else is an action
    name."""

    config: ConfigView


PaletteCommand = PaletteEntry
"""One palette entry of the gate editor (the shared shape)."""


FILE_COMMANDS: tuple[PaletteCommand, ...] = (
    PaletteCommand(
        "Save state as…", "Write the current state to a file you name", "file('save_as')"
    ),
    PaletteCommand(
        "Export state JSON",
        "Write the canonical state as JSON next to the session",
        "file('export_state')",
    ),
    PaletteCommand(
        "Export review report",
        "Write the review report (HTML for .html, text for .txt, else Markdown)",
        "file('export_report')",
    ),
    PaletteCommand(
        "Open state…", "Load a state file as a user edit (the system decides)", "file('open_state')"
    ),
    PaletteCommand(
        "Copy state to clipboard", "Copy the canonical state JSON (OSC 52)", "file('copy_state')"
    ),
)
SKIPPED = {"command_palette", "quit"}  # Textual's own provider lists Quit already


OVERRIDES: tuple[PaletteCommand, ...] = (
    PaletteCommand(
        "Override decision: PASS",
        "A user override, sent through the parser (this config's policy allows it)",
        "override('pass')",
    ),
    PaletteCommand(
        "Override decision: NO PASS",
        "A user override, sent through the parser (this config's policy allows it)",
        "override('no_pass')",
    ),
    PaletteCommand("Clear the override", "Let the gates decide again", "override('clear')"),
)


def palette_commands(config: ConfigView) -> list[PaletteCommand]:
    """Every named action, the file commands, and the overrides when the config's policy
    allows them."""
    commands = [PaletteCommand(a.name, a.help, a.action) for a in ACTIONS if a.id not in SKIPPED]
    commands.extend(FILE_COMMANDS)
    if config.policy.allow_user_override:
        commands.extend(OVERRIDES)
    return commands


def gate_title(config: ConfigView, key: str) -> str:
    """``Go to gate 2_use_case — Use case``: what a gate hit shows and is matched on."""
    label = config.gates[key].label
    return visible(f"Go to gate {key}" + (f" — {label}" if label else ""), one_line=True)


def highlighted(matcher: Matcher, text: str) -> Content:
    """``text`` as literal Content with the matched characters styled (cf. Matcher.highlight)."""
    content = Content(text)
    _score, offsets = matcher.fuzzy_search.match(matcher.query, text)
    for offset in offsets:
        if not text[offset].isspace():
            content = content.stylize(matcher.match_style, offset, offset + 1)
    return content


class GateCommands(ActionPalette):
    """:func:`palette_commands` and "Go to gate", run on the editor screen."""

    def _config(self) -> ConfigView:
        host = self.screen
        assert isinstance(host, PaletteHost)
        return host.config

    def entries(self) -> list[PaletteEntry]:
        return palette_commands(self._config())

    def extra_hits(self, matcher: Matcher) -> Iterator[Hit]:
        config = self._config()
        for key in config.gate_order:
            title = gate_title(config, key)
            score = matcher.match(title)
            if score > 0:
                question = Content.styled(visible(config.gates[key].question, one_line=True), "dim")
                prompt = Content.assemble(highlighted(matcher, title), "\n", question)
                yield Hit(
                    score,
                    prompt,
                    self._runner(PaletteEntry(title, "", f"go_to_gate({key!r})")),
                    text=title,
                )
