"""With no usable display, `reviewapp` says so in one line and exits 1 instead of letting Qt dump core."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from reviewapp.display_check import display_problem, missing_libraries, package_for, qt_plugin
from tests.core.annotation_helpers import subprocess_env

LDD_OUTPUT = """\
\tlinux-vdso.so.1 (0x00007ffd)
\tlibxcb-cursor.so.0 => /lib/x86_64-linux-gnu/libxcb-cursor.so.0 (0x00007f1)
\tlibxcb-icccm.so.4 => not found
\tlibxcb-keysyms.so.1 => not found
\tlibxkbcommon-x11.so.0 => not found
\tlibxcb-icccm.so.4 => not found
"""


def test_missing_libraries_are_named_with_their_packages() -> None:
    assert missing_libraries(LDD_OUTPUT) == ["libxcb-icccm.so.4", "libxcb-keysyms.so.1", "libxkbcommon-x11.so.0"]
    assert [package_for(lib) for lib in missing_libraries(LDD_OUTPUT)] == [
        "libxcb-icccm4",
        "libxcb-keysyms1",
        "libxkbcommon-x11-0",
    ]
    assert package_for("libEGL.so.1") == "libegl1" and package_for("libxcb-cursor.so.0") == "libxcb-cursor0"


def test_display_problem_checks_display_libraries_and_server() -> None:
    x11 = {"DISPLAY": ":7"}
    assert display_problem({}, platform="win32") is None
    assert display_problem({"QT_QPA_PLATFORM": "offscreen"}, platform="linux") is None
    assert "DISPLAY is not set" in (display_problem({}, platform="linux") or "")
    if qt_plugin("libqxcb.so") is not None:
        problem = display_problem(x11, platform="linux", ldd=lambda _p: LDD_OUTPUT, reachable=lambda _d: True)
        assert problem is not None and "sudo apt-get install libxcb-icccm4 libxcb-keysyms1" in problem
        assert "libxcb-cursor0" not in problem  # installed: never blamed
    ok = display_problem(x11, platform="linux", ldd=lambda _p: "", reachable=lambda _d: True)
    assert ok is None
    gone = display_problem(x11, platform="linux", ldd=lambda _p: "", reachable=lambda _d: False)
    assert gone is not None and "DISPLAY=:7" in gone


def test_real_libraries_are_checked_with_ldd() -> None:
    plugin = qt_plugin("libqxcb.so")
    if plugin is None:
        pytest.skip("this PySide6 has no xcb platform plugin")
    from reviewapp.display_check import run_ldd

    output = run_ldd(plugin)
    if output is None:
        pytest.skip("no ldd on this machine")
    assert "libxcb" in output  # the plugin's real dependencies were listed


@pytest.mark.parametrize("display", [None, ":987"])
def test_reviewapp_without_a_display_says_so_in_one_line(tmp_path: Path, display: str | None) -> None:
    env = subprocess_env(tmp_path)
    env.pop("QT_QPA_PLATFORM", None)
    env.pop("WAYLAND_DISPLAY", None)
    env.pop("DISPLAY", None)
    if display is not None:
        env["DISPLAY"] = display
    done = subprocess.run(
        [sys.executable, "-m", "reviewapp"], capture_output=True, text=True, env=env, timeout=60, check=False
    )
    if sys.platform.startswith("linux"):
        assert done.returncode == 1, (done.returncode, done.stderr)
        [line] = done.stderr.strip().splitlines()
        assert line.startswith("error: cannot open the window: ")
        assert ("DISPLAY is not set" in line) if display is None else ("install" in line or display in line)
