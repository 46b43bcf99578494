"""The recent-logbooks list and handing figure HTML to a browser on request."""

from __future__ import annotations

from pathlib import Path

from reviewapp.core.io.paths import user_config_dir, user_data_dir
from reviewapp.core.logbook.figure_export import export_figure_html
from reviewapp.core.logbook.recent import MAX_RECENT, recent_file, recent_logbooks, remember_logbook


def test_recent_list_is_most_recent_first_without_duplicates(tmp_path: Path) -> None:
    folders = [tmp_path / f"lb{i}" for i in range(MAX_RECENT + 3)]
    for folder in folders:
        folder.mkdir()
        remember_logbook(folder)
    remember_logbook(folders[0])
    recent = recent_logbooks()
    assert recent[0] == folders[0].resolve() and len(recent) == MAX_RECENT and len(set(recent)) == MAX_RECENT
    assert recent_file().is_relative_to(user_config_dir())


def test_vanished_folders_and_a_damaged_file_are_tolerated(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    remember_logbook(tmp_path / "a")
    (tmp_path / "a").rmdir()
    assert recent_logbooks() == []
    recent_file().write_bytes(b"\xff{not json")
    assert recent_logbooks() == []
    (tmp_path / "b").mkdir()
    assert remember_logbook(tmp_path / "b") == [(tmp_path / "b").resolve()]


def test_figure_html_is_written_unchanged_once_per_content() -> None:
    html = "<html><script>Plotly.newPlot()</script></html>"
    first = export_figure_html(html)
    assert first.is_relative_to(user_data_dir()) and first.read_text(encoding="utf-8") == html
    assert export_figure_html(html) == first
    assert export_figure_html(html + " ") != first
