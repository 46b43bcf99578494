"""Why a logbook source could not be opened, each naming the source and carrying the command's exit code.

The exit codes are the one table every command shares: 2 bad usage or not a logbook, 4 git/Hub refused,
5 network unavailable, 6 cancelled.
"""

from __future__ import annotations

EXIT_USAGE = 2
EXIT_REFUSED = 4
EXIT_OFFLINE = 5
EXIT_CANCELLED = 6
HOW_TO_LOG_IN = "log in with `hf auth login` (or set HF_TOKEN) and try again"


class SourceUnavailable(Exception):
    """A source that cannot be opened; `str()` is one line for the user, starting with the source's name."""

    exit_code = EXIT_REFUSED

    def __init__(self, source: str, problem: str) -> None:
        super().__init__(f"{source}: {problem}")
        self.source = source
        self.problem = problem


class SourceNotFound(SourceUnavailable):
    """No such repository, revision or URL."""

    exit_code = EXIT_USAGE


class SourceAccessDenied(SourceUnavailable):
    """Private or gated: the Hub wants a login (or access granted); the message says how, never asks for a token."""


class SourceRateLimited(SourceUnavailable):
    """The Hub asked us to slow down; `retry_after` is in seconds when it said."""

    def __init__(self, source: str, retry_after: int | None) -> None:
        when = f"retry in {retry_after} s" if retry_after is not None else "retry in a few minutes"
        super().__init__(source, f"the Hub is rate limiting requests; {when} (logged-in users get higher limits)")
        self.retry_after = retry_after


class SourceOffline(SourceUnavailable):
    """The network (or the Hub) cannot be reached and no cached copy exists."""

    exit_code = EXIT_OFFLINE


class SourceTooLarge(SourceUnavailable):
    """The logbook's files exceed the size limit; nothing was downloaded."""

    exit_code = EXIT_USAGE


class SourceTimedOut(SourceUnavailable):
    """The download took longer than the time limit; what was downloaded stays in the cache for next time."""

    exit_code = EXIT_OFFLINE


class NotALogbookSource(SourceUnavailable):
    """The repository or URL holds no logbook (no pages/index.md, no logbook.json)."""

    exit_code = EXIT_USAGE


class SourceRefused(SourceUnavailable):
    """Any other refusal by the server (5xx, bad request)."""
