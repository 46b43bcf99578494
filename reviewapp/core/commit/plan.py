"""A commit plan: the review files, the exact bytes each will have, what changed since the last commit, the message.

The plan is made before anything is written or sent, shown to the user, and then carried out by git_commit or
hub_commit. Its bytes are what the secret scan looked at and what gets committed.

Where the files come from: the logbook's `reviews/` folder and the fallback folder in the user data directory
(used while the logbook could not be written). A record file in both is committed as the union of their lines;
for other files the logbook's copy wins. Pair results that were committed but are gone locally (a rating was
undone, so the results are no longer complete) are deleted; annotation files are never deleted.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from reviewapp.core.commit.errors import CommitError
from reviewapp.core.commit.files import (
    ReviewSource,
    is_record_file,
    is_review_file,
    keeps_all_lines,
    lines_of,
    read_review_file,
    review_sources,
    schema_version,
    union,
)
from reviewapp.core.commit.summary import Summary, commit_message, summarize
from reviewapp.core.logbook.logbook_id import LogbookId
from reviewapp.core.logbook.model import Logbook
from reviewapp.core.review.review_files import PAIR_RESULTS_DIR
from reviewapp.core.review.secret_scan import SecretFinding, json_strings, scan_bytes, scan_fields, scan_text
from reviewapp.core.review.store import (
    REVIEWS_DIR,
    SCHEMA_FILE,
    AnnotationStore,
    fallback_folder,
    legacy_fallback_folder,
)

Target = Literal["git", "hub"]
MAX_DIFF_LINES = 4000
MESSAGE = "the commit message"
# (path in the repository -> local bytes) -> (path -> last committed bytes, None when not in the last commit);
# the local bytes let a reader skip fetching what it can tell is unchanged
BaseReader = Callable[[Mapping[str, bytes]], Mapping[str, bytes | None]]
# folder in the repository -> paths of the files committed below it
FolderLister = Callable[[str], Sequence[str]]


class SecretsFound(CommitError):
    """The bytes to be committed contain something that looks like a secret; nothing was committed or sent."""

    def __init__(self, findings: list[tuple[str, SecretFinding]]) -> None:
        self.findings = findings
        listed = "; ".join(f"{path} line {f.line}: {f.kind} ({f.preview})" for path, f in findings[:5])
        more = f" and {len(findings) - 5} more" if len(findings) > 5 else ""
        super().__init__(
            f"refusing to commit: {listed}{more}. Remove it from the file (review files are append-only, so edit "
            "the line out by hand) and commit again; nothing was committed or sent."
        )


@dataclass(frozen=True)
class PlannedFile:
    path: str  # in the repository, POSIX ("reviews/ada.jsonl", ".trackio/logbook/reviews/ada.jsonl")
    rel: str  # inside the reviews folder ("ada.jsonl", "pairs/set-ada.csv")
    data: bytes | None  # exactly what is committed; None deletes the file
    base: bytes | None  # as last committed; None when the file is new
    sources: tuple[Path, ...]
    from_fallback: bool  # some of its bytes come from the fallback folder

    @property
    def changed(self) -> bool:
        return self.base != self.data

    @property
    def status(self) -> Literal["new", "changed", "unchanged", "deleted"]:
        if self.data is None:
            return "deleted"
        if self.base is None:
            return "new"
        return "changed" if self.changed else "unchanged"

    def describe(self) -> str:
        """ "3 new records", "new file", "12 rows (was 8)"."""
        if self.data is None:
            return "deleted (no longer in the reviews folder)"
        if is_record_file(self.rel):
            added = len(set(lines_of(self.data)) - set(lines_of(self.base or b"")))
            text = f"{added} new record{'s' if added != 1 else ''}" if added else "no new records"
            return text + (" (new file)" if self.base is None else "")
        if self.rel.endswith(".csv"):
            rows = max(len(lines_of(self.data)) - 1, 0)  # the first line names the columns
            was = f" (was {max(len(lines_of(self.base)) - 1, 0)})" if self.base is not None else " (new file)"
            return f"{rows} row{'s' if rows != 1 else ''}{was}"
        return "new file" if self.base is None else "changed"

    def raw_diff(self) -> str:
        """Unified diff of the committed version and the new one; appended lines only when nothing else changed."""
        old = (self.base or b"").decode("utf-8", "replace")
        new = (self.data or b"").decode("utf-8", "replace")
        after = f"b/{self.path}" if self.data is not None else "/dev/null"
        header = [f"--- {'a/' + self.path if self.base is not None else '/dev/null'}", f"+++ {after}"]
        if new.startswith(old) and self.data is not None:
            added = new[len(old) :].splitlines()
            start = old.count("\n") + 1
            return "\n".join([*header, f"@@ -{start - 1},0 +{start},{len(added)} @@", *(f"+{x}" for x in added)])
        lines = difflib.unified_diff(old.splitlines(), new.splitlines(), lineterm="", n=1)
        return "\n".join([*header, *list(lines)[2:]])


@dataclass
class CommitPlan:
    target: Target
    destination: str  # for people: "git checkout /x (branch main)", "Space alice/repro-x"
    files: list[PlannedFile]
    summary: Summary
    message: str
    base_revision: str | None  # the commit the plan was made against
    notes: list[str] = field(default_factory=list)
    offline: bool = False  # made without reaching the remote, against the last state known here: a preview only

    @property
    def changed_files(self) -> list[PlannedFile]:
        return [f for f in self.files if f.changed]

    @property
    def empty(self) -> bool:
        return not self.changed_files

    def readable_diff(self) -> str:
        """What changed, file by file, in words."""
        out: list[str] = []
        for planned in self.changed_files:
            out.append(f"{planned.path} — {planned.describe()}")
            out.extend(f"    {c.text}" for c in self.summary.changes if c.file == planned.path)
            out.append("")
        out.extend(f"Not a valid record: {line}" for line in self.summary.invalid)
        return "\n".join(out).strip("\n") or "Nothing changed since the last commit."

    def raw_diff(self, limit: int = MAX_DIFF_LINES) -> str:
        lines: list[str] = []
        for planned in self.changed_files:
            lines.extend(planned.raw_diff().splitlines())
        if len(lines) > limit:
            lines = [*lines[:limit], f"… {len(lines) - limit} more lines"]
        return "\n".join(lines)

    def check_secrets(self, known: Sequence[str], message: str = "") -> None:
        """Raise SecretsFound when the bytes to be committed, or the message, hold a token, key or password."""
        findings = [(MESSAGE, found) for found in scan_text(message, known)]
        for planned in self.changed_files:
            if planned.data is not None:
                raw = scan_bytes(planned.data, known)
                seen = {(f.line, f.preview) for f in raw}
                decoded = [f for f in _decoded_record_findings(planned.data, known) if (f.line, f.preview) not in seen]
                findings += [(planned.path, found) for found in [*raw, *decoded]]
        if findings:
            raise SecretsFound(findings)


def _decoded_record_findings(data: bytes, known: Sequence[str]) -> list[SecretFinding]:
    """Secrets in the decoded fields of each JSON line (escapes, encodings, a token split across fields), which
    a scan of the raw bytes cannot see; reported by line."""
    found: list[SecretFinding] = []
    for number, line in enumerate(data.splitlines(), start=1):
        try:
            value = json.loads(line)
        except ValueError:
            continue
        for name, finding in scan_fields(list(json_strings(value)), known):
            found.append(SecretFinding(f"{finding.kind} in {name}", number, 1, finding.preview))
    return found


def collect_sources(logbook_root: Path, logbook_id: LogbookId | None = None) -> dict[str, list[ReviewSource]]:
    """Review files by their path inside reviews/: the logbook's copy first, then the fallback folder's (after
    moving a path-hash folder of an earlier version into it; one that could not be moved is still read)."""
    store = AnnotationStore(logbook_root, logbook_id=logbook_id)
    store.migrate()
    found: dict[str, list[ReviewSource]] = {}
    folders = [(logbook_root / REVIEWS_DIR, False), (fallback_folder(logbook_root, store.logbook_id), True)]
    for folder, fallback in [*folders, (legacy_fallback_folder(logbook_root), True)]:
        for source in review_sources(folder, fallback=fallback):
            found.setdefault(source.rel, []).append(source)
    return dict(sorted(found.items()))


def local_bytes(sources: Sequence[ReviewSource]) -> tuple[bytes, list[str]]:
    """The file's content from its sources, and notes about disagreements."""
    notes: list[str] = []
    data = read_review_file(sources[0].path)
    for other in sources[1:]:
        extra = read_review_file(other.path)
        if is_record_file(other.rel):
            data = union(data, extra)
        elif extra != data:
            notes.append(f"{other.path} differs from {sources[0].path}; the logbook's copy is committed")
    return data, notes


def build_plan(
    logbook: Logbook,
    *,
    target: Target,
    prefix: str,
    read_base: BaseReader,
    destination: str,
    base_revision: str | None,
    keep_remote_lines: bool,
    list_committed: FolderLister | None = None,
) -> CommitPlan:
    """Plan a commit of every review file of `logbook` to `prefix/reviews/...` against `read_base`.

    With `keep_remote_lines` (the Hub, where nothing merges afterwards) a record file keeps the committed lines
    the local copy lacks, e.g. those written on another machine.
    """
    sources = collect_sources(logbook.root, logbook.logbook_id)
    notes: list[str] = []
    local: dict[str, tuple[bytes, list[ReviewSource]]] = {}
    for rel, found in sources.items():
        data, disagreements = local_bytes(found)
        notes.extend(disagreements)
        local[rel] = (data, found)
    paths = {rel: _repo_path(prefix, rel) for rel in local}
    gone = _gone_results(prefix, set(paths.values()), list_committed)
    wanted = {**{paths[rel]: data for rel, (data, _) in local.items()}, **dict.fromkeys(gone.values(), b"")}
    bases = read_base(wanted) if wanted else {}
    files: list[PlannedFile] = [
        PlannedFile(path, rel, None, bases[path], (), False)
        for rel, path in gone.items()
        if bases.get(path) is not None
    ]
    for rel, (data, found) in local.items():
        path = paths[rel]
        base = bases.get(path)
        if base is not None and keep_remote_lines:
            data = _keep_remote(rel, base, data)
        fallback = any(s.fallback for s in found)
        files.append(PlannedFile(path, rel, data, base, tuple(s.path for s in found), fallback))
    changed = [f for f in files if f.changed]
    record_changes = {f.path: (f.base, f.data) for f in changed if is_record_file(f.rel) and f.data is not None}
    context = [f.data for f in files if is_record_file(f.rel) and not f.changed and f.data is not None]
    summary = summarize(record_changes, logbook.claims, context=context)
    from_fallback = [f for f in changed if f.from_fallback]
    if from_fallback:
        where = fallback_folder(logbook.root, logbook.logbook_id)
        how = "copied into the logbook's reviews folder first" if target == "git" else "uploaded from there"
        notes.append(f"{len(from_fallback)} file(s) come from {where} (kept outside the logbook); {how}")
    notes.extend(f"not a valid record, committed as it is: {line}" for line in summary.invalid)
    return CommitPlan(
        target=target,
        destination=destination,
        files=sorted(files, key=_display_order),
        summary=summary,
        message=commit_message(summary, len(changed)),
        base_revision=base_revision,
        notes=notes,
    )


def _gone_results(prefix: str, present: set[str], list_committed: FolderLister | None) -> dict[str, str]:
    """Committed pair results (rel -> path in the repository) that are no longer in any local folder."""
    if list_committed is None:
        return {}
    reviews = _repo_path(prefix, "")
    gone = {}
    for path in list_committed(_repo_path(prefix, PAIR_RESULTS_DIR)):
        rel = path[len(reviews) :].lstrip("/") if path.startswith(reviews) else ""
        if (
            rel.startswith(f"{PAIR_RESULTS_DIR}/")
            and is_review_file(rel)
            and not is_record_file(rel)
            and path not in present
        ):
            gone[rel] = path
    return gone


def _display_order(planned: PlannedFile) -> tuple[int, str]:
    """Annotation files first, then pair results, then the schema and attributes."""
    rank = 0 if is_record_file(planned.rel) else 1 if "/" in planned.rel else 2
    return rank, planned.rel


def _repo_path(prefix: str, rel: str) -> str:
    return "/".join(p for p in (prefix.strip("/"), REVIEWS_DIR, rel) if p)


def _keep_remote(rel: str, base: bytes, data: bytes) -> bytes:
    if is_record_file(rel):
        return data if keeps_all_lines(base, data) else union(base, data)
    if rel == SCHEMA_FILE and schema_version(base) > schema_version(data):
        return base  # a newer version of the app wrote it; never downgrade
    return data
