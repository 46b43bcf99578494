"""A study as text, as a Markdown report, and as figures (a forest plot of the scores, a strip of raters'
consistency), written as PNG and SVG beside the report."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from reviewapp.core.io.durable import atomic_write
from reviewapp.core.io.markdown_safe import markdown_inline, markdown_table_cell
from reviewapp.core.pairs.results import NO_PREFERENCE
from reviewapp.core.pairs.study import PRIOR_TIES, Study
from reviewapp.core.plots.figures import FiguresUnavailable, Interval, Theme, forest_plot, save, strip_plot

if TYPE_CHECKING:
    from matplotlib.figure import Figure


def render_text(study: Study) -> list[str]:
    lines = [
        f"Study of {', '.join(study.sets) or 'no pair set'}: {len(study.conditions)} conditions, "
        f"{len(study.included)} of {len(study.raters)} raters in the scores",
        "Scores (Bradley–Terry log-strength, centred; 95% bootstrap interval over raters):",
    ]
    for score in study.scores:
        interval = "" if score.low is None else f" [{score.low:+.2f}, {score.high:+.2f}]"
        won = f"won {score.wins:g} of {score.comparisons:g}"
        lines.append(f"  {score.condition}: {score.score:+.2f}{interval}  ({won})")
    if study.preference:
        lines.append("Preferred (share of main trials, 95% Wilson interval):")
        for name, rate in study.preference.items():
            lines.append(f"  {'no visible difference' if name == NO_PREFERENCE else name}: {rate}")
    alpha = _alpha(study)
    shared = f"over {study.alpha_units} shared pairs"
    lines.append(f"Agreement between raters: Krippendorff's alpha (nominal) {alpha} {shared}")
    lines.append(f"Raters (consistency threshold {study.min_consistency:.0%}):")
    for rater in study.raters:
        share = rater.left_share
        bias = "no decisive answers" if share is None else f"{share:.0%} left, p = {rater.bias_p:.3g}"
        mark = "" if rater.included else "  BELOW THRESHOLD"
        lines.append(f"  {rater.annotator}: consistency {rater.consistency}; side bias {bias}{mark}")
        if rater.note:
            lines.append(f"    {rater.note}")
    lines += [f"warning: {w}" for w in study.warnings]
    lines += [f"problem: {p}" for p in study.problems]
    return lines


def render_markdown(study: Study, figures: dict[str, Path] | None = None) -> str:
    out = [f"# Study: {markdown_inline(', '.join(study.sets))}", ""]
    out.append(
        f"{len(study.conditions)} conditions; {len(study.included)} of {len(study.raters)} raters in the scores "
        f"(consistency threshold {study.min_consistency:.0%}). Scores are Bradley–Terry log-strengths, centred on 0 "
        f"(a difference of 1 is odds of e:1), fitted by the MM algorithm with {PRIOR_TIES:g} virtual tie per compared "
        f"pair of conditions; 95% percentile intervals from {study.resamples} bootstrap resamples of the raters "
        f'(seed {study.seed}). "No difference" counts half a win to each side.'
    )
    out.append("")
    if figures and "scores" in figures:
        out += [f"![Condition scores with 95% intervals]({figures['scores'].name})", ""]
    out += ["| condition | score | 95% interval | won | compared |", "|---|---|---|---|---|"]
    for s in study.scores:
        interval = "n/a" if s.low is None else f"{s.low:+.2f} … {s.high:+.2f}"
        out.append(
            f"| {markdown_table_cell(s.condition)} | {s.score:+.2f} | {interval} | {s.wins:g} | {s.comparisons:g} |"
        )
    out.append("")
    if study.preference:
        out += ["| preferred | share (95% Wilson interval) |", "|---|---|"]
        for name, rate in study.preference.items():
            out.append(
                f"| {markdown_table_cell('no visible difference' if name == NO_PREFERENCE else name)} | {rate} |"
            )
        out.append("")
    alpha = _alpha(study)
    out += [f"Krippendorff's alpha (nominal) between raters: **{alpha}** over {study.alpha_units} shared pairs.", ""]
    if figures and "raters" in figures:
        out += [f"![Consistency of each rater on the control trials]({figures['raters'].name})", ""]
    out += ["| rater | consistency | left share | side bias p | in the scores |", "|---|---|---|---|---|"]
    for r in study.raters:
        share = "n/a" if r.left_share is None else f"{r.left_share:.0%}"
        p = "n/a" if r.bias_p is None else f"{r.bias_p:.3g}"
        included = "yes" if r.included else f"no: {r.note}"
        name, kept = markdown_table_cell(r.annotator), markdown_table_cell(included)
        out.append(f"| {name} | {r.consistency} | {share} | {p} | {kept} |")
    if study.excluded:
        names = ", ".join(r.annotator for r in study.excluded)
        out += ["", f"Below the consistency threshold, left out of the scores: {markdown_inline(names)}."]
    for warning in study.warnings:
        out += ["", f"Note: {markdown_inline(warning)}"]
    if study.problems:
        out += ["", "Results left out:", *[f"- {markdown_inline(p)}" for p in study.problems]]
    return "\n".join(out) + "\n"


def score_figure(study: Study, theme: Theme = "light") -> Figure:
    rows = [Interval(s.condition, s.score, s.low, s.high) for s in study.scores]
    return forest_plot(
        rows,
        title="Condition scores (Bradley–Terry, 95% interval over raters)",
        xlabel="log-strength (centred; +1 = odds of e:1)",
        reference=0.0,
        theme=theme,
    )


def rater_figure(study: Study, theme: Theme = "light") -> Figure:
    return strip_plot(
        [r.annotator for r in study.raters],
        [r.consistency.value for r in study.raters],
        title="Rater consistency on control trials",
        xlabel="share of control trials answered consistently",
        threshold=study.min_consistency,
        theme=theme,
    )


def write_report(study: Study, report: Path, theme: Theme = "light") -> list[Path]:
    """The Markdown report at `report`, its figures beside it as `<stem>-scores` and `<stem>-raters` (.png, .svg);
    where figures cannot be drawn the report says so and is written without them."""
    stem = report.with_suffix("")
    report.parent.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    figures: dict[str, Path] = {}
    missing = ""
    try:
        for key, draw in (("scores", score_figure), ("raters", rater_figure)):
            png, svg = save(draw(study, theme), stem.with_name(f"{stem.name}-{key}"))
            figures[key] = png
            written += [png, svg]
    except FiguresUnavailable as exc:
        missing = str(exc)
    text = render_markdown(study, figures) + (f"\nNote: {markdown_inline(missing)}.\n" if missing else "")
    atomic_write(report, text.encode("utf-8"))
    return [report, *written]


def _alpha(study: Study) -> str:
    if study.alpha is not None:
        return f"{study.alpha:.3f}"
    return "n/a (every answer was the same)" if study.alpha_units else "n/a (no pair rated by two raters)"
