"""The paper view as an author's response (Markdown, ready to post or commit) and as JSON for tools.

Per claim: the finding (its class and why), which logbooks attempted it with their verdicts and where their
evidence is, and the authors' responses with their evidence links. Every text from a logbook or a review (title,
labels, names, comments, addresses) goes through `markdown_safe`: it cannot add a heading, HTML, an image or a link,
and an outside address is a code span.
"""

from __future__ import annotations

from typing import Any

from reviewapp.core.io.markdown_safe import markdown_code, markdown_inline, markdown_quote
from reviewapp.core.paper.view import MatrixCell, PaperLogbook, PaperView
from reviewapp.core.review.records import AuthorResponseRecord, EvidenceLink

_RESPONSE = {"agree": "agrees", "disagree": "disagrees", "partly": "partly agrees"}


def public_id(logbook_id: str, label: str) -> str:
    """A logbook's id as exports give it: a local folder's id is its absolute path, so its label stands in."""
    return label if logbook_id.startswith("path:") else logbook_id


def cell_json(cell: MatrixCell, label: str = "") -> dict[str, Any]:
    claim = cell.claim
    return {
        "logbook": public_id(cell.logbook_id, label),
        "claim": None if claim is None else {"key": claim.key, "n": claim.n, "title": claim.title, "page": claim.page},
        "alignment": None if cell.placement is None else {"method": cell.placement.method,
                                                           "confidence": cell.placement.confidence},
        "agent_verdict": _value(cell.agent),
        "logbook_judge_verdict": _value(cell.logbook_judge),
        "people": {name: v.value for name, v in sorted(cell.people.items())},
        "decided": _value(cell.decision.verdict),
        "decided_by": cell.decision.decided_by,
        "decided_by_people": [{"name": name, "verdict": cell.people[name].value, "rationale": text}
                              for name, text in sorted(cell.rationales.items())],
        "disputed": cell.decision.disputed,
        "broken": cell.broken,
    }  # fmt: skip


def _public(lb: PaperLogbook) -> str:
    """Blind review: the pseudonym that heads the column stands for the logbook's id, which names the team."""
    return lb.label if lb.rule.blind else public_id(lb.logbook_id, lb.label)


def _blind_cell(cell: dict[str, Any], lb: PaperLogbook) -> dict[str, Any]:
    if not lb.rule.blind:
        return cell
    claim = cell["claim"]
    shown = {**claim, "title": lb.rule.text(claim["title"])} if claim is not None else None
    rationales = [{**p, "rationale": lb.rule.text(p["rationale"])} for p in cell["decided_by_people"]]
    return {**cell, "logbook": lb.label, "claim": shown, "decided_by_people": rationales}


def view_json(view: PaperView) -> dict[str, Any]:
    ids = {lb.logbook_id: _public(lb) for lb in view.logbooks}
    return {
        "paper": view.orid,
        "title": view.title,
        "class": view.paper_class,
        "all_falsified": view.all_falsified,
        "rows_from": "claim registry" if view.registry_used else "claims aligned across logbooks",
        "logbooks": [
            {"id": _public(lb), "label": lb.label, "title": lb.rule.text(lb.logbook.title), "broken": lb.broken}
            for lb in view.logbooks
        ],
        "claims": [
            {
                "id": row.id,
                "number": row.number,
                "text": row.text,
                "in_registry": row.in_registry,
                "class": view.claim_classes[row.id],
                "cells": [
                    _blind_cell(cell_json(view.cell(row.id, lb.logbook_id), lb.label), lb) for lb in view.logbooks
                ],
                "responses": [_response_json(r, ids) for r in view.responses.get(row.id, [])],
            }
            for row in view.rows
        ],
        "notes": view.notes,
    }


def response_markdown(view: PaperView) -> str:
    lines = [f"# Findings on “{markdown_inline(view.title or view.orid or 'the paper')}”", ""]
    if view.orid:
        lines += [f"Paper: {markdown_inline(view.orid)}.", ""]
    labels = {lb.logbook_id: lb.label for lb in view.logbooks}
    rules = {lb.logbook_id: lb.rule for lb in view.logbooks}  # blind review: each logbook's names scrubbed
    lines += [
        f"**Paper class: {view.paper_class}**" + (" (every claim falsified)" if view.all_falsified else "")
        + f" — from {len(view.logbooks)} logbook(s); claims "
        + ("from the challenge's claim registry." if view.registry_used else "aligned across the logbooks."),
        "",
    ]  # fmt: skip
    broken = [lb for lb in view.logbooks if lb.broken is not None]
    if broken:  # a logbook with problems and no claims attempted nothing: said once, with why
        lines += ["Broken logbooks (read with problems and no claims):", ""]
        lines += [f"- {markdown_inline(lb.label)}: {markdown_inline(lb.broken or '')}" for lb in broken]
        lines.append("")
    for row in view.rows:
        lines += [
            f"## Claim {row.number}: {markdown_inline(row.text)}",
            "",
            f"Finding: **{view.claim_classes[row.id]}**.",
            "",
        ]
        attempted = [view.cell(row.id, lb.logbook_id) for lb in view.logbooks]
        attempted = [c for c in attempted if c.claim is not None or c.logbook_judge is not None]
        if not attempted:
            lines += ["No logbook attempted this claim.", ""]
        for cell in attempted:
            decided = cell.decision.verdict.value if cell.decision.verdict else "undecided"
            by = f" (decided by the {cell.decision.decided_by})" if cell.decision.decided_by else ""
            if cell.decision.decided_by == "person":
                by = f" (decided by {_who_and_why(cell)})"
            if cell.decision.disputed:
                people = ", ".join(f"{markdown_inline(k)} {v.value}" for k, v in sorted(cell.people.items()))
                by = f" (reviewers disagree: {people})"
            page = rules[cell.logbook_id].text(cell.claim.page) if cell.claim else ""
            where = f", evidence: page {markdown_inline(page)}" if cell.claim else ""
            lines.append(f"- {markdown_inline(labels[cell.logbook_id])}: **{decided}**{by}{where}")
        lines.append("")
        for response in view.responses.get(row.id, []):
            payload = response.payload
            lines.append(f"**{markdown_inline(response.annotator)} (author) {_RESPONSE[payload.response]}.**")
            if payload.comment.strip():
                lines += ["", markdown_quote(payload.comment)]
            if payload.evidence:
                lines.append("")
            for link in payload.evidence:
                lines.append(f"- evidence: {link_markdown(link, labels)}")
            lines.append("")
    if view.notes:
        lines += ["Notes:", "", *(f"- {markdown_inline(n)}" for n in view.notes), ""]
    return "\n".join(lines).rstrip() + "\n"


def link_markdown(link: EvidenceLink, labels: dict[str, str] | None = None) -> str:
    """Where an evidence link points, as Markdown: an outside address as a code span (never a link), the rest
    escaped."""
    return markdown_code(link.url) if link.url else markdown_inline(link_text(link, labels))


def link_text(link: EvidenceLink, labels: dict[str, str] | None = None) -> str:
    """Where an evidence link points, as plain text."""
    if link.url:
        return link.url
    where = (labels or {}).get(link.logbook or "", link.logbook or "")
    parts = [where]
    if link.page:
        parts.append(f"page {link.page}")
    if link.cell is not None:
        parts.append(f"cell {link.cell + 1}")
    if link.figure is not None:
        parts.append(f"figure {link.figure + 1}")
    if link.trace is not None:
        parts.append(f"trace {link.trace.session} event {link.trace.sequence}")
    return ", ".join(p for p in parts if p)


def _link_json(link: EvidenceLink, ids: dict[str, str]) -> dict[str, Any]:
    shown = link.model_dump(exclude_none=True, mode="json")
    if link.logbook:
        shown["logbook"] = ids.get(link.logbook, public_id(link.logbook, "a logbook not on this paper"))
    return shown


def _response_json(record: AuthorResponseRecord, ids: dict[str, str]) -> dict[str, Any]:
    return {
        "id": record.id,
        "author": record.annotator,
        "response": record.payload.response,
        "comment": record.payload.comment,
        "evidence": [_link_json(link, ids) for link in record.payload.evidence],
        "created_at": record.created_at.isoformat(),
    }


def who_decided(cell: MatrixCell) -> list[tuple[str, str]]:
    """The people whose verdict decides a cell, each with the rationale they gave ("" when none), by name."""
    return [
        (name, cell.rationales.get(name, ""))
        for name, verdict in sorted(cell.people.items())
        if verdict is cell.decision.verdict
    ]


def _who_and_why(cell: MatrixCell) -> str:
    """The people whose verdict decides a cell, each with the rationale they gave, for Markdown."""
    said = [
        f"{markdown_inline(name)}: “{markdown_inline(why)}”" if why else markdown_inline(name)
        for name, why in who_decided(cell)
    ]
    return "; ".join(said) or "a person"


def _value(verdict: object) -> str | None:
    return getattr(verdict, "value", None)
