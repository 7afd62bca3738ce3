"""Helpers shared by the session tests (a transition generator and the crash worker)."""
