"""Contract mode end to end in a real terminal (tmux): the CONFIG sniffed as a contract, a
bracketed paste, Ctrl+J, then ``kill -9`` and a restart that resumes what was shown."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from tests.helpers.tmux import Tmux, gate_tui, tmux  # noqa: F401 - the fixture is used by name

pytestmark = pytest.mark.tmux

CONTRACTS = Path(__file__).resolve().parents[2] / "sample_configs" / "contracts"


def test_contract_mode_in_a_real_terminal_survives_kill_9(tmux: Tmux, tmp_path: Path) -> None:  # noqa: F811
    env = {
        "GATE_TUI_STATE_DIR": str(tmp_path / "state"),
        "TERM": "xterm-256color",
        "GATE_TUI_NO_BLINK": "1",
    }
    tmux.start(gate_tui(CONTRACTS / "guardian_report.yaml"), env)  # a $schema file given as CONFIG
    tmux.wait_for(
        lambda s: "contract: Guardian report" in s and "NO VALUE YET" in s, "the contract editor"
    )
    tmux.paste(CONTRACTS / "replies" / "guardian_report_lying.md")
    tmux.wait_for(lambda s: "Preview: INVALID (1 error)" in s, "the live preview")
    tmux.run("send-keys", "C-j")
    # the decision panel names the contract's verdict field
    tmux.wait_for(
        lambda s: "required_actions [2]  ✗ rule_failed" in s and 'verdict: "PASS"' in s,
        "the value tree with the rule on its node",
    )
    os.kill(tmux.app_pid(), signal.SIGKILL)
    tmux.wait_for(lambda s: "EXITED=" in s, "the killed editor")
    tmux.kill()
    again = Tmux()
    try:
        again.start(gate_tui("--contract", CONTRACTS / "guardian_report.yaml"), env)
        # the notice toast may cover the decision panel; the reply pane lists the current errors
        again.wait_for(
            lambda s: (
                "required_actions [2]  ✗ rule_failed" in s
                and "Current value: INVALID (1 error)" in s
                and "resumed" in s
            ),
            "the resumed session, its notice and the current errors",
        )
    finally:
        again.kill()
