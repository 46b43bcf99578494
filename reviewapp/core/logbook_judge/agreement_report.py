"""Agreement between everyone who judged the same claims, and how far the Logbook Judge can be trusted per verdict.

Input: claims × raters, each rating a Verdict (people, and on request the Logbook Judge and the agent). The
vocabularies differ: people use five verdicts, the Logbook Judge four (it never says partial), the agent may state
none. So: unstated is left out (a missing rating); when the Logbook Judge is one of the raters, the coefficients are
computed on the categories all raters share and every partial rating is left out of them (counted, and said in the
output); the confusion matrix keeps partial as its own row. Ordinal alpha uses ORDINAL_ORDER.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from itertools import combinations
from typing import Any

from reviewapp.core.logbook_judge.agreement import (
    BOOTSTRAP_RESAMPLES,
    BOOTSTRAP_SEED,
    Units,
    bootstrap,
    cohen_kappa,
    confusion,
    fleiss_kappa,
    krippendorff_alpha,
    percent_agreement,
)
from reviewapp.core.verdicts import HUMAN_VERDICTS, JUDGE_VERDICTS, Verdict

LOGBOOK_JUDGE = "Logbook Judge"
AGENT = "Agent"
#: How strongly the evidence supports the claim at the paper's scale, weakest first.
ORDINAL_ORDER: tuple[Verdict, ...] = (
    Verdict.FALSIFIED,
    Verdict.INCONCLUSIVE,
    Verdict.TOY,
    Verdict.PARTIAL,
    Verdict.VERIFIED,
)


def agreement_report(
    ratings: Mapping[str, Mapping[str, Verdict | None]],
    *,
    resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int = BOOTSTRAP_SEED,
) -> dict[str, Any]:
    """`ratings`: claim id -> rater -> verdict. Returns a JSON-ready report."""
    raters = sorted({r for unit in ratings.values() for r in unit}, key=_rater_order)
    with_judge = LOGBOOK_JUDGE in raters
    categories = [v for v in HUMAN_VERDICTS if not with_judge or v in JUDGE_VERDICTS]
    left_out = {"unstated": 0, "partial": 0}
    units: list[dict[str, str]] = []
    for unit in ratings.values():
        kept: dict[str, str] = {}
        for rater, verdict in unit.items():
            if verdict is None or verdict is Verdict.UNSTATED:
                left_out["unstated"] += verdict is Verdict.UNSTATED
                continue
            if verdict not in categories:
                left_out["partial"] += 1
                continue
            kept[rater] = verdict.value
        units.append(kept)
    notes = ["Unstated verdicts are left out (missing ratings)."]
    if with_judge:
        notes.append(
            "The Logbook Judge has no 'partial': coefficients compare the four common verdicts and leave out "
            f"{left_out['partial']} partial rating(s); the confusion matrix shows partial as its own row."
        )
    notes.append("Ordinal alpha orders verdicts " + " < ".join(v.value for v in ORDINAL_ORDER if v in categories) + ".")
    order = [v.value for v in ORDINAL_ORDER if v in categories]
    values = [c.value for c in categories]

    def stat(fn: Callable[[Units], float | None]) -> dict[str, Any]:
        return {"value": fn(units), "ci95": bootstrap(units, fn, resamples, seed).to_json()}

    report: dict[str, Any] = {
        "raters": raters,
        "claims": len(ratings),
        "claims_compared": sum(1 for u in units if len(u) >= 2),
        "categories": values,
        "ordinal_order": order,
        "left_out": left_out,
        "notes": notes,
        "bootstrap": {"resamples": resamples, "seed": seed, "over": "claims", "interval": "percentile 95%"},
        "percent_agreement": stat(percent_agreement),
        "cohen_kappa": [
            {"raters": [a, b], "claims": sum(1 for u in units if a in u and b in u), **stat(_cohen(a, b, values))}
            for a, b in combinations(raters, 2)
        ],
        "fleiss_kappa": stat(lambda u: fleiss_kappa(u, values)),
        "krippendorff_alpha_nominal": stat(lambda u: krippendorff_alpha(u, "nominal", values)),
        "krippendorff_alpha_ordinal": stat(lambda u: krippendorff_alpha(u, "ordinal", order)),
    }
    if with_judge:
        report["logbook_judge_vs_people"] = _judge_confusion(ratings)
    return report


def _cohen(a: str, b: str, categories: Sequence[str]) -> Callable[[Units], float | None]:
    def kappa(units: Units) -> float | None:
        return cohen_kappa(units, a, b, categories)

    return kappa


def _rater_order(rater: str) -> tuple[int, str]:
    return ({AGENT: 1, LOGBOOK_JUDGE: 2}.get(rater, 0), rater.lower())


def _judge_confusion(ratings: Mapping[str, Mapping[str, Verdict | None]]) -> dict[str, Any]:
    pairs: list[tuple[str, str]] = []
    for unit in ratings.values():
        judge = unit.get(LOGBOOK_JUDGE)
        if judge is None or judge is Verdict.UNSTATED:
            continue
        for rater, verdict in unit.items():
            if rater in (LOGBOOK_JUDGE, AGENT) or verdict is None or verdict is Verdict.UNSTATED:
                continue
            pairs.append((verdict.value, judge.value))
    rows = [v.value for v in HUMAN_VERDICTS]
    columns = [v.value for v in JUDGE_VERDICTS]
    table = confusion(pairs, rows, columns)
    return {
        "rows": "people's verdict",
        "columns": "Logbook Judge's verdict",
        "pairs": len(pairs),
        "counts": table.counts,
        "precision": {c: table.precision(c) for c in columns},
        "recall": {c: table.recall(c) for c in columns},
        "note": "precision: of the claims the Logbook Judge called X, the share people called X; recall: of the "
        "claims people called X, the share the Logbook Judge called X. Partial has no column: the Logbook Judge "
        "never says it.",
    }


def render_text(report: Mapping[str, Any]) -> str:
    def fmt(stat: Mapping[str, Any]) -> str:
        value = stat["value"]
        ci = stat["ci95"]
        shown = "—" if value is None else f"{value:.3f}"
        if ci["low"] is None:
            return f"{shown} (no interval)"
        return f"{shown} (95% CI {ci['low']:.3f} to {ci['high']:.3f})"

    b = report["bootstrap"]
    lines = [
        f"Raters: {', '.join(report['raters']) or 'none'}",
        f"Claims: {report['claims']} ({report['claims_compared']} rated by two or more)",
        f"Categories: {', '.join(report['categories'])}",
        f"Percent agreement:            {fmt(report['percent_agreement'])}",
        f"Fleiss' kappa:                {fmt(report['fleiss_kappa'])}",
        f"Krippendorff's alpha nominal: {fmt(report['krippendorff_alpha_nominal'])}",
        f"Krippendorff's alpha ordinal: {fmt(report['krippendorff_alpha_ordinal'])}",
    ]
    if report["cohen_kappa"]:
        lines.append("Cohen's kappa:")
        for pair in report["cohen_kappa"]:
            a, c = pair["raters"]
            lines.append(f"  {a} vs {c} ({pair['claims']} claims): {fmt(pair)}")
    confusion_report = report.get("logbook_judge_vs_people")
    if confusion_report:
        columns = list(next(iter(confusion_report["counts"].values())).keys())
        lines.append("")
        lines.append(f"Logbook Judge (columns) vs people (rows), {confusion_report['pairs']} pairs:")
        lines.append("  " + " " * 13 + "".join(f"{c:>13}" for c in columns))
        for row, counts in confusion_report["counts"].items():
            lines.append(f"  {row:<13}" + "".join(f"{counts[c]:>13}" for c in columns))
        lines.append("  precision    " + "".join(f"{_pct(confusion_report['precision'][c]):>13}" for c in columns))
        lines.append("  recall       " + "".join(f"{_pct(confusion_report['recall'][c]):>13}" for c in columns))
    lines.append("")
    lines.extend(f"Note: {n}" for n in report["notes"])
    lines.append(f"Bootstrap: {b['resamples']} resamples of claims, seed {b['seed']}, {b['interval']}.")
    return "\n".join(lines)


def _pct(value: float | None) -> str:
    return "—" if value is None else f"{value:.0%}"


def rows_for_table(report: Mapping[str, Any]) -> list[Sequence[Any]]:
    """One row per statistic: name, raters, claims, value, CI low, CI high (for CSV and Markdown)."""
    rows: list[Sequence[Any]] = []
    everyone = ", ".join(report["raters"])
    for name, key in (
        ("percent agreement", "percent_agreement"),
        ("Fleiss' kappa", "fleiss_kappa"),
        ("Krippendorff's alpha (nominal)", "krippendorff_alpha_nominal"),
        ("Krippendorff's alpha (ordinal)", "krippendorff_alpha_ordinal"),
    ):
        stat = report[key]
        rows.append(
            (name, everyone, report["claims_compared"], stat["value"], stat["ci95"]["low"], stat["ci95"]["high"])
        )
    for pair in report["cohen_kappa"]:
        rows.append(
            (
                "Cohen's kappa",
                " vs ".join(pair["raters"]),
                pair["claims"],
                pair["value"],
                pair["ci95"]["low"],
                pair["ci95"]["high"],
            )
        )
    return rows
