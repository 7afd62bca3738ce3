"""The title line: icon, then ``title — sub-title`` centred; one widget.

Textual's ``Header`` is four widgets (icon, title, clock space and itself), and every
widget on the first screen costs start-up time (styles, messages, layout). This one
draws the same line: the icon in the first 8 cells (a click opens the command
palette), the app's title and sub-title centred between it and a 10-cell margin.
"""

from __future__ import annotations

from textual import events
from textual.content import Content
from textual.widget import Widget

ICON_CELLS = 8
RIGHT_CELLS = 10


class TitleBar(Widget):
    """``◆   ML project intake — sample_configs/ml_project_intake.yaml``."""

    DEFAULT_CSS = """
    TitleBar {
        dock: top;
        width: 100%;
        height: 1;
        background: $panel;
        color: $foreground;
    }
    """

    def __init__(self, icon: str = "◆", **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.icon = icon

    def on_mount(self) -> None:
        self.watch(self.app, "title", self._changed, init=False)
        self.watch(self.app, "sub_title", self._changed, init=False)

    def _changed(self, _value: str) -> None:
        self.refresh()

    def render(self) -> Content:
        middle = max(0, self.size.width - ICON_CELLS - RIGHT_CELLS)
        title = self.app.format_title(self.app.title, self.app.sub_title).truncate(
            middle, ellipsis=True
        )
        left = (middle - title.cell_length) // 2
        right = middle - left - title.cell_length + RIGHT_CELLS
        icon = f" {self.icon}".ljust(ICON_CELLS)
        return Content.assemble(icon, " " * left, title, " " * right)

    def on_click(self, event: events.Click) -> None:
        if event.x < ICON_CELLS:
            event.stop()
            self.app.action_command_palette()
