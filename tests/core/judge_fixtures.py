"""Generated logbooks, claim registries and Logbook Judge verdicts files with the real file's quirks."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from reviewapp.core.logbook.writer import LogbookDraft

ORID = "GenPaper01"
SPACE = "ada/repro-gen-paper"

# The registry's claims for the paper, in registry order, each ending with its anchor.
REGISTRY_TEXTS = [
    "Pruning widgets to 90% sparsity keeps top-1 accuracy within 0.5 points of the dense model (Table 1)",
    "Sparse widgets train twice as fast as dense widgets on a single GPU (Figure 3)",
    "The sparsity pattern stays stable under ImageNet-C distribution shift at severity 3 (Table 4)",
    "Theorem 4.3 bounds the approximation error of quantized widgets by the bit width (Theorem 4.3)",
]

# How a logbook restates each registry claim: reworded titles, the claim on the page in other words.
LOGBOOK_CLAIMS = [
    ("Widgets reach 90% sparsity without accuracy loss", "Top-1 accuracy of the pruned model stays within "
     "0.5 points of dense at 90% sparsity, as in Table 1.", "VERIFIED"),
    ("Training is 2x faster", "The paper says sparse widgets train twice as fast (Figure 3); we timed 500 steps on "
     "one GPU.", "FALSIFIED"),
    ("Robust to distribution shift", "Checked on ImageNet-C severity 3 only; the sparsity pattern held "
     "(Table 4).", "TOY"),
    ("Error bound for quantized widgets", "Theorem 4.3: the approximation error of quantized widgets is bounded "
     "by their bit width; we checked the bound numerically.", "PARTIALLY VERIFIED"),
]  # fmt: skip


def write_logbook(
    workspace: Path,
    order: list[int] | None = None,
    *,
    numbers: list[int] | None = None,
    metadata_space: str | None = SPACE,
    manifest_space: str | None = None,
    paper: str = ORID,
    scorecard: dict[int, str] | None = None,
) -> Path:
    """A logbook whose claims restate REGISTRY_TEXTS; `order` picks and orders them (0-based), `numbers` renumbers;
    `scorecard` (claim number -> verdict phrase) adds a conclusion table that can contradict the claim pages."""
    order = list(range(len(LOGBOOK_CLAIMS))) if order is None else order
    numbers = numbers or list(range(1, len(order) + 1))
    metadata: dict[str, Any] = {"paper": {"openreview_id": paper}, "tags": [f"paper-{paper}"]}
    if metadata_space:
        metadata["space_id"] = metadata_space
    draft = LogbookDraft("Reproduction of a generated paper", metadata=metadata)
    draft.page("Executive summary").markdown("A generated logbook.", title="Summary")
    for n, i in zip(numbers, order, strict=True):
        title, statement, verdict = LOGBOOK_CLAIMS[i]
        page = draft.page(f"Claim {n}: {title}")
        page.markdown(f"## Exact claim\n\n> {statement}", title="Claim")
        page.markdown(f"**Verdict: {verdict}.**", title="Verdict")
    if scorecard:
        table = "\n".join(f"| {n} | {phrase} |" for n, phrase in scorecard.items())
        draft.page("Conclusion").markdown(f"| Claim | Verdict |\n|---|---|\n{table}", title="Scorecard")
    root = draft.write(workspace)
    if manifest_space is not None:
        manifest = json.loads((root / "logbook.json").read_text("utf-8"))
        manifest["space_id"] = manifest_space
        (root / "logbook.json").write_text(json.dumps(manifest), "utf-8")
    return root


def write_registry(path: Path, texts: list[str] | None = None, key: str = ORID) -> Path:
    entries = {key: [{"text": t, "status": "unverified"} for t in (REGISTRY_TEXTS if texts is None else texts)]}
    entries["OtherPaper"] = [{"text": "An unrelated claim (Table 2)", "status": "unverified"}]
    path.write_text(json.dumps(entries), "utf-8")
    return path


def entry(
    verdicts: list[str],
    *,
    space_id: str = SPACE,
    texts: list[str | None] | None = None,
    sha: str | None = "a" * 40,
    **fields: Any,
) -> dict[str, Any]:
    claims = []
    for i, verdict in enumerate(verdicts):
        claim: dict[str, Any] = {"verdict": verdict, "evidence": f"Evidence for registry claim {i + 1}."}
        claim["claim"] = texts[i] if texts is not None else None
        claims.append(claim)
    value: dict[str, Any] = {
        "space_id": space_id,
        "orid": ORID,
        "paper_title": "A generated paper",
        "judged_at": "2026-08-01T12:00:00+00:00",
        "model": "zai-org/GLM-5.2",
        "claims": claims,
        "overall": "Solid on accuracy, the speed-up did not reproduce.",
        "quality": "medium",
    }
    if sha is not None:
        value["sha"] = sha
    value.update(fields)
    return value


def write_verdicts(path: Path, entries: dict[str, Any]) -> Path:
    path.write_text(json.dumps(entries, indent=1), "utf-8")
    return path
