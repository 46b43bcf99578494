"""The Logbook Judge in the review window: J badges filled from stored imports, its evidence under the badges,
the disagreement list, re-matching by hand (undoable), importing a verdicts file and the agreement view.

Everything it shows comes from the core (`logbook_judge`, `review.logbook_judge_matches`); this module only wires it
to the window. Stored imports are read, never anything in the logbook's folder.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QDialog, QMessageBox

from reviewapp.core.logbook.demo import demo_workspace
from reviewapp.core.logbook_judge.agreement_report import AGENT, LOGBOOK_JUDGE, agreement_report
from reviewapp.core.logbook_judge.calibration import calibration_figure, calibration_tables
from reviewapp.core.logbook_judge.demo_import import ensure_demo_import
from reviewapp.core.logbook_judge.importer import ImportResult, import_verdicts
from reviewapp.core.logbook_judge.judged import JudgedLogbook
from reviewapp.core.plots.figures import FiguresUnavailable, Table, Theme, png_bytes
from reviewapp.core.review.changes import ChangeRecord
from reviewapp.core.review.commands import changes_logbook_judge
from reviewapp.core.review.logbook_judge_matches import rematch
from reviewapp.qt import theme
from reviewapp.qt.logbook_judge.agreement_dialog import AgreementDialog
from reviewapp.qt.logbook_judge.details import LogbookJudgeDetails
from reviewapp.qt.logbook_judge.disagreement_panel import DisagreementPanel
from reviewapp.qt.logbook_judge.import_dialog import ImportChoice, ImportVerdictsDialog
from reviewapp.qt.logbook_judge.rematch_dialog import NONE, RematchDialog
from reviewapp.qt.workers import TaskRunner, alive
from reviewapp.qt.write_lane import WriteLane

if TYPE_CHECKING:
    from reviewapp.qt.controller import LogbookController
    from reviewapp.qt.host import WindowHost

log = logging.getLogger(__name__)
STATUS_MS = 8000


class LogbookJudgeFeature(QObject):
    def __init__(self, host: WindowHost, controller: LogbookController) -> None:
        super().__init__(host.widget())
        self.host = host
        self.controller = controller
        self.judged: JudgedLogbook | None = None
        self.dialog: QDialog | None = None
        self._runner = TaskRunner(1, self)
        self.details = LogbookJudgeDetails()
        self.details.scrub = controller.shown
        host.claim_header.set_logbook_judge_widget(self.details)
        self.panel = DisagreementPanel()
        host.add_side_tab(self.panel, "Disagreements")
        a = host.actions_by_name
        a["import_judge_verdicts"].triggered.connect(self.choose_and_import)
        a["rematch_judge_claim"].triggered.connect(lambda: self.rematch_dialog(self._claim_key()))
        a["show_agreement"].triggered.connect(self.show_agreement)
        a["show_disagreements"].triggered.connect(self.show_disagreements)
        self.details.rematch_requested.connect(self.rematch_dialog)
        self.panel.claim_selected.connect(host.select_claim)
        self.controller.loaded.connect(self._loaded)
        self.controller.claims_changed.connect(self.refresh)
        self.controller.rows_changed.connect(lambda _keys: self.refresh())  # the disagreement list follows rows
        self.controller.changed.connect(self._change_made)
        self.controller.reviewer_changed.connect(self.refresh)
        host.subject_shown.connect(self._subject_shown)

    # -- state -------------------------------------------------------------------------------------------------

    def _loaded(self, _logbook: object) -> None:
        logbook = self.controller.logbook
        if logbook is not None and logbook.workspace is not None:
            demo = demo_workspace() if _is_demo(logbook.workspace) else None
            if demo is not None:
                try:
                    if ensure_demo_import(logbook, demo):
                        self.controller.reload_logbook_judge()
                except (OSError, ValueError) as exc:
                    log.warning("the demo's Logbook Judge verdicts could not be imported: %s", exc)
        self.refresh()
        problem = self.controller.workspace.logbook_judge_problem(self.controller.logbook_id or "")
        if problem:
            self.host.say(f"Logbook Judge verdicts not shown: {problem}", STATUS_MS)

    def refresh(self) -> None:
        """Show the Logbook Judge slot as the workspace has it: the workspace matched the stored import to the
        claims, and matches again only after a change that can alter the match; this redraws, never matches."""
        self.judged = self.controller.logbook_judge() if self.controller.logbook is not None else None
        self._update_disagreements()
        self._subject_shown()  # also enables re-matching when there is an import and a claim

    def _change_made(self, change: ChangeRecord, _initiator: object) -> None:
        if changes_logbook_judge(change):  # a re-match can move the evidence shown without changing a verdict
            self.refresh()

    def _update_disagreements(self) -> None:
        claims = self.controller.claims
        logbook_id = self.controller.logbook_id
        rows = self.controller.workspace.disagreements(logbook_id) if logbook_id is not None else []
        self.panel.set_rows(rows, judge_imported=self.judged is not None)
        self.panel.set_unmatched(*_unmatched(self.judged, {c.key: c.label for c in claims}))
        self.host.set_side_tab_title(self.panel, f"Disagreements ({len(rows)})" if rows else "Disagreements")

    def _claim_key(self) -> str | None:
        claim = self.host.current_claim
        return claim.key if claim is not None else None

    def _subject_shown(self) -> None:
        key = self._claim_key()
        if key is None:
            self.details.hide()
        else:
            self.details.show_claim(self.judged, key)
        self.host.actions_by_name["rematch_judge_claim"].setEnabled(self.judged is not None and key is not None)

    # -- actions -----------------------------------------------------------------------------------------------

    def show_disagreements(self) -> None:
        self.host.show_tab(self.panel)
        self.panel.table.setFocus()

    def rematch_dialog(self, claim_key: str | None) -> None:
        judged = self.judged
        claim = self.controller.claim(claim_key) if claim_key else None
        if judged is None or claim is None:
            self.host.say("Import Logbook Judge verdicts first (File menu).", STATUS_MS)
            return
        dialog = RematchDialog(judged, claim.key, claim.label, self.host.widget(), scrub=self.controller.shown)
        self.dialog = dialog
        accepted = dialog.exec() == QDialog.DialogCode.Accepted
        chosen = dialog.chosen()
        self.dialog = None
        dialog.deleteLater()
        self.host.bring_to_front()  # shortcuts (Ctrl+Z) go to the window again
        if accepted:
            self.apply_rematch(claim.key, chosen)

    def apply_rematch(self, claim_key: str, registry_index: int) -> None:
        """Registry claim `registry_index` is `claim_key` (NONE: the claim is none of them). Undoable."""
        judged = self.judged
        if judged is None:
            return
        space = judged.entry.space_id
        current = judged.match(claim_key)
        if registry_index == NONE:
            if current is None:
                self.host.say("Re-matched by hand (Ctrl+Z undoes it).", STATUS_MS)
                return
            index, key = current.judge.index, None
        else:
            index, key = registry_index, claim_key
        self.controller.submit(
            lambda s: rematch(s, space, index, key),
            lambda _: self.host.say("Re-matched by hand (Ctrl+Z undoes it).", STATUS_MS),
            lambda exc: self.host.show_error("Not re-matched", str(exc)),
        )

    def choose_and_import(self) -> None:
        """The verdicts file, and optionally the claim registry and paper index, in one dialog."""
        if self.controller.logbook is None:
            return
        dialog = ImportVerdictsDialog(self.host.widget())
        dialog.chosen.connect(lambda c: self.import_file(c.verdicts, registry=c.registry, paper_index=c.paper_index))
        self.host.open_dialog(dialog)

    def import_file(
        self, path: Path, space: str | None = None, *, registry: Path | None = None, paper_index: Path | None = None
    ) -> None:
        """Import on the application's write lane (it writes the stored import); the result (or why nothing was
        stored) is shown when it is done."""
        logbook = self.controller.logbook
        if logbook is None:
            return
        self.host.say(f"Importing {path.name}…")
        choice = ImportChoice(path, registry, paper_index)

        def failed(exc: BaseException) -> None:
            if alive(self):
                self.host.show_error("Logbook Judge verdicts not imported", f"{path.name}: {exc}")

        WriteLane.shared().submit(
            lambda: import_verdicts(path, [logbook], registry_file=registry, paper_index_file=paper_index, space=space),
            lambda result: self._imported(choice, result) if alive(self) else None,
            failed,
            initiator=self,
        )

    def _imported(self, choice: ImportChoice, result: ImportResult) -> None:
        path = choice.verdicts
        (report,) = result.reports
        link = report["link"]
        problems = f" {len(result.problems)} bad entries were skipped." if result.problems else ""
        if report["stored"]:
            notes = [n for n in report.get("notes") or [] if n.startswith("The claim registry has no claims")]
            said = f" {notes[0]}" if notes else ""
            self.host.say(
                f"Logbook Judge verdicts of {link['space_id']} imported ({link['method']}).{problems}{said}", STATUS_MS
            )
            self.controller.reload_logbook_judge()
            self.refresh()
            return
        candidates = link["candidates"]
        if not candidates:
            self.host.show_error(
                "No Logbook Judge entry", f"{path.name} has no entry for this logbook: {link['method']}."
            )
            return
        box = QMessageBox(self.host.widget())
        box.setWindowTitle("Which Logbook Judge entry?")
        box.setText(f"The link is {link['strength']}: {link['method']}. Take one of these entries?")
        buttons = {box.addButton(c, QMessageBox.ButtonRole.AcceptRole): c for c in candidates}
        box.addButton(QMessageBox.StandardButton.Cancel)
        self.dialog = box
        box.exec()
        chosen = buttons.get(box.clickedButton())
        if chosen:
            self.import_file(path, space=chosen, registry=choice.registry, paper_index=choice.paper_index)

    def agreement_ratings(self) -> dict[str, dict[str, Any]]:
        """Claim -> rater -> verdict for the open logbook: every reviewer, the agent and the Logbook Judge."""
        review = self.controller.logbook_review
        judge = self.judged.verdicts() if self.judged else {}
        ratings: dict[str, dict[str, Any]] = {}
        for claim in self.controller.claims:
            unit: dict[str, Any] = {}
            if review is not None:  # blind: others' verdicts only on claims I have judged
                shown = self.controller.rule.verdicts(review.state, claim.key)
                unit.update({a: r.payload.verdict for a, r in shown.items()})
            unit[AGENT] = claim.verdict
            if claim.key in judge:
                unit[LOGBOOK_JUDGE] = judge[claim.key]
            ratings[claim.key] = unit
        return ratings

    def show_agreement(self) -> None:
        logbook = self.controller.logbook
        if logbook is None:
            return
        ratings = self.agreement_ratings()
        self.host.say("Computing agreement (2,000 bootstrap resamples)…")
        drawn: Theme = "dark" if theme.colors().dark else "light"

        def work(_progress: Any) -> tuple[dict[str, Any], list[Table], bytes]:
            tables = calibration_tables(ratings)
            try:
                picture = png_bytes(calibration_figure(tables, drawn), dpi=80) if tables else b""  # fits the view
            except FiguresUnavailable as exc:
                picture = str(exc).encode("utf-8")  # not a PNG: the view shows it as the reason
            return agreement_report(ratings), tables, picture

        self._runner.submit(
            work,
            lambda found: self._show_report(found, logbook.title, drawn),
            lambda exc: self.host.show_error("Agreement", f"Agreement could not be computed: {exc}"),
        )

    def _show_report(self, found: tuple[dict[str, Any], list[Table], bytes], scope: str, drawn: Theme) -> None:
        self.host.say("")
        report, tables, picture = found
        dialog = AgreementDialog(report, scope, self.host.widget(), calibration=tables, picture=picture, theme=drawn)
        self.dialog = dialog
        dialog.show()

    def shutdown(self, msecs: int = 10_000) -> None:
        self._runner.wait(msecs)


def _unmatched(judged: JudgedLogbook | None, labels: dict[str, str]) -> tuple[list[tuple[str, str]], list[str]]:
    """The Logbook Judge's claims matched to none here (one line each, with why); the claims here it has none for."""
    if judged is None:
        return [], []
    judge: list[tuple[str, str]] = []
    for m in judged.result.unmatched_judge:
        verdict = m.judge.verdict.value if m.judge.verdict else (m.judge.verdict_raw or "no verdict")
        text = f" “{_short(m.judge.text, 100)}”" if m.judge.text else ""
        judge.append((f"registry claim {m.judge.index}: {verdict}{text}", m.why))
    return judge, [labels.get(key, key) for key in judged.result.unmatched_claims]


def _short(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _is_demo(workspace: Path) -> bool:
    from reviewapp.core.io.paths import user_data_dir

    try:
        return workspace.resolve().parent == user_data_dir().resolve() and workspace.name.startswith("demo-v")
    except OSError:
        return False
