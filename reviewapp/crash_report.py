"""A crash report a person can paste into an issue: versions, platform, the error and the last log lines,
with access tokens and the user's home folder taken out first (a report is pasted where anyone can read it).

Qt-free: the crash dialog shows it and tests check it without a window.
"""

from __future__ import annotations

import contextlib
import os
import re
from collections import deque
from pathlib import Path

from reviewapp.about import versions
from reviewapp.core.io.paths import log_file
from reviewapp.core.io.safepath import UnsafeReference, read_tail
from reviewapp.core.review.secret_scan import known_secrets, mask_secrets

LOG_LINES = 40
_MAX_LOG_READ = 2_000_000  # the log rotates at 1 MB; never read more than this of a file someone replaced


def scrub(text: str, home: Path | None = None) -> str:
    """`text` without access tokens, keys or passwords, and with the home folder shown as `~`."""
    text = mask_secrets(text, known_secrets())
    for folder in _home_forms(home):
        text = re.sub(re.escape(folder) + r"(?=$|[\\/\s\"':,)\]])", "~", text)
    user = os.environ.get("USER") or os.environ.get("USERNAME")
    if user and len(user) >= 3:  # "/Users/ada" from another machine's log, "C:\Users\ada"
        text = re.sub(r"(?<=[\\/])" + re.escape(user) + r"(?=[\\/])", "<user>", text)
    return text


def _home_forms(home: Path | None) -> list[str]:
    home = home or Path.home()
    forms = {str(home), home.as_posix()}
    with contextlib.suppress(OSError):
        forms.add(str(home.resolve()))
    # longest first, so that a resolved path is not left half-replaced by a shorter form
    return sorted((f for f in forms if len(f) > 1), key=len, reverse=True)


def last_log_lines(path: Path | None = None, count: int = LOG_LINES) -> list[str]:
    path = path or log_file()
    try:
        data = read_tail(path, _MAX_LOG_READ)
    except (OSError, UnsafeReference):  # absent, unreadable, or not a file (a FIFO would hang the report)
        return []
    return list(deque(data.decode("utf-8", errors="replace").splitlines(), maxlen=count))


def crash_report(
    summary: str,
    details: str,
    *,
    qt_version: str | None = None,
    log: Path | None = None,
    home: Path | None = None,
) -> str:
    """The whole report as plain text (Markdown-friendly), already scrubbed."""
    lines = ["reviewapp crash report", "", summary, ""]
    lines += [f"{name}: {value}" for name, value in versions(qt_version).items()]
    lines += ["", "Traceback:", "```", details.rstrip("\n"), "```", ""]
    tail = last_log_lines(log)
    lines += [f"Last {len(tail)} log lines:", "```", *tail, "```"] if tail else ["(no log lines)"]
    return scrub("\n".join(lines) + "\n", home)
