"""Build the desktop bundle and prove it runs: the checks CI makes on the shipped artifact.

    pip install -e '.[bundle]'
    python packaging/smoke_test.py [--bundle dist/reviewapp]   # --bundle: test an existing build instead

Started offscreen, outside the checkout and with its own empty data folders, the bundle must print its version,
open the demo and save a screenshot of it, exit 0, read the demo with a headless command, and say nothing about
a missing Qt plugin, a failed import or a traceback; `reviewapp doctor` inside it must load Qt's platform plugin;
the plugins a desktop needs must be there; and the whole folder must stay under the size limit. Prints the size
and start times it measured (the figures packaging/README.md reports). Exit 0 when every check passed, 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import build_bundle  # noqa: E402  (beside this script, not a package)

RUN_TIMEOUT_S = 180
# What a bundle missing a module or plugin prints (Qt's messages, Python's, PyInstaller's bootloader's).
BAD_OUTPUT = re.compile(
    r"Traceback \(most recent call last\)|ModuleNotFoundError|ImportError|No module named|"
    r"Could not load the Qt platform plugin|could not find or load|Cannot load library|"
    r"Failed to execute script|Failed to load|QFactoryLoader|qt\.qpa\.plugin|no Qt platform plugin",
    re.IGNORECASE,
)
# Plugins a desktop session loads though offscreen never does: checked by presence. (Windows and macOS
# names in packaging/README.md.)
LINUX_PLUGINS = (
    "platforms/libqxcb.so",
    "platforms/libqwayland.so",
    "platforms/libqoffscreen.so",
    "platformthemes/libqxdgdesktopportal.so",
    "imageformats/libqjpeg.so",
    "imageformats/libqsvg.so",
    "imageformats/libqgif.so",
    "iconengines/libqsvgicon.so",
    "xcbglintegrations/libqxcb-glx-integration.so",
    "wayland-shell-integration/libxdg-shell.so",
)


class Smoke:
    def __init__(self, bundle: Path, scratch: Path) -> None:
        self.bundle = bundle
        self.scratch = scratch
        self.failures: list[str] = []
        self.passed = 0
        self.figures: dict[str, str] = {}

    def check(self, ok: bool, what: str) -> None:
        sys.stdout.write(f"{'ok  ' if ok else 'FAIL'}  {what}\n")
        if ok:
            self.passed += 1
        else:
            self.failures.append(what)

    def run(self, *args: str) -> tuple[subprocess.CompletedProcess[str], float]:
        env = {
            key: value
            for key, value in os.environ.items()
            if not key.startswith(("PYTHON", "VIRTUAL_ENV", "QT_", "REVIEWAPP_", "HF_", "LD_LIBRARY"))
        }
        env |= {
            "QT_QPA_PLATFORM": "offscreen",
            "REVIEWAPP_DATA_DIR": str(self.scratch / "data"),
            "REVIEWAPP_CONFIG_DIR": str(self.scratch / "config"),
            "REVIEWAPP_CACHE_DIR": str(self.scratch / "cache"),
            "HF_HOME": str(self.scratch / "hf"),
            "HF_HUB_OFFLINE": "1",
        }
        started = time.monotonic()
        done = subprocess.run(
            [str(executable(self.bundle)), *args],
            capture_output=True,
            text=True,
            cwd=self.scratch,
            env=env,
            timeout=RUN_TIMEOUT_S,
            check=False,
        )
        return done, time.monotonic() - started

    def clean_output(self, done: subprocess.CompletedProcess[str], what: str) -> None:
        bad = [line for line in (done.stdout + done.stderr).splitlines() if BAD_OUTPUT.search(line)]
        shown = "".join(f"\n      {line}" for line in bad)
        self.check(not bad, f"{what}: no import error, missing plugin or traceback{shown}")

    def version(self) -> None:
        expected = re.search(r'__version__ = "([^"]+)"', (HERE.parent / "reviewapp" / "__init__.py").read_text())
        done, seconds = self.run("--version")
        wanted = f"reviewapp {expected.group(1) if expected else '?'}"
        self.check(done.returncode == 0 and done.stdout.strip() == wanted, f"--version prints {wanted!r}")
        self.clean_output(done, "--version")
        self.figures["start to --version printed"] = f"{seconds:.2f} s"

    def screenshot(self) -> None:
        for number, attempt in enumerate(("first start (writes the demo)", "second start")):
            shot = self.scratch / f"demo-{number}.png"
            done, seconds = self.run("--screenshot", str(shot))
            self.check(done.returncode == 0, f"demo screenshot, {attempt}: exit {done.returncode}")
            self.clean_output(done, f"demo screenshot, {attempt}")
            self.check(looks_like_the_window(shot), f"demo screenshot, {attempt}: a drawn 1600×1000 window")
            self.figures[f"start to demo screenshot saved, {attempt}"] = f"{seconds:.1f} s"
            if done.returncode != 0:
                sys.stdout.write(done.stdout + done.stderr)
                return

    def headless(self) -> None:
        """A command-line command in the same executable: the demo the window wrote, read without Qt."""
        demo = next((self.scratch / "data").glob("demo-v*"), None)
        if demo is None:
            self.check(False, "inspect: the demo was written to the data folder")
            return
        done, _ = self.run("inspect", str(demo))
        self.check(done.returncode == 0 and "Traces:" in done.stdout, f"inspect the demo: exit {done.returncode}")
        self.clean_output(done, "inspect the demo")

    def doctor(self) -> None:
        done, _ = self.run("doctor", "--format", "json")
        try:
            checks = {c["name"]: c for c in json.loads(done.stdout)["checks"]}
        except (ValueError, KeyError):
            self.check(False, f"doctor --format json printed JSON:\n{done.stdout}{done.stderr}")
            return
        plugin = checks.get("Qt platform plugin", {})
        self.check(plugin.get("status") == "ok", f"doctor: Qt platform plugin loads ({plugin.get('detail')})")
        # the bundle starts itself again for trace indexing: freeze_support must hand that run to the child
        child = checks.get("Child processes", {})
        self.check(child.get("status") == "ok", f"doctor: child processes start ({child.get('detail')})")

    def plugins(self) -> None:
        if not sys.platform.startswith("linux"):
            return
        plugins = next(self.bundle.rglob("PySide6/Qt/plugins"), None)
        missing = [p for p in LINUX_PLUGINS if plugins is None or not (plugins / p).is_file()]
        self.check(not missing, "desktop Qt plugins present" + (f" (missing: {', '.join(missing)})" if missing else ""))
        entry = self.bundle / "share" / "applications" / f"{build_bundle.DESKTOP_ID}.desktop"
        self.check(entry.is_file(), "desktop entry, metainfo and icons in share/")

    def size(self) -> None:
        size_mb = build_bundle.folder_size(self.bundle) / 1e6
        self.figures["bundle size"] = f"{size_mb:.0f} MB"
        self.check(size_mb < build_bundle.SIZE_LIMIT_MB, f"size {size_mb:.0f} MB < {build_bundle.SIZE_LIMIT_MB} MB")


def executable(bundle: Path) -> Path:
    return bundle / ("reviewapp.exe" if sys.platform == "win32" else "reviewapp")


def looks_like_the_window(png: Path) -> bool:
    """A window was drawn: the expected size and more than a handful of colours (a blank grab has one or two)."""
    from PIL import Image

    try:
        with Image.open(png) as image:
            colors = image.convert("RGB").getcolors(maxcolors=1_000_000) or []
            return image.size == (1600, 1000) and len(colors) > 40
    except OSError:
        return False


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bundle", type=Path, help="an existing bundle folder to test (default: build one)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="reviewapp-bundle-") as scratch_name:
        scratch = Path(scratch_name)
        started = time.monotonic()
        if args.bundle is None:
            try:
                bundle = build_bundle.build(scratch / "dist", scratch / "work")
            except subprocess.CalledProcessError as exc:
                sys.stderr.write(f"FAIL  PyInstaller failed (exit {exc.returncode})\n")
                return 1
            build_seconds = time.monotonic() - started
        else:
            bundle, build_seconds = args.bundle.resolve(), None
        home = scratch / "home"
        home.mkdir()
        smoke = Smoke(bundle, home)
        smoke.version()
        smoke.screenshot()
        smoke.headless()
        smoke.doctor()
        smoke.plugins()
        smoke.size()
        if build_seconds is not None:
            smoke.figures["build"] = f"{build_seconds:.0f} s"
        for name, value in smoke.figures.items():
            sys.stdout.write(f"{name}: {value}\n")
        sys.stdout.write(f"bundle: {smoke.passed} passed, {len(smoke.failures)} failed\n")
        return 1 if smoke.failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
