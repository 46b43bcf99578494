"""The glossary is checked: words CONTEXT.md says to avoid for a term do not appear in the code's names, in the
strings it shows (UI text, undo labels, commit summaries) or both, each rule naming its glossary term.

Identifiers are every name the code defines or reads (functions, classes, arguments, attributes, keywords);
texts are string constants other than docstrings. Names kept on disk so that existing files stay valid are listed
per rule.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
GLOSSARY = (REPO / "CONTEXT.md").read_text(encoding="utf-8")


@dataclass(frozen=True)
class Avoided:
    term: str  # the glossary's bold term
    word: str  # the word its Avoid list names
    identifiers: re.Pattern[str] | None  # matched against each identifier
    texts: re.Pattern[str] | None  # searched in each string constant that is not a docstring
    folders: tuple[str, ...] = ("reviewapp",)
    kept: frozenset[str] = field(default_factory=frozenset)  # identifiers or texts kept as they are on disk


RULES = (
    Avoided(
        "Logbook Judge",
        "judge",
        re.compile(
            r"(^|(?<!logbook)_)judge_(verdicts?|slots?|claims?|evidence|widget|badges?|details|match(es)?)($|_)"
            r"|^(set|rematch|import)_judge_|^Judge(Details|Slot|Verdicts?)$"
        ),
        None,
    ),
    Avoided("Slot", "override", None, re.compile(r"\boverrid(e|es|den|ing)\b", re.IGNORECASE)),
    Avoided("Logbook controller", "review controller", re.compile(r"^ReviewController$"), None),
    Avoided(
        "Command",
        "action",
        re.compile(r"Action(Failed|Error)$"),
        re.compile(r"\b(review|last|undoable|undone) actions?\b", re.IGNORECASE),
    ),
    Avoided(  # "Session" means one thing, an agent session: not the app's run, a window, a review or a login
        "Review",
        "session",
        re.compile(
            r"^(Window|App|Gui|Review|Reviewer|Rating|Login|Theme)Session"
            r"|(^|_)(window|app|gui|review|reviewer|rating|login|theme)_sessions?($|_)",
            re.IGNORECASE,
        ),
        re.compile(r"\b(this|desktop|login|window|review|rating) sessions?\b|\bsessions? of\s*$", re.IGNORECASE),
    ),
    Avoided(
        "Pair protocol",
        "session",
        re.compile(r"session", re.IGNORECASE),
        re.compile(r"\bsessions?\b", re.IGNORECASE),
        folders=("reviewapp/core/pairs", "reviewapp/qt/pairs", "reviewapp/cli/pairs_cmd.py"),
        # the record kind and its fields keep their names on disk so that existing files stay valid
        kept=frozenset({"pair_session", "PairSessionRecord", "PairSessionPayload", "session"}),
    ),
)


def python_files(folders: tuple[str, ...]) -> Iterator[Path]:
    for folder in folders:
        path = REPO / folder
        yield from [path] if path.is_file() else sorted(path.rglob("*.py"))


def docstrings(tree: ast.AST) -> set[int]:
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def identifiers(tree: ast.AST) -> Iterator[tuple[int, str]]:
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            yield node.lineno, node.name
        elif isinstance(node, ast.Name):
            yield node.lineno, node.id
        elif isinstance(node, ast.Attribute):
            yield node.lineno, node.attr
        elif isinstance(node, ast.arg) or (isinstance(node, ast.keyword) and node.arg):
            yield node.lineno, node.arg
        elif isinstance(node, ast.alias):
            yield node.lineno, (node.asname or node.name).split(".")[-1]


def texts(tree: ast.AST) -> Iterator[tuple[int, str]]:
    skip = docstrings(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            yield node.lineno, node.value


def violations(rule: Avoided) -> list[str]:
    found: list[str] = []
    for path in python_files(rule.folders):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        where = path.relative_to(REPO)
        if rule.identifiers is not None:
            for line, name in identifiers(tree):
                if name not in rule.kept and rule.identifiers.search(name):
                    found.append(f"{where}:{line}: name {name!r}")
        if rule.texts is not None:
            for line, text in texts(tree):
                if text not in rule.kept and rule.texts.search(text):
                    found.append(f"{where}:{line}: text {text[:80]!r}")
    return sorted(set(found))


@pytest.mark.parametrize("rule", RULES, ids=lambda rule: f"{rule.term}: not {rule.word}")
def test_the_code_uses_the_glossary_words(rule: Avoided) -> None:
    found = violations(rule)
    assert found == [], f"CONTEXT.md, **{rule.term}**: avoid {rule.word!r}:\n" + "\n".join(found)


@pytest.mark.parametrize("rule", RULES, ids=lambda rule: rule.term)
def test_each_rule_is_the_glossary_s_own(rule: Avoided) -> None:
    """A rule stands for an Avoid list of CONTEXT.md: the term is defined there and its paragraph avoids the word."""
    paragraph = next((p for p in GLOSSARY.split("\n\n") if f"**{rule.term}**" in p), None)
    assert paragraph is not None, f"CONTEXT.md defines no **{rule.term}**"
    avoid = paragraph.partition(f"**{rule.term}**")[2].partition("*Avoid:*")[2]
    assert re.search(rf"\b{re.escape(rule.word)}\b", avoid, re.IGNORECASE), f"{rule.term} does not avoid {rule.word}"


def test_no_field_named_judge_holds_what_the_logbook_judge_said() -> None:
    """`judge` alone is a person (a judge's name, a judge's score); a verdict or a claim of the Logbook Judge is
    `logbook_judge`. A field or argument named `judge` whose type is a verdict is the glossary's mistake."""
    found: list[str] = []
    for path in python_files(("reviewapp",)):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            named = isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id
            named = named or (isinstance(node, ast.arg) and node.arg)
            annotation = getattr(node, "annotation", None)
            if named == "judge" and annotation is not None and "Verdict" in ast.unparse(annotation):
                found.append(f"{path.relative_to(REPO)}:{node.lineno}")
    assert found == [], "name it logbook_judge:\n" + "\n".join(found)


def test_a_rule_finds_what_it_forbids(tmp_path: Path) -> None:
    sample = (
        "def set_judge_widget(x):\n    '''an override in a docstring is prose'''\n    return 'override of claim 3'\n"
    )
    tree = ast.parse(sample)
    names = [name for _line, name in identifiers(tree)]
    shown = [text for _line, text in texts(tree)]
    assert "set_judge_widget" in names and shown == ["override of claim 3"]
    judge, override = RULES[0], RULES[1]
    assert judge.identifiers is not None and judge.identifiers.search("set_judge_widget")
    assert not judge.identifiers.search("judges") and not judge.identifiers.search("logbook_judge_verdicts")
    assert override.texts is not None and override.texts.search(shown[0])
    session = next(rule for rule in RULES if rule.term == "Review")
    assert session.identifiers is not None and session.texts is not None
    assert session.identifiers.search("WindowSession") and session.identifiers.search("review_session_changed")
    assert not any(session.identifiers.search(name) for name in ("TraceSession", "session_id", "list_sessions"))
    assert session.texts.search("Dark theme for this session") and session.texts.search("Pair set “x”: session of ")
    assert not session.texts.search("This logbook lists no agent session")
