"""Grounded answers: does every ``raw`` a reply writes trace to what the user said?

Headless and pure: :func:`gate_tui.grounding.apply.ground` is applied after
:func:`gate_tui.parse` with the conversation as an explicit input (the rule:
docs/grounding.md). Modules: ``normalise`` (the normal form), ``conversation`` (user turns
from chat messages), ``matching`` (exact / near / ungrounded), ``positions`` (line:column
in the reply), ``models`` (findings), ``apply`` (policy and decision).
"""
