"""Where reviewapp keeps per-user data and preferences, without Qt (headless commands need them too)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

APP = "reviewapp"
DOWNLOAD_RECORDS = "downloads"  # under user_data_dir: what was downloaded from the Hub, by repository


def user_data_dir() -> Path:
    """Annotations of read-only logbooks, the demo copy, caches. REVIEWAPP_DATA_DIR overrides (tests, portable use)."""
    override = os.environ.get("REVIEWAPP_DATA_DIR")
    if override:
        return Path(override)
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / APP


def user_config_dir() -> Path:
    """Preferences (annotator identity, recent logbooks). REVIEWAPP_CONFIG_DIR overrides."""
    override = os.environ.get("REVIEWAPP_CONFIG_DIR")
    if override:
        return Path(override)
    if sys.platform == "win32":
        base = Path(os.environ.get("APPDATA") or Path.home() / "AppData" / "Roaming")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Preferences"
    else:
        base = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")
    return base / APP


def user_cache_dir() -> Path:
    """What can be rebuilt at any time (the parse cache). REVIEWAPP_CACHE_DIR overrides."""
    override = os.environ.get("REVIEWAPP_CACHE_DIR")
    if override:
        return Path(override)
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local") / APP / "Cache"
        return base
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / APP
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / APP


def log_file() -> Path:
    """The app's rotating log (the window writes it; headless commands print instead)."""
    return user_data_dir() / "logs" / "reviewapp.log"


def hub_cache_dir() -> Path:
    """The Hub cache, read from the environment at call time (huggingface_hub fixes its default at import)."""
    explicit = os.environ.get("HF_HUB_CACHE")
    if explicit:
        return Path(explicit).expanduser()
    home = os.environ.get("HF_HOME")
    if home:
        return Path(home).expanduser() / "hub"
    from huggingface_hub import constants

    return Path(constants.HF_HUB_CACHE)
