"""Re-match by hand: which of the Logbook Judge's claims (registry order) the selected logbook claim is."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QListWidget, QListWidgetItem, QVBoxLayout, QWidget

from reviewapp.core.logbook_judge.judged import JudgedLogbook
from reviewapp.qt.plain import PlainLabel

NONE = 0  # the row meaning "none of the Logbook Judge's claims"


class RematchDialog(QDialog):
    """`chosen()` is the registry index picked, or NONE."""

    def __init__(
        self,
        judged: JudgedLogbook,
        claim_key: str,
        claim_label: str,
        parent: QWidget | None = None,
        scrub: Callable[[str], str] = str,  # blind review: names taken out of what is shown
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Re-match {claim_label}")
        self.resize(720, 420)
        layout = QVBoxLayout(self)
        intro = PlainLabel(
            scrub(
                f"Which of the Logbook Judge's claims for {judged.entry.space_id} is {claim_label}? "
                "Best candidates first, with their scores (0–1: the statement, page text, anchors, numbers and "
                "position together). Your choice is saved as an annotation and can be undone (Ctrl+Z)."
            ),
            self,
        )
        intro.setWordWrap(True)
        layout.addWidget(intro)
        self.list = QListWidget(self)
        self.list.setWordWrap(True)
        self.list.setAlternatingRowColors(True)
        current = judged.match(claim_key)
        scores = {
            index: score for index, score in judged.result.candidates_for(claim_key, limit=len(judged.result.matches))
        }
        ranked = sorted(judged.result.matches, key=lambda m: (-scores.get(m.judge.index, 0.0), m.judge.index))
        for rank, match in enumerate(ranked):
            verdict = match.judge.verdict.value if match.judge.verdict else "?"
            text = match.judge.text or "(no claim text)"
            where = "unmatched" if match.claim_key is None else f"now {match.method}: {', '.join(match.claim_keys)}"
            score = scores.get(match.judge.index)
            fit = "no evidence either way" if score is None else f"score {score:.2f}"
            if score is not None and rank < 2:
                fit = f"candidate {rank + 1}, {fit}"
            item = QListWidgetItem(scrub(f"{match.judge.index}. [{verdict}] {text}\n    {fit} · {where}"))
            item.setData(Qt.ItemDataRole.UserRole, match.judge.index)
            self.list.addItem(item)
            if current is not None and match.judge.index == current.judge.index:
                self.list.setCurrentItem(item)
        none = QListWidgetItem("None of them: the Logbook Judge did not judge this claim")
        none.setData(Qt.ItemDataRole.UserRole, NONE)
        self.list.addItem(none)
        if current is None:
            self.list.setCurrentItem(none)
        self.list.itemDoubleClicked.connect(lambda _item: self.accept())
        layout.addWidget(self.list, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)

    def chosen(self) -> int:
        item = self.list.currentItem()
        return int(item.data(Qt.ItemDataRole.UserRole)) if item is not None else NONE
