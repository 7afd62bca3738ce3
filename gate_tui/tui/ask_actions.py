"""F6 "Ask the model": the editor screen's actions for the model in the loop.

A mixin of the gate editor's screen (:class:`~gate_tui.tui.screens.editor.GateScreen`
owns these bindings and actions; this module keeps them out of the screen's file). The round trip itself is the headless
:class:`~gate_tui.llm.asking.Asker`; here is only what the user sees:

* F6 opens the message box (:class:`~gate_tui.tui.screens.ask_prompt.AskScreen`); the
  request runs in a Textual worker on the app's event loop (the SDK is async), so the
  UI never waits for the network: a key press during streaming is handled at once;
* a 50 ms timer appends the text that arrived to the reply pane (only the new part:
  linear), shows the throttled "so far" preview (never a decision) and the title
  (model, spinner, elapsed, tokens);
* when the stream ends the pane's normal preview takes over; Ctrl+J applies the reply
  through ``parse(actor="assistant")`` as any pasted reply, linked to its call;
* Esc cancels a running request: nothing is applied, the partial text stays in the
  pane, marked cancelled; a dropped stream is kept the same way, marked incomplete;
* "Ask again with the errors" (F7) sends the parser's errors back; the auto-retry toggle
  (F8, off by default) does so at most :data:`AUTO_RETRIES` times by itself.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gate_tui.tui.text import visible

if TYPE_CHECKING:
    from textual.timer import Timer
    from textual.worker import Worker

    from gate_tui.llm.asking import Asker, Call
    from gate_tui.tui.ask_run import AskRun

AUTO_RETRIES = 2
TICK_S = 0.1  # appending and redrawing 10 times a second keeps up with any stream


class AskState:
    """What the screen keeps between requests."""

    def __init__(self) -> None:
        self.asker: Asker | None = None
        self.run: AskRun | None = None
        self.worker: Worker[Any] | None = None
        self.timer: Timer | None = None
        self.auto_retry = False
        self.rounds = 0  # automatic retries done for the current message
        self.sub_title: str | None = None  # the title bar's text before the request
        self.warned = False

    def call_for(self, text: str) -> int | None:
        """The seq of the model call whose reply ``text`` is (unchanged), else None."""
        call = self.run.call if self.run is not None else None
        if call is None or call.outcome.text != text:
            return None
        return call.seq


class AskActions:
    """Mixed into the gate editor's screen: ``self`` is the screen."""

    _ask_state: AskState | None = None

    @property
    def asking(self) -> AskState:
        if self._ask_state is None:
            self._ask_state = AskState()
        return self._ask_state

    # ------------------------------------------------------------- actions

    def action_ask_model(self) -> None:
        screen: Any = self
        asker = self._ask_asker()
        if asker is None:
            return
        if self.asking.run is not None and self.asking.run.running:
            screen.notify("The model is still answering: Esc cancels it first.", severity="warning", markup=False)
            return
        from gate_tui.llm.endpoint import endpoint_label
        from gate_tui.tui.screens.ask_prompt import AskScreen

        target = f"{asker.settings.model} at {endpoint_label(asker.settings.base_url)}"
        retry = f"auto-retry {'on' if self.asking.auto_retry else 'off'} ({self._ask_key('toggle_auto_retry')})"
        screen.app.push_screen(AskScreen(visible(target, one_line=True), retry), self._ask_send)

    def action_ask_again(self) -> None:
        screen: Any = self
        asker = self._ask_asker()
        if asker is None:
            return
        message = asker.again_message()
        if message is None:
            screen.notify("Nothing to correct: the last model reply was valid, or there was none.", markup=False)
            return
        self._ask_start(message, "retry")

    def action_toggle_auto_retry(self) -> None:
        state = self.asking
        state.auto_retry = not state.auto_retry
        word = f"on: an invalid reply is sent back with its errors up to {AUTO_RETRIES} times" if state.auto_retry else "off"
        self.notify(f"Auto-retry {word}.", markup=False)  # type: ignore[attr-defined]

    def action_cancel_ask(self) -> None:
        state = self.asking
        if state.run is None or not state.run.running:
            return
        state.run.cancelled = True
        state.run.live.cancel()  # stops the read at once and closes the connection
        if state.worker is not None:
            state.worker.cancel()

    # ------------------------------------------------------------- the run

    def _ask_target(self) -> Any:
        """What is asked about (the gate session); None before the session is open."""
        from gate_tui.llm.gate_target import GateTarget

        session = self.session  # type: ignore[attr-defined]
        return None if session is None else GateTarget(session)

    def _ask_key(self, action_id: str) -> str:
        """The key of an action as the keymap binds it (for messages)."""
        return self.key_hints[action_id]  # type: ignore[attr-defined]

    def _ask_pane(self) -> Any:
        """The reply pane, or None before it is mounted."""
        return self.reply()  # type: ignore[attr-defined]

    def _ask_preview(self, pane: Any) -> None:
        """The pane's normal preview (decision after, changes, errors) once the stream ended."""
        pane.refresh_preview()

    def _ask_asker(self) -> Asker | None:
        """The Asker, made on first use from flags/env/settings; None (and a message) if it cannot be."""
        screen: Any = self
        state = self.asking
        if state.asker is not None:
            return state.asker
        target = self._ask_target()
        if target is None:
            return None
        try:
            import openai  # noqa: F401
        except ImportError:
            screen.notify('The model extra is not installed: pip install "gate-tui[model]".', severity="error", markup=False)
            return None
        from gate_tui.llm.asking import Asker
        from gate_tui.llm.endpoint import insecure_warning, url_problem
        from gate_tui.llm.settings import load_settings

        loaded = load_settings()
        problem = loaded.settings.missing() or url_problem(loaded.settings.base_url)
        notes = [*loaded.problems, insecure_warning(loaded.settings.base_url)]
        for note in [*notes, loaded.settings.key_warning()]:  # a trimmed key: said once
            if note:
                screen.notify(visible(note), severity="warning", markup=False, timeout=10)
        if problem is not None:
            screen.notify(visible(problem), title="No model", severity="error", markup=False, timeout=10)
            return None
        state.asker = Asker(target, loaded.settings)
        return state.asker

    def _ask_send(self, message: str | None) -> None:
        if message:
            self.asking.rounds = 0
            self._ask_start(message, "ask")

    def _ask_start(self, message: str, kind: str) -> None:
        screen: Any = self
        state = self.asking
        pane = self._ask_pane()
        asker = state.asker
        if pane is None or asker is None:
            return
        from gate_tui.llm.partial import PartialPreview
        from gate_tui.tui.ask_run import AskRun

        commit = getattr(screen, "commit_pending", None)
        if commit is not None:
            commit()  # a half-typed gate edit is recorded before the model sees the state
        state.run = AskRun(asker.settings.model or "model", message, kind, PartialPreview(asker.target.parse))
        pane.begin_stream()
        if state.sub_title is None:
            state.sub_title = screen.app.sub_title
        state.timer = screen.set_interval(TICK_S, self._ask_tick)
        state.worker = screen.run_worker(self._ask_stream(state.run), group="ask", exclusive=True, exit_on_error=False)

    async def _ask_stream(self, run: AskRun) -> None:
        asker = self.asking.asker
        assert asker is not None
        try:
            call = await asker.ask(run.message, run.kind, run.live)
            if run.cancelled:
                call.outcome.cancelled = True
            self._ask_finished(run, call)
        except Exception as exc:  # noqa: BLE001 - a bug here must show, and must not take the editor down
            run.cancelled = True
            if self.asking.timer is not None:
                self.asking.timer.stop()
            pane = self._ask_pane()
            if pane is not None:
                pane.end_stream("failed: the partial reply is kept, nothing was applied")
            self.notify(visible(f"asking the model failed: {type(exc).__name__}: {exc}"), severity="error", markup=False)  # type: ignore[attr-defined]

    def _ask_tick(self) -> None:
        screen: Any = self
        run = self.asking.run
        pane = self._ask_pane()
        if run is None or pane is None:
            return
        fresh = run.take()
        if fresh:
            pane.append_stream(fresh, run.live.chars)
            found = run.so_far()
            if found is not None:  # re-parsed (throttled): only then is the preview redrawn
                pane.show_so_far(found)
        screen.app.sub_title = visible(run.title(), one_line=True)

    def _ask_finished(self, run: AskRun, call: Call) -> None:
        screen: Any = self
        state = self.asking
        run.finish(call)
        if state.timer is not None:
            state.timer.stop()
            state.timer = None
        pane = self._ask_pane()
        if pane is not None:
            fresh = run.take()
            if fresh:
                pane.append_stream(fresh, run.live.chars)
            pane.end_stream(self._ask_mark(call))
            self._ask_preview(pane)
        if state.sub_title is not None:
            screen.app.sub_title = state.sub_title
            state.sub_title = None
        for notice in call.notices:
            screen.notify(visible(notice), markup=False, timeout=8)
        self._ask_report(call)
        if state.auto_retry and call.retryable and not call.outcome.cancelled and state.rounds < AUTO_RETRIES:
            message = state.asker.again_message(call) if state.asker is not None else None
            if message is not None:
                state.rounds += 1
                self._ask_start(message, "retry")

    @staticmethod
    def _ask_mark(call: Call) -> str | None:
        if call.outcome.cancelled:
            return "cancelled: the partial reply is kept, nothing was applied"
        if call.outcome.incomplete:
            return "incomplete: the stream stopped before the reply ended; checked as a cut-off reply"
        return None

    def _ask_report(self, call: Call) -> None:
        screen: Any = self
        keys = self._ask_key
        if call.outcome.cancelled:
            screen.notify("Request cancelled; nothing was applied.", markup=False)
        elif call.result is None:
            screen.notify(visible(call.outcome.error or "no reply"), title="Model error", severity="error", markup=False, timeout=10)
        elif call.result.ok:
            screen.notify(f"Reply ready: {keys('apply_reply')} applies it.", title=f"{visible(run_model(screen), one_line=True)} replied", markup=False)
        else:
            count = len(call.result.errors)
            screen.notify(
                f"{count} error{'s' * (count != 1)}, see the preview; {keys('ask_again')} asks again with them.",
                title="Reply not valid", severity="warning", markup=False,
            )


def run_model(screen: Any) -> str:
    run = screen.asking.run
    return run.model if run is not None else "model"
