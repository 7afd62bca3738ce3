"""The review report as one self-contained HTML file (``gate-tui report --format html``),
for a team to attach to a ticket.

One file, nothing fetched: the styles are inline, there is no script, and a Content
Security Policy (``default-src 'none'``) tells the browser to load and run nothing even
if some text did look like markup. It never does: every piece of text is HTML-escaped
(after :func:`gate_tui.safe_text.visible`), so ``<script>`` or ``<img onerror=…>`` in an
answer is shown as those characters. A value keeps its line breaks (``white-space:
pre-wrap``) and is shown in full.
"""

from __future__ import annotations

from html import escape

from gate_tui.safe_text import visible
from gate_tui.session.report_doc import EMPTY, Entry, Item, Section, Top, is_empty

_STYLE = """
body {
  font: 15px/1.45 system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem;
  color: #1b1b1b;
}
h1 { font-size: 1.6rem; }
h2 { margin-top: 2rem; border-bottom: 1px solid #ccc; }
h3 { font-size: 1.05rem; margin-bottom: .3rem; }
table.overview th { text-align: left; padding-right: 1.5rem; font-weight: 600; }
.when, .who { color: #555; font-weight: normal; }
.value {
  white-space: pre-wrap; overflow-wrap: anywhere; background: #f4f4f4; border-left: 3px solid #bbb;
  padding: .1rem .4rem;
}
div.value { display: block; margin: .2rem 0 .4rem; }
.empty { color: #777; font-style: italic; }
.tag { color: #a40000; font-weight: 700; }
article.rejected h3 { color: #a40000; }
p.event { color: #555; font-style: italic; }
code { background: #eef; padding: 0 .2rem; }
"""
_POLICY = "default-src 'none'; style-src 'unsafe-inline'"


def h(text: str) -> str:
    """Text for HTML: controls made visible, then every markup character escaped."""
    return escape(visible(text), quote=True)


class HtmlRenderer:
    """HTML; see :class:`gate_tui.session.report_doc.Renderer`."""

    def begin(self, top: Top) -> str:
        rows = "".join(
            f"<tr><th>{h(label)}</th><td>{_overview_value(label, value)}</td></tr>"
            for label, value in top.overview
        )
        parts = [
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n",
            f"<meta http-equiv=\"Content-Security-Policy\" content=\"{_POLICY}\">\n",
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n",
            f"<title>{h(top.title)}</title>\n<style>{_STYLE}</style>\n</head>\n<body>\n",
            f"<h1>{h(top.title)}</h1>\n<table class=\"overview\">{rows}</table>\n",
        ]
        parts += [self.section(section) for section in top.sections]
        return "".join(parts)

    def section(self, section: Section) -> str:
        intro = f"<p>{h(section.intro)}</p>" if section.intro else ""
        items = (
            f"<ul>{''.join(item_html(item) for item in section.items)}</ul>"
            if section.items
            else ""
        )
        return f"<section><h2>{h(section.heading)}</h2>{intro}{items}</section>\n"

    def timeline(self) -> str:
        return "<h2>Timeline</h2>\n"

    def entry(self, entry: Entry) -> str:
        if entry.style == "event":
            return f"<p class=\"event\">{h(entry.at)}: {h(entry.title)}.</p>\n"
        by = f" <span class=\"who\">· by {h(entry.who)}</span>" if entry.who else ""
        items = "".join(item_html(item) for item in entry.items)
        return (
            f'<article class="{h(entry.style)}"><h3>{h(entry.title)} <span class="when">· '
            f"{h(entry.at)}</span>{by}</h3>"
            f"<ul>{items}</ul></article>\n"
        )

    def empty(self) -> str:
        return "<p>Nothing has happened in this session yet.</p>\n"

    def end(self) -> str:
        return "</body>\n</html>\n"


def _overview_value(label: str, value: str) -> str:
    return f"<strong>{h(value)}</strong>" if label == "Final decision" else h(value)


def item_html(item: Item) -> str:
    parts = [f"<span class=\"tag\">{h(item.tag)}</span> " if item.tag else ""]
    if item.label:
        parts.append(f"<code>{h(item.label)}</code>" if item.code else h(item.label))
    if item.quoted:
        parts.append(":" if item.label else "")
        if is_empty(item.text):
            parts.append(f" <span class=\"empty\">{EMPTY}</span>")
        else:
            text = item.text or ""
            block = "div" if "\n" in text else "span"
            parts.append(f" <{block} class=\"value\">{h(text)}</{block}>")
    elif item.text is not None:
        text = f"<strong>{h(item.text)}</strong>" if item.strong else h(item.text)
        parts.append((": " if item.label else "") + text)
    children = (
        f"<ul>{''.join(item_html(child) for child in item.children)}</ul>" if item.children else ""
    )
    return f"<li>{''.join(parts)}{children}</li>"
