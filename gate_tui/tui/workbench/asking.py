"""The model requests of one reply workbench, without Textual: the Asker its settings make
(:func:`asker_from_settings`), what it keeps between requests (:class:`AskState`), how a
stream's end is marked in the pane and what the toast says when a request ended
(:func:`ask_report`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from gate_tui.tui.text import visible

if TYPE_CHECKING:
    from textual.timer import Timer
    from textual.worker import Worker

    from gate_tui.llm.asking import Asker, Call, Target
    from gate_tui.tui.ask_run import AskRun

AUTO_RETRIES = 2
TICK_S = 0.1  # appending and redrawing 10 times a second keeps up with any stream
NO_MODEL_HINT = (
    "Is the model server running at that address? Check OPENAI_BASE_URL or base_url under"
    " [model] in {settings}; {key} opens the message box again with your message."
)


def asker_from_settings(target: Target) -> tuple[Asker | None, list[str], str | None]:
    """The Asker that flags/env/settings make for ``target``, the warnings to show first, and the
    problem that keeps the model from being asked (then no Asker)."""
    from gate_tui.llm.asking import Asker
    from gate_tui.llm.endpoint import insecure_warning, url_problem
    from gate_tui.llm.settings import load_settings

    loaded = load_settings()
    problem = loaded.settings.missing(flags=False) or url_problem(loaded.settings.base_url)
    notes = [*loaded.problems, insecure_warning(loaded.settings.base_url)]
    notes = [note for note in [*notes, loaded.settings.key_warning()] if note]  # a trimmed key
    if problem is not None:
        return None, notes, problem
    return Asker(target, loaded.settings), notes, None


@dataclass
class AskState:
    """The model requests of one workbench."""

    asker: Asker | None = None
    run: AskRun | None = None
    worker: Worker[Any] | None = None
    timer: Timer | None = None
    auto_retry: bool = False
    rounds: int = 0  # automatic retries done for the current message
    sub_title: str | None = None  # the title bar's text before the request
    last_message: str = ""  # what the user last typed (F6 after a failure reopens with it)

    def call_for(self, text: str) -> int | None:
        """The seq of the model call whose reply ``text`` is (unchanged), else None."""
        call = self.run.call if self.run is not None else None
        if call is None or call.outcome.text != text:
            return None
        return call.seq

    def kept_message(self) -> str:
        """The message to reopen with: the last one, when its request got no whole reply
        (it failed, or Esc cancelled it)."""
        run = self.run
        failed = (
            run is not None
            and not run.running
            and (run.cancelled or run.call is None or run.call.result is None)
        )
        return self.last_message if failed else ""

    @property
    def running(self) -> bool:
        return self.run is not None and self.run.running


def stream_mark(call: Call) -> str | None:
    """The pane's border note when a stream was cut short (None: it ended normally)."""
    if call.outcome.cancelled:
        return "cancelled: the partial reply is kept, nothing was applied"
    if call.outcome.incomplete:
        return "incomplete: the stream stopped before the reply ended; checked as a cut-off reply"
    return None


def ask_report(
    call: Call, gave_up: bool, model: str, keys: Callable[[str], str]
) -> tuple[str, str, str]:
    """(message, title, severity) of the toast once a request ended. A failed request says
    what to check and that F6 reopens the box with the message kept; auto-retry says when
    it gave up."""
    if call.outcome.cancelled:
        return "Request cancelled; nothing was applied.", "", "information"
    if call.result is None:
        from gate_tui.llm.settings import settings_path

        hint = NO_MODEL_HINT.format(key=keys("ask_model"), settings=settings_path())
        return f"{visible(call.outcome.error or 'no reply')}\n{hint}", "Model error", "error"
    if call.result.ok:
        return (
            f"Reply ready: {keys('apply_reply')} applies it.",
            f"{visible(model, one_line=True)} replied",
            "information",
        )
    if gave_up:
        return (
            f"Auto-retry gave up after {AUTO_RETRIES} rounds: the reply is still not valid; see "
            "the preview.",
            "Auto-retry gave up",
            "warning",
        )
    count = len(call.result.errors)
    return (
        f"{count} error{'s' * (count != 1)}, see the preview; {keys('ask_again')} asks again with "
        "them.",
        "Reply not valid",
        "warning",
    )
