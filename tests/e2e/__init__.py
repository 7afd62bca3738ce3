"""End-to-end tests (see tests/unit/test_layout.py for what goes where)."""
