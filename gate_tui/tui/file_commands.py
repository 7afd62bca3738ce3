"""What both editors' file commands share: asking for a path, and the quit question.

Every file command asks for its path in :class:`~gate_tui.tui.screens.path_prompt.PathScreen`
(``~`` expanded, asks before replacing a file, keeps the prompt open with the error when
the command fails) and then says what happened, literally (``markup=False``). Quitting
asks first (:class:`~gate_tui.tui.screens.quit_prompt.QuitScreen`: Save as… / Quit anyway /
Cancel) when the editor would lose work. The commands themselves are each editor's
(:mod:`gate_tui.tui.gate_files`, :mod:`gate_tui.tui.contract.file_actions`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from gate_tui.tui.text import visible

if TYPE_CHECKING:
    from textual.app import App

    from gate_tui.tui.screens.path_prompt import Attempt


class PromptHost(Protocol):
    """Where a prompt opens and its outcome is said (an editor screen)."""

    @property
    def app(self) -> App[Any]: ...

    def notify(
        self, message: str, *, title: str = "", severity: Any = "information", markup: bool = True
    ) -> None: ...


def ask_path(
    screen: PromptHost,
    title: str,
    default: str,
    run: Attempt,
    done: str | Callable[[str], str],
    *,
    replaces: bool = True,
    then: Callable[[], None] | None = None,
    after: Callable[[], None] | None = None,
    warning: str | None = None,
) -> None:
    """Ask for a path and run ``run(path)`` in the prompt (which stays open on an error);
    once it worked, say ``done`` with the absolute path (and run ``then``). ``after`` runs
    however the prompt closed (the gate editor shows the session's new notices); the
    prompt shows ``warning`` above the path, so Enter is the answer to it too."""
    from gate_tui.tui.screens.path_prompt import PathScreen  # not needed before the first frame

    def chosen(path: str | None) -> None:
        if after is not None:
            after()
        if path is None:
            return
        screen.notify(
            visible(done(path) if callable(done) else done.format(path=path)), markup=False
        )
        if then is not None:
            then()

    screen.app.push_screen(
        PathScreen(title, default, run, replaces=replaces, warning=warning), callback=chosen
    )


def ask_before_quitting(
    screen: PromptHost,
    why: str,
    changes: int,
    save_as: Callable[[Callable[[], None]], None],
    keep: str | None = None,
) -> None:
    """Quit, unless ``changes`` would be lost: then ask (Save as… / Quit anyway / Cancel).
    ``save_as(then)`` writes a copy and runs ``then`` (quitting) once it is written;
    ``keep`` says what that copy is (the gate editor's wording by default)."""
    from gate_tui.tui.screens.quit_prompt import QuitScreen

    app = screen.app
    if isinstance(app.screen, QuitScreen):
        return  # already asking: a second Ctrl+Q must not throw the work away
    if not changes:
        app.exit(0)
        return

    def answered(choice: str | None) -> None:
        if choice == "quit":
            app.exit(0)
        elif choice == "save":
            save_as(lambda: app.exit(0))

    app.push_screen(
        QuitScreen(why, changes) if keep is None else QuitScreen(why, changes, keep),
        callback=answered,
    )
