"""Every window action and its shortcuts, in one table; menus and the shortcuts help are built from it."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction, QKeySequence


@dataclass(frozen=True)
class ActionSpec:
    name: str
    text: str
    menu: str  # one of MENUS
    shortcuts: tuple[str, ...] = ()
    tip: str = ""
    checkable: bool = False
    # Only while the claim list or the evidence has focus, so that the same keys still type in text fields.
    review_keys: bool = False


ACTIONS: tuple[ActionSpec, ...] = (
    ActionSpec("open_logbook", "&Open Logbook Folder…", "File", ("Ctrl+O",), "Open a logbook folder"),
    ActionSpec(
        "open_source", "Open from the &Hub or a URL…", "File", ("Ctrl+Shift+O",), "A Space, dataset or published URL"
    ),
    ActionSpec("find_logbooks", "&Find Logbooks on a Paper…", "File", (), "Every published logbook on a paper"),
    ActionSpec("open_demo", "Open &Demo Logbook", "File", (), "Open the built-in demo review"),
    ActionSpec("open_queue", "Open &Queue…", "File", ("Ctrl+Shift+J",), "Open a queue of logbooks to judge"),
    ActionSpec(
        "open_paper", "Open &Paper…", "File", ("Ctrl+Shift+P",), "Every logbook on one paper, claims by logbook"
    ),
    ActionSpec("cancel_loading", "&Cancel Loading", "File", ("Esc",), "Stop opening the logbook"),
    ActionSpec("show_problems", "Show &Problems…", "File", (), "What the reader could not load"),
    ActionSpec(
        "import_judge_verdicts", "Import Logbook &Judge Verdicts…", "File", (), "Store the Logbook Judge's verdicts"
    ),
    ActionSpec("export_reviews", "&Export Reviews…", "File", ("Ctrl+Shift+E",), "Save the review as CSV or JSON Lines"),
    ActionSpec("commit_reviews", "Co&mmit Reviews…", "File", ("Ctrl+Shift+S",), "Commit the review files (git or Hub)"),
    ActionSpec("quit", "&Quit", "File", ("Ctrl+Q",), "Quit reviewapp"),
    ActionSpec("undo", "&Undo", "Edit", ("Ctrl+Z",), "Undo the last review command"),
    ActionSpec("redo", "&Redo", "Edit", ("Ctrl+Shift+Z", "Ctrl+Y"), "Redo what was undone"),
    ActionSpec("edit_verdict", "&Record Verdict…", "Review", ("V",), "Open your verdict on the claim shown"),
    ActionSpec("save_verdict", "&Save Verdict", "Review", ("Ctrl+Return", "Ctrl+Enter"), "Save the verdict you edit"),
    ActionSpec(
        "save_and_next",
        "Save and &Go to the Next Not Reviewed",
        "Review",
        ("Ctrl+Shift+Return", "Ctrl+Shift+Enter"),
        "Save your verdict, then the next claim you have not reviewed",
    ),
    ActionSpec("verdict_verified", "Choose Verified", "Review", ("1",), "Your verdict: verified", review_keys=True),
    ActionSpec("verdict_partial", "Choose Partial", "Review", ("2",), "Your verdict: partial", review_keys=True),
    ActionSpec("verdict_falsified", "Choose Falsified", "Review", ("3",), "Your verdict: falsified", review_keys=True),
    ActionSpec("verdict_toy", "Choose Toy", "Review", ("4",), "Your verdict: toy", review_keys=True),
    ActionSpec(
        "verdict_inconclusive", "Choose Inconclusive", "Review", ("5",), "Your verdict: inconclusive", review_keys=True
    ),
    ActionSpec(
        "clear_verdict", "C&lear Verdict", "Review", ("0",), "Remove your verdict on the claim shown", review_keys=True
    ),
    ActionSpec("add_note", "Add &Note…", "Review", ("N",), "A note on the claim or page shown"),
    ActionSpec("correct_agent_verdict", "&Correct Agent Verdict…", "Review", (), "The reader mis-read the agent"),
    ActionSpec("add_claim", "&Add Claim on This Page…", "Review", (), "A claim the reader missed"),
    ActionSpec("split_claim", "S&plit Claim…", "Review", (), "One claim that is really several"),
    ActionSpec("merge_claims", "&Merge Claims…", "Review", (), "Claims that are really one (Ctrl+click to select)"),
    ActionSpec("rate_pairs", "Rate &Image Pairs…", "Review", ("Ctrl+Shift+R",), "Blinded rating of image pairs"),
    ActionSpec("reviewer_identity", "Reviewer N&ame and Role…", "Review", (), "Who is reviewing"),
    ActionSpec(
        "rematch_judge_claim", "Re-ma&tch Logbook Judge Claim…", "Review", ("Ctrl+Shift+M",), "Which one it is, by hand"
    ),
    ActionSpec("show_agreement", "A&greement…", "Review", ("Ctrl+Shift+G",), "Agreement between everyone's verdicts"),
    ActionSpec("next_claim", "&Next Claim", "Go", ("Alt+Down", "J"), "Select the next claim in the list"),
    ActionSpec("previous_claim", "&Previous Claim", "Go", ("Alt+Up", "K"), "Select the previous claim in the list"),
    ActionSpec(
        "next_unreviewed", "Next Claim &Not Reviewed by You", "Go", ("U", "Alt+U"), "Across pages, wrapping at the end"
    ),
    ActionSpec("jump_to_verdict", "Go to the &Verdict Statement", "Go", ("Ctrl+G",), "Scroll to the matched verdict"),
    ActionSpec("focus_search", "&Search Claims and Evidence", "Go", ("Ctrl+F",), "Focus the search field"),
    ActionSpec("clear_filters", "C&lear Search and Filters", "Go", ("Ctrl+Shift+F",), "Show every claim again"),
    ActionSpec("show_excerpts", "Trace &Excerpts", "View", ("Ctrl+E",), "Trace events tied to this claim"),
    ActionSpec("show_timeline", "Full Trace &Timeline", "View", ("Ctrl+T",), "Every event of the agent trace"),
    ActionSpec("show_artifacts", "&Artifacts", "View", ("Ctrl+Shift+A",), "Artifacts and workspace files"),
    ActionSpec(
        "show_disagreements", "&Disagreements", "View", ("Ctrl+Shift+D",), "Agent, Logbook Judge and reviewer differ"
    ),
    ActionSpec("toggle_claims_pane", "Claims && Pages Pane", "View", ("Ctrl+1",), "Show or hide the left pane", True),
    ActionSpec("toggle_side_pane", "Trace && Artifacts Pane", "View", ("Ctrl+2",), "Show or hide the right pane", True),
    ActionSpec(
        "blind_review",
        "&Blind Review",
        "View",
        ("Ctrl+Shift+B",),
        "Hide who made the logbook; a pseudonym stands in",
        True,
    ),
    ActionSpec("theme_system", "Theme: Follow &System", "View", (), "Light or dark as the system is", True),
    ActionSpec("theme_light", "Theme: &Light", "View", (), "Light theme until reviewapp quits", True),
    ActionSpec("theme_dark", "Theme: &Dark", "View", (), "Dark theme until reviewapp quits", True),
    ActionSpec("shortcuts_help", "&Keyboard Shortcuts", "Help", ("F1", "Ctrl+/"), "List every shortcut"),
    ActionSpec("about", "&About reviewapp", "Help", (), "Version and safety notes"),
)

MENUS = ("File", "Edit", "Review", "Go", "View", "Help")


def build_actions(parent: QObject) -> dict[str, QAction]:
    actions: dict[str, QAction] = {}
    for spec in ACTIONS:
        action = QAction(spec.text, parent)
        action.setObjectName(spec.name)
        action.setShortcuts([QKeySequence(s) for s in spec.shortcuts])
        # Shortcuts work wherever focus is in the window, not only in the widget that owns the action; review keys
        # only in the widgets the window adds them to (the claim list and the evidence).
        context = (
            Qt.ShortcutContext.WidgetWithChildrenShortcut if spec.review_keys else Qt.ShortcutContext.WindowShortcut
        )
        action.setShortcutContext(context)
        action.setStatusTip(spec.tip)
        action.setToolTip(spec.tip)
        action.setCheckable(spec.checkable)
        actions[spec.name] = action
    return actions


def shortcut_rows() -> list[tuple[str, str, str]]:
    """(menu, action text without mnemonics, shortcuts as the platform shows them) for the help dialog."""
    rows = []
    for spec in ACTIONS:
        if not spec.shortcuts:
            continue
        keys = ", ".join(QKeySequence(s).toString(QKeySequence.SequenceFormat.NativeText) for s in spec.shortcuts)
        rows.append((spec.menu, spec.text.replace("&&", "\0").replace("&", "").replace("\0", "&"), keys))
    return rows
