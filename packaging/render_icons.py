"""Render resources/icons/reviewapp.svg to the PNG sizes desktops, the window and the bundle use.

    python packaging/render_icons.py          # write resources/icons/reviewapp-<N>.png
    python packaging/render_icons.py --check  # exit 1 when a committed PNG is missing or no longer matches the SVG

The PNGs are committed (a desktop's icon theme and the bundle's .ico/.icns need bitmaps, and a machine building
the wheel need not render anything); --check keeps them from drifting when the SVG changes.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

ICONS = Path(__file__).resolve().parents[1] / "resources" / "icons"
SVG = ICONS / "reviewapp.svg"
# The hicolor theme's usual sizes; 512 also feeds the macOS .icns, 256 the Windows .ico.
SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
# Mean difference per channel (0-255) tolerated between a committed PNG and a fresh render: antialiasing may
# differ a little between Qt versions, a changed drawing differs by far more.
TOLERANCE = 3.0


def png_path(size: int) -> Path:
    return ICONS / f"reviewapp-{size}.png"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare the committed PNGs with a fresh render")
    args = parser.parse_args(argv)
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtGui import QGuiApplication

    app = QGuiApplication.instance() or QGuiApplication([])
    assert app is not None
    problems = []
    for size in SIZES:
        image = render(size)
        target = png_path(size)
        if args.check:
            problem = compare(image, target, size)
            if problem:
                problems.append(problem)
        elif not image.save(str(target), "PNG"):
            sys.stderr.write(f"error: could not write {target}\n")
            return 3
        else:
            sys.stdout.write(f"wrote {target.relative_to(ICONS.parents[1])}\n")
    for problem in problems:
        sys.stderr.write(problem + "\n")
    if problems:
        sys.stderr.write("run: python packaging/render_icons.py\n")
    return 1 if problems else 0


def render(size: int):  # -> QImage (PySide6 is imported only once main() has set the platform)
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    renderer = QSvgRenderer(str(SVG))
    if not renderer.isValid():
        raise SystemExit(f"error: {SVG} is not a valid SVG")
    image = QImage(size, size, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    renderer.render(painter)
    painter.end()
    return image


def compare(fresh, target: Path, size: int) -> str | None:
    from PySide6.QtGui import QImage

    committed = QImage(str(target))
    if committed.isNull():
        return f"{target.name}: missing or not a PNG"
    if (committed.width(), committed.height()) != (size, size):
        return f"{target.name}: {committed.width()}×{committed.height()}, expected {size}×{size}"
    a = committed.convertToFormat(QImage.Format.Format_ARGB32)
    b = fresh.convertToFormat(QImage.Format.Format_ARGB32)
    total = sum(abs(x - y) for x, y in zip(bytes(a.constBits()), bytes(b.constBits()), strict=True))
    mean = total / (size * size * 4)
    if mean > TOLERANCE:
        return f"{target.name}: differs from {SVG.name} (mean difference {mean:.1f} per channel)"
    return None


if __name__ == "__main__":
    raise SystemExit(main())
