"""Fixtures of the end-to-end tests: ``tmux``, a private tmux server (tests/helpers/tmux.py)."""

from tests.helpers.tmux import tmux  # noqa: F401 - a fixture, used by name
