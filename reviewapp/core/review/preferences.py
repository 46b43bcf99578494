"""The user's preferences: who they are as an annotator, their role, their own tags, their download limits.

(Recently opened logbooks are kept by reviewapp.core.logbook.recent.)

Saved atomically as JSON under user_config_dir(). Loading never raises: an unreadable file gives defaults and
is kept aside (not overwritten) on the next save.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from reviewapp.core.io.durable import atomic_write
from reviewapp.core.io.hub_download import DEFAULT_MAX_BYTES, DEFAULT_MAX_SECONDS, MB, DownloadLimits
from reviewapp.core.io.paths import user_config_dir
from reviewapp.core.io.safepath import UnsafeReference, read_capped, why_unreadable
from reviewapp.core.review.roles import Role
from reviewapp.core.review.tags import normalize_tag, unique_tags

PREFERENCES_FILE = "preferences.json"
MAX_PREFERENCES_BYTES = 1024 * 1024  # a few hundred bytes when written by the app


class Preferences(BaseModel):
    model_config = ConfigDict(extra="allow", validate_assignment=True)

    version: int = 1
    annotator: str | None = Field(None, description="display name written into annotation records")
    annotator_source: str | None = Field(None, description="how it was found: huggingface, git, asked, command line")
    role: Role = "judge"
    extra_tags: list[str] = Field(default_factory=list)
    download_max_mb: float = Field(DEFAULT_MAX_BYTES / MB, gt=0, description="per logbook from the Hub or a URL")
    download_max_minutes: float = Field(DEFAULT_MAX_SECONDS / 60, gt=0, description="per logbook, wall clock")
    roster: str | None = Field(None, description="file of reviewers' public keys that records are checked against")

    def download_limits(self) -> DownloadLimits:
        """The limits every download of a logbook (window and commands) starts from."""
        return DownloadLimits(max_bytes=int(self.download_max_mb * MB), max_seconds=self.download_max_minutes * 60)

    def with_tag(self, tag: str) -> Preferences:
        return self.model_copy(update={"extra_tags": unique_tags([*self.extra_tags, normalize_tag(tag)])})


def preferences_path() -> Path:
    return user_config_dir() / PREFERENCES_FILE


def read_preferences() -> tuple[Preferences, str | None]:
    """The saved preferences and, when the file could not be used, why (defaults are returned then)."""
    path = preferences_path()
    try:
        data = read_capped(path, MAX_PREFERENCES_BYTES)  # a FIFO put there is refused, not waited on at start-up
    except UnsafeReference as exc:
        if isinstance(exc.__cause__, FileNotFoundError):
            return Preferences(), None
        return Preferences(), f"{path}: cannot read ({why_unreadable(exc)}); using defaults"
    try:
        return Preferences.model_validate_json(data), None
    except ValidationError as exc:
        return Preferences(), f"{path}: not valid preferences ({exc.error_count()} problems); using defaults"


def load_preferences() -> Preferences:
    return read_preferences()[0]


def save_preferences(preferences: Preferences) -> None:
    path = preferences_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists() and read_preferences()[1] is not None:
        # keep what could not be read instead of overwriting it
        path.replace(path.with_name(f"{PREFERENCES_FILE}.unreadable-{time.strftime('%Y%m%dT%H%M%S')}"))
    text = json.dumps(preferences.model_dump(mode="json"), indent=2, ensure_ascii=False) + "\n"
    atomic_write(path, text.encode("utf-8"))


def update_preferences(change: Callable[[Preferences], Preferences]) -> Preferences:
    """Load, change, save; returns what was saved."""
    updated = change(load_preferences())
    save_preferences(updated)
    return updated
