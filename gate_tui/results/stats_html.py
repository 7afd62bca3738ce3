"""A run's statistics as one self-contained HTML page: inline CSS and inline SVG bar
charts, no script, no font, no network (a strict Content-Security-Policy says so to the
browser too), readable by someone who never opens a terminal. Every value from the results
is escaped."""

from __future__ import annotations

from html import escape
from typing import Any

from gate_tui.results.stats_render import RATE_WORDS, agreement_line

_CSS = """
body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:70em;color:#1b1b1b;
  padding:0 1em}
h1{font-size:1.4em}h2{font-size:1.15em;margin-top:2em}table{border-collapse:collapse;margin:.5em 0}
td,th{border:1px solid #ccc;padding:.25em .6em;text-align:right}
th:first-child,td:first-child{text-align:left}
.bar text{font-size:12px}.note{color:#555}
"""
_COLOURS = {"PASS": "#2e7d32", "NO PASS": "#c62828", "invalid": "#6d6d6d", "VALID": "#1565c0"}


def html_report(data: dict[str, Any]) -> str:
    """The page."""
    overall = data["overall"]
    out = [
        "<!DOCTYPE html><html lang=en><head><meta charset=utf-8>",
        "<meta http-equiv=Content-Security-Policy content=\"default-src 'none'; style-src "
        "'unsafe-inline'\">",
        f"<title>gate-tui stats: "
        f"{escape(data['results'])}</title><style>{_CSS}</style></head><body>",
        f"<h1>gate-tui stats: {escape(data['results'])}</h1>",
        f"<p>{overall['rows']:,} rows"
        + (f", grouped by <b>{escape(str(data['by']))}</b>" if data.get("by") else "")
        + ".</p>",
        "<h2>Status</h2>",
        _bars(
            [
                (name, count, _COLOURS.get(name, "#888"))
                for name, count in overall["status"].items()
            ],
            "status",
        ),
        "<h2>What the model claimed, against what the system decided</h2>",
        _claims_table(overall),
    ]
    if overall["false_pass_by_gate"]:
        out += [
            "<h2>False PASS claims, by the gate the system stopped at</h2>",
            _bars(
                [(gate, count, "#c62828") for gate, count in overall["false_pass_by_gate"].items()],
                "false-pass",
            ),
        ]
    if overall["no_pass_by_gate"]:
        out += [
            "<h2>NO PASS, by gate</h2>",
            _bars(
                [(gate, count, "#ef6c00") for gate, count in overall["no_pass_by_gate"].items()],
                "no-pass",
            ),
        ]
    groups = data.get("groups") or {}
    if groups:
        out += [
            f"<h2>By {escape(str(data['by']))}</h2>",
            _groups_table(groups),
            "<h3>NO PASS share per group</h3>",
            _bars(
                [
                    (name, group["status"].get("NO PASS", 0), "#c62828")
                    for name, group in groups.items()
                ],
                "groups",
                totals=[group["rows"] for group in groups.values()],
            ),
        ]
    out.append("<h2>Rates</h2><table><tr><th>what</th><th>rows</th><th>share</th></tr>")
    for name, count in overall["counts"].items():
        share = 100 * overall["rates"][name]
        out.append(
            f"<tr><td>{escape(RATE_WORDS[name])}</td><td>{count:,}</td><td>{share:.1f}%</td></tr>"
        )
    out.append("</table>")
    for key, title in (
        ("top_error_codes", "Top error codes"),
        ("top_repair_codes", "Top repair codes"),
        ("grounding", "Grounding findings"),
    ):
        if overall.get(key):
            out += [
                f"<h2>{title}</h2>",
                _bars([(code, count, "#455a64") for code, count in overall[key].items()], key),
            ]
    if overall.get("tokens"):
        out.append(
            "<h2>Tokens</h2><p>"
            + ", ".join(f"{escape(name)}: {count:,}" for name, count in overall["tokens"].items())
            + "</p>"
        )
    if data.get("agreement"):
        out.append(f"<h2>Reviewers</h2><p>{escape(agreement_line(data['agreement']))}</p>")
    out.append(
        "<p class=note>Written by gate-tui stats. The system recomputes every decision; the "
        "claim is the model's.</p>"
    )
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def _bars(items: list[tuple[str, int, str]], name: str, totals: list[int] | None = None) -> str:
    """A horizontal bar chart as inline SVG (a bar per item, its count written beside it)."""
    if not items:
        return ""
    top = max(totals or [count for _label, count, _colour in items]) or 1
    label_width, bar_width, height = 220, 460, 22
    rows = []
    for number, (label, count, colour) in enumerate(items[:40]):
        y = number * height
        whole = totals[number] if totals else top
        width = 0 if not whole else max(1, round(bar_width * count / top)) if count else 0
        shown = f"{count:,}" + (f" of {whole:,}" if totals else "")
        rows.append(
            f'<g class=bar><text x="{label_width - 6}" y="{y + 15}" '
            f'text-anchor="end">{escape(str(label)[:40])}</text>'
            f'<rect x="{label_width}" y="{y + 3}" width="{width}" height="{height - 6}" '
            f'fill="{colour}"></rect>'
            f'<text x="{label_width + width + 6}" y="{y + 15}">{shown}</text></g>'
        )
    total_height = height * min(len(items), 40)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" role=img aria-label="{escape(name)}" '
        f'width="{label_width + bar_width + 140}" height="{total_height}">'
        + "".join(rows)
        + "</svg>"
    )


def _claims_table(group: dict[str, Any]) -> str:
    systems = [name for name in group["status"]]
    head = (
        "<table><tr><th>claimed \\ system</th>"
        + "".join(f"<th>{escape(name)}</th>" for name in systems)
        + "</tr>"
    )
    cells = {(row["claimed"], row["system"]): row["rows"] for row in group["claims"]}
    body = ""
    for claimed in ("PASS", "NO PASS", "none"):
        body += (
            f"<tr><td>claimed {escape(claimed)}</td>"
            + "".join(f"<td>{cells.get((claimed, name), 0):,}</td>" for name in systems)
            + "</tr>"
        )
    return head + body + "</table>"


def _groups_table(groups: dict[str, Any]) -> str:
    out = [
        "<table><tr><th>group</th><th>rows</th><th>PASS</th><th>NO PASS</th><th>invalid</th>"
        "<th>claimed PASS, system NO PASS</th><th>guessed</th><th>cut off</th></tr>"
    ]
    for name, group in groups.items():
        status, counts = group["status"], group["counts"]
        cells = [
            group["rows"],
            status.get("PASS", 0),
            status.get("NO PASS", 0),
            status.get("invalid", 0),
        ]
        cells += [group["claimed_pass_system_no_pass"], counts["guessed"], counts["cut_off"]]
        out.append(
            f"<tr><td>{escape(name)}</td>"
            + "".join(f"<td>{cell:,}</td>" for cell in cells)
            + "</tr>"
        )
    out.append("</table>")
    return "".join(out)
