"""Generated logbooks for each hard case of matching the Logbook Judge's registry claims to a logbook's claims.

One paper's six registry claims, and logbooks that restate them the ways real ones do: reworded, reordered,
with the anchor only in the body, scoring an older claim list, splitting or merging claims, addressing fewer
claims, titled only "Claim N — VERIFIED", and entries with no claim text. `write_cases` writes them with a
verdicts file, a claim registry and the match key in the shape `benchmarks/judge_matching.py` reads.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reviewapp.core.logbook.writer import LogbookDraft
from reviewapp.core.logbook_judge.entries import JudgeClaim
from reviewapp.core.logbook_judge.matching import LogbookClaimText


@dataclass(frozen=True)
class PaperClaim:
    registry: str  # the registry's wording, ending with its anchor
    title: str  # how a logbook titles it, in other words
    body: str  # how a logbook restates it in its first cell
    anchor_body: str  # a page that names the anchor and little else of the statement
    older: str  # the wording of an earlier claim list


CLAIMS = [
    PaperClaim(
        "Pruning widgets to 90% sparsity keeps top-1 accuracy within 0.5 points of the dense model on ImageNet "
        "(Table 1).",
        "Sparse widgets keep their accuracy",
        "The paper states that at 90% sparsity the pruned widget network loses at most 0.5 top-1 points against "
        "the dense baseline (Table 1). We pruned the widgets and compared on the validation split.",
        "This page reproduces Table 1 of the paper with our own pruning run.",
        "Widget pruning preserves ImageNet top-1 at high sparsity, under half a point lost (Table 1).",
    ),
    PaperClaim(
        "Sparse widgets train 2.1x faster than dense widgets on a single A100 GPU (Figure 3).",
        "Training speed-up on one GPU",
        "Claimed: training the sparse widgets is about 2.1x quicker than dense training on one A100 (Figure 3). "
        "We timed 500 optimizer steps of each.",
        "Here we redo the timing behind Figure 3.",
        "Sparse training is about twice as fast as dense training on one accelerator (Figure 3).",
    ),
    PaperClaim(
        "Theorem 4.3 bounds the approximation error of b-bit quantized widgets by 2^-b times the Lipschitz "
        "constant (Theorem 4.3).",
        "Quantization error bound",
        "Theorem 4.3: for b-bit quantization the widget approximation error is at most 2^-b L, with L the "
        "Lipschitz constant. We checked the bound numerically for b = 4.",
        "We check Theorem 4.3 numerically for a few bit widths.",
        "Quantizing widgets to b bits costs at most 2^-b L of approximation error (Theorem 4.3).",
    ),
    PaperClaim(
        "Learned sparsity masks transfer across datasets: masks found on CIFAR-100 reach 97% of the accuracy of "
        "masks found on Tiny-ImageNet itself (Table 5).",
        "Masks transfer between datasets",
        "A mask learned on CIFAR-100 and reused on Tiny-ImageNet should keep 97% of the native mask's accuracy "
        "(Table 5).",
        "The numbers of Table 5, recomputed.",
        "Masks carry over from CIFAR-100 to Tiny-ImageNet with little loss (Table 5).",
    ),
    PaperClaim(
        "Under ImageNet-C corruptions at severity 3, sparse widgets lose no more robustness than dense widgets "
        "(Section 5.2).",
        "Robustness to corruptions",
        "Section 5.2 claims that at ImageNet-C severity 3 sparsity costs no extra robustness compared with the "
        "dense model.",
        "We repeat the experiment of Section 5.2.",
        "Sparse and dense widgets are equally robust on ImageNet-C at severity 3 (Section 5.2).",
    ),
    PaperClaim(
        "Lemma 2 shows the pruning schedule converges in O(log T) rounds for cubic sparsity ramps (Lemma 2).",
        "Schedule converges quickly",
        "Lemma 2 states that a cubic sparsity ramp converges after O(log T) pruning rounds; we count rounds for "
        "T up to 10^4.",
        "A numeric look at Lemma 2.",
        "Cubic ramps make the pruning schedule converge in logarithmically many rounds (Lemma 2).",
    ),
]
OLD_ONLY = PaperClaim(  # a claim of the older list that today's registry dropped
    "", "No retraining needed", "", "", "Pruned widgets recover their accuracy without any retraining (Section 3)."
)
# Every page of a real logbook repeats the paper's vocabulary in its setup: it must not tell claims apart.
SETUP = (
    "Setup: widgets pruned by magnitude on ImageNet and CIFAR-100, sparse and dense models trained with the "
    "same schedule on a single GPU; accuracy, robustness and speed logged for every run, quantized and "
    "full-precision widgets alike. Seeds 0-4; see the run cells below for commands and outputs."
)
VERDICT_WORDS = ["VERIFIED", "FALSIFIED", "TOY", "INCONCLUSIVE", "PARTIALLY VERIFIED", "VERIFIED"]
JUDGE_VERDICTS = ["verified", "falsified", "toy", "inconclusive", "inconclusive", "verified"]


@dataclass(frozen=True)
class Page:
    """One claim page: its number as written ("3", "3a"), title and first cell; `key` is what the key expects."""

    number: str
    title: str
    body: str


@dataclass(frozen=True)
class Case:
    name: str
    registry: list[int]  # which CLAIMS the registry lists, in registry order (0-based)
    pages: list[Page]
    key: list[tuple[int, str | None]]  # (registry position, logbook claim number) a careful reader writes down
    text: str = "entry"  # where the claim text comes from: "entry", "registry" or "none"


def _restating(order: list[int], how: str = "body", titles: str = "reworded") -> list[Page]:
    pages = []
    for n, i in enumerate(order, start=1):
        claim = CLAIMS[i]
        title = f"Claim {n} — {VERDICT_WORDS[i]}" if titles == "verdict" else f"Claim {n}: {claim.title}"
        body = {"body": claim.body, "anchor": claim.anchor_body, "older": claim.older}[how]
        pages.append(Page(str(n), title, body))
    return pages


def _pairs(order: list[int], registry: list[int]) -> list[tuple[int, str | None]]:
    """The key when the logbook's claim n restates CLAIMS[order[n-1]]."""
    return [(p, str(order.index(i) + 1) if i in order else None) for p, i in enumerate(registry, start=1)]


def cases() -> list[Case]:
    six = list(range(6))
    reordered = [3, 1, 5, 0, 2, 4]
    older = [0, 6, 2, 4]  # 6 stands for OLD_ONLY
    split = [
        Page("1", f"Claim 1: {CLAIMS[0].title}", CLAIMS[0].body),
        Page("2a", "Claim 2a: Speed-up, forward pass", CLAIMS[1].body + " This part times the forward pass."),
        Page("2b", "Claim 2b: Speed-up, backward pass", CLAIMS[1].body + " This part times the backward pass."),
        Page("3", f"Claim 3: {CLAIMS[2].title}", CLAIMS[2].body),
        Page("4", f"Claim 4: {CLAIMS[3].title}", CLAIMS[3].body),
    ]
    merged = [
        Page("1", f"Claim 1: {CLAIMS[0].title}", CLAIMS[0].body),
        Page("2", f"Claim 2: {CLAIMS[1].title}", CLAIMS[1].body),
        Page("3", "Claim 3: Quantization bound and mask transfer", CLAIMS[2].body + "\n\n" + CLAIMS[3].body),
        Page("4", f"Claim 4: {CLAIMS[4].title}", CLAIMS[4].body),
    ]
    older_pages = [
        Page(str(n), f"Claim {n}: {(CLAIMS[i] if i < 6 else OLD_ONLY).title}", (CLAIMS[i] if i < 6 else OLD_ONLY).older)
        for n, i in enumerate(older, start=1)
    ]
    return [
        Case("reworded", six, _restating(six), _pairs(six, six)),
        Case("reordered", six, _restating(reordered), _pairs(reordered, six)),
        Case("anchor-only-in-body", six, _restating(reordered, "anchor"), _pairs(reordered, six)),
        Case("older-claim-list", [0, 1, 2, 3, 4], older_pages, [(1, "1"), (2, None), (3, "3"), (4, None), (5, "4")]),
        Case("split", [0, 1, 2, 3], split, [(1, "1"), (2, "2a"), (2, "2b"), (3, "3"), (4, "4")]),
        Case("merged", [0, 1, 2, 3, 4], merged, [(1, "1"), (2, "2"), (3, "3"), (4, "3"), (5, "4")]),
        Case("fewer-claims", six, _restating([0, 1, 3, 5]), _pairs([0, 1, 3, 5], six), text="registry"),
        Case("verdict-titles", [0, 1, 2, 3, 4], _restating([0, 1, 2, 3, 4], "older", titles="verdict"),
             _pairs([0, 1, 2, 3, 4], [0, 1, 2, 3, 4]), text="registry"),
        Case("verdict-titles-reordered", six, _restating(reordered, "older", titles="verdict"),
             _pairs(reordered, six)),
        Case("no-text-same-count", [0, 1, 2, 3], _restating([0, 1, 2, 3], titles="verdict"),
             _pairs([0, 1, 2, 3], [0, 1, 2, 3]), text="none"),
        Case("no-text-other-count", [0, 1, 2, 3, 4], _restating([0, 1, 2, 3]), [(p, None) for p in range(1, 6)],
             text="none"),
    ]  # fmt: skip


def space_of(case: Case) -> str:
    return f"gen/{case.name}"


def paper_of(case: Case) -> str:
    return "Gen" + "".join(part.capitalize() for part in case.name.split("-"))


def write_case_logbook(case: Case, workspace: Path) -> Path:
    metadata: dict[str, Any] = {"paper": {"openreview_id": paper_of(case)}, "space_id": space_of(case)}
    draft = LogbookDraft(f"Reproduction: {case.name}", metadata=metadata)
    draft.page("Executive summary").markdown("Generated logbook for one matching case.", title="Summary")
    for page in case.pages:
        draft_page = draft.page(page.title)
        draft_page.markdown(f"## Exact claim\n\n> {page.body}", title="Claim")
        draft_page.markdown(SETUP, title="Setup")
        draft_page.markdown("**Verdict: VERIFIED.**", title="Verdict")
    return draft.write(workspace)


def entry_of(case: Case) -> dict[str, Any]:
    claims = []
    for p, i in enumerate(case.registry, start=1):
        text = CLAIMS[i].registry if case.text == "entry" else None
        claims.append({"claim": text, "verdict": JUDGE_VERDICTS[(p - 1) % 6], "evidence": f"Registry claim {p}."})
    return {
        "space_id": space_of(case),
        "orid": paper_of(case),
        "paper_title": "A generated paper",
        "judged_at": "2026-08-01T12:00:00+00:00",
        "model": "zai-org/GLM-5.2",
        "claims": claims,
    }


@dataclass(frozen=True)
class CasePaths:
    folder: Path
    verdicts: Path
    registry: Path
    key: Path


def write_cases(folder: Path, only: list[Case] | None = None) -> CasePaths:
    """Each case's logbook in `folder/<name>/`, with `verdicts.json`, `claims_anchored.json` and `key.json`."""
    chosen = cases() if only is None else only
    verdicts: dict[str, Any] = {}
    registry: dict[str, Any] = {}
    key: dict[str, Any] = {}
    for case in chosen:
        write_case_logbook(case, folder / case.name)
        verdicts[space_of(case)] = entry_of(case)
        if case.text == "registry":
            registry[paper_of(case)] = [{"text": CLAIMS[i].registry, "status": "unverified"} for i in case.registry]
        key[space_of(case)] = {
            "logbook": case.name,
            "matches": [{"registry_position": p, "logbook_claim": _as_number(n)} for p, n in case.key],
        }
    paths = CasePaths(folder, folder / "verdicts.json", folder / "claims_anchored.json", folder / "key.json")
    paths.verdicts.write_text(json.dumps(verdicts, indent=1), "utf-8")
    paths.registry.write_text(json.dumps(registry, indent=1), "utf-8")
    paths.key.write_text(json.dumps(key, indent=1), "utf-8")
    return paths


def _as_number(n: str | None) -> int | str | None:
    return int(n) if n is not None and n.isdigit() else n


def large_case(count: int, title_chars: int) -> tuple[list[JudgeClaim], list[LogbookClaimText]]:
    """`count` registry claims and as many logbook claims whose titles and pages are `title_chars` long."""
    judge = []
    claims = []
    for i in range(count):
        words = f"quantity{i} measured on benchmark{i} with setting{i} (Table {i + 1})"
        judge.append(JudgeClaim(i + 1, f"The method improves {words}.", None, None))
        filler = (f"Claim {i + 1}: we measured {words} again. " * (title_chars // 60 + 1))[:title_chars]
        claims.append(LogbookClaimText(f"claim-{i + 1}#{i + 1}", i + 1, filler, filler))
    return judge, claims
