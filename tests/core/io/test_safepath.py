"""References from untrusted content resolve only inside their root."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from reviewapp.core.io.safepath import (
    CannotOpen,
    FileTooLarge,
    UnsafeReference,
    local_reference,
    open_capped,
    read_capped,
    read_open,
    read_tail,
    resolve_inside,
    why_unreadable,
)


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


def test_a_refused_size_says_the_size_and_the_cap(tmp_path: Path) -> None:
    big = tmp_path / "big.bin"
    big.write_bytes(b"x" * 2000)
    with pytest.raises(FileTooLarge) as refused:
        open_capped(big, 1024)
    assert (refused.value.size, refused.value.limit) == (2000, 1024)
    assert str(refused.value) == "file is 2,000 bytes, over the 1,024-byte limit"


def test_a_missing_file_says_why_in_the_systems_words(tmp_path: Path) -> None:
    with pytest.raises(CannotOpen) as refused:
        read_capped(tmp_path / "absent.txt", 1024)
    assert why_unreadable(refused.value) == os.strerror(2)
    assert str(refused.value) == f"cannot read: {os.strerror(2)}"
    assert why_unreadable(UnsafeReference("not a regular file")) == "not a regular file"


def test_read_open_reads_from_the_start_wherever_the_descriptor_stands(tmp_path: Path) -> None:
    path = tmp_path / "records.jsonl"
    path.write_bytes(b"one\ntwo\n")
    fd = os.open(path, os.O_RDWR | os.O_APPEND)
    try:
        os.write(fd, b"three\n")  # the descriptor now stands at the end
        assert read_open(fd, 1024) == b"one\ntwo\nthree\n"
        with pytest.raises(FileTooLarge, match="over the 10-byte limit"):
            read_open(fd, 10)
    finally:
        os.close(fd)


def test_read_tail_reads_only_the_end_of_a_regular_file(tmp_path: Path) -> None:
    log = tmp_path / "app.log"
    log.write_bytes(b"a" * 5000 + b"the end\n")
    assert read_tail(log, 8) == b"the end\n"
    assert read_tail(log, 1 << 20) == log.read_bytes()
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(UnsafeReference, match="not a regular file"):
        read_tail(fifo, 1024)
