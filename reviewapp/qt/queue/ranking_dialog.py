"""The ranking across judges, as `reviewapp rank` prints it: each judge's scores side by side, the spread per
logbook, the final rank with ties marked. In blind mode a logbook this judge has not scored yet is left out, so
that nobody's scores anchor theirs."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget

from reviewapp.core.queue.ranking import JudgeScore, Ranking, rank_logbooks
from reviewapp.core.queue.rubric import score_text
from reviewapp.qt.queue.queue_model import QueueTableModel


def queue_ranking(model: QueueTableModel) -> tuple[Ranking, dict[str, int], int]:
    """The ranking of the rows shown (by label), which source row each label is, and how many were held back."""
    scores: list[JudgeScore] = []
    rows_of: dict[str, int] = {}
    held_back = 0
    for number, row in enumerate(model.rows):
        if not row.scores:
            continue
        if model.hides(number):
            held_back += 1
            continue
        label = model.label(number).removesuffix(" · revealed after your score")
        rows_of[label] = number
        scores.extend(JudgeScore(judge, label, record.payload.overall) for judge, record in row.scores.items())
    return rank_logbooks(scores), rows_of, held_back


LOGBOOK = 1
LOGBOOK_WIDTH = 320


class RankingDialog(QDialog):
    def __init__(self, model: QueueTableModel, me: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Ranking across judges")
        self.resize(900, 420)
        ranking, rows_of, held_back = queue_ranking(model)
        layout = QVBoxLayout(self)
        notes = ["Scores are means of z-scores per judge; = marks a tie at two decimals.", *ranking.warnings]
        if held_back:
            notes.append(
                f"{held_back} logbook(s) you have not scored yet are left out: blind review hides other judges' "
                "scores until you have given yours."
            )
        self.notes = QLabel("\n".join(notes))
        self.notes.setWordWrap(True)
        self.notes.setTextFormat(Qt.TextFormat.PlainText)
        layout.addWidget(self.notes)
        judges = ranking.judges
        # scores are written as their rubric's scale is (4 on 1-5, not 4.00)
        scale = next((s.payload.scale for row in model.rows for s in row.scores.values()), (1.0, 5.0))
        headers = ["Rank", "Logbook", "Score", "Judges", "Verdicts", "Raw mean", "Spread", *judges]
        self.table = QTableWidget(len(ranking.rows), len(headers))
        self.table.setHorizontalHeaderLabels(headers)
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        for r, row in enumerate(ranking.rows):
            cells = [
                f"{row.rank}=" if row.tied else str(row.rank),
                row.logbook,
                f"{row.score:+.2f}",
                str(len(row.judges)),
                # the people's verdicts, as rank prints them; blind review hides them (they hold others' verdicts)
                "hidden in blind review" if model.blind else model.rows[rows_of[row.logbook]].people_verdicts,
                score_text(row.raw_mean, scale),
                f"{row.spread:.2f}",
                *(
                    f"{score_text(row.judges[j], scale)} ({row.normalized[j]:+.2f})" if j in row.judges else ""
                    for j in judges
                ),
            ]
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if c == LOGBOOK:
                    item.setToolTip(text)  # a long label is elided in its column
                if c != LOGBOOK:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.table.setItem(r, c, item)
        self.table.resizeColumnsToContents()
        # a long logbook label is elided, so that the score, the judges and each judge's column stay on screen
        self.table.setColumnWidth(LOGBOOK, min(self.table.columnWidth(LOGBOOK), LOGBOOK_WIDTH))
        self.table.setProperty("keyColumns", [0, LOGBOOK, 2, 3])  # rank, logbook, score, judges: always visible
        self.table.setObjectName("ranking")
        self.table.horizontalHeader().setStretchLastSection(True)
        layout.addWidget(self.table, 1)
        if not ranking.rows:
            self.notes.setText(self.notes.text() + "\nNo rubric scores yet: score a logbook with S in the queue.")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.me = me
