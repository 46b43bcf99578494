"""Quick rationales: a template from the verdict and the tags the reviewer picked, and the reviewer's recent ones.

A template is a start the reviewer edits, never a rationale by itself: the editor still refuses to save text that
is only the template (see `is_bare_template`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from reviewapp.core.verdicts import Verdict

RECENT_KEPT = 8
_CHECKED = "Checked: "


def rationale_template(verdict: Verdict | None, tags: Sequence[str]) -> str:
    """'Partial — units mismatch; scale below paper. Checked: ' (the reviewer says what they checked)."""
    head = verdict.value.capitalize() if verdict is not None else "Verdict"
    findings = "; ".join(tag.strip() for tag in tags if tag.strip())
    return f"{head} — {findings}. {_CHECKED}" if findings else f"{head}. {_CHECKED}"


def is_bare_template(text: str) -> bool:
    """The text is a template nobody added to (nothing after 'Checked:')."""
    stripped = text.strip()
    return stripped.endswith(_CHECKED.strip())


def remember_rationale(recent: Iterable[str], rationale: str, kept: int = RECENT_KEPT) -> list[str]:
    """The recent rationales with `rationale` first, each once (ignoring surrounding space), at most `kept`."""
    text = rationale.strip()
    result = [text] if text else []
    for old in recent:
        old = old.strip()
        if old and old != text and old not in result:
            result.append(old)
    return result[:kept]
