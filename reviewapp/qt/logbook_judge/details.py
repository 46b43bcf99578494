"""Under the claim's verdict badges: what the Logbook Judge said about this claim and how sure the match is.

Shows the registry claim it was matched to (method, confidence, why), the judge's evidence, the entry's `overall`
and `quality`, and a warning when the revision open is not the revision judged. Plain text only: the texts come from
a file anyone could have written.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QPushButton, QVBoxLayout, QWidget

from reviewapp.core.logbook_judge.judged import JudgedLogbook
from reviewapp.qt.plain import PlainLabel

_EVIDENCE_LIMIT = 900


def _plain(parent: QWidget, name: str) -> PlainLabel:
    label = PlainLabel(parent)
    label.setObjectName(name)
    label.setWordWrap(True)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


class LogbookJudgeDetails(QFrame):
    rematch_requested = Signal(str)  # claim key

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._key = ""
        self.scrub: Callable[[str], str] = lambda text: text
        self.setObjectName("judgeDetails")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 2, 0, 2)
        layout.setSpacing(3)
        top = QHBoxLayout()
        self.match = _plain(self, "judgeMatch")
        top.addWidget(self.match, 1)
        self.rematch = QPushButton("Re-match…", self)
        self.rematch.setObjectName("link")
        self.rematch.setCursor(Qt.CursorShape.PointingHandCursor)
        self.rematch.setToolTip("Say by hand which of the Logbook Judge's claims this claim is (Ctrl+Shift+M)")
        self.rematch.clicked.connect(lambda: self.rematch_requested.emit(self._key))
        top.addWidget(self.rematch, 0, Qt.AlignmentFlag.AlignTop)
        layout.addLayout(top)
        self.evidence = _plain(self, "judgeEvidence")
        layout.addWidget(self.evidence)
        self.overall = _plain(self, "judgeOverall")
        layout.addWidget(self.overall)
        self.revision = _plain(self, "revisionWarning")
        layout.addWidget(self.revision)
        self.hide()

    def show_claim(self, judged: JudgedLogbook | None, claim_key: str) -> None:
        """Fill in for `claim_key`; hidden when no Logbook Judge verdicts were imported for this logbook."""
        self._key = claim_key
        if judged is None:
            self.hide()
            return
        entry = judged.entry
        found = judged.match(claim_key)
        if found is None:
            unmatched = len(judged.result.unmatched_judge)
            extra = f" {unmatched} of its claims are unmatched; re-match one by hand." if unmatched else ""
            self.match.setText(f"Logbook Judge: no claim of {entry.space_id} was matched to this claim.{extra}")
            self.evidence.hide()
        else:
            text = f": “{_short(found.judge.text, 220)}”" if found.judge.text else " (the entry gives no claim text)"
            self.match.setText(
                f"Logbook Judge, registry claim {found.judge.index}{text}\n"
                f"Matched {found.method} (confidence {found.confidence:.2f}): {found.why}"
            )
            evidence = found.judge.evidence
            self.evidence.setText(
                f"Evidence: {_short(evidence, _EVIDENCE_LIMIT)}" if evidence else "Evidence: none given."
            )
            self.evidence.show()
        quality = f"quality {entry.quality}" if entry.quality else "quality not given"
        overall = f" — {_short(entry.overall, 400)}" if entry.overall else ""
        when = f", judged {entry.judged_at[:10]}" if entry.judged_at else ""
        self.overall.setText(f"Overall ({quality}{when}){overall}")
        warning = judged.revision.warning
        self.revision.setText(f"⚠ {warning}" if warning else "")
        self.revision.setVisible(bool(warning))
        for label in (self.match, self.evidence, self.overall, self.revision):  # blind review: names scrubbed
            label.setText(self.scrub(label.text()))
        self.show()


def _short(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
