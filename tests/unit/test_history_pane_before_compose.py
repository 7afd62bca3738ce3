"""A transition recorded while the lazily mounted history pane is not composed yet.

Seen in a full-suite run on the loaded 2-core machine: an edit committed right after
start-up reached ``HistoryPane.show`` before the pane had composed its children, and
``query_one('#diff')`` raised ``NoMatches`` out of ``commit_pending`` (in a user's editor:
a crash). The pane now keeps the transition and shows it once it is ready.
"""

from __future__ import annotations

import json

from gate_tui.config.loading import load_config
from gate_tui.parsing.pipeline import parse
from gate_tui.session.live import Session
from gate_tui.tui.widgets.history_pane import HistoryPane
from tests.tui_helpers import ML_CONFIG, full_state_for


def test_show_before_compose_keeps_the_last_transition_and_does_not_raise() -> None:
    config = load_config(ML_CONFIG)
    session = Session.in_memory(config, ML_CONFIG)
    patch = json.dumps(full_state_for(config))
    transition = session.accept(parse(patch, config, session.state, "user"), patch, "user")
    pane = HistoryPane(id="history-pane")  # created, not composed (as between mount and compose)
    pane.show([transition])
    assert pane._last is transition
