"""Functional tests (see tests/unit/test_layout.py for what goes where)."""
