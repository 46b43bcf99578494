"""Importing a Logbook Judge verdicts file for some logbooks: link, match, store. Used by `reviewapp verdicts import`,
the window's File > Import Logbook Judge Verdicts, and the demo."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reviewapp.core.logbook.model import Logbook
from reviewapp.core.logbook_judge.entries import ImportProblem, read_verdicts
from reviewapp.core.logbook_judge.import_paths import logbook_id_of
from reviewapp.core.logbook_judge.judged import hub_owners, judge_logbook, opened_from_space
from reviewapp.core.logbook_judge.linking import SpaceHints, link_entry
from reviewapp.core.logbook_judge.registry import Registry, read_paper_index, read_registry
from reviewapp.core.logbook_judge.stored import file_sha256, store_import, store_registry


@dataclass
class ImportResult:
    reports: list[dict[str, Any]]  # one per logbook, JSON-ready
    problems: list[ImportProblem] = field(default_factory=list)  # bad entries of the file (the rest was imported)
    registry: Registry | None = None

    @property
    def all_stored(self) -> bool:
        return all(r["stored"] for r in self.reports)


def import_verdicts(
    file: Path,
    logbooks: Sequence[Logbook],
    *,
    registry_file: Path | None = None,
    paper_index_file: Path | None = None,
    space: str | None = None,
    data_dir: Path | None = None,
) -> ImportResult:
    """Raises VerdictsFileError (unreadable file), LinkError (`space` has no entry) or OSError (cannot write)."""
    verdicts = read_verdicts(file)
    paper_index = read_paper_index(paper_index_file) if paper_index_file else None
    registry = read_registry(registry_file, paper_index) if registry_file else None
    registry_sha = None
    if registry is not None and registry_file is not None:
        registry_sha = file_sha256(registry_file)
        store_registry(registry, registry_sha, data_dir)
    source_sha = file_sha256(file)
    result = ImportResult([], verdicts.problems + (registry.problems if registry else []), registry)
    for logbook in logbooks:
        logbook_id = logbook_id_of(logbook)
        hints = SpaceHints.of(logbook, opened_from=opened_from_space(logbook_id), owners=hub_owners(logbook_id))
        link = link_entry(verdicts.entries, hints, forced=space)
        report: dict[str, Any] = {
            "source": str(logbook.source),
            "logbook_id": logbook_id,
            "link": link.to_json(),
            "stored": None,
            "claims": None,
        }
        result.reports.append(report)
        if link.entry is None:
            continue
        entry = link.entry
        registry_claims = registry.for_paper(entry.orid) if registry else None
        judged = judge_logbook(logbook, entry, registry_claims, link=link.to_json())
        problems = [p for p in verdicts.problems if p.entry and p.entry.startswith(entry.key)]
        path = store_import(
            logbook_id,
            entry,
            link,
            file,
            source_sha,
            registry_sha if registry_claims else None,
            problems,
            data_dir,
        )
        report["stored"] = str(path)
        report["revision_warning"] = judged.revision.warning
        missing = registry.missing_note(entry.orid) if registry is not None else None
        report["notes"] = [*judged.result.notes, *([missing] if missing else [])]
        report["claims"] = [
            {
                "index": m.judge.index,
                "verdict": m.judge.verdict.value if m.judge.verdict else None,
                "claim_key": m.claim_key,
                "method": m.method,
                "confidence": m.confidence,
                "why": m.why,
            }
            for m in judged.result.matches
        ]
        report["unmatched_logbook_claims"] = judged.result.unmatched_claims
    return result
