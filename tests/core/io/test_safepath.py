"""References from untrusted content resolve only inside their root."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from reviewapp.core.io.safepath import UnsafeReference, local_reference, read_capped, resolve_inside


@pytest.fixture
def root(tmp_path: Path) -> Path:
    base = tmp_path / "root"
    (base / "pages" / "a").mkdir(parents=True)
    (base / "pages" / "a" / "page.md").write_text("x")
    (tmp_path / "outside.txt").write_text("secret")
    return base


def test_plain_relative_paths(root: Path) -> None:
    assert resolve_inside(root, "pages/a/page.md") == (root / "pages" / "a" / "page.md").resolve()
    assert resolve_inside(root, "./pages/./a/page.md") == (root / "pages" / "a" / "page.md").resolve()
    assert resolve_inside(root, "pages/a/../a/page.md") == (root / "pages" / "a" / "page.md").resolve()
    assert resolve_inside(root, "not/there.png").name == "there.png"


@pytest.mark.parametrize(
    "reference",
    ["../outside.txt", "pages/../../outside.txt", "/etc/passwd", "C:\\Windows\\win.ini", "\\\\server\\share\\x",
     "file:///etc/hostname", "", "a\x00b"],
)  # fmt: skip
def test_escapes_are_refused(root: Path, reference: str) -> None:
    with pytest.raises(UnsafeReference):
        resolve_inside(root, reference)


def test_symlinks_are_resolved_before_the_check(root: Path, tmp_path: Path) -> None:
    os.symlink(tmp_path / "outside.txt", root / "link.txt")
    os.symlink(tmp_path, root / "pages" / "up")
    os.symlink(root / "pages" / "a", root / "inner")
    with pytest.raises(UnsafeReference, match="outside"):
        resolve_inside(root, "link.txt")
    with pytest.raises(UnsafeReference):
        resolve_inside(root, "pages/up/outside.txt")
    assert resolve_inside(root, "inner/page.md") == (root / "pages" / "a" / "page.md").resolve()


def test_root_itself_behind_a_symlink(root: Path, tmp_path: Path) -> None:
    os.symlink(root, tmp_path / "alias")
    assert resolve_inside(tmp_path / "alias", "pages/a/page.md") == (root / "pages" / "a" / "page.md").resolve()


@pytest.mark.parametrize(
    ("link", "expected"),
    [("img/a.png", "img/a.png"), ("img/a%20b.png", "img/a b.png"), ("https://x.org/a.png", None), ("#/page", None),
     ("data:image/png;base64,AA", None), ("file:///etc/passwd", "file:///etc/passwd"), ("C:/x.png", "C:/x.png"),
     ("trackio-local-path://out/x.csv", None), ("mailto:a@b.c", None)],
)  # fmt: skip
def test_local_reference(link: str, expected: str | None) -> None:
    assert local_reference(link) == expected


def test_read_capped_refuses_large_files_without_reading_them(tmp_path: Path) -> None:
    big = tmp_path / "big.bin"
    with big.open("wb") as handle:
        handle.truncate(300 * 1024 * 1024)  # sparse: reading it would cost 300 MB
    with pytest.raises(UnsafeReference, match="over the 1,024-byte limit"):
        read_capped(big, 1024)
    small = tmp_path / "small.bin"
    small.write_bytes(b"abc")
    assert read_capped(small, 1024) == b"abc"


def test_read_capped_refuses_devices_fifos_and_folders(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for path in (fifo, Path("/dev/zero"), tmp_path):
        with pytest.raises(UnsafeReference, match="not a regular file"):
            read_capped(path, 1024)
