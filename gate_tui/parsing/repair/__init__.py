"""The repair pass for almost-JSON that a model wrote, as a package.

* :mod:`~gate_tui.parsing.repair.vocabulary` — every repair kind (code, certainty,
  description in ``KINDS``), the :class:`Fix` record and the outcome of an attempt;
* :mod:`~gate_tui.parsing.repair.lexing` — the token pattern and the C scanner's entry points;
* :mod:`~gate_tui.parsing.repair.scalars` — reading strings (the one notion of a string),
  numbers and bare words, with their fixes;
* :mod:`~gate_tui.parsing.repair.tokenizer` — the reference pass: one token loop over an
  explicit bracket stack, linear, handles every kind including a cut-off reply;
* :mod:`~gate_tui.parsing.repair.brackets` — that stack's rules: missing commas, missing
  and mismatched closers, trailing commas;
* :mod:`~gate_tui.parsing.repair.shortcuts` and :mod:`~gate_tui.parsing.repair.bulk` — C-speed
  work inside the pass (valid nested values whole; hostile replies in one regex pass);
* :mod:`~gate_tui.parsing.repair.quick` — the fast path: the C decoder finds each defect
  and it is fixed in place, for a few rounds; returns None whenever unsure, so the
  tokenizer decides (tests check the two agree); in its rounds
  :mod:`~gate_tui.parsing.repair.innerquote` re-reads a string holding inner quotes with the
  tokenizer's reader, and :mod:`~gate_tui.parsing.repair.literals` rewrites a Python reply's
  literals between the strings in bulk;
* :mod:`~gate_tui.parsing.repair.wrapped` — objects serialised twice or CSV-doubled;
* :mod:`~gate_tui.parsing.repair.truncation` / :mod:`~gate_tui.parsing.repair.tail` — cut-off
  replies: the fields the cut touched, a long cut-off string kept aside;
* :mod:`~gate_tui.parsing.repair.fixlog` / :mod:`~gate_tui.parsing.repair.positions` — bounded
  fix records, offsets → 1-based line and column.

Adding a repair kind: one ``KINDS`` entry (code, certainty, description) and one rule.
This file imports nothing: import from the module that holds a name.
"""
