"""A hostile logbook rendered in the real window: no network request, no read outside the logbook root, no read
or decode over the byte and pixel caps, no script run, and links followed only when clicked.

Access is observed from outside the code under test: inotify sees every open (Qt's C++ file reads included), a
FIFO trap reports any attempt to read it, Python audit events show every Python-level open and socket connect,
and a loopback HTTP server counts requests. A control test shows the same detectors catch Qt's default reader.
"""

from __future__ import annotations

import base64
import io
import os
import struct
import sys
import zlib
from dataclasses import dataclass
from pathlib import Path

import pytest
from PIL import Image
from PySide6.QtCore import QObject, QPoint, Qt, QUrl, Slot
from PySide6.QtGui import QDesktopServices, QTextDocument
from PySide6.QtWidgets import QApplication, QTextBrowser, QToolTip
from pytestqt.qtbot import QtBot

from reviewapp.core.io.paths import user_data_dir
from reviewapp.core.io.untrusted_images import MAX_IMAGE_BYTES, MAX_IMAGE_PIXELS
from reviewapp.core.logbook.writer import LogbookDraft
from reviewapp.qt.safe_browser import MARKDOWN_FEATURES, SafeBrowser
from reviewapp.qt.widgets.cell_cards import ArtifactCard, MarkdownCard
from reviewapp.qt.widgets.figure_card import FigureCard
from tests.qt.conftest import QT_NOISE, OpenWindow, Screenshots, wait_idle
from tests.qt.file_access import CountingServer, FifoTrap, InotifyWatch, audit_events, opened_paths

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="file access is observed with inotify")


def png(width: int, height: int) -> bytes:
    """A valid 1-bit PNG of any declared size, streamed so that 20000x20000 costs ~50 KB and no big allocation."""
    row = b"\0" + b"\0" * ((width + 7) // 8)
    compressor = zlib.compressobj(9)
    data = b"".join(compressor.compress(row) for _ in range(height)) + compressor.flush()

    def chunk(kind: bytes, payload: bytes) -> bytes:
        return struct.pack(">I", len(payload)) + kind + payload + struct.pack(">I", zlib.crc32(kind + payload))

    header = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", data) + chunk(b"IEND", b"")


def small_png(color: str = "red") -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (40, 30), color).save(buffer, format="PNG")
    return buffer.getvalue()


@dataclass
class Hostile:
    workspace: Path
    root: Path
    outside: Path
    server: CountingServer
    fifo: FifoTrap
    plotly_html: str
    refs: dict[str, str]  # label -> image reference as written in the page
    markup: str  # HTML put into titles and names


def build_hostile(tmp_path: Path, server: CountingServer) -> Hostile:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.png").write_bytes(small_png("black"))
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / "secret.png").write_bytes(small_png("black"))  # outside the logbook root, inside the workspace
    markup = f'<b>bold</b><img src="{outside / "secret.png"}">'  # in titles: would load a file if taken as HTML
    draft = LogbookDraft("Hostile logbook", metadata={"tags": ["test"]})
    page = draft.page(f"Claim 1: Hostile content stays contained {markup}", slug="claim-1-hostile")
    refs = {
        "loopback": server.url("/x.png"),
        "remote": "https://example.com/a.png",
        "parent": "../../secret.png",
        "far parent": "../../../outside/secret.png",
        "absolute": "/etc/passwd",
        "absolute outside": str(outside / "secret.png"),
        "file url": "file:///etc/hostname",
        "file url outside": (outside / "secret.png").as_uri(),
        "symlink out": "escape.png",
        "device": "zero.png",
        "fifo": "pipe.png",
        "huge": "big.png",
        "bomb": "bomb.png",
        "over pixel cap": "wide.png",
        "data bomb": "data:image/png;base64," + base64.b64encode(png(20000, 20000)).decode(),
        "fine": "ok.png",
    }
    images = "\n\n".join(f"![{label}]({ref})" for label, ref in refs.items())
    links = (
        "[web link](https://example.com/page) · [file link](file:///etc/passwd) · "
        f'[escape link](../../../outside/secret.png) · <img src="{outside / "secret.png"}">'
    )
    page.markdown(f"Images of every kind:\n\n{images}\n\nLinks: {links}", title=f"Hostile markdown {markup}")
    page.figure_html(
        f'<img src="{server.url("/fig.png")}"><script>fetch("{server.url("/beacon")}")</script>', "Scripted figure"
    )
    plotly_html = (
        f'<!DOCTYPE html><html><head><script src="{server.url("/plotly.min.js")}"></script></head><body>'
        '<div id="plot"></div><script>Plotly.newPlot("plot", [{x: [1, 2], y: [3, 4]}]);</script></body></html>'
    )
    page.figure_html(plotly_html, "Plotly page", raw="x,y\n1,3\n2,4\n3,5")
    page.raw_cell(
        {"type": "artifact", "path": "../../../outside/secret.png", "size": 1234, "artifact_type": markup},
        "**Output** `../../../outside/secret.png`\n\ntrackio-local-path://../../../outside/secret.png",
    )
    root = draft.write(workspace)
    (root / "ok.png").write_bytes(small_png("green"))
    (root / "escape.png").symlink_to(outside / "secret.png")
    (root / "zero.png").symlink_to("/dev/zero")
    with (root / "big.png").open("wb") as handle:
        handle.truncate(300 * 1024 * 1024)  # sparse: 300 MB declared, nothing on disk
    (root / "bomb.png").write_bytes(png(20000, 20000))
    (root / "wide.png").write_bytes(png(6000, 5000))  # 30 MP: under Pillow's own limit, over ours
    fifo = FifoTrap(root / "pipe.png", tmp_path / "trap")
    return Hostile(workspace, root, outside, server, fifo, plotly_html, refs, markup)


class UrlRecorder(QObject):
    """Receives what the window hands to the system (QDesktopServices' own handler mechanism)."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    @Slot(QUrl)
    def handle(self, url: QUrl) -> None:
        self.urls.append(url.toString())


@pytest.fixture
def url_recorder() -> UrlRecorder:
    recorder = UrlRecorder()
    for scheme in ("http", "https", "file", "mailto"):
        QDesktopServices.setUrlHandler(scheme, recorder, "handle")
    yield recorder
    for scheme in ("http", "https", "file", "mailto"):
        QDesktopServices.unsetUrlHandler(scheme)


@pytest.fixture
def hostile(tmp_path: Path) -> Hostile:
    server = CountingServer(small_png())
    built = build_hostile(tmp_path, server)
    yield built
    built.fifo.close()
    server.close()


def click_link(qtbot: QtBot, browser: QTextBrowser, href: str) -> None:
    """Click the anchor whose target is `href`, as a user would."""
    block = browser.document().begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fragment = it.fragment()
            if fragment.charFormat().anchorHref() == href:
                cursor = browser.textCursor()
                cursor.setPosition(fragment.position() + 1)
                browser.ensureCursorVisible()
                point = browser.cursorRect(cursor).center()
                qtbot.mouseClick(browser.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(point.x(), point.y()))
                return
            it += 1
        block = block.next()
    raise AssertionError(f"no link to {href}")


@pytest.mark.qt_log_ignore(*QT_NOISE, "This plugin does not support raise")  # offscreen, showing tool tips
def test_hostile_page_is_contained(
    qtbot: QtBot, open_window: OpenWindow, hostile: Hostile, url_recorder: UrlRecorder, screenshots: Screenshots
) -> None:
    watch = InotifyWatch([hostile.outside, hostile.workspace, hostile.root])
    window = open_window(hostile.workspace)
    watch.events()  # loading read the pages; from here on only rendering counts
    with audit_events() as events:
        assert window.select_claim(1)
        wait_idle(qtbot, window)
    # Titles and names with HTML in them, shown in labels and in every tool tip they appear in.
    tips = [window.claim_model.index(0).data(Qt.ItemDataRole.ToolTipRole)]
    tips += [window.page_model.index(1, 0).data(Qt.ItemDataRole.ToolTipRole)]
    tips += [window.artifacts.model.index(0, 0).data(Qt.ItemDataRole.ToolTipRole)]
    for tip in tips:
        assert "&lt;img" in tip
        QToolTip.showText(window.mapToGlobal(QPoint(200, 200)), tip, window)
        QApplication.processEvents()
    QToolTip.hideText()
    seen = watch.events()
    watch.close()
    screenshots.take(window, "10-hostile-page")

    # No network: the loopback server saw nothing, and nothing in Python tried to connect or resolve.
    assert hostile.server.requests == []
    assert [e for e in events if e[0] != "open"] == []
    # Nothing outside the root was opened, by Python or by Qt; the oversized file and the FIFO were never opened.
    real_root = hostile.root.resolve()
    assert [p for p in opened_paths(events) if not p.resolve().is_relative_to(real_root)] == []
    assert not any(p.is_relative_to(hostile.outside) for p in seen), seen
    assert hostile.workspace / "secret.png" not in seen
    assert hostile.root / "big.png" not in seen
    assert not hostile.fifo.opened()

    [markdown] = [c for c in window.evidence.cards if isinstance(c, MarkdownCard)]
    assert markdown.title.text() == f"Hostile markdown {hostile.markup}"  # shown as written
    assert '<img src="' in window.evidence.header.title.text()
    refused, shown = markdown.view.refused, markdown.view.shown_images
    reasons = {label: refused.get(ref) or refused.get(QUrl(ref).toString()) for label, ref in hostile.refs.items()}
    assert shown == {"ok.png": (40, 30)}
    assert "no network" in reasons["loopback"] and "no network" in reasons["remote"]
    for label in ("parent", "far parent", "symlink out", "device"):
        assert "leads outside" in reasons[label], label
    for label in ("absolute", "absolute outside"):
        assert "absolute path" in reasons[label], label
    for label in ("file url", "file url outside"):
        assert "file URL" in reasons[label], label
    assert reasons["fifo"] == "not a regular file"
    assert f"over the {MAX_IMAGE_BYTES:,}-byte limit" in reasons["huge"]
    assert "too many pixels" in reasons["bomb"] and "too many pixels" in reasons["data bomb"]
    assert reasons["over pixel cap"] == f"image is 6000x5000 pixels, over the {MAX_IMAGE_PIXELS:,}-pixel limit"
    # Raw HTML in markdown is shown as text, not turned into an image.
    assert "<img src=" in markdown.view.toPlainText()

    scripted, plotly = (c for c in window.evidence.cards if isinstance(c, FigureCard))
    assert scripted.notice is not None and "scripts are not run" in scripted.notice.text()
    assert plotly.notice is not None and "127.0.0.1" in plotly.notice.text()
    assert plotly.raw is not None and plotly.raw.table is not None
    assert plotly.raw.table.columns == ["x", "y"] and len(plotly.raw.table.rows) == 3
    assert not any(name.startswith(("PySide6.QtWebEngine", "PySide6.QtNetwork")) for name in sys.modules)
    [artifact] = [c for c in window.evidence.cards if isinstance(c, ArtifactCard)]
    assert artifact.entry.local_path is None  # a path that leaves the folder is listed, never resolved

    # Links: nothing was handed to the system while rendering; a click on a web link is; a file: link never is.
    assert url_recorder.urls == []
    click_link(qtbot, markdown.view, "file:///etc/passwd")
    click_link(qtbot, markdown.view, "../../../outside/secret.png")
    assert url_recorder.urls == []
    assert "Link not followed" in window.statusBar().currentMessage()
    click_link(qtbot, markdown.view, "https://example.com/page")
    assert url_recorder.urls == ["https://example.com/page"]
    # "Open in browser" is an explicit action that hands over the figure's HTML, unchanged, as a local file.
    assert plotly.open_button is not None
    qtbot.mouseClick(plotly.open_button, Qt.MouseButton.LeftButton)
    opened = Path(QUrl(url_recorder.urls[-1]).toLocalFile())
    assert opened.is_relative_to(user_data_dir()) and opened.read_text(encoding="utf-8") == hostile.plotly_html
    assert hostile.server.requests == []


@pytest.mark.qt_log_ignore(*QT_NOISE, "QFile::at: Cannot set file position")  # Qt's reader seeking in the FIFO
def test_detectors_catch_qts_default_reader(qtbot: QtBot, tmp_path: Path) -> None:
    """Control: a plain QTextBrowser reads the same references, and the detectors above would see it."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.png").write_bytes(small_png("black"))
    fifo = FifoTrap(outside / "pipe.png", tmp_path / "trap")
    watch = InotifyWatch([outside])
    try:
        browser = QTextBrowser()
        qtbot.addWidget(browser)
        text = f"![a]({outside / 'secret.png'}) ![b]({(outside / 'pipe.png').as_uri()})"
        browser.document().setMarkdown(text, QTextDocument.MarkdownFeature(MARKDOWN_FEATURES))
        browser.show()
        qtbot.waitUntil(fifo.opened, timeout=10_000)
        assert outside / "secret.png" in watch.events()
    finally:
        watch.close()
        fifo.close()


def test_safe_browser_never_returns_nothing(qtbot: QtBot, tmp_path: Path) -> None:
    """Returning no data from loadResource makes QTextDocument read the file itself; every answer is data."""
    root = tmp_path / "root"
    root.mkdir()
    browser = SafeBrowser(root)
    qtbot.addWidget(browser)
    for kind in (1, 2, 3, 4, 5):  # HTML, image, style sheet, markdown, user resource
        answer = browser.loadResource(kind, QUrl("/etc/passwd"))
        assert answer is not None
    assert "/etc/passwd" in browser.refused
    assert os.path.exists("/etc/passwd")  # the refusal is about location, not existence
