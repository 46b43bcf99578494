"""The agent sessions of a logbook: those its manifest lists and those attached as transcripts.

A transcript attached under the id of a listed session whose trace files are absent fills that session; one
under any other id is a session of its own. A published logbook's `traces_ref` names a Hub dataset holding the
traces, fetched only when someone opens the trace pane.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reviewapp.core.logbook.model import Logbook, TraceInfo
from reviewapp.core.trace.index import TraceIndex, TrackioTrace, open_transcript


@dataclass(frozen=True)
class TranscriptLink:
    """What the review records say about one attached transcript."""

    session: str
    sha256: str
    path: Path  # where the copy is kept
    format: str
    file_name: str


@dataclass(frozen=True)
class TraceSession:
    id: str
    title: str
    provider: str | None
    trace: TraceInfo | None  # as the manifest lists it
    transcript: TranscriptLink | None  # an attached raw transcript, when that is what is read
    root: Path | None = None  # the folder Trackio's chunk paths are relative to

    @property
    def readable(self) -> bool:
        if self.transcript is not None:
            return self.transcript.path.is_file()
        return self.trace is not None and self.trace.available and bool(self.trace.chunks)

    @property
    def state(self) -> str:
        if self.transcript is not None:
            how = "fills the listed session" if self.trace is not None else "attached"
            return f"{how} from {self.transcript.file_name} ({self.transcript.format})"
        if self.trace is not None and not self.readable:
            return "listed, files missing"
        return "Trackio trace"

    def open_index(self) -> TraceIndex:
        """An unbuilt index over this session (build it in a worker)."""
        if self.transcript is not None:
            index = open_transcript(self.transcript.path)
            index.label = self.transcript.file_name  # problems name the file the reviewer attached, not our copy
            return index
        if self.trace is None or self.root is None:
            raise ValueError(f"session {self.id!r} has no readable trace")
        return TrackioTrace(self.root, self.trace)


def list_sessions(logbook: Logbook, links: list[TranscriptLink]) -> list[TraceSession]:
    by_session: dict[str, TranscriptLink] = {}
    for link in links:  # a later link of the same session replaces an earlier one
        by_session[link.session] = link
    sessions: list[TraceSession] = []
    for trace in logbook.traces:
        listed_link = by_session.pop(trace.id, None)
        use_link = listed_link if listed_link is not None and not (trace.available and trace.chunks) else None
        sessions.append(TraceSession(trace.id, trace.title, trace.provider, trace, use_link, logbook.root))
    for link in by_session.values():
        sessions.append(TraceSession(link.session, link.file_name, link.format, None, link))
    return sessions


def traces_ref(logbook: Logbook) -> str | None:
    """The Hub dataset a published logbook keeps its traces in (`owner/<space>-traces`), if it names one."""
    ref: Any = (logbook.manifest or {}).get("traces_ref")
    if isinstance(ref, dict) and isinstance(ref.get("repo_id"), str) and ref.get("repo_type", "dataset") == "dataset":
        return str(ref["repo_id"])
    return None


def dataset_sessions(folder: Path, normalized_folder: str = "trackio") -> list[TraceSession]:
    """Sessions of a downloaded traces dataset: Trackio's normalized copy (in `normalized_folder`), else the
    raw `<session>.jsonl` files at its root."""
    from reviewapp.core.logbook.metadata import read_json_object
    from reviewapp.core.logbook.model import Problem
    from reviewapp.core.logbook.traces import load_traces

    problems: list[Problem] = []
    root = folder / normalized_folder
    listing = read_json_object(root / "index.json", f"{normalized_folder}/index.json", problems, root=folder)
    sessions_listed = listing.get("sessions") if listing else None
    manifest = {"traces": sessions_listed} if isinstance(sessions_listed, list) else None
    normalized = load_traces(root, manifest, problems) if root.is_dir() else []
    sessions = [TraceSession(t.id, t.title, t.provider, t, None, root) for t in normalized if t.available]
    known = {s.id for s in sessions}
    for path in sorted(folder.glob("*.jsonl")):
        if path.stem not in known:
            link = TranscriptLink(path.stem, "", path, "", path.name)
            sessions.append(TraceSession(path.stem, path.name, None, None, link))
    return sessions
