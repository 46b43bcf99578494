"""Can this machine open a window? Checked before a QApplication exists, because Qt aborts the process (a core
dump, exit 134) when its platform plugin cannot load or reach a display, and its own hint can blame a library
that is installed.

Qt-free on purpose: `reviewapp` and `reviewapp doctor` both ask before loading any Qt library.

    problem = display_problem()      # None when a window can be opened, else one sentence
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import socket
import subprocess
import sys
from collections.abc import Callable, Mapping
from pathlib import Path

HEADLESS_PLATFORMS = {"offscreen", "minimal", "vnc", "linuxfb", "eglfs", "minimalegl", "vkkhrdisplay"}
LDD_TIMEOUT_S = 10

# Debian/Ubuntu package of each library the xcb platform plugin loads (ldd on libqxcb.so); the rule in
# `package_for` covers the rest.
_PACKAGES = {
    "libEGL.so.1": "libegl1",
    "libGL.so.1": "libgl1",
    "libX11.so.6": "libx11-6",
    "libX11-xcb.so.1": "libx11-xcb1",
    "libglib-2.0.so.0": "libglib2.0-0",
    "libgthread-2.0.so.0": "libglib2.0-0",
    "libdbus-1.so.3": "libdbus-1-3",
    "libfreetype.so.6": "libfreetype6",
}
_SONAME = re.compile(r"^(lib.+?)\.so\.(\d+)")
_NOT_FOUND = re.compile(r"^\s*(\S+)\s+=>\s+not found", re.MULTILINE)


def package_for(soname: str) -> str:
    """The Debian package that ships a library: libxcb-icccm.so.4 -> libxcb-icccm4, libxkbcommon-x11.so.0 ->
    libxkbcommon-x11-0."""
    if soname in _PACKAGES:
        return _PACKAGES[soname]
    match = _SONAME.match(soname)
    if not match:
        return soname
    name, version = match.group(1).lower(), match.group(2)
    return f"{name}-{version}" if name[-1].isdigit() else f"{name}{version}"


def missing_libraries(ldd_output: str) -> list[str]:
    """The libraries ldd could not find, once each, in the order it named them."""
    return list(dict.fromkeys(_NOT_FOUND.findall(ldd_output)))


def qt_plugin(name: str) -> Path | None:
    """A platform plugin of the installed PySide6, found without importing it (importing loads Qt)."""
    spec = importlib.util.find_spec("PySide6")
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        for candidate in (Path(folder) / "Qt" / "plugins" / "platforms" / name, Path(folder) / "plugins" / name):
            if candidate.is_file():
                return candidate
    return None


def run_ldd(library: Path) -> str | None:
    ldd = shutil.which("ldd")
    if ldd is None:
        return None
    try:
        done = subprocess.run([ldd, str(library)], capture_output=True, text=True, timeout=LDD_TIMEOUT_S, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout


def x_display_reachable(display: str) -> bool:
    """Something listens where DISPLAY points (":0" is the local socket, "host:0" TCP port 6000)."""
    match = re.fullmatch(r"(?:unix)?(?P<host>[^:]*):(?P<number>\d+)(?:\.\d+)?", display)
    if not match:
        return False
    host, number = match.group("host"), int(match.group("number"))
    if host and host != "unix":
        try:
            with socket.create_connection((host, 6000 + number), timeout=1):
                return True
        except OSError:
            return False
    path = f"/tmp/.X11-unix/X{number}"
    for address in (path, "\0" + path):  # the file, then Linux's abstract socket of the same name
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(1)
            try:
                sock.connect(address)
                return True
            except OSError:
                continue
    return False


def display_problem(
    env: Mapping[str, str] | None = None,
    *,
    platform: str | None = None,
    ldd: Callable[[Path], str | None] = run_ldd,
    reachable: Callable[[str], bool] = x_display_reachable,
) -> str | None:
    """None when Qt can open a window here; else what is missing, as one sentence (with the fix)."""
    env = os.environ if env is None else env
    platform = platform or sys.platform
    if not platform.startswith("linux"):
        return None  # Windows and macOS always have their window system
    wanted = [p.split(":", 1)[0].strip() for p in env.get("QT_QPA_PLATFORM", "").split(";") if p.strip()]
    if any(p in HEADLESS_PLATFORMS for p in wanted):
        return None
    if env.get("WAYLAND_DISPLAY") and (not wanted or "wayland" in wanted):
        return None
    if wanted and "xcb" not in wanted:
        return None  # a platform we do not know how to check: let Qt try
    display = env.get("DISPLAY", "")
    if not display:
        return (
            "no display to open a window on (DISPLAY is not set): run reviewapp on a graphical desktop, under "
            "xvfb-run, or with --screenshot OUT.png to render offscreen"
        )
    plugin = qt_plugin("libqxcb.so")
    if plugin is not None:
        output = ldd(plugin)
        missing = missing_libraries(output) if output else []
        if missing:
            packages = " ".join(dict.fromkeys(package_for(lib) for lib in missing))
            return (
                f"Qt's X11 support cannot load {', '.join(missing)}: install them "
                f"(Debian/Ubuntu: sudo apt-get install {packages})"
            )
    if not reachable(display):
        return f"no X server answers at DISPLAY={display}: check that the display is running and reachable"
    return None
