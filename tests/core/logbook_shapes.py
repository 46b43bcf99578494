"""Generated logbooks in the shapes rewritten logbooks take in the wild: historical groups, orphans, odd manifests.

Plain builders over `LogbookDraft` that write real Trackio files, shared by the core and the Qt tests.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from reviewapp.core.logbook.writer import LogbookDraft, PageDraft


def node(page: PageDraft, children: list[dict[str, Any]] | None = None, file: bool = True) -> dict[str, Any]:
    entry: dict[str, Any] = {"slug": page.slug, "title": page.title, "children": children or []}
    if file:
        entry["file"] = f"pages/{page.slug}/page.md"
    return entry


def write_manifest(root: Path, draft: LogbookDraft, tree: dict[str, Any]) -> None:
    manifest = draft.manifest()
    manifest["root"] = tree
    (root / "logbook.json").write_text(json.dumps(manifest, indent=2), encoding="utf-8")


def rewritten_logbook(workspace: Path) -> Path:
    """A second attempt: current claim pages under a non-index root; the first attempt nested under a group page
    in the manifest; a third set of claim pages only on disk (orphans). The earlier sets disagree with the current.
    """
    draft = LogbookDraft("Reproduction: Rewritten widgets")
    current_index = draft.page("Current verification", slug="current-index")
    current_index.markdown("| Claim | Verdict |\n|---|---|\n| 1 | VERIFIED |\n| 2 | FALSIFIED |")
    c1 = draft.page("Claim 1 — VERIFIED", slug="current-claim-1")
    c1.markdown("The bound holds at the paper's scale.")
    c2 = draft.page("Claim 2 — FALSIFIED", slug="current-claim-2")
    c2.markdown("The speed-up is absent.")
    group = draft.page("Historical rejected baseline", slug="historical-rejected-baseline")
    group.markdown("Kept for provenance.")
    h1 = draft.page("Historical: Claim 1", slug="claim-1-widget-bound")
    h1.markdown("**Verdict: TOY.** Small runs only.")
    h2 = draft.page("Historical: Claim 2", slug="claim-2-widget-speed")
    h2.markdown("**Verdict: INCONCLUSIVE.**")
    summary = draft.page("Historical: Executive summary", slug="executive-summary")
    summary.markdown("| Claim | Verdict |\n|---|---|\n| 1 | TOY |\n| 2 | INCONCLUSIVE |")
    orphan = draft.page("Claim 2: widget speed (second try)", slug="second-try-claim-2")
    orphan.markdown("Verdict: partially verified.")
    root = draft.write(workspace)
    tree = node(
        current_index,
        [
            node(c1),
            node(c2),
            node(group, [node(h1), node(h2), node(summary)]),
        ],
    )
    write_manifest(root, draft, tree)
    return root
