"""The one error type of committing: its message says what went wrong and what to do, in plain words."""

from __future__ import annotations


class CommitError(Exception):
    """Committing cannot go ahead as asked; nothing beyond what the message says was committed or sent."""
