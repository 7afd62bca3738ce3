"""Both editors' file commands: one shape, one runner, one quit question.

Each editor names the same commands (``save_as``, ``export_state``, ``export_report``,
``open_state``, ``copy_state``; the gate editor also ``save``), and describes each as
data with the builders here, from exactly what it needs (its session, a callback):

* :func:`write_request`: ask for a path and write there (save as, export state or report);
* :func:`open_request`: ask for a path and read it as a user edit (open state or value);
* :class:`Copy`: text for the clipboard (copy state);
* :class:`Said`: a command done at once (the gate editor's Ctrl+S) or refused, and why.

The screen owns the action (``action_file``) and hands the command to :func:`run_file`,
which asks for the path in :class:`~gate_tui.tui.screens.path_prompt.PathScreen` (``~``
expanded, asks before replacing a file, keeps the prompt open with the error when the
command fails) and says what happened, literally (``markup=False``). Quitting asks first
(:func:`ask_before_quitting`) when the editor would lose work. Nothing here holds a screen:
the host is an argument of the call that needs it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from gate_tui.tui.text import visible

if TYPE_CHECKING:
    from pathlib import Path

    from textual.app import App

    from gate_tui.tui.screens.path_prompt import Attempt

FILE_COMMANDS = ("save_as", "export_state", "export_report", "open_state", "copy_state")
"""The commands both editors have, by the name their ``action_file`` takes."""


class PromptHost(Protocol):
    """Where a prompt opens and its outcome is said (an editor screen)."""

    @property
    def app(self) -> App[Any]: ...

    def notify(
        self, message: str, *, title: str = "", severity: Any = "information", markup: bool = True
    ) -> None: ...


@dataclass(frozen=True)
class PathRequest:
    """A file command that asks for a path: the prompt's words and what it runs there."""

    title: str
    default: str
    run: Attempt
    done: str | Callable[[str], str]  # said once it worked ("{path}": the absolute path)
    replaces: bool = True  # asks before replacing a file
    warning: str | None = None  # shown above the path: Enter answers it too


@dataclass(frozen=True)
class Copy:
    """A file command that copies ``text`` to the clipboard and says ``done``."""

    text: str
    done: str


@dataclass(frozen=True)
class Said:
    """A file command that needs no path: done already, or refused; what to say."""

    message: str
    title: str = ""
    severity: str = "information"


FileCommand = PathRequest | Copy | Said


def write_request(
    title: str,
    default: str,
    write: Callable[[Path], str | None],
    done: str,
    *,
    kept: Callable[[], None] | None = None,
    warning: str | None = None,
) -> PathRequest:
    """Ask for a path and ``write`` there (an error, or None); ``kept`` runs once written
    (the editor then knows its work is in a file: quitting need not ask)."""

    def run(path: Path) -> str | None:
        error = write(path)
        if error is None and kept is not None:
            kept()
        return error

    return PathRequest(title, default, run, done, warning=warning)


def open_request(
    title: str,
    default: str,
    read: Callable[[Path], tuple[bool, str | None]],
    what: str,
    opened: Callable[[str, str | None], str],
) -> PathRequest:
    """Ask for a path and ``read`` it as a user edit: ``(changed, problem)``. A problem
    without a change keeps the prompt open with it; a file holding the current ``what``
    says so and records nothing; a change says ``opened(path, problem)`` (a problem there
    is one the change survived, e.g. a journal that could not record it)."""
    changed: list[str | None] = []

    def run(path: Path) -> str | None:
        did, problem = read(path)
        if not did:
            return problem
        changed.append(problem)
        return None  # taken: the state changed, even if its record failed

    def done(path: str) -> str:
        if not changed:
            return f"{path} holds the current {what}: no change, nothing recorded."
        return opened(path, changed[-1])

    return PathRequest(title, default, run, done, replaces=False)


def run_file(
    host: PromptHost,
    command: FileCommand,
    *,
    then: Callable[[], None] | None = None,
    after: Callable[[], None] | None = None,
) -> None:
    """Run one file command for ``host``: say it, copy, or ask for its path. ``then`` runs
    once a path command worked (quitting after Save as…); ``after`` runs once the command
    is over, however the prompt closed (the gate editor shows the session's new notices)."""
    if isinstance(command, PathRequest):
        ask_path(host, command, then=then, after=after)
        return
    if isinstance(command, Said):
        message, title, severity = command.message, command.title, command.severity
        host.notify(visible(message), title=title, severity=severity, markup=False)
    else:
        host.app.copy_to_clipboard(command.text)
        host.notify(command.done, markup=False)
    if after is not None:
        after()


def ask_path(
    host: PromptHost,
    request: PathRequest,
    *,
    then: Callable[[], None] | None = None,
    after: Callable[[], None] | None = None,
) -> None:
    """Ask for a path and run the request there in the prompt (which stays open on an
    error); once it worked, say ``done`` with the absolute path (and run ``then``)."""
    from gate_tui.tui.screens.path_prompt import PathScreen  # not needed before the first frame

    done = request.done

    def chosen(path: str | None) -> None:
        if after is not None:
            after()
        if path is None:
            return
        host.notify(visible(done(path) if callable(done) else done.format(path=path)), markup=False)
        if then is not None:
            then()

    prompt = PathScreen(
        request.title,
        request.default,
        request.run,
        replaces=request.replaces,
        warning=request.warning,
    )
    host.app.push_screen(prompt, callback=chosen)


def ask_before_quitting(
    host: PromptHost,
    why: str,
    changes: int,
    save_as: Callable[[Callable[[], None]], None],
    keep: str | None = None,
) -> None:
    """Quit, unless ``changes`` would be lost: then ask (Save as… / Quit anyway / Cancel).
    ``save_as(then)`` writes a copy and runs ``then`` (quitting) once it is written;
    ``keep`` says what that copy is (the gate editor's wording by default)."""
    from gate_tui.tui.screens.quit_prompt import QuitScreen

    app = host.app
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
