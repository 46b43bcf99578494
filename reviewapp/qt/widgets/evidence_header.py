"""The top of the evidence pane: which claim, its verdicts side by side, where the verdict was read, how
reviewers corrected the claim, and a full-width slot at the bottom where the reviewer's verdict editor goes
(set_reviewer_widget)."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QPushButton, QSizePolicy, QVBoxLayout, QWidget

from reviewapp.core.logbook.model import Claim, Logbook, Page
from reviewapp.core.logbook.statement import readable_statement
from reviewapp.core.review.slots import VerdictSlots
from reviewapp.core.verdicts import Verdict
from reviewapp.qt import theme
from reviewapp.qt.models.claim_table import short_title
from reviewapp.qt.plain import ElidedButton, PlainLabel, button_text, plain_tooltip
from reviewapp.qt.widgets.verdict_badge import VerdictBadge

_SOURCES = {
    "claim text": "in the claim's text",
    "cell title": "in a cell title",
    "page title": "in the page title",
    "verdict section": "in a verdict section",
    "summary table": "in a summary table",
    "summary": "in a summary",
    "index title": "in the table of contents",
    "logbook summary": "in a logbook-wide statement",
    "raw data": "in raw data",
    "claim table": "in a table on the claim's page",
    "code output": "in a code cell's output",
}
# Where a claim number the logbook did not write came from: (kicker suffix, tool tip).
_NUMBERING = {
    "summary table": ("NUMBER FROM A SUMMARY TABLE", "is the number a summary table gives its page"),
    "manifest order": ("NUMBERED BY PAGE ORDER", "is its place in the page order (no claim is numbered)"),
    "after the written numbers": ("NEXT FREE NUMBER", "is the next number after the ones the logbook wrote"),
}
_SHOWN_ELSEWHERE = 4  # statements on current pages, then as many from earlier attempts
_SHOWN_HISTORY = 3


class EvidenceHeader(QFrame):
    page_requested = Signal(str)
    verdict_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("evidenceHeader")
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Minimum)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 12, 16, 12)
        layout.setSpacing(6)
        top = QHBoxLayout()
        self.kicker = PlainLabel(self)
        self.kicker.setObjectName("claimKicker")
        top.addWidget(self.kicker)
        self.page_link = ElidedButton(self)  # a long page title gives way, whole in the tool tip
        self.page_link.setObjectName("link")
        self.page_link.setMinimumWidth(_LINK_MIN_WIDTH)
        self.page_link.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        self.page_link.setCursor(Qt.CursorShape.PointingHandCursor)
        self.page_link.clicked.connect(lambda: self.page_requested.emit(self._page_slug))
        top.addWidget(self.page_link)
        top.addStretch(1)
        layout.addLayout(top)
        self.title = PlainLabel(self)
        self.title.setObjectName("claimTitle")
        self.title.setWordWrap(True)
        self.title.setTextFormat(Qt.TextFormat.PlainText)
        self.title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.title)
        verdicts = QHBoxLayout()
        verdicts.setSpacing(6)
        self.badges = {slot: VerdictBadge(slot, self) for slot in ("agent", "judge", "human")}
        for badge in self.badges.values():
            verdicts.addWidget(badge)
        self.quote = PlainLabel(self)
        self.quote.setObjectName("verdictQuote")
        self.quote.setWordWrap(True)
        self.quote.setTextFormat(Qt.TextFormat.PlainText)
        verdicts.addSpacing(6)
        verdicts.addWidget(self.quote, 1)
        self.goto_verdict = QPushButton("Go to statement", self)
        self.goto_verdict.setObjectName("link")
        self.goto_verdict.setCursor(Qt.CursorShape.PointingHandCursor)
        self.goto_verdict.clicked.connect(self.verdict_requested)
        verdicts.addWidget(self.goto_verdict, 0, Qt.AlignmentFlag.AlignTop)
        self.verdict_row = QWidget(self)
        self.verdict_row.setLayout(verdicts)
        verdicts.setContentsMargins(0, 2, 0, 0)
        layout.addWidget(self.verdict_row)
        # Other reviewers' verdicts, one chip each, beside the three slots (the rationale in the chip's tool tip).
        self.others_row = QWidget(self)
        self.others_row.setObjectName("otherVerdicts")
        self.others_layout = QHBoxLayout(self.others_row)
        self.others_layout.setContentsMargins(0, 0, 0, 0)
        self.others_layout.setSpacing(6)
        others_title = PlainLabel("Other reviewers:", self.others_row)
        others_title.setObjectName("muted")
        self.others_layout.addWidget(others_title)
        self.others_layout.addStretch(1)
        self.others_row.hide()
        self.other_chips: list[PlainLabel] = []
        layout.addWidget(self.others_row)
        # Filled by the Logbook Judge feature with what the Logbook Judge said about the claim.
        self.logbook_judge_slot = QVBoxLayout()
        self.logbook_judge_slot.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(self.logbook_judge_slot)
        self.disagreement = PlainLabel(self)
        self.disagreement.setObjectName("disagreement")
        self.disagreement.setWordWrap(True)
        self.disagreement.setTextFormat(Qt.TextFormat.PlainText)
        layout.addWidget(self.disagreement)
        self.elsewhere = QVBoxLayout()
        self.elsewhere.setSpacing(0)
        layout.addLayout(self.elsewhere)
        self.corrections = PlainLabel(self)
        self.corrections.setObjectName("correction")
        self.corrections.setWordWrap(True)
        self.corrections.hide()
        layout.addWidget(self.corrections)
        # Filled by the annotations feature with the reviewer's verdict editor.
        self.reviewer_slot = QWidget(self)
        self.reviewer_slot.setObjectName("reviewerSlot")
        self.reviewer_layout = QHBoxLayout(self.reviewer_slot)
        self.reviewer_layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.reviewer_slot)
        self._page_slug: str = ""

    def set_reviewer_widget(self, widget: QWidget) -> None:
        """Place the reviewer's verdict editor (owned by the annotations feature) in the header."""
        while self.reviewer_layout.count():
            item = self.reviewer_layout.takeAt(0)
            old = item.widget() if item is not None else None
            if old is not None:
                old.setParent(None)
        self.reviewer_layout.addWidget(widget)

    def set_logbook_judge_widget(self, widget: QWidget) -> None:
        """Place the Logbook Judge's details (owned by the Logbook Judge feature) under the verdict badges."""
        self.logbook_judge_slot.addWidget(widget)

    def set_other_verdicts(self, verdicts: list[tuple[str, Verdict, str]]) -> None:
        """(reviewer, verdict, rationale) of everyone but the reviewer; empty hides the row."""
        for chip in self.other_chips:
            chip.hide()
            chip.deleteLater()
        self.other_chips = []
        text_color = "#111418" if theme.colors().dark else "#ffffff"
        for name, verdict, rationale in verdicts:
            chip = PlainLabel(f"{name}: {verdict.value.upper()}", self.others_row)
            chip.setObjectName("otherVerdict")
            color = theme.verdict_color(verdict).name()
            chip.setStyleSheet(
                f"QLabel {{ background: {color}; color: {text_color}; border-radius: 3px; padding: 1px 6px; "
                "font-weight: 600; }"
            )
            chip.setToolTip(plain_tooltip(f"{name}: {verdict.value}\n{rationale}"))
            self.others_layout.insertWidget(self.others_layout.count() - 1, chip)
            self.other_chips.append(chip)
        self.others_row.setVisible(bool(verdicts))

    def set_corrections(self, lines: list[str]) -> None:
        """How reviewers changed this claim (added, split, merged, agent verdict corrected); empty hides it."""
        self.corrections.setText("\n".join(f"✎ {line}" for line in lines))
        self.corrections.setVisible(bool(lines))

    def show_claim(self, logbook: Logbook, claim: Claim, slots: VerdictSlots) -> None:
        page = logbook.page(claim.page)
        self.set_corrections([])
        kicker = claim.label.upper() if claim.n is not None else "CLAIM"
        unwritten = _NUMBERING.get(claim.numbering) if claim.n is not None else None
        if unwritten:  # the logbook never wrote this number
            kicker += f" · {unwritten[0]}"
        self.kicker.setText(kicker)
        self.kicker.setToolTip(
            plain_tooltip(f"The logbook does not number this claim; {claim.label} {unwritten[1]}.") if unwritten else ""
        )
        self._set_page(page)
        self.title.setText(short_title(claim))
        self.verdict_row.show()
        self.set_slots(slots)
        mention = claim.verdict_mention
        if mention is not None:
            where = _SOURCES.get(mention.source, f"in {mention.source}")
            if mention.page != claim.page:
                where += f" on “{_page_title(logbook, mention.page)}”"
            sure = f"{claim.confidence:.0%} sure"
            self.quote.setText(f"“{_short(mention.text)}” — {where}, line {mention.line} ({sure})")
            self.quote.setToolTip(plain_tooltip(f"{mention.text}\n\nThe reader is {sure} this is the agent's verdict."))
            self.goto_verdict.setVisible(mention.page == claim.page)
        elif claim.candidates:
            why = claim.unstated_reason or "what the logbook says is hedged or disagrees"
            self.quote.setText(f"No verdict taken: {why}. Read the statements below.")
            self.quote.setToolTip("")
            self.goto_verdict.hide()
        else:
            self.quote.setText("The logbook states no verdict for this claim that the reader could find.")
            self.quote.setToolTip("")
            self.goto_verdict.hide()
        self._set_elsewhere(logbook, claim)

    def set_slots(self, slots: VerdictSlots) -> None:
        self.badges["agent"].set_verdict(slots.agent)
        self.badges["judge"].set_verdict(slots.logbook_judge)
        self.badges["human"].set_verdict(slots.human)
        reasons = slots.disagreements()
        self.disagreement.setText("⚠ Disputed: " + " ".join(reasons) if reasons else "")
        self.disagreement.setVisible(bool(reasons))

    def show_page(self, logbook: Logbook, page: Page) -> None:
        self.kicker.setText("OVERVIEW" if page.is_index else "PAGE")
        self.kicker.setToolTip("")
        self._set_page(None)
        self.title.setText(logbook.title if page.is_index else page.title)
        self.verdict_row.hide()
        self.set_other_verdicts([])
        self.disagreement.hide()
        self.set_corrections([])
        self._clear_elsewhere()

    def _set_page(self, page: Page | None) -> None:
        self._page_slug = page.slug if page is not None else ""
        self.page_link.setVisible(page is not None)
        if page is not None:
            self.page_link.set_full_text(button_text(f"on page “{page.title}”"), f"Show the whole page ({page.file})")

    def _clear_elsewhere(self) -> None:
        while self.elsewhere.count():
            item = self.elsewhere.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.hide()
                widget.deleteLater()

    def _set_elsewhere(self, logbook: Logbook, claim: Claim) -> None:
        self._clear_elsewhere()
        for mention in claim.candidates[:_SHOWN_ELSEWHERE]:  # an undecided claim: what might be its verdict
            page_title = _page_title(logbook, mention.page)
            verdict = mention.verdict.value.upper()
            text = f"Candidate on “{page_title}”, line {mention.line}: {verdict} — “{_short(mention.text, 80)}”"
            self._add_link(text, mention.text, mention.page)
        seen: set[tuple[str, str, str]] = set()
        shown = {True: 0, False: 0}
        history = [m for m in claim.other_mentions if m.source == "history"]
        for mention in [m for m in claim.other_mentions if m.source != "history"] + history:
            old = mention.source == "history"
            if (mention.source, mention.page, mention.verdict) in seen:
                continue
            if shown[old] >= (_SHOWN_HISTORY if old else _SHOWN_ELSEWHERE):
                continue
            seen.add((mention.source, mention.page, mention.verdict))
            shown[old] += 1
            page_title = _page_title(logbook, mention.page)
            verdict = mention.verdict.value.upper()
            if old:  # an earlier attempt's verdict is history of the claim, never a contradiction
                text = f"Earlier attempt on “{page_title}”: {verdict} (history)"
            else:
                where = _SOURCES.get(mention.source, mention.source)
                agrees = "agrees" if mention.verdict == claim.verdict else "differs"
                text = f"Also stated {where} on “{page_title}”: {verdict} ({agrees})"
            self._add_link(text, mention.text, mention.page)

    def _add_link(self, text: str, tooltip: str, slug: str) -> None:
        button = QPushButton(button_text(text), self)
        button.setObjectName("link")
        button.setMinimumWidth(_LINK_MIN_WIDTH)  # a long statement is cut, not the window widened
        button.setCursor(Qt.CursorShape.PointingHandCursor)
        button.setToolTip(plain_tooltip(tooltip))
        button.clicked.connect(lambda _=False: self.page_requested.emit(slug))
        self.elsewhere.addWidget(button, 0, Qt.AlignmentFlag.AlignLeft)


# Links in the header name pages and quote statements of any length; below their text's width they are cut (the
# whole text is in the tool tip), so that the header never sets the window's minimum width.
_LINK_MIN_WIDTH = 80


def _page_title(logbook: Logbook, slug: str) -> str:
    page = logbook.page(slug)
    return page.title if page is not None else slug


def _short(text: str, limit: int = 180) -> str:
    text = readable_statement(text)  # a summary table's row reads as its cells
    return text if len(text) <= limit else text[: limit - 1] + "…"
