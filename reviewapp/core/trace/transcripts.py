"""Attached transcripts: copied by content into `<data>/transcripts/<sha256>.jsonl`, never into the logbook.

A transcript may hold secrets, so it stays in the user's data folder; only the link (an annotation record
naming the sha256, the session and the format) may be committed. Copying streams the file, so a transcript of
hundreds of megabytes costs no memory, and an interrupted copy leaves only a hidden temporary file.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import secrets
from dataclasses import dataclass
from pathlib import Path

from reviewapp.core.io.durable import fsync_dir
from reviewapp.core.io.paths import user_data_dir

TRANSCRIPTS_DIR = "transcripts"
_BLOCK = 1024 * 1024


class TranscriptError(Exception):
    """The transcript cannot be read or stored; the message names the file."""


@dataclass(frozen=True)
class StoredTranscript:
    sha256: str
    path: Path
    size: int
    already_stored: bool


def transcripts_folder() -> Path:
    return user_data_dir() / TRANSCRIPTS_DIR


def stored_path(sha256: str) -> Path:
    return transcripts_folder() / f"{sha256}.jsonl"


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while block := handle.read(_BLOCK):
            digest.update(block)
    return digest.hexdigest()


def store_transcript(source: Path) -> StoredTranscript:
    """Copy `source` into the transcripts folder under its sha256 (once: the same bytes are stored once)."""
    if not source.is_file():
        raise TranscriptError(f"{source}: not a file")
    try:
        sha = file_sha256(source)
        target = stored_path(sha)
        if target.is_file() and file_sha256(target) == sha:
            return StoredTranscript(sha, target, target.stat().st_size, True)
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(f".{target.name}.{secrets.token_hex(4)}.tmp")
        digest = hashlib.sha256()
        try:
            with source.open("rb") as src, tmp.open("xb") as out:
                while block := src.read(_BLOCK):
                    digest.update(block)
                    out.write(block)
                out.flush()
                os.fsync(out.fileno())
            if digest.hexdigest() != sha:
                raise TranscriptError(f"{source}: changed while it was being copied; attach it again")
            os.replace(tmp, target)
        finally:
            with contextlib.suppress(OSError):
                tmp.unlink()
        fsync_dir(target.parent)
    except OSError as exc:
        raise TranscriptError(f"{source}: {exc.strerror or exc}") from exc
    return StoredTranscript(sha, target, target.stat().st_size, False)
