"""The conservative repair pass for almost-JSON that a model wrote, as a package.

* :mod:`~gate_tui.parsing.repair.vocabulary` — every repair kind (code, message builder),
  the :class:`Fix` record and the outcome of an attempt;
* :mod:`~gate_tui.parsing.repair.lexing` — reading strings, numbers and words (shared
  by both passes);
* :mod:`~gate_tui.parsing.repair.tokenizer` — the reference pass: one token loop over an
  explicit bracket stack, linear, handles every kind including a cut-off reply;
* :mod:`~gate_tui.parsing.repair.quick` — the fast path: the C decoder finds each defect
  and it is fixed in place, for a few rounds; returns None whenever unsure, so the
  tokenizer decides (tests check the two agree);
* :mod:`~gate_tui.parsing.repair.positions` — offsets → 1-based line and column.

This file imports nothing: import from the module that holds a name.
"""
