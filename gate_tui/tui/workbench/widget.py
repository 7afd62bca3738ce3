"""The reply workbench: the reply pane plus everything done with a reply.

It owns the reply's preview (and keeps its result: applying an unchanged text reuses it,
so a text is parsed once), the candidate picked in a reply holding several objects
(a new text drops the pick: a re-paste never keeps an earlier one), apply / clear / next
candidate, and the model's ask / stream / retry (F6, F7, F8, Esc). Its screen is its
``host`` (:class:`~gate_tui.tui.workbench.target.ReplyHost`); it tells the screen what
happened through the messages of :mod:`gate_tui.tui.workbench.messages`.

Asking: the request runs in a worker (the SDK is async); a 0.1 s timer appends what
arrived and shows "so far", never a decision. Esc stops it at once (the partial text
stays); auto-retry says its round and when it gave up.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from textual import on
from textual.binding import Binding, BindingType
from textual.widgets import TextArea

from gate_tui.tui.text import visible
from gate_tui.tui.widgets.reply_pane import PreviewText, ReplyPane
from gate_tui.tui.workbench.asking import AUTO_RETRIES, TICK_S, AskState, ask_report, stream_mark
from gate_tui.tui.workbench.goto import select_position
from gate_tui.tui.workbench.messages import (
    AskFinished,
    AskStarted,
    ChoiceChanged,
    ReplyApplied,
    ReplyRejected,
)

if TYPE_CHECKING:
    from textual.content import Content

    from gate_tui.llm.asking import Asker, Call
    from gate_tui.tui.ask_run import AskRun
    from gate_tui.tui.workbench.target import Previewed, ReplyHost


class Workbench(ReplyPane):
    """The reply pane with its preview, candidates, apply and the model in the loop."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+g", "go_to_line", "Go to line", show=False)
    ]

    def __init__(self, host: ReplyHost, *, delay: float = 0.15, **kwargs: Any) -> None:
        super().__init__(self._preview, delay=delay, **kwargs)
        self.host = host
        self.shown: Previewed | None = None
        """The last preview (its result is what apply reuses)."""
        self._choice: tuple[str, int] | None = (
            None  # (the reply's text, the candidate picked in it)
        )
        self.asking = AskState()

    # ------------------------------------------------------------- preview

    @property
    def preview_result(self) -> Any:
        """The host's result of the last preview (None for an empty pane)."""
        return None if self.shown is None else self.shown.result

    def candidate(self, text: str) -> int | None:
        """The candidate picked in ``text`` (None: the parser's own; a new text drops the pick)."""
        return self._choice[1] if self._choice is not None and self._choice[0] == text else None

    @on(TextArea.Changed, "#reply")
    def _drop_pick(self) -> None:
        """Any new text (a re-paste of the same reply too) starts from the parser's own choice."""
        self._choice = None

    def preview_new_text(self) -> None:
        """A text change: previewed unless the preview is of this very text already (a
        paste may report its change twice; only a changed state parses it again)."""
        if self.reusable(self.text_area.text) is None or self.streaming:
            self.refresh_preview()
        elif self._timer is not None:
            self._timer.stop()
            self._timer = None

    def _preview(self, text: str) -> tuple[Content | None, bool | None]:
        return self._keep(self.host.preview_reply(text, self.candidate(text)))

    def _keep(self, shown: Previewed) -> tuple[Content | None, bool | None]:
        had = self.shown is not None and self.shown.next_choice is not None
        self.shown = shown
        if had != (shown.next_choice is not None):
            self.post_message(ChoiceChanged(shown.next_choice is not None))
        return shown.content, shown.ok

    def reusable(self, text: str) -> Previewed | None:
        """The last preview when it is of ``text`` with the same pick (else None: parse)."""
        shown = self.shown
        if shown is None or shown.text != text or shown.candidate != self.candidate(text):
            return None
        return shown

    # --------------------------------------------------------------- apply

    def apply(self) -> None:
        """Apply the reply in the pane through the host; a refused reply stays in the pane."""
        text = self.text_area.text
        applied = self.host.apply_reply(
            text, self.candidate(text), self.reusable(text), self.asking.call_for(text)
        )
        if applied.kind == "accepted":
            self._choice = None
            self.clear()
            self.shown = None
            self.post_message(ReplyApplied(text, applied.result))
        elif applied.kind == "rejected":
            if applied.shown is not None:
                self.show_preview(*self._keep(applied.shown))
            # One line: the preview lists every error; a long toast would hide the decision panel.
            count = applied.problems
            self.notify(
                f"{count} error{'s' * (count != 1)}, see the preview",
                title="Reply rejected",
                severity="error",
                markup=False,
            )
            self.post_message(ReplyRejected(text, applied.result))
        elif applied.kind == "error":
            self.notify(
                visible(applied.error), title="Session error", severity="error", markup=False
            )
        elif applied.kind == "empty":
            self.notify(
                "The reply pane is empty: paste a model reply first "
                f"({self.host.key_hint('focus_reply')}).",
                severity="warning",
                markup=False,
            )

    def next_candidate(self) -> None:
        """Use the reply's next JSON object (the preview lists them)."""
        shown = self.shown
        text = self.text_area.text
        if shown is None or shown.next_choice is None or shown.text != text:
            self.notify("The reply holds one JSON object at most: nothing to choose.", markup=False)
            return
        self._choice = (text, shown.next_choice)
        self.refresh_preview()

    # ------------------------------------------------------ positions, go to line

    @on(PreviewText.GoTo)
    def _go_to_position(self, event: PreviewText.GoTo) -> None:
        self.goto(event.line, event.column)

    def goto(self, line_no: int, column: int) -> None:
        """Put the cursor at a 1-based position of the reply with the span there selected."""
        select_position(self.text_area, line_no, column)

    def action_go_to_line(self) -> None:
        from gate_tui.tui.workbench.goto import GoToLine

        def chosen(position: tuple[int, int] | None) -> None:
            if position is not None:
                self.goto(*position)

        self.app.push_screen(GoToLine(self.text_area.document.line_count), chosen)

    def run_command(self, command: str) -> None:
        """A key of the workbench's, as the screen's key table names it (``workbench('ask')``)."""
        commands = {
            "apply": self.apply,
            "next": self.next_candidate,
            "clear": self.clear_reply,
            "ask": self.ask,
            "again": self.ask_again,
            "auto_retry": self.toggle_auto_retry,
            "cancel": self.cancel_ask,
            "go_to_line": self.action_go_to_line,
        }
        run = commands.get(command)
        if run is not None:
            run()

    def clear_reply(self) -> None:
        """Empty the pane as one text edit (Undo in the pane brings it back)."""
        self.clear_text(self.host.key_hint("undo"))

    # ---------------------------------------------------------------- asking

    def ask(self) -> None:
        """F6: open the message box (with the last message when the last request failed)."""
        asker = self._asker()
        if asker is None:
            return
        if self.asking.running:
            self.notify(
                "The model is still answering: Esc cancels it first.",
                severity="warning",
                markup=False,
            )
            return
        from gate_tui.llm.endpoint import endpoint_label
        from gate_tui.tui.screens.ask_prompt import AskScreen

        target = f"{asker.settings.model} at {endpoint_label(asker.settings.base_url)}"
        retry = (
            f"auto-retry {'on' if self.asking.auto_retry else 'off'} "
            f"({self.host.key_hint('toggle_auto_retry')})"
        )
        self.app.push_screen(
            AskScreen(visible(target, one_line=True), retry, self.asking.kept_message()), self._send
        )

    def ask_again(self) -> None:
        """F7: send the last reply's errors back to the model."""
        asker = self._asker()
        if asker is None:
            return
        message = asker.again_message()
        if message is None:
            self.notify(
                "Nothing to correct: the last model reply was valid, or there was none.",
                markup=False,
            )
            return
        self.asking.rounds = 0
        self._start(message, "retry")

    def toggle_auto_retry(self) -> None:
        state = self.asking
        state.auto_retry = not state.auto_retry
        word = (
            f"on: an invalid reply is sent back with its errors up to {AUTO_RETRIES} times"
            if state.auto_retry
            else "off"
        )
        self.notify(f"Auto-retry {word}.", markup=False)

    def cancel_ask(self) -> bool:
        """Esc: stop the running request now (True when there was one)."""
        state = self.asking
        run = state.run
        if run is None or not run.running:
            return False
        run.cancelled = True
        run.live.cancel()  # stops the read at once and closes the connection
        if state.worker is not None:
            state.worker.cancel()
        self._stop_timer()
        self.end_stream("cancelled: the partial reply is kept, nothing was applied")
        self.refresh_preview()
        return True

    def _asker(self) -> Asker | None:
        """The Asker, made on first use from flags/env/settings; None (and a message) if it cannot
        be."""
        state = self.asking
        if state.asker is not None:
            return state.asker
        target = self.host.ask_target()
        if target is None:
            return None
        try:
            import openai  # noqa: F401
        except ImportError:
            missing = 'The model extra is not installed: pip install "gate-tui[model]".'
            self.notify(missing, severity="error", markup=False)
            return None
        from gate_tui.tui.workbench.asking import asker_from_settings

        asker, notes, problem = asker_from_settings(target)
        for note in notes:
            self.notify(visible(note), severity="warning", markup=False, timeout=10)
        if problem is not None:
            self.notify(
                visible(problem), title="No model", severity="error", markup=False, timeout=10
            )
            return None
        state.asker = asker
        return state.asker

    def _send(self, message: str | None) -> None:
        if message:
            self.asking.rounds = 0
            self.asking.last_message = message
            self._start(message, "ask")

    def _start(self, message: str, kind: str) -> None:
        state = self.asking
        asker = state.asker
        if asker is None:
            return
        from gate_tui.llm.partial import PartialPreview
        from gate_tui.tui.ask_run import AskRun

        self.host.commit_pending()  # a half-typed edit is recorded before the model sees the state
        state.run = AskRun(
            asker.settings.model or "model", message, kind, PartialPreview(asker.target.parse)
        )
        self._choice = None
        self.begin_stream()
        if state.rounds:
            self.border_subtitle = f"auto-retry round {state.rounds} of {AUTO_RETRIES}: streaming…"
        if state.sub_title is None:
            state.sub_title = self.app.sub_title
        state.timer = self.set_interval(TICK_S, self._tick)
        state.worker = self.run_worker(
            self._stream(state.run), group="ask", exclusive=True, exit_on_error=False
        )
        self.post_message(AskStarted(kind, state.rounds))

    async def _stream(self, run: AskRun) -> None:
        asker = self.asking.asker
        assert asker is not None
        try:
            call = await asker.ask(run.message, run.kind, run.live)
            if run.cancelled:
                call.outcome.cancelled = True
            self._finished(run, call)
        except Exception as exc:  # noqa: BLE001 - a bug here must show, and must not take the editor down
            run.cancelled = True
            self._stop_timer()
            self.end_stream("failed: the partial reply is kept, nothing was applied")
            self._restore_title()
            self.notify(
                visible(f"asking the model failed: {type(exc).__name__}: {exc}"),
                severity="error",
                markup=False,
            )
            self.post_message(AskFinished(None))

    def _stop_timer(self) -> None:
        if self.asking.timer is not None:
            self.asking.timer.stop()
            self.asking.timer = None

    def _restore_title(self) -> None:
        if self.asking.sub_title is not None:
            self.app.sub_title = self.asking.sub_title
            self.asking.sub_title = None

    def _tick(self) -> None:
        run = self.asking.run
        if run is None or run.cancelled:
            return
        fresh = run.take()
        if fresh:
            self.append_stream(fresh, run.live.chars)
            if self.asking.rounds:
                self.border_subtitle = (
                    f"auto-retry round {self.asking.rounds} of {AUTO_RETRIES}: "
                    f"{self.border_subtitle}"
                )
            found = run.so_far()
            if found is not None:  # re-parsed (throttled): only then is the preview redrawn
                self.show_so_far(found)
        self.app.sub_title = visible(run.title(), one_line=True)

    def _finished(self, run: AskRun, call: Call) -> None:
        state = self.asking
        was_cancelled = run.cancelled
        run.finish(call)
        self._stop_timer()
        if not was_cancelled:  # Esc already ended the stream where it stood
            fresh = run.take()
            if fresh:
                self.append_stream(fresh, run.live.chars)
            self.end_stream(stream_mark(call))
            text = self.text_area.text
            if call.result is not None and call.outcome.text == text:
                # The stream's own parse is the preview's: the same text is not read again.
                self.show_preview(*self._keep(self.host.preview_reply(text, None, call.result)))
            else:
                self.refresh_preview()
        self._restore_title()
        for notice in call.notices:
            self.notify(visible(notice), markup=False, timeout=8)
        retry = state.auto_retry and call.retryable and not call.outcome.cancelled
        gave_up = retry and state.rounds >= AUTO_RETRIES
        model = self.asking.run.model if self.asking.run is not None else "model"
        message, title, severity = ask_report(call, gave_up, model, self.host.key_hint)
        self.notify(
            message,
            title=title,
            severity=severity,
            markup=False,
            timeout=12 if severity == "error" else 8,
        )
        self.post_message(AskFinished(call, gave_up))
        if retry and not gave_up:
            message = state.asker.again_message(call) if state.asker is not None else None
            if message is not None:
                state.rounds += 1
                self._start(message, "retry")
