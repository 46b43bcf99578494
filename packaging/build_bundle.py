"""Build the one-folder desktop bundle with PyInstaller: dist/reviewapp/ (dist/reviewapp.app on macOS).

    pip install -e '.[bundle]'
    python packaging/build_bundle.py [--dist DIR] [--work DIR]
    python packaging/build_bundle.py --desktop-files ~/.local/share   # menu entry for a pip-installed reviewapp

On Linux the bundle also gets a share/ folder laid out like a prefix: the desktop entry, the AppStream metainfo
and the icon in every rendered size, ready to copy into ~/.local/share (see packaging/README.md). The build fails
when the bundle outgrows SIZE_LIMIT_MB.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SPEC = ROOT / "packaging" / "reviewapp.spec"
LINUX = ROOT / "packaging" / "linux"
ICONS = ROOT / "resources" / "icons"
# The same id as reviewapp.about.DESKTOP_ID (tests/test_packaging.py keeps them equal); not imported, so that the
# script runs before the package is importable.
DESKTOP_ID = "io.github.reviewapp.reviewapp"
SIZE_LIMIT_MB = 240  # numpy (with its OpenBLAS) and matplotlib, which draw the figures, add about 50 MB


def build(dist: Path, work: Path) -> Path:
    """Run PyInstaller on the spec; returns the bundle folder."""
    command = [
        sys.executable,
        "-m",
        "PyInstaller",
        "--noconfirm",
        "--clean",
        "--log-level=WARN",
        "--distpath",
        str(dist),
        "--workpath",
        str(work),
        str(SPEC),
    ]
    subprocess.run(command, check=True, cwd=ROOT)
    bundle = dist / "reviewapp"
    if sys.platform.startswith("linux"):
        install_desktop_files(bundle / "share")
    return bundle


def install_desktop_files(share: Path) -> list[Path]:
    """Lay out the desktop entry, metainfo and icons under `share` as a desktop expects them in <prefix>/share."""
    placed = [
        _copy(LINUX / f"{DESKTOP_ID}.desktop", share / "applications" / f"{DESKTOP_ID}.desktop"),
        _copy(LINUX / f"{DESKTOP_ID}.metainfo.xml", share / "metainfo" / f"{DESKTOP_ID}.metainfo.xml"),
        _copy(ICONS / "reviewapp.svg", share / "icons" / "hicolor" / "scalable" / "apps" / f"{DESKTOP_ID}.svg"),
    ]
    for png in sorted(ICONS.glob("reviewapp-*.png")):
        size = png.stem.rsplit("-", 1)[1]
        placed.append(_copy(png, share / "icons" / "hicolor" / f"{size}x{size}" / "apps" / f"{DESKTOP_ID}.png"))
    return placed


def _copy(source: Path, target: Path) -> Path:
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, target)
    return target


def folder_size(folder: Path) -> int:
    """Bytes of every file in `folder` (links counted once, as the link)."""
    return sum(p.lstat().st_size for p in folder.rglob("*") if p.is_file() or p.is_symlink())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dist", type=Path, default=ROOT / "dist", help="where the bundle goes (default: dist/)")
    parser.add_argument(
        "--work", type=Path, default=ROOT / "build" / "bundle", help="PyInstaller's work folder (build/bundle/)"
    )
    parser.add_argument(
        "--desktop-files",
        type=Path,
        metavar="SHARE",
        help="only install the desktop entry, metainfo and icons into SHARE (e.g. ~/.local/share) and stop",
    )
    args = parser.parse_args(argv)
    if args.desktop_files is not None:
        for placed in install_desktop_files(args.desktop_files.expanduser()):
            sys.stdout.write(f"installed {placed}\n")
        return 0
    started = time.monotonic()
    try:
        bundle = build(args.dist.resolve(), args.work.resolve())
    except subprocess.CalledProcessError as exc:
        sys.stderr.write(f"error: PyInstaller failed (exit {exc.returncode}); its messages are above\n")
        return 1
    size_mb = folder_size(bundle) / 1e6
    sys.stdout.write(
        f"bundle: {bundle}\nsize: {size_mb:.0f} MB (limit {SIZE_LIMIT_MB} MB)\n"
        f"built in {time.monotonic() - started:.0f} s\n"
    )
    if size_mb > SIZE_LIMIT_MB:
        sys.stderr.write(f"error: the bundle is {size_mb:.0f} MB, over the {SIZE_LIMIT_MB} MB limit\n")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
