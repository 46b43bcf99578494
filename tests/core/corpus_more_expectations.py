"""Careful readings of the logbooks in ``../shared/corpus-more``, written from their pages, not from the reader.

Same form and conventions as ``corpus_expectations.py``. Each claim's ``note`` says where the agent states its
outcome, or why a careful reader finds none; ``ambiguous`` marks a claim a careful reader could map two ways (the
verdict written is the stricter reading). ``reader_gaps`` names the checks the reader still fails, with why.
"""

from tests.core.corpus_expectations import ClaimExpectation, LogbookExpectation

_TAU2 = (
    "will-rice__icml-2026-reproductions__"
    "repro-tau-2-bench-evaluating-conversational-agents-in-a-dual-control-environment"
)

EXPECTED_MORE: dict[str, LogbookExpectation] = {
    "Amal-David__icml-2026-cocoemo-repro": LogbookExpectation(
        root=".trackio/logbook",
        layout="workspace",
        title="Reproduction: CoCoEmo: Composable and Controllable Human-Like Emotional TTS via Activation Steering",
        paper_id="wW2LIHSCfw",
        space_id="amal-david/repro-cocoemo-composable-and-controllable-human-like-emotional-tts-via-activation-steering",
        page_slugs=(
            "index",
            "executive-summary",
            "claim-1-slm-drives-emotional-prosody",
            "claim-2-mean-difference-steering-vectors",
            "claim-3-mid-to-late-attention-layers",
            "claim-4-mixed-emotion-controllability-and-quality",
            "claim-5-high-severity-text-emotion-mismatch",
        ),
        cell_counts={"markdown": 14, "figure": 1},
        claims=(
            ClaimExpectation(
                key="claim-1-slm-drives-emotional-prosody#1",
                n=1,
                page="claim-1-slm-drives-emotional-prosody",
                verdict="unstated",
                raw=None,
                note="Only the template line 'Document setup, runs, and results for …': nothing was done yet.",
            ),
            ClaimExpectation(
                key="claim-2-mean-difference-steering-vectors#2",
                n=2,
                page="claim-2-mean-difference-steering-vectors",
                verdict="unstated",
                raw=None,
                note=(
                    "Work in progress: 'blocked until licensed access', 'remains unverified', 'GPU evidence is still"
                    " pending' describe steps; the executive summary says no empirical verdict is reported yet."
                    " Inconclusive is the other reading."
                ),
                ambiguous=True,
            ),
            ClaimExpectation(
                key="claim-3-mid-to-late-attention-layers#3",
                n=3,
                page="claim-3-mid-to-late-attention-layers",
                verdict="unstated",
                raw=None,
                note="As claim 2: release findings 'block' one backbone, GPU evidence 'remains pending'.",
                ambiguous=True,
            ),
            ClaimExpectation(
                key="claim-4-mixed-emotion-controllability-and-quality#4",
                n=4,
                page="claim-4-mixed-emotion-controllability-and-quality",
                verdict="unstated",
                raw=None,
                note=(
                    "'fails documentary audit' and 'This falsifies faithful five-way composition in the release'"
                    " are audit findings; the experiment is pending and the summary reports no verdict yet."
                    " Falsified is the other reading."
                ),
                ambiguous=True,
            ),
            ClaimExpectation(
                key="claim-5-high-severity-text-emotion-mismatch#5",
                n=5,
                page="claim-5-high-severity-text-emotion-mismatch",
                verdict="unstated",
                raw=None,
                note="'No GPU result or directional verdict is reported yet'; 'remain unverified until' is a plan.",
                ambiguous=True,
            ),
        ),
        trace_ids=("019fa4e6-2ba6-7173-b018-352d630105d1",),
        trace_events={"019fa4e6-2ba6-7173-b018-352d630105d1": 730},
        traces_available={"019fa4e6-2ba6-7173-b018-352d630105d1": False},
        dangling_toc_links=("conclusion",),
        notes=(
            "5 claims, one page each; a work in progress whose executive summary says no empirical verdict is"
            " reported yet. The manifest's conclusion page is not stored."
        ),
        reader_gaps={
            "claims": "claim 4: 'The composite numerical claim therefore fails documentary audit' reads as falsified",
        },
    ),
    "Devsam2898__ICML-2026-Agent-Reproductions": LogbookExpectation(
        root=".trackio/logbook",
        layout="workspace",
        title="Repro: STAR-KV: Low-Rank KV Cache Compression via Soft Thresholding for Adaptive Rank Control",
        paper_id=None,
        space_id="Devavrat28/star-kv",
        page_slugs=(
            "index",
            "environment-setup",
            "claim-1-perplexity-wikitext-2-c4",
            "claim-2-zero-shot-accuracy",
            "claim-3-kv-cache-compression-ratio",
            "claim-4-attention-speedup-and-e2e-throughput",
            "claim-5-longbench-and-ruler",
            "extended-analysis-qwen2-5-3b-turboquant-metrics",
            "discrepancies-log",
        ),
        cell_counts={"markdown": 20, "code": 13},
        claims=(
            ClaimExpectation(
                key="claim-1-perplexity-wikitext-2-c4#1",
                n=1,
                page="claim-1-perplexity-wikitext-2-c4",
                verdict="inconclusive",
                raw="PENDING",
                note=(
                    "Index Status column 'Pending'. The page logs a failed training attempt, a baseline discrepancy"
                    " and a 'still blocked' second model: steps, not the claim's verdict. Unstated is the strict"
                    " reading."
                ),
                ambiguous=True,
            ),
            ClaimExpectation(
                key="claim-2-zero-shot-accuracy#2",
                n=2,
                page="claim-2-zero-shot-accuracy",
                verdict="inconclusive",
                raw="PENDING",
                note="Index Status 'Pending'; the page holds only the plan.",
                ambiguous=True,
            ),
            ClaimExpectation(
                key="claim-3-kv-cache-compression-ratio#3",
                n=3,
                page="claim-3-kv-cache-compression-ratio",
                verdict="unstated",
                raw=None,
                note="Status 'At risk (quant path broken)': no verdict word; the page: 'may not be reproducible'.",
            ),
            ClaimExpectation(
                key="claim-4-attention-speedup-and-e2e-throughput#4",
                n=4,
                page="claim-4-attention-speedup-and-e2e-throughput",
                verdict="inconclusive",
                raw="BLOCKED",
                note=(
                    "Index Status 'Blocked - kernel checks fail'; the page's conclusion: the numbers 'cannot"
                    " currently be verified'."
                ),
            ),
            ClaimExpectation(
                key="claim-5-longbench-and-ruler#5",
                n=5,
                page="claim-5-longbench-and-ruler",
                verdict="inconclusive",
                raw="PENDING",
                note="Index Status 'Pending'; the page holds only the plan.",
                ambiguous=True,
            ),
        ),
        notes=(
            "5 claim pages plus environment, extended-analysis and discrepancies pages; no summary or conclusion."
            " Outcomes only in the index's Status column; run outputs are pip and job logs (FAILED, blocked, status"
            " words that are about jobs, not claims)."
        ),
    ),
    "MachineLearning-Nerd__icml26-bertrand-no-regret-equilibria__space-root": LogbookExpectation(
        root="space",
        layout="space",
        title="Repro - Revisiting the Bertrand Paradox via Equilibrium Analysis of No-regret Learners",
        paper_id="ZEP68RaUeR",
        space_id="DineshAI/ZEP68RaUeR",
        page_slugs=(
            "faithful-claim-1",
            "faithful-claim-2",
            "faithful-claim-3",
            "faithful-claim-4",
            "faithful-claim-5",
            "faithful-claim-6",
            "faithful-release",
        ),
        cell_counts={},
        claims=tuple(
            ClaimExpectation(
                key=f"faithful-claim-{n}#{n}",
                n=n,
                page=f"faithful-claim-{n}",
                verdict="verified",
                raw="VERIFIED",
                note="'## Verdict' then '**VERIFIED** under the explicit finite claim contract.', JSON agrees.",
            )
            for n in range(1, 7)
        ),
        notes=(
            "6 claims, one 'faithful-claim-N' page each (no cell markers); the release page's table says VERIFIED"
            " for all six. Half the manifest dangles (root page and six others absent). 'not a prediction of the"
            " live judge score' and 'The live judged score remains 4/12' are about the Logbook Judge."
        ),
    ),
    "MachineLearning-Nerd__icml26-repro-ISNSiAC3n1-mean-shift-pca-by-knockoff-mean": LogbookExpectation(
        root="space",
        layout="space",
        title="Repro - Mean-Shift PCA by Knockoff Mean",
        paper_id="ISNSiAC3n1",
        space_id="DineshAI/ISNSiAC3n1",
        page_slugs=(
            "index",
            "current-verification",
            "claim-1-current",
            "claim-2-current",
            "claim-3-current",
            "claim-4-current",
            "claim-5-current",
            "evidence-and-code",
            "visibility-matrix",
            "historical-rejected-baseline",
            "overview",
            "claims",
            "evidence",
            "verification-run",
            "conclusion",
        ),
        cell_counts={"markdown": 5, "code": 1},
        superseded_pages=(
            "historical-rejected-baseline",
            "overview",
            "claims",
            "evidence",
            "verification-run",
            "conclusion",
        ),
        claims=(
            ClaimExpectation(
                key="claim-1-current#1",
                n=1,
                page="claim-1-current",
                verdict="falsified",
                raw="FALSIFIED",
                note="Title 'Claim 1 — FALSIFIED' and 'Verdict: **FALSIFIED** for universal disjointness.'",
            ),
            ClaimExpectation(
                key="claim-2-current#2", n=2, page="claim-2-current", verdict="falsified", raw="FALSIFIED"
            ),
            ClaimExpectation(key="claim-3-current#3", n=3, page="claim-3-current", verdict="verified", raw="VERIFIED"),
            ClaimExpectation(
                key="claim-4-current#4",
                n=4,
                page="claim-4-current",
                verdict="verified",
                raw="VERIFIED",
                note="'The first empirical route was inconclusive' is a rejected route; the Verdict line: VERIFIED.",
            ),
            ClaimExpectation(key="claim-5-current#5", n=5, page="claim-5-current", verdict="verified", raw="VERIFIED"),
        ),
        notes=(
            "5 claims on 'claim-N-current' pages under a current group; a historical group (its conclusion says"
            " '5/5 claim checks PASS') is an earlier attempt. The current-verification table agrees with the pages;"
            " its 'Previous live judged score' and forecasts are about the Logbook Judge."
        ),
    ),
    "MachineLearning-Nerd__icml26-repro-r6wfuAKmVb-leaderboard-incentives": LogbookExpectation(
        root=".trackio/logbook",
        layout="workspace",
        title="Repro - Leaderboard Incentives: A Stackelberg Ranking Game",
        paper_id="r6wfuAKmVb",
        space_id="DineshAI/r6wfuAKmVb",
        page_slugs=(
            "index",
            "current-index",
            "current-verification",
            "claim-1",
            "claim-2",
            "claim-3",
            "claim-4",
            "claim-5",
            "claim-6",
            "overview",
            "claims",
            "evidence",
            "conclusion",
            "verification-run",
        ),
        cell_counts={"markdown": 4, "code": 1},
        pages_not_in_manifest=("index",),
        superseded_pages=("overview", "claims", "evidence", "conclusion", "verification-run"),
        claims=(
            ClaimExpectation(key="claim-1#1", n=1, page="claim-1", verdict="verified", raw="VERIFIED"),
            ClaimExpectation(key="claim-2#2", n=2, page="claim-2", verdict="falsified", raw="FALSIFIED"),
            ClaimExpectation(key="claim-3#3", n=3, page="claim-3", verdict="falsified", raw="FALSIFIED"),
            ClaimExpectation(
                key="claim-4#4",
                n=4,
                page="claim-4",
                verdict="falsified",
                raw="FALSIFIED",
                note="'Confidence is MEDIUM' is the agent's own hedge on a stated verdict.",
            ),
            ClaimExpectation(key="claim-5#5", n=5, page="claim-5", verdict="falsified", raw="FALSIFIED"),
            ClaimExpectation(
                key="claim-6#6",
                n=6,
                page="claim-6",
                verdict="inconclusive",
                raw="BLOCKED",
                note="Title 'Claim 6 — BLOCKED'; 'cannot be independently VERIFIED or FALSIFIED' is negated.",
            ),
        ),
        notes=(
            "6 claims, outcome word in each page title; the current-index tables agree. pages/index.md is the"
            " historical group's file (a stale TOC), read as an orphan here."
        ),
    ),
    "kondratevakate__icml-2026-repro__bayes_causal_meta": LogbookExpectation(
        root=".trackio/logbook",
        layout="workspace",
        title="Reproduction: Bayesian Causal Meta-Learning",
        paper_id="k76ll7aQyE",
        space_id="kondratevakate/repro-bayes-causal-meta-release-audit",
        page_slugs=(
            "index",
            "executive-summary",
            "claim-1-embedding-conditional-prior",
            "claim-2-prior-risk-continuity",
            "claim-3-negative-transfer-theorem",
            "claim-4-synthetic-task-shift-evidence",
            "claim-5-clinical-cross-disease-evidence",
            "conclusion",
        ),
        cell_counts={"markdown": 7, "figure": 1, "code": 5},
        claims=(
            ClaimExpectation(
                key="claim-1-embedding-conditional-prior#1",
                n=1,
                page="claim-1-embedding-conditional-prior",
                verdict="partial",
                raw="PARTIAL",
                note="Bold lead-in '**PARTIAL - 1/2.**' opening the first cell.",
            ),
            ClaimExpectation(
                key="claim-2-prior-risk-continuity#2",
                n=2,
                page="claim-2-prior-risk-continuity",
                verdict="verified",
                raw="VERIFIED",
            ),
            ClaimExpectation(
                key="claim-3-negative-transfer-theorem#3",
                n=3,
                page="claim-3-negative-transfer-theorem",
                verdict="partial",
                raw="PARTIAL",
            ),
            ClaimExpectation(
                key="claim-4-synthetic-task-shift-evidence#4",
                n=4,
                page="claim-4-synthetic-task-shift-evidence",
                verdict="partial",
                raw="PARTIAL",
                note="'Adaptive toy training' names the paper's toy path; the lead-in says PARTIAL.",
            ),
            ClaimExpectation(
                key="claim-5-clinical-cross-disease-evidence#5",
                n=5,
                page="claim-5-clinical-cross-disease-evidence",
                verdict="inconclusive",
                raw="UNSUPPORTED",
                note=(
                    "'**UNSUPPORTED - 0/2.**': the data is not released, nothing could be checked; 0 of 2 points"
                    " (the summary's 5/10 adds up only so) is inconclusive, not falsified."
                ),
            ),
        ),
        notes="5 claims, each opening with a bold 'WORD - n/2.' score line; the summary gives 5/10 points.",
    ),
    "kondratevakate__icml-2026-repro__confsleepnet": LogbookExpectation(
        root=".trackio/logbook",
        layout="workspace",
        title="Reproduction: A Conflict-aware Evidential Framework for Reliable Sleep Stage Classification",
        paper_id="fve4MEzeSp",
        space_id="kondratevakate/repro-a-conflict-aware-evidential-framework-for-reliable-sleep-stage-classification",
        page_slugs=(
            "index",
            "executive-summary",
            "claim-1-conflict-aware-aggregation-dynamically-resolves-inter-view-conflicts",
            "claim-2-adaptive-category-structures-promote-more-reasonable-evidence-learning",
            "claim-3-multi-view-evidence-with-conflict-aware-aggregation-gives-reliable-sleep-staging",
            "conclusion",
        ),
        cell_counts={"markdown": 5, "figure": 1, "artifact": 1, "dashboard": 1},
        claims=(
            ClaimExpectation(
                key="claim-1-conflict-aware-aggregation-dynamically-resolves-inter-view-conflicts#1",
                n=1,
                page="claim-1-conflict-aware-aggregation-dynamically-resolves-inter-view-conflicts",
                verdict="verified",
                raw="REPRODUCED",
                note=(
                    "'**Verdict — reproduced, with a finding.**'; the printed-equation typo is 'a partial refutation"
                    " at the level of the printed equation', a remark after the verdict. Summary: 'Claim 1 reproduced'."
                ),
            ),
            ClaimExpectation(
                key="claim-2-adaptive-category-structures-promote-more-reasonable-evidence-learning#2",
                n=2,
                page="claim-2-adaptive-category-structures-promote-more-reasonable-evidence-learning",
                verdict="inconclusive",
                raw="BLOCKED",
                note="'**Status: BLOCKED (not attempted as a full run).**'",
            ),
            ClaimExpectation(
                key="claim-3-multi-view-evidence-with-conflict-aware-aggregation-gives-reliable-sleep-staging#3",
                n=3,
                page="claim-3-multi-view-evidence-with-conflict-aware-aggregation-gives-reliable-sleep-staging",
                verdict="inconclusive",
                raw="BLOCKED",
                note="As claim 2; 'the theoretical ingredient is reproduced' is about Claim 1's mechanism.",
            ),
        ),
        notes="3 claims; the summary agrees (Claim 1 reproduced, Claims 2-3 blocked).",
    ),
    "kondratevakate__icml-2026-repro__20hdQQQrA4_arm2": LogbookExpectation(
        root=".trackio/logbook",
        layout="workspace",
        title="Reproduction: Conditional Coverage Diagnostics for Conformal Prediction",
        paper_id="20hdQQQrA4",
        space_id="kondratevakate/repro-caffnet-hard-constraint-affine-neural-networks",
        page_slugs=(),
        cell_counts={},
        claims=(),
        problems=(
            "pages/index.md: page not read",
            "'executive-summary' is listed but pages/executive-summary/page.md is missing",
            "'conclusion' is listed but pages/conclusion/page.md is missing",
        ),
        notes=(
            "Not a loadable logbook: every page the manifest lists is missing and the one page file on disk"
            " (pages/<slug>.md, not in a page folder, a 'Verdict: **verified**' for a claim of another paper) is no"
            " page of it. It must open with a problem per missing page, no claims and no traceback."
        ),
    ),
    _TAU2: LogbookExpectation(
        root="space",
        layout="space",
        title="tau2-Bench Reproduction Evidence",
        paper_id="OC2z7iSQKa",
        space_id=None,
        page_slugs=("index",),
        cell_counts={},
        claims=(
            ClaimExpectation(
                key="index#1",
                n=1,
                page="index",
                verdict="verified",
                raw="VERIFIES",
                note="'## Claim 1' section on the only page; 'This verifies the selected … claim.'",
            ),
            ClaimExpectation(
                key="index#2",
                n=2,
                page="index",
                verdict="unstated",
                raw=None,
                note="Counts only ('computed from the pinned source files'); no verdict.",
            ),
            ClaimExpectation(
                key="index#3",
                n=3,
                page="index",
                verdict="verified",
                raw="SUPPORTS",
                note="'confirms composition …' and 'This supports the selected compositional task-generator claim.'",
            ),
        ),
        notes=(
            "A hand-made gradio Space with only pages/index.md and no manifest: three '## Claim N' sections, each"
            " led by a hash, outcome in prose. The paper id is in the Space card's tags (paper-OC2z7iSQKa) and"
            " the page's first sentence."
        ),
    ),
}
