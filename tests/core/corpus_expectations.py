"""Reference values for the logbook corpus in ``../shared/corpus``, read from the pages independently of the reader.

Plain data only: tests compare the reader's output against these values. Conventions:

* ``cell_counts`` lists only types that occur (use ``.get(type, 0)``); counts follow the standard marker rule
  (a line ``---`` directly followed by ``<!-- trackio-cell``, header up to the first line that is exactly ``-->``).
* ``claims`` are in page display order; ``key`` is ``<slug>#<written number>`` or ``<slug>#<ordinal on page>``.
  ``n`` is the number a user passes to ``--claim``; ``numbering`` says where it comes from when it is not written.
* ``reader_gaps`` names the checks ("facts", "claims", "window") this reader still fails for an entry, with the
  reason; those checks are expected to fail (strict xfail) so that fixing the reader shows up as an XPASS.
* ``superseded_pages`` are listed pages a careful reader sees marked as earlier attempts; pages not in the
  manifest are orphans. Neither holds claims while current pages do; what they state is ``history``.
* ``contradicted_by`` holds verdicts the logbook itself states elsewhere for the same claim; verdicts of the
  external judge that a logbook merely quotes are not the agent's own and are mentioned in ``note`` instead.
"""

from dataclasses import dataclass, field


@dataclass(frozen=True)
class ClaimExpectation:
    key: str
    n: int | None
    page: str
    verdict: str
    raw: str | None
    contradicted_by: tuple[str, ...] = ()
    history: tuple[str, ...] = ()  # verdicts superseded or orphan pages state for the claim (not contradictions)
    numbering: str = "written"  # where n comes from: written, summary table, manifest order, after the written ones
    note: str = ""
    ambiguous: bool = False  # a careful reader could map it two ways; counted separately by the benchmark


@dataclass(frozen=True)
class LogbookExpectation:
    root: str
    layout: str
    title: str
    paper_id: str | None
    space_id: str | None
    page_slugs: tuple[str, ...]
    cell_counts: dict[str, int]
    claims: tuple[ClaimExpectation, ...]
    trace_ids: tuple[str, ...] = ()
    trace_events: dict[str, int] = field(default_factory=dict)
    traces_available: dict[str, bool] = field(default_factory=dict)
    dangling_toc_links: tuple[str, ...] = ()
    pages_not_in_manifest: tuple[str, ...] = ()
    superseded_pages: tuple[str, ...] = ()  # listed pages marked as earlier attempts (title, slug or group node)
    notes: str = ""
    # parts of problem messages a careful reader expects the reader to report (a folder that is not a logbook)
    problems: tuple[str, ...] = ()
    # check name -> why the current reader gets it wrong; the check runs as xfail(strict=True) until fixed
    reader_gaps: dict[str, str] = field(default_factory=dict)


# The corpus folder name is longer than one source line allows.
_SPACE_PROBABILISTIC = (
    "MachineLearning-Nerd__icml26-repro-sW8U2TYDMp-"
    "probabilistic-modeling-of-latent-agentic-substructures-in-deep-neural-networ"
)

EXPECTED: dict[str, LogbookExpectation] = {
    "Auenchanters__ICML-2026": LogbookExpectation(
        root=".trackio/logbook",
        layout="workspace",
        title="Repro - High-accuracy sampling for diffusion models and log-concave distributions",
        paper_id="GW3umRqsZZ",
        space_id="Auenchanters/repro-2602-01338-fors",
        page_slugs=(
            "index",
            "plan-provenance",
            "claim-1-fors-exactness-theorem-3-1",
            "claim-2-polylog-minimal-assumptions",
            "claim-3-non-uniform-lipschitz",
            "claim-4-intrinsic-dimension",
            "claim-5-log-concave-sampling-section-5",
            "negative-controls-robustness",
            "conclusion",
            "fors-repro",
        ),
        cell_counts={"markdown": 16, "code": 4, "artifact": 34, "figure": 16, "dashboard": 2},
        claims=(
            ClaimExpectation(
                key="claim-1-fors-exactness-theorem-3-1#1",
                n=1,
                page="claim-1-fors-exactness-theorem-3-1",
                verdict="verified",
                raw="VERIFIED",
                note="Verdict cell title says Theorem 3.1 verified exactly; Conclusion table agrees.",
            ),
            ClaimExpectation(
                key="claim-2-polylog-minimal-assumptions#2",
                n=2,
                page="claim-2-polylog-minimal-assumptions",
                verdict="verified",
                raw="VERIFIED",
            ),
            ClaimExpectation(
                key="claim-3-non-uniform-lipschitz#3",
                n=3,
                page="claim-3-non-uniform-lipschitz",
                verdict="verified",
                raw="VERIFIED",
            ),
            ClaimExpectation(
                key="claim-4-intrinsic-dimension#4",
                n=4,
                page="claim-4-intrinsic-dimension",
                verdict="verified",
                raw="VERIFIED",
            ),
            ClaimExpectation(
                key="claim-5-log-concave-sampling-section-5#5",
                n=5,
                page="claim-5-log-concave-sampling-section-5",
                verdict="verified",
                raw="VERIFIED",
            ),
        ),
        dangling_toc_links=(
            "claim-3-non-uniform-lipschitz-refinement-theorem-4-4-v2-thm-4-9",
            "claim-2-polylog-1-under-minimal-assumptions-theorem-4-1-v2-thm-4-3",
        ),
        notes=(
            "5 claims, matches README. Plan & Provenance, Negative Controls, Conclusion and the fors-repro artifact"
            " page are not claims. Each claim page has a 'Verdict: ... VERIFIED' markdown cell; the pinned executive"
            " summary on the Conclusion page says 5/5 reproduced. paper_id comes from the first paper- tag that looks"
            " like an OpenReview id (the second tag, paper-10218, does not)."
        ),
    ),
    "MachineLearning-Nerd__icml26-expectation-consistency-loss": LogbookExpectation(
        root=".trackio/logbook",
        layout="workspace",
        title="Reproduction: Expectation Consistency Loss: Rethink Confidence Calibration under Covariate Shift",
        paper_id="gFPPTokv9C",
        space_id="DineshAI/gFPPTokv9C",
        page_slugs=(
            "index",
            "executive-summary",
            "claim-1-calibration-iff",
            "claim-2-sample-complexity",
            "claim-3-gradient-unbiasedness",
            "claim-4-calibration-extensions",
            "claim-5-digit-table",
            "claim-6-capabilities-empirics",
            "conclusion",
        ),
        cell_counts={"markdown": 12, "code": 8, "figure": 1, "artifact": 1},
        claims=(
            ClaimExpectation(
                key="claim-1-calibration-iff#1",
                n=1,
                page="claim-1-calibration-iff",
                verdict="verified",
                raw="VERIFIED",
                note="Assessment: verified with support/version qualifications (qualifiers, not a partial verdict).",
            ),
            ClaimExpectation(
                key="claim-2-sample-complexity#2",
                n=2,
                page="claim-2-sample-complexity",
                verdict="verified",
                raw="SUPPORTED",
                note=(
                    "Ambiguous: cell titled a split assessment; rate supported (hard bins, fixed B) but the Appendix G"
                    " proof is invalid and B-dependence unproved; agent says supported, not partial (Partial is used"
                    " only for C6)."
                    " Index quotes the external judge's toy for this claim; not the agent's own verdict."
                ),
                ambiguous=True,
            ),
            ClaimExpectation(
                key="claim-3-gradient-unbiasedness#3",
                n=3,
                page="claim-3-gradient-unbiasedness",
                verdict="falsified",
                raw="FALSIFIED",
                note="Assessment: falsified as stated.",
            ),
            ClaimExpectation(
                key="claim-4-calibration-extensions#4",
                n=4,
                page="claim-4-calibration-extensions",
                verdict="verified",
                raw="VERIFIED",
                note="Verified at the population/hard-group formula level.",
            ),
            ClaimExpectation(
                key="claim-5-digit-table#5",
                n=5,
                page="claim-5-digit-table",
                verdict="inconclusive",
                raw="INCONCLUSIVE",
                note="Source-only attempt, explicitly not an empirical reproduction.",
            ),
            ClaimExpectation(
                key="claim-6-capabilities-empirics#6",
                n=6,
                page="claim-6-capabilities-empirics",
                verdict="partial",
                raw="PARTIAL",
                note=(
                    "Page: one portion supported, rest inconclusive (mixed); the word Partial comes from the executive"
                    " summary row for this claim."
                ),
            ),
        ),
        notes=(
            "6 claims, matches README. Verdicts are written as 'Assessment:' sentences, not Verdict: lines. The index"
            " prose reports the external judge's earlier 5/6 score and its toy verdict for the legacy claim that maps"
            " to anchored claim 2; those are the judge's words, not the agent's. Hand-made cell ids. No .gitignore."
        ),
    ),
    _SPACE_PROBABILISTIC: LogbookExpectation(
        root="space",
        layout="space",
        title="Claim-by-claim reproduction of latent agentic substructures",
        paper_id="sW8U2TYDMp",
        space_id="DineshAI/sW8U2TYDMp",
        page_slugs=(
            "index",
            "current-claim-1",
            "current-claim-2",
            "current-claim-3",
            "current-claim-4",
            "current-claim-5",
            "current-claim-6",
            "visibility",
            "report",
            "release",
            "overview",
            "claims",
            "evidence",
            "verification-run",
            "conclusion",
        ),
        cell_counts={"markdown": 4, "code": 1},
        superseded_pages=("verification-run",),
        claims=(
            ClaimExpectation(
                key="current-claim-1#1",
                n=1,
                page="current-claim-1",
                verdict="verified",
                raw="VERIFIED",
                note="Page has an explicit Status: VERIFIED line.",
            ),
            ClaimExpectation(
                key="current-claim-2#2",
                n=2,
                page="current-claim-2",
                verdict="verified",
                raw="VERIFIED",
                note=(
                    "Page states only a conditional 'Verdict contract: VERIFIED only if ...' and evidence meeting it;"
                    " the outcome word comes from the index results table and the visibility matrix."
                ),
            ),
            ClaimExpectation(
                key="current-claim-3#3",
                n=3,
                page="current-claim-3",
                verdict="verified",
                raw="VERIFIED",
                note="Conditional verdict contract on the page; outcome from the index results table.",
            ),
            ClaimExpectation(
                key="current-claim-4#4",
                n=4,
                page="current-claim-4",
                verdict="falsified",
                raw="FALSIFIED",
                contradicted_by=("verified",),
                note=(
                    "Page closes saying it falsifies the broad wording (not Theorem 19 itself); index/visibility say"
                    " FALSIFIED. The legacy pages (overview, evidence, verification-run, conclusion) say all 6 claims"
                    " verified; only verification-run is marked (manifest title 'Historical rejected baseline'), so"
                    " the others still count as a contradiction."
                ),
            ),
            ClaimExpectation(
                key="current-claim-5#5",
                n=5,
                page="current-claim-5",
                verdict="verified",
                raw="VERIFIED",
                note="Conditional verdict contract on the page; outcome from the index results table.",
            ),
            ClaimExpectation(
                key="current-claim-6#6",
                n=6,
                page="current-claim-6",
                verdict="verified",
                raw="VERIFIED",
                note="Conditional verdict contract on the page, closing line says it verifies the construction.",
            ),
        ),
        notes=(
            "6 claims, matches README: the current-claim-N pages. The 'claims' page is the legacy list of the same six"
            " claims (no verdicts), not extra claims. Title is the index H1, which differs from the manifest title"
            " ('Repro - Agents, Epistemic Utility, and Unanimity'). No metadata.json; paper is null in the manifest, so"
            " paper_id comes from the paper- tag. Pages with no cells at all: index, current-claim-1..6, visibility,"
            " report, release. Traps: release page says no claim is BLOCKED (negation) and mentions earlier judge toy"
            " scores; index links escape the root with ../. historical/judged-3d065680/ holds a complete older logbook"
            " and is not part of this logbook's pages."
        ),
    ),
    "MachineLearning-Nerd__icml26-repro-u6zp8zZ8Ou-flat-minima": LogbookExpectation(
        root=".trackio/logbook",
        layout="workspace",
        title="Repro - Flat Minima and Generalization in Stochastic Convex Optimization",
        paper_id="u6zp8zZ8Ou",
        space_id="DineshAI/u6zp8zZ8Ou",
        page_slugs=(
            "index",
            "00-scored-evidence-summary",
            "claim-1-flat-empirical-minima-can-generalize-worse",
            "claim-2-sa-gd-converges-fast-but-retains-constant-risk",
            "claim-3-sam-can-be-sharp-and-poorly-generalize",
            "live-catalog-mapping-and-source-audit",
            "scope-falsification-attempts-and-limitations",
            "reproduction-artifact-tests-and-hashes",
        ),
        cell_counts={"markdown": 7, "figure": 4, "artifact": 11, "code": 2},
        claims=(
            ClaimExpectation(
                key="claim-1-flat-empirical-minima-can-generalize-worse#1",
                n=1,
                page="claim-1-flat-empirical-minima-can-generalize-worse",
                verdict="verified",
                raw="SUPPORTED",
                note=(
                    "Ambiguous: no verdict line in prose; only the figure's raw JSON has status 'supported by ...',"
                    " plus summary framing as an exact reproduction. Strict reading would be unstated."
                ),
                ambiguous=True,
            ),
            ClaimExpectation(
                key="claim-2-sa-gd-converges-fast-but-retains-constant-risk#2",
                n=2,
                page="claim-2-sa-gd-converges-fast-but-retains-constant-risk",
                verdict="verified",
                raw="SUPPORTED",
                note="As claim 1: support asserted in prose and raw JSON status, no explicit verdict line.",
                ambiguous=True,
            ),
            ClaimExpectation(
                key="claim-3-sam-can-be-sharp-and-poorly-generalize#3",
                n=3,
                page="claim-3-sam-can-be-sharp-and-poorly-generalize",
                verdict="verified",
                raw="SUPPORTED",
                note="As claim 1; page also covers the live catalog's 4th claim (stability upper bound).",
                ambiguous=True,
            ),
        ),
        notes=(
            "3 claims, matches README (the live-catalog page maps 4 live claims onto these 3 pages; claim 3 covers"
            " live claims 3 and 4). No page carries a Verdict/Status line; the only explicit verdict words are"
            " 'supported' in the run/figure JSON and a PASS line ending in 'verified' on the reproduction page."
            " Largest pages (~1 MB) from base64 figures; the same summary JSON is the raw data of every figure."
        ),
    ),
    "MachineLearning-Nerd__icml26-repro-zl3akehFBq-flow-matching": LogbookExpectation(
        root=".trackio/logbook",
        layout="workspace",
        title="Repro - Diffusion Flow Matching: Dimension-Improved KL Bounds",
        paper_id="zl3akehFBq",
        space_id=None,
        page_slugs=("index", "overview", "claims", "evidence", "verification-run", "conclusion"),
        cell_counts={"markdown": 4, "code": 1},
        claims=(
            ClaimExpectation(
                key="claims#1",
                n=1,
                page="claims",
                verdict="verified",
                raw="VERIFIED",
                note=(
                    "Claims page is a numbered list with no verdicts; verdict from the verification run's per-claim"
                    " PASS lines and the conclusion/overview saying all claims verified."
                ),
            ),
            ClaimExpectation(
                key="claims#2",
                n=2,
                page="claims",
                verdict="verified",
                raw="VERIFIED",
                note=("Same source as claim 1."),
            ),
            ClaimExpectation(
                key="claims#3",
                n=3,
                page="claims",
                verdict="verified",
                raw="VERIFIED",
                note=("Same source as claim 1."),
            ),
            ClaimExpectation(
                key="claims#4",
                n=4,
                page="claims",
                verdict="verified",
                raw="VERIFIED",
                note=("Same source as claim 1."),
            ),
            ClaimExpectation(
                key="claims#5",
                n=5,
                page="claims",
                verdict="verified",
                raw="VERIFIED",
                note=("Same source as claim 1."),
            ),
            ClaimExpectation(
                key="claims#6",
                n=6,
                page="claims",
                verdict="verified",
                raw="VERIFIED",
                note=("Same source as claim 1."),
            ),
        ),
        notes=(
            "6 claims, matches README: one numbered list item each on the single Claims page. metadata.json uses"
            " non-standard paper_orid/paper_arxiv and has no space_id; manifest paper is null and space_id null, so"
            " paper_id comes from the paper- tag (same value as paper_orid). Trap: conclusion says no toy/proxy"
            " results (negation). Inconsistency in evidence, not in verdicts: the Evidence page shows a crashed run"
            " (ImportError traceback) while the Verification run page shows 6/6 PASS."
        ),
    ),
    "_generated__trackio-0.43-synthetic-trace": LogbookExpectation(
        root=".trackio/logbook",
        layout="workspace",
        title="Repro: Benchmark paper with many claims",
        paper_id="BENCHmark01",
        space_id=None,
        page_slugs=(
            "index",
            "executive-summary",
            "claim-1-property-1-holds-at-scale",
            "claim-2-property-2-holds-at-scale",
            "claim-3-property-3-holds-at-scale",
            "claim-4-property-4-holds-at-scale",
            "conclusion",
        ),
        cell_counts={"markdown": 8, "code": 8, "figure": 4},
        claims=(
            ClaimExpectation(
                key="claim-1-property-1-holds-at-scale#1",
                n=1,
                page="claim-1-property-1-holds-at-scale",
                verdict="falsified",
                raw="FALSIFIED",
                note="Title says the property holds (claim text, not a verdict); verdict is the Verdict heading.",
            ),
            ClaimExpectation(
                key="claim-2-property-2-holds-at-scale#2",
                n=2,
                page="claim-2-property-2-holds-at-scale",
                verdict="toy",
                raw="TOY",
            ),
            ClaimExpectation(
                key="claim-3-property-3-holds-at-scale#3",
                n=3,
                page="claim-3-property-3-holds-at-scale",
                verdict="inconclusive",
                raw="INCONCLUSIVE",
            ),
            ClaimExpectation(
                key="claim-4-property-4-holds-at-scale#4",
                n=4,
                page="claim-4-property-4-holds-at-scale",
                verdict="partial",
                raw="PARTIALLY VERIFIED",
            ),
        ),
        trace_ids=("bench-session",),
        trace_events={"bench-session": 610},
        traces_available={"bench-session": True},
        notes=(
            "Synthetic sample written by trackio 0.43, not from the wild; 4 claims as the README states. paper_id is"
            " the metadata paper object's own 'id' (there is no openreview_id, and the paper- tag BENCHmark01 is"
            " 11 characters, not OpenReview-shaped, so the paper field's text is used)."
            " Index keeps the placeholder TOC row (no #/ links). Executive summary and"
            " conclusion pages hold only an H1, no cells. Trace chunks events-0000..0003 hold 610 events in total."
        ),
    ),
    "belumume__icml-2026-repro-comparative-signals": LogbookExpectation(
        root=".trackio/logbook",
        layout="workspace",
        title=(
            "Reproduction: Evaluating LLMs When They Do Not Know the Answer: Statistical Evaluation of Mathematical"
            " Reasoning via Comparative Signals"
        ),
        paper_id="nOQOjKYwTM",
        space_id="passagereptile455/repro-evaluating-llms-comparative-signals",
        page_slugs=(
            "index",
            "executive-summary",
            "claim-1-proposition-3-3-derives-the-efficient-influence-function-for-accuracy-estimation",
            "claim-2-theorem-4-5-asymptotic-normality-and-semiparametric-efficiency-bound",
            "claim-3-corollary-4-7-strict-variance-reduction-over-the-naive-estimator",
            "claim-4-real-benchmark-gains-of-the-one-step-estimator-over-naive",
            "claim-5-ranking-accuracy-gap-widens-as-per-model-output-noise-grows",
            "conclusion",
        ),
        cell_counts={"markdown": 7, "figure": 4},
        claims=(
            ClaimExpectation(
                key="claim-1-proposition-3-3-derives-the-efficient-influence-function-for-accuracy-estimation#1",
                n=1,
                page="claim-1-proposition-3-3-derives-the-efficient-influence-function-for-accuracy-estimation",
                verdict="verified",
                raw="VERIFIED",
            ),
            ClaimExpectation(
                key="claim-2-theorem-4-5-asymptotic-normality-and-semiparametric-efficiency-bound#2",
                n=2,
                page="claim-2-theorem-4-5-asymptotic-normality-and-semiparametric-efficiency-bound",
                verdict="verified",
                raw="VERIFIED",
            ),
            ClaimExpectation(
                key="claim-3-corollary-4-7-strict-variance-reduction-over-the-naive-estimator#3",
                n=3,
                page="claim-3-corollary-4-7-strict-variance-reduction-over-the-naive-estimator",
                verdict="verified",
                raw="VERIFIED",
                note=(
                    "Ambiguous: cell title is mixed (asymptotically VERIFIED, practical guarantee FALSIFIED) but the"
                    " body says Verdict: VERIFIED as stated; the falsified part is Remark 4.8, not the anchored claim."
                ),
                ambiguous=True,
            ),
            ClaimExpectation(
                key="claim-4-real-benchmark-gains-of-the-one-step-estimator-over-naive#4",
                n=4,
                page="claim-4-real-benchmark-gains-of-the-one-step-estimator-over-naive",
                verdict="falsified",
                raw="FALSIFIED",
                note="FALSIFIED as stated, although the page says the direction of the effect is real.",
            ),
            ClaimExpectation(
                key="claim-5-ranking-accuracy-gap-widens-as-per-model-output-noise-grows#5",
                n=5,
                page="claim-5-ranking-accuracy-gap-widens-as-per-model-output-noise-grows",
                verdict="verified",
                raw="VERIFIED",
            ),
        ),
        trace_ids=("727eb392-f777-4664-86c0-c43d83d2347b-2",),
        trace_events={"727eb392-f777-4664-86c0-c43d83d2347b-2": 1674},
        traces_available={"727eb392-f777-4664-86c0-c43d83d2347b-2": False},
        notes=(
            "5 claims, matches README. Executive summary verdict table and conclusion (four of five reproduce, claim 4"
            " falsified) agree with the pages. Trap words: PARTIALLY and 'refuted' occur only in quotes/narrative, not"
            " as verdicts. Stray pages/executive-summary/_stripped.txt is not a page. Manifest workspace lists 7 files"
            " but workspace.json is absent."
        ),
    ),
    "k4ru4kai__icml-2026-s2mnet-reproduction": LogbookExpectation(
        root=".trackio/logbook",
        layout="workspace",
        title="S2M-Net Reproduction Study",
        paper_id="eh48NIgu9z",
        space_id="K4ru4k4i/eh48NIgu9z",
        page_slugs=(
            "index",
            "introduction-and-scope",
            "phase-2a-synthetic-full-model-validation",
            "claim-sstm-truncated-fft-and-spectral-energy",
            "claim-drive-full-model-versus-no-sstm",
            "claim-1-architecture-and-parameters",
        ),
        cell_counts={"markdown": 5},
        claims=(
            ClaimExpectation(
                key="claim-sstm-truncated-fft-and-spectral-energy#2",
                n=2,
                page="claim-sstm-truncated-fft-and-spectral-energy",
                verdict="inconclusive",
                raw="NOT VERIFIED",
                note=(
                    "Verdict heading says Not verified (maps to inconclusive); component lines mix partially verified,"
                    " contradicted and not verified, but the overall verdict is stated separately."
                ),
            ),
            ClaimExpectation(
                key="claim-drive-full-model-versus-no-sstm#1",
                n=3,
                numbering="after the written numbers",
                page="claim-drive-full-model-versus-no-sstm",
                verdict="unstated",
                raw=None,
                note=(
                    "Ambiguous: result shows no stable Dice gain, but the page explicitly says it is not a paper-claim"
                    " verdict; no verdict word. Falsified/inconclusive would be a judge's reading, not the agent's."
                    " The page has no number of its own: it gets 3, after the written 1 and 2; its key keeps the"
                    " page ordinal."
                ),
                ambiguous=True,
            ),
            ClaimExpectation(
                key="claim-1-architecture-and-parameters#1",
                n=1,
                page="claim-1-architecture-and-parameters",
                verdict="partial",
                raw="PARTIALLY VERIFIED",
                note="Also says 'not falsified' (negation) and an audit PASS that is explicitly not the claim verdict.",
            ),
        ),
        notes=(
            "3 claims, matches README: Claim 2 (slug claim-sstm-...), the unnumbered DRIVE ablation page, and Claim 1,"
            " in that display order. Introduction and Phase 2A pages are scope/infrastructure, not claims; the"
            " introduction still says no verdict has been reached yet (stale, not a per-claim verdict). No executive"
            " summary or conclusion page; markdown-only."
        ),
    ),
    "kondratevakate__icml-2026-repro__LJdacnMXkr_arm2b": LogbookExpectation(
        root=".trackio/logbook",
        layout="workspace",
        title="Logbook pages",
        paper_id="LJdacnMXkr",
        space_id="kondratevakate/repro-sinkhorn-normalization-of-diffusion-kernels",
        page_slugs=(
            "index",
            "summary",
            "claim-1-theorem-4-1-diagonal-rescaling-mass-weighted-self-adjointness-verified",
            "claim-2-theorem-4-2-uniform-convergence-to-a-continuous-operator-verified",
            "claim-3-5-10-sinkhorn-iterations-for-0-1-error-verified",
            "claim-4-four-properties-jointly-and-baseline-exclusivity-inconclusive",
            "claim-5-three-irregular-data-types-show-laplacian-like-smoothing-toy",
            "claim-6-spectra-consistent-across-sampling-modalities-armadillo-toy",
            "threats-to-validity",
        ),
        cell_counts={"markdown": 8},  # recovered: each trailing marker is read as the cell above it
        claims=(
            ClaimExpectation(
                key="claim-1-theorem-4-1-diagonal-rescaling-mass-weighted-self-adjointness-verified#1",
                n=1,
                page="claim-1-theorem-4-1-diagonal-rescaling-mass-weighted-self-adjointness-verified",
                verdict="verified",
                raw="VERIFIED",
                note="Verdict is a bold suffix of the ## heading (and slug/manifest title); page has no H1.",
            ),
            ClaimExpectation(
                key="claim-2-theorem-4-2-uniform-convergence-to-a-continuous-operator-verified#2",
                n=2,
                page="claim-2-theorem-4-2-uniform-convergence-to-a-continuous-operator-verified",
                verdict="verified",
                raw="VERIFIED",
            ),
            ClaimExpectation(
                key="claim-3-5-10-sinkhorn-iterations-for-0-1-error-verified#3",
                n=3,
                page="claim-3-5-10-sinkhorn-iterations-for-0-1-error-verified",
                verdict="verified",
                raw="VERIFIED",
                note="Verified although the page itself reports 10% of configs outside the 5-10 window.",
            ),
            ClaimExpectation(
                key="claim-4-four-properties-jointly-and-baseline-exclusivity-inconclusive#4",
                n=4,
                page="claim-4-four-properties-jointly-and-baseline-exclusivity-inconclusive",
                verdict="inconclusive",
                raw="INCONCLUSIVE",
                note="Page explains why not verified (a counter-example to the exclusivity sub-clause).",
            ),
            ClaimExpectation(
                key="claim-5-three-irregular-data-types-show-laplacian-like-smoothing-toy#5",
                n=5,
                page="claim-5-three-irregular-data-types-show-laplacian-like-smoothing-toy",
                verdict="toy",
                raw="TOY",
            ),
            ClaimExpectation(
                key="claim-6-spectra-consistent-across-sampling-modalities-armadillo-toy#6",
                n=6,
                page="claim-6-spectra-consistent-across-sampling-modalities-armadillo-toy",
                verdict="toy",
                raw="TOY",
            ),
        ),
        notes=(
            "6 claims, matches README; Summary page table agrees with every page. Trackio's strict marker rule finds"
            " no cells: 8 malformed markers (each recovered as one markdown cell and reported as a problem),"
            " one per non-index page (summary, six claims, threats-to-validity), each"
            " placed after the body with a literal backslash-n before '-->'; the claim-6 page also has an extra"
            " blank '---'."
            " Every id is the same junk value; created_at placeholders. Title is the index H1 'Logbook pages' by the"
            " rule (manifest title differs); pages start with ## so their titles fall back to slugs. Index is a bullet"
            " list of relative file links, no #/ TOC. No metadata.json; space_id from manifest; paper.arxiv_id empty,"
            " paper_id from the paper- tag; revision 'local'."
        ),
    ),
    "will-rice__icml-2026-reproductions__dimension-free-diffusion-gmm": LogbookExpectation(
        root=".trackio/logbook",
        layout="workspace",
        title="Reproduction: Dimension-Free Convergence of Diffusion Models for Approximate Gaussian Mixtures",
        paper_id="HMu24dTKkJ",
        space_id="wrice/repro-dimension-free-convergence-of-diffusion-models-for-approximate-gaussian-mixtures",
        page_slugs=(
            "index",
            "executive-summary",
            "claim-1-dimension-free-ddpm-discretization",
            "claim-2-robustness-to-score-estimation-error",
            "claim-3-dimension-free-score-jacobian-trace-bound",
            "conclusion",
        ),
        cell_counts={"markdown": 6, "figure": 1, "code": 3, "artifact": 1},
        claims=(
            ClaimExpectation(
                key="claim-1-dimension-free-ddpm-discretization#1",
                n=1,
                page="claim-1-dimension-free-ddpm-discretization",
                verdict="toy",
                raw="SUPPORTS WITHIN THIS TOY SCOPE",
                note="Toy-scope support, not verified: the page says the full theorem is not reproduced.",
            ),
            ClaimExpectation(
                key="claim-2-robustness-to-score-estimation-error#2",
                n=2,
                page="claim-2-robustness-to-score-estimation-error",
                verdict="toy",
                raw="SUPPORTS SEPARABILITY/MONOTONICITY WITHIN THIS TOY SCOPE",
                note="Toy-scope support; full robustness result stated as unreplicated.",
            ),
            ClaimExpectation(
                key="claim-3-dimension-free-score-jacobian-trace-bound#3",
                n=3,
                page="claim-3-dimension-free-score-jacobian-trace-bound",
                verdict="toy",
                raw="SUPPORTS THE FIXED-SUBSPACE FINITE GMM TRACE BEHAVIOR",
                note=(
                    "Status line lacks the word toy (support of a finite special case, theorem unreplicated); the"
                    " executive summary calls all three toy support. Partial is the alternative reading."
                ),
            ),
        ),
        trace_ids=("019f876c-dbd7-7c92-b01d-7721ffdbbedd",),
        trace_events={"019f876c-dbd7-7c92-b01d-7721ffdbbedd": 372},
        traces_available={"019f876c-dbd7-7c92-b01d-7721ffdbbedd": False},
        notes=(
            "3 claims, matches README. Verdicts are 'Status: supports ... toy scope' lines, read as toy; the executive"
            " summary outcome row says toy support for all three, full replication unreplicated. 'does not reproduce'"
            " is a negation, not a verdict. Code cells have empty output fences. Manifest lists 1 workspace file;"
            " workspace.json is absent."
        ),
    ),
    "will-rice__icml-2026-reproductions__nape": LogbookExpectation(
        root=".trackio/logbook",
        layout="workspace",
        title="Reproduction: A Benchmark and Framework for Evaluating Next Action Predictions in Spreadsheets",
        paper_id="NvPgRwURDC",
        space_id="wrice/repro-a-benchmark-and-framework-for-evaluating-next-action-predictions-in-spreadsheets",
        page_slugs=(
            "index",
            "executive-summary",
            "claim-1-benchmark-and-construction",
            "claim-2-empirical-predictability",
            "claim-3-online-future-adaptation",
            "claim-4-gpt-5-r-results",
            "claim-5-always-accept-ablation",
            "claim-6-stride-ablation",
            "conclusion",
        ),
        cell_counts={"markdown": 8, "figure": 1, "code": 6, "artifact": 1},
        claims=(
            ClaimExpectation(
                key="claim-1-benchmark-and-construction#1",
                n=1,
                page="claim-1-benchmark-and-construction",
                verdict="verified",
                raw="REPRODUCED",
            ),
            ClaimExpectation(
                key="claim-2-empirical-predictability#2",
                n=2,
                page="claim-2-empirical-predictability",
                verdict="verified",
                raw="REPRODUCED FROM RELEASED OUTPUTS",
                note="Recomputed from released oracle outputs; the paid oracle calls were not rerun.",
            ),
            ClaimExpectation(
                key="claim-3-online-future-adaptation#3",
                n=3,
                page="claim-3-online-future-adaptation",
                verdict="verified",
                raw="REPRODUCED",
            ),
            ClaimExpectation(
                key="claim-4-gpt-5-r-results#4",
                n=4,
                page="claim-4-gpt-5-r-results",
                verdict="inconclusive",
                raw="NOT REPLICATED",
                note=(
                    "Ambiguous: not rerun (paid API unavailable) and the page says no verdict is offered; read as not"
                    " attempted, so inconclusive (unstated is the strict alternative). Not the same as NOT REPRODUCED."
                ),
                ambiguous=True,
            ),
            ClaimExpectation(
                key="claim-5-always-accept-ablation#5",
                n=5,
                page="claim-5-always-accept-ablation",
                verdict="inconclusive",
                raw="NOT REPLICATED",
                note="Same as claim 4: not rerun, no verdict offered.",
                ambiguous=True,
            ),
            ClaimExpectation(
                key="claim-6-stride-ablation#6",
                n=6,
                page="claim-6-stride-ablation",
                verdict="inconclusive",
                raw="NOT REPLICATED",
                note="Same as claim 4: not rerun, no verdict offered.",
                ambiguous=True,
            ),
        ),
        notes=(
            "6 claims, matches README. Executive summary, conclusion and poster agree with the pages (claims 1-3"
            " reproduced, 4-6 not replicated with no verdict). The index has a paper-link line above the table."
            " assets/poster_embed.html is a non-page file. The executive summary quotes the external judge's score."
        ),
    ),
    "erobinson-mlis__repro-mm-deepresearch": LogbookExpectation(
        root="logbook",
        layout="space",
        title="Reproduction: MM-DeepResearch: A Simple and Effective Multimodal Agentic Search Baseline",
        paper_id="XZAOCytvKQ",
        space_id="erobinson/repro-mm-deepresearch-a-simple-and-effective-multimodal-agentic-search-baseline",
        page_slugs=(
            "index",
            "executive-summary",
            "claim-1-hyper-search-qa-generation-pipeline",
            "claim-2-dr-tts-trajectory-synthesis",
            "claim-3-training-pipeline-sft-grpo-rl",
            "claim-4-benchmark-results-63-0-avg-accuracy",
            "claim-5-ablation-results-search-depth-offline-vs-online",
            "conclusion",
        ),
        cell_counts={"markdown": 7, "figure": 1},
        claims=(
            ClaimExpectation(
                key="claim-1-hyper-search-qa-generation-pipeline#1",
                n=1,
                page="claim-1-hyper-search-qa-generation-pipeline",
                verdict="verified",
                raw="SUPPORTED",
                note=(
                    "Ambiguous: the Assessment paragraph opens 'Partially supported' but the labelled Verdict line"
                    " says SUPPORTED (paper + architecture audit); the labelled line and the conclusion table win."
                ),
                ambiguous=True,
            ),
            ClaimExpectation(
                key="claim-2-dr-tts-trajectory-synthesis#2",
                n=2,
                page="claim-2-dr-tts-trajectory-synthesis",
                verdict="verified",
                raw="SUPPORTED",
                note="Same split as claim 1: 'Partially supported' assessment, labelled Verdict SUPPORTED.",
                ambiguous=True,
            ),
            ClaimExpectation(
                key="claim-3-training-pipeline-sft-grpo-rl#3",
                n=3,
                page="claim-3-training-pipeline-sft-grpo-rl",
                verdict="verified",
                raw="CONFIRMED",
                note="Verified by code audit only (no training run); the agent's word is CONFIRMED.",
            ),
            ClaimExpectation(
                key="claim-4-benchmark-results-63-0-avg-accuracy#4",
                n=4,
                page="claim-4-benchmark-results-63-0-avg-accuracy",
                verdict="inconclusive",
                raw="NOT INDEPENDENTLY VERIFIED",
                note=(
                    "Negated verdict: the evaluation was not run (hardware, API keys); 'infrastructure confirmed' in"
                    " the same line is about the code, not the claim. Conclusion table says NOT VERIFIED (agrees)."
                ),
            ),
            ClaimExpectation(
                key="claim-5-ablation-results-search-depth-offline-vs-online#5",
                n=5,
                page="claim-5-ablation-results-search-depth-offline-vs-online",
                verdict="verified",
                raw="SUPPORTED",
                note="Supported by infrastructure code; ablation scripts absent (qualifier, not a second verdict).",
            ),
        ),
        trace_ids=("session_trace",),
        trace_events={"session_trace": 0},
        traces_available={"session_trace": False},
        notes=(
            "5 claims, matches README. Logbook root committed as logbook/ (no .trackio, no metadata.json), so it"
            " opens as a Space-style root. paper is null in the manifest; paper_id from the paper- tag. Each claim"
            " page has one Evidence cell ending in a bold 'Verdict:' line; the conclusion table agrees with every"
            " page. The manifest's trace has 0 events and no index file; the raw session JSONL lies outside the"
            " logbook root (evidence/), which the reader must not read."
        ),
    ),
    "kondratevakate__icml-2026-repro__diabetes_safety": LogbookExpectation(
        root=".trackio/logbook",
        layout="workspace",
        title=(
            "Reproduction: Safety Generalization Under Distribution Shift in Safe Reinforcement Learning: A Diabetes"
            " Testbed"
        ),
        paper_id="kSUGLBHd0T",
        space_id="kondratevakate/repro-safety-generalization-diabetes-testbed",
        page_slugs=(
            "index",
            "executive-summary",
            "claim-1-unified-diabetes-simulator",
            "claim-2-safety-generalization-gap",
            "claim-3-ba-node-prediction-accuracy",
            "claim-4-conditional-safety-theorem",
            "claim-5-released-predictive-shield",
            "conclusion",
        ),
        cell_counts={"markdown": 7, "figure": 1, "code": 5},
        claims=(
            ClaimExpectation(
                key="claim-1-unified-diabetes-simulator#1",
                n=1,
                page="claim-1-unified-diabetes-simulator",
                verdict="partial",
                raw="PARTIALLY VERIFIED",
                note="'Verdict - X (1/2)': dash label with a score fraction; the policy benchmark was not rerun.",
            ),
            ClaimExpectation(
                key="claim-2-safety-generalization-gap#2",
                n=2,
                page="claim-2-safety-generalization-gap",
                verdict="partial",
                raw="PARTIALLY VERIFIED IN ONE SCOPED RUN",
                note="One released checkpoint, corrected metric trace; not the paper's aggregate.",
            ),
            ClaimExpectation(
                key="claim-3-ba-node-prediction-accuracy#3",
                n=3,
                page="claim-3-ba-node-prediction-accuracy",
                verdict="inconclusive",
                raw="NOT EXECUTED",
                note="Not attempted (models not trained): inconclusive. The code cell's JSON says NOT_EXECUTED too.",
            ),
            ClaimExpectation(
                key="claim-4-conditional-safety-theorem#4",
                n=4,
                page="claim-4-conditional-safety-theorem",
                verdict="verified",
                raw="VERIFIED AS A CONDITIONAL THEOREM",
                note="Verified as stated (an implication); the page says it does not certify the learned predictor.",
            ),
            ClaimExpectation(
                key="claim-5-released-predictive-shield#5",
                n=5,
                page="claim-5-released-predictive-shield",
                verdict="partial",
                raw="PARTIALLY VERIFIED AT SOURCE LEVEL",
                note=(
                    "Source-level audit; the code cell's JSON carries verdict keys about sub-checks"
                    " (NOT_RUNNABLE_AS_DOCUMENTED, FINITE_PENALTY_...) that must not override the labelled line."
                ),
            ),
        ),
        notes=(
            "5 claims, matches README and the executive-summary score table (Partial, Partial, Not executed,"
            " Verified, Partial). Every claim page: one markdown cell opening with a bold 'Verdict - X (k/2).' line"
            " and one output-only code cell of JSON. repro_diabetes_safety/ (README, claims list) is a non-page"
            " folder inside the logbook root."
        ),
    ),
    "MachineLearning-Nerd__icml26-repro-aU2sxdnRuL-distribution-valued-cpd": LogbookExpectation(
        root=".trackio/logbook",
        layout="workspace",
        title="Reproduction: Beyond Euclidean Summaries: Online Change Point Detection for Distribution-Valued Data",
        paper_id="aU2sxdnRuL",
        space_id="DineshAI/repro-aU2sxdnRuL-distribution-valued-cpd",
        page_slugs=(
            "index",
            "current-index",
            "current-claim-1",
            "current-claim-2",
            "current-claim-3",
            "current-claim-4",
            "current-claim-5",
            "current-claim-6",
            "current-release-report",
            "historical-rejected-baseline",
            "executive-summary",
            "claim-1-tangent-space-idd-mapping",
            "claim-2-empirical-quantile-arl",
            "claim-3-synthetic-delay-reduction",
            "claim-4-flowcap-ii-aml-detection",
            "claim-5-reddit-event-alignment",
            "claim-6-finite-dimensional-epsilon-isometry",
            "conclusion",
        ),
        cell_counts={"markdown": 9, "figure": 1},
        claims=(
            ClaimExpectation(
                key="current-claim-1#1",
                n=1,
                page="current-claim-1",
                verdict="verified",
                raw="VERIFIED",
                history=("inconclusive",),
                note=(
                    "Verdict only in the title/H1 suffix of a cell-less page; current-index and release-report"
                    " tables agree. The historical Claim 1 page (inconclusive, toy evidence) is superseded history."
                ),
            ),
            ClaimExpectation(
                key="current-claim-2#2",
                n=2,
                page="current-claim-2",
                verdict="falsified",
                raw="FALSIFIED",
            ),
            ClaimExpectation(
                key="current-claim-3#3",
                n=3,
                page="current-claim-3",
                verdict="falsified",
                raw="FALSIFIED",
            ),
            ClaimExpectation(
                key="current-claim-4#4",
                n=4,
                page="current-claim-4",
                verdict="falsified",
                raw="FALSIFIED",
                note="The historical Claim 4 page also says falsified (for a narrower reason); history either way.",
            ),
            ClaimExpectation(
                key="current-claim-5#5",
                n=5,
                page="current-claim-5",
                verdict="inconclusive",
                raw="BLOCKED",
                history=("inconclusive",),
                note="BLOCKED (missing input, 'not falsification'): inconclusive. Historical page: inconclusive.",
            ),
            ClaimExpectation(
                key="current-claim-6#6",
                n=6,
                page="current-claim-6",
                verdict="verified",
                raw="VERIFIED",
            ),
        ),
        pages_not_in_manifest=("index",),
        superseded_pages=(
            "historical-rejected-baseline",
            "executive-summary",
            "claim-1-tangent-space-idd-mapping",
            "claim-2-empirical-quantile-arl",
            "claim-3-synthetic-delay-reduction",
            "claim-4-flowcap-ii-aml-detection",
            "claim-5-reddit-event-alignment",
            "claim-6-finite-dimensional-epsilon-isometry",
            "conclusion",
        ),
        notes=(
            "6 claims, matches README: the current-claim-N pages under the manifest root 'current-index'. The"
            " manifest root is not index: pages/index.md is a stale TOC of the superseded set that the manifest no"
            " longer lists (shown, not a claim source). 'historical-rejected-baseline' is a group page whose"
            " children (Historical: Executive summary, Claims 1-6, Conclusion) are the judged earlier attempt:"
            " history, not claims and not contradictions. Title by the Trackio rule (H1 of pages/index.md), which"
            " is the full paper title; the manifest title is the short form. paper is a bare arXiv string."
        ),
    ),
    "MachineLearning-Nerd__icml26-repro-TBSyYj4VV6-quantum-regression": LogbookExpectation(
        root=".trackio/logbook",
        layout="workspace",
        title="Reproduction: Accelerating Regression Tasks with Quantum Algorithms",
        paper_id="TBSyYj4VV6",
        space_id="DineshAI/repro-accelerating-regression-tasks-with-quantum-algorithms",
        page_slugs=(
            "index",
            "executive-summary",
            "claim-1",
            "claim-2",
            "claim-3",
            "claim-4",
            "claim-5",
            "claim-6",
            "conclusion",
            "repaired-claims",
            "human-in-the-loop",
            "claim-1-glm-sparsification",
            "claim-2-linear-regression",
            "claim-3-lasso",
            "claim-4-ridge",
            "claim-5-huber",
            "claim-6-ell-p",
            "current-claim-1",
            "current-claim-2",
            "current-claim-3",
            "current-claim-4",
            "current-claim-5",
            "current-claim-6",
            "historical-rejected-baseline",
            "methods",
            "negative-controls",
            "release-report",
        ),
        cell_counts={"markdown": 19, "figure": 1, "code": 1},
        claims=(
            ClaimExpectation(
                key="claim-1#1",
                n=1,
                page="claim-1",
                verdict="falsified",
                raw="FALSIFIED",
                note="Bold 'Verdict: FALSIFIED. Confidence: HIGH.' in the page preamble, before the first cell.",
            ),
            ClaimExpectation(
                key="claim-2#2", n=2, page="claim-2", verdict="falsified", raw="FALSIFIED", history=("inconclusive",)
            ),
            ClaimExpectation(
                key="claim-3#3", n=3, page="claim-3", verdict="falsified", raw="FALSIFIED", history=("inconclusive",)
            ),
            ClaimExpectation(
                key="claim-4#4", n=4, page="claim-4", verdict="falsified", raw="FALSIFIED", history=("inconclusive",)
            ),
            ClaimExpectation(
                key="claim-5#5",
                n=5,
                page="claim-5",
                verdict="falsified",
                raw="FALSIFIED",
                history=("inconclusive",),
                note="Confidence MEDIUM is the agent's own hedge; the verdict word stands.",
            ),
            ClaimExpectation(
                key="claim-6#6", n=6, page="claim-6", verdict="falsified", raw="FALSIFIED", history=("inconclusive",)
            ),
        ),
        pages_not_in_manifest=(
            "claim-1-glm-sparsification",
            "claim-2-linear-regression",
            "claim-3-lasso",
            "claim-4-ridge",
            "claim-5-huber",
            "claim-6-ell-p",
            "current-claim-1",
            "current-claim-2",
            "current-claim-3",
            "current-claim-4",
            "current-claim-5",
            "current-claim-6",
            "historical-rejected-baseline",
            "methods",
            "negative-controls",
            "release-report",
        ),
        notes=(
            "6 claims, matches README: the manifest's claim-1..claim-6 pages, all FALSIFIED; the conclusion table "
            "agrees. 27 page files, 11 in the manifest. Orphans: the first judged set (claim-N-<topic>, methods, "
            "negative-controls, listed by an orphan historical-rejected-baseline page) and a later "
            "'current-claim-N' set (Claim 1 falsified, Claims 2-6 BLOCKED) with its superseded release report; "
            "their verdicts are history of the claims, not contradictions and not claims. 'repaired-claims' "
            "restates the six as R1-R6 'PROVEN' alternatives (not claim verdicts); 'human-in-the-loop' is "
            "narrative. metadata.json and the manifest name different Spaces; space_id follows metadata.json (the "
            "manifest says DineshAI/TBSyYj4VV6). Pages and the conclusion quote the external judge's 12/12 score: "
            "the judge's words, not the agent's."
        ),
    ),
    "will-rice__icml-2026-reproductions__repro-a-benchmark-and-framework-for-evaluating-next-action-predictions-in-spreadsheets": LogbookExpectation(  # noqa: E501
        root="space",
        layout="space",
        title="Reproduction: A Benchmark and Framework for Evaluating Next Action Predictions in Spreadsheets",
        paper_id="NvPgRwURDC",
        space_id="wrice/repro-a-benchmark-and-framework-for-evaluating-next-action-predictions-in-spreadsheets",
        page_slugs=(
            "index",
            "executive-summary",
            "claim-1-benchmark-and-construction",
            "claim-2-empirical-predictability",
            "claim-3-online-future-adaptation",
            "claim-4-gpt-5-r-results",
            "claim-5-always-accept-ablation",
            "claim-6-stride-ablation",
            "conclusion",
        ),
        cell_counts={"markdown": 8, "figure": 1, "code": 3, "artifact": 1},
        claims=(
            ClaimExpectation(
                key="claim-1-benchmark-and-construction#1",
                n=1,
                page="claim-1-benchmark-and-construction",
                verdict="verified",
                raw="REPRODUCED",
                note="Bold outcome word opening the 'Outcome and evidence scope' cell, after the code cell.",
            ),
            ClaimExpectation(
                key="claim-2-empirical-predictability#2",
                n=2,
                page="claim-2-empirical-predictability",
                verdict="verified",
                raw="REPRODUCED FROM RELEASED OUTPUTS",
            ),
            ClaimExpectation(
                key="claim-3-online-future-adaptation#3",
                n=3,
                page="claim-3-online-future-adaptation",
                verdict="verified",
                raw="REPRODUCED",
                note="The code cell's test source also asserts verdict 'verified'/'reproduced' (code, not a verdict).",
            ),
            ClaimExpectation(
                key="claim-4-gpt-5-r-results#4",
                n=4,
                page="claim-4-gpt-5-r-results",
                verdict="inconclusive",
                raw="NOT REPLICATED",
                note="As in the nape entry: not rerun, no verdict offered; unstated is the strict alternative.",
                ambiguous=True,
            ),
            ClaimExpectation(
                key="claim-5-always-accept-ablation#5",
                n=5,
                page="claim-5-always-accept-ablation",
                verdict="inconclusive",
                raw="NOT REPLICATED",
                note="Same as claim 4.",
                ambiguous=True,
            ),
            ClaimExpectation(
                key="claim-6-stride-ablation#6",
                n=6,
                page="claim-6-stride-ablation",
                verdict="inconclusive",
                raw="NOT REPLICATED",
                note="Same as claim 4.",
                ambiguous=True,
            ),
        ),
        notes=(
            "6 claims, the same Space as the nape entry at a later state (3 code cells instead of 6). Traps from"
            " another project in the snapshot: the Space README card and evidence_summary.json describe a different"
            " paper (76XSBLdBdg, gradio), and pages/report.md (a page file outside any page folder, not a page of"
            " this logbook) holds a 'Verified' table about that paper. None of it is this logbook's verdict."
        ),
    ),
}
