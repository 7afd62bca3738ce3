"""A run's statistics (:mod:`gate_tui.results.stats`) as JSON data, text and Markdown.

One source for every format: :func:`stats_data` turns the counts into plain data (what
``--format json`` prints), and the text, Markdown and HTML pages are drawn from it. Values
from the results (group names, gate names, codes) are data: Markdown escapes them, HTML
escapes them (:mod:`gate_tui.results.stats_html`).
"""

from __future__ import annotations

from typing import Any

from gate_tui.results.stats import CLAIMS, SYSTEM, GroupStats, RunStats

TOP = 10
RATES = (
    "invalid",
    "repaired",
    "guessed",
    "cut_off",
    "provider_cut",
    "several_states",
    "claim_overruled",
)
RATE_WORDS = {
    "invalid": "invalid",
    "repaired": "repaired",
    "guessed": "guessed repairs",
    "cut_off": "cut off",
    "provider_cut": "cut off by the provider (finish_reason)",
    "several_states": "several different states",
    "claim_overruled": "claim overruled",
}


def group_data(stats: GroupStats, has_tokens: bool, has_grounding: bool) -> dict[str, Any]:
    """One group's statistics as plain data."""
    data: dict[str, Any] = {
        "rows": stats.rows,
        "status": {
            name: stats.status[name] for name in SYSTEM if stats.status[name] or name != "VALID"
        },
        "claims": [
            {"claimed": claimed, "system": system, "rows": stats.claims[(claimed, system)]}
            for claimed in CLAIMS
            for system in SYSTEM
            if stats.claims[(claimed, system)]
        ],
        "claimed_pass_system_no_pass": stats.claims[("PASS", "NO PASS")],
        "claimed_no_pass_system_pass": stats.claims[("NO PASS", "PASS")],
        "false_pass_by_gate": dict(stats.false_pass_gates.most_common()),
        "no_pass_by_gate": dict(stats.no_pass_gates.most_common()),
        "counts": {
            name: stats.status["invalid"] if name == "invalid" else stats.flags[name]
            for name in RATES
        },
        "rates": {name: round(stats.rate(name), 6) for name in RATES},
        "top_error_codes": dict(stats.error_codes.most_common(TOP)),
        "top_repair_codes": dict(stats.repair_codes.most_common(TOP)),
    }
    if has_tokens:
        data["tokens"] = dict(stats.tokens)
    if has_grounding:
        data["grounding"] = dict(stats.grounding.most_common(TOP))
    return data


def stats_data(run: RunStats) -> dict[str, Any]:
    """The whole run's statistics as plain data (``--format json``)."""
    data: dict[str, Any] = {
        "results": run.path,
        "by": run.by,
        "overall": group_data(run.overall, run.has_tokens, run.has_grounding),
    }
    if run.by:
        data["groups"] = {
            name: group_data(group, run.has_tokens, run.has_grounding)
            for name, group in run.groups.items()
        }
    if run.agreement is not None:
        data["agreement"] = run.agreement
    return data


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "0.0%"


def text_report(data: dict[str, Any]) -> str:
    """The statistics for a terminal (plain text, no colour)."""
    out = [f"gate-tui stats: {data['results']}"]
    parts = [("all rows", data["overall"])] + [
        (f"{data['by']} = {name}", group) for name, group in (data.get("groups") or {}).items()
    ]
    for title, group in parts:
        rows = group["rows"]
        out.append("")
        out.append(f"{title}: {rows:,} rows")
        out.append(
            "  status: "
            + ", ".join(
                f"{name} {count:,} ({_percent(count, rows)})"
                for name, count in group["status"].items()
            )
        )
        out.append("  claim vs system (rows):")
        out.extend(
            f"    claimed {row['claimed']:<7} / system {row['system']:<7} {row['rows']:>10,}"
            for row in group["claims"]
        )
        if group["false_pass_by_gate"]:
            gates = ", ".join(
                f"{gate} {count:,}" for gate, count in group["false_pass_by_gate"].items()
            )
            out.append(f"  false PASS claims stopped at: {gates}")
        out.append(
            "  rates: "
            + ", ".join(
                f"{RATE_WORDS[name]} {_percent(group['counts'][name], rows)}"
                for name in group["counts"]
            )
        )
        for key, words in (
            ("top_error_codes", "top errors"),
            ("top_repair_codes", "top repairs"),
            ("grounding", "grounding"),
        ):
            if group.get(key):
                out.append(
                    f"  {words}: "
                    + ", ".join(f"{code} x{count:,}" for code, count in group[key].items())
                )
        if "tokens" in group:
            out.append(
                "  tokens: "
                + ", ".join(f"{name} {count:,}" for name, count in group["tokens"].items())
            )
    if data.get("agreement"):
        out.append("")
        out.append(agreement_line(data["agreement"]))
    return "\n".join(out) + "\n"


def agreement_line(agreement: dict[str, Any], short: bool = False) -> str:
    """Reviewers' agreement in one line (``short``: for a header, the measure first)."""
    kappa = agreement.get("kappa")
    shown = "n/a" if kappa is None else f"{kappa:.3f}"
    raw = agreement.get("raw_agreement")
    raw_shown = "n/a" if raw is None else f"{100 * raw:.1f}%"
    if short:
        measure = agreement.get("measure", "kappa")
        return (
            f"{measure} {shown}, raw agreement {raw_shown} on {agreement.get('items', 0):,} shared "
            "rows"
        )
    return (
        f"agreement of {len(agreement.get('reviewers', []))} reviewers on "
        f"{agreement.get('items', 0):,} shared rows: "
        f"{agreement.get('measure', 'kappa')} {shown}, raw agreement {raw_shown}"
    )


def md_cell(value: Any) -> str:
    """A Markdown table cell: pipes, backslashes, markup and line breaks made inert."""
    from gate_tui.safe_text import visible

    text = visible(str(value), one_line=True).replace("\\", "\\\\").replace("|", "\\|")
    for mark in "`*_[]<>#!":
        text = text.replace(mark, "\\" + mark)
    return text[:200]


def markdown_report(data: dict[str, Any]) -> str:
    """The statistics as Markdown (a CI step summary)."""
    out = [f"## gate-tui stats: {md_cell(data['results'])}", ""]
    groups = [("all rows", data["overall"])] + list((data.get("groups") or {}).items())
    out.append(
        "| group | rows | PASS | NO PASS | invalid | claimed PASS / system NO PASS | "
        "claimed NO PASS / system PASS "
        "| repaired | guessed | cut off |"
    )
    out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, group in groups:
        rows, counts, status = group["rows"], group["counts"], group["status"]
        out.append(
            f"| {md_cell(name)} | {rows:,} | {status.get('PASS', 0):,} | "
            f"{status.get('NO PASS', 0):,} | {status.get('invalid', 0):,} "
            f"| {group['claimed_pass_system_no_pass']:,} | "
            f"{group['claimed_no_pass_system_pass']:,} "
            f"| {_percent(counts['repaired'], rows)} | {_percent(counts['guessed'], rows)} "
            f"| {_percent(counts['cut_off'], rows)} |"
        )
    overall = data["overall"]
    if overall["false_pass_by_gate"]:
        out += [
            "",
            "### False PASS claims, by the gate the system stopped at",
            "",
            "| gate | rows |",
            "|---|---:|",
        ]
        out += [
            f"| {md_cell(gate)} | {count:,} |"
            for gate, count in overall["false_pass_by_gate"].items()
        ]
    for key, title in (
        ("top_error_codes", "Top error codes"),
        ("top_repair_codes", "Top repair codes"),
        ("grounding", "Grounding"),
    ):
        if overall.get(key):
            out += ["", f"### {title}", "", "| code | rows |", "|---|---:|"]
            out += [f"| {md_cell(code)} | {count:,} |" for code, count in overall[key].items()]
    if overall.get("tokens"):
        out += [
            "",
            "Tokens: "
            + ", ".join(f"{name} {count:,}" for name, count in overall["tokens"].items()),
        ]
    if data.get("agreement"):
        out += ["", md_cell(agreement_line(data["agreement"]))]
    return "\n".join(out) + "\n"
