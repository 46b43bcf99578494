"""Where a clicked link in logbook content may lead: a page, the web, a file inside the logbook, or nowhere."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from reviewapp.core.logbook.link_targets import LinkKind, classify_link

SLUGS = frozenset({"index", "claim-1-x", "conclusion"})


@pytest.fixture
def root(tmp_path: Path) -> Path:
    base = tmp_path / "root"
    (base / "report").mkdir(parents=True)
    (base / "report" / "report.md").write_text("r")
    (tmp_path / "secret.txt").write_text("s")
    os.symlink(tmp_path / "secret.txt", base / "link.txt")
    return base


@pytest.mark.parametrize(
    ("href", "page"),
    [("#/claim-1-x", "claim-1-x"), ("#/view/code/conclusion", "conclusion"), ("pages/claim-1-x/page.md", "claim-1-x"),
     ("./pages/conclusion/page.md", "conclusion")],
)  # fmt: skip
def test_page_links(root: Path, href: str, page: str) -> None:
    target = classify_link(root, href, SLUGS)
    assert (target.kind, target.page) == (LinkKind.PAGE, page)


@pytest.mark.parametrize("href", ["https://huggingface.co/papers/1", "http://example.com", "mailto:a@b.c"])
def test_web_links(root: Path, href: str) -> None:
    assert classify_link(root, href, SLUGS).kind is LinkKind.WEB


def test_files_inside_the_root(root: Path) -> None:
    target = classify_link(root, "report/report.md", SLUGS)
    assert target.kind is LinkKind.FILE and target.path == (root / "report" / "report.md").resolve()


@pytest.mark.parametrize(
    ("href", "reason"),
    [("#/gone", "no page 'gone'"), ("file:///etc/passwd", "file URL"), ("../secret.txt", "leads outside"),
     ("/etc/passwd", "absolute path"), ("link.txt", "leads outside"), ("javascript:alert(1)", "not followed"),
     ("trackio-artifact://p/a:v1", "author's machine"), ("missing.md", "does not exist")],
)  # fmt: skip
def test_refused_links_say_why(root: Path, href: str, reason: str) -> None:
    target = classify_link(root, href, SLUGS)
    assert target.kind is LinkKind.REFUSED and reason in (target.reason or "")
