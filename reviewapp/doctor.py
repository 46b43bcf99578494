"""`reviewapp doctor`: can this machine run reviewapp, and if not, what to do about it.

Each check gives one plain line and, for a problem, the fix. Qt itself is loaded only in a child process
(`reviewapp doctor --probe-platform NAME`), because Qt aborts the whole process when its platform plugin cannot
load. Nothing here uses the network: a Hub token is reported as present or not, never tried.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Literal

from reviewapp import display_check
from reviewapp.about import package_version, versions
from reviewapp.core.io import child_process
from reviewapp.core.io.paths import hub_cache_dir, log_file, user_cache_dir, user_config_dir, user_data_dir
from reviewapp.core.review.secret_scan import known_secrets

Status = Literal["ok", "problem", "note"]
PROBE_TIMEOUT_S = 60
QT_REQUIREMENT = "PySide6-Essentials>=6.8,<6.12"


@dataclass(frozen=True)
class Check:
    name: str
    status: Status
    detail: str
    fix: str = ""

    def to_dict(self) -> dict[str, str]:
        return asdict(self)


Probe = Callable[[str], tuple[bool, str]]
Ldd = Callable[[Path], str | None]


def run_checks(
    env: dict[str, str] | None = None,
    *,
    probe: Probe | None = None,
    ldd: Ldd = display_check.run_ldd,
    child_probe: Callable[[], str | None] = child_process.probe,
) -> list[Check]:
    env = dict(os.environ) if env is None else env
    checks = [_about()]
    qt = _qt_binding()
    checks.append(qt)
    if qt.status == "ok":
        checks += _platform_checks(env, probe or probe_platform, ldd)
    checks.append(_git())
    checks.append(_child_processes(child_probe))
    checks += [
        _writable("Data folder", user_data_dir(), "REVIEWAPP_DATA_DIR"),
        _writable("Log folder", log_file().parent, "REVIEWAPP_DATA_DIR"),
        _writable("Preferences folder", user_config_dir(), "REVIEWAPP_CONFIG_DIR"),
        _writable("Cache folder", user_cache_dir(), "REVIEWAPP_CACHE_DIR"),
        _writable("Hub cache", hub_cache_dir(), "HF_HUB_CACHE"),
    ]
    checks.append(_hub_token(env))
    return checks


def _about() -> Check:
    found = versions()
    return Check(
        "reviewapp",
        "note",
        f"{found['reviewapp']} on Python {found['Python']}, {found['Platform']}; {found['Installed as']}",
    )


def _qt_binding() -> Check:
    version = package_version("PySide6-Essentials") or package_version("PySide6")
    if version is None and getattr(sys, "frozen", False):
        version = "bundled"
    if version is None:
        return Check("PySide6", "problem", "not installed: the window cannot open", f"pip install '{QT_REQUIREMENT}'")
    return Check("PySide6", "ok", version)


def wanted_platform(env: dict[str, str]) -> str:
    """The platform plugin Qt will pick: QT_QPA_PLATFORM's first entry, else the system's own."""
    named = [p.split(":", 1)[0].strip() for p in env.get("QT_QPA_PLATFORM", "").split(";") if p.strip()]
    if named:
        return named[0]
    if sys.platform == "win32":
        return "windows"
    if sys.platform == "darwin":
        return "cocoa"
    return "wayland" if env.get("WAYLAND_DISPLAY") else "xcb"


def _platform_checks(env: dict[str, str], probe: Probe, ldd: Ldd) -> list[Check]:
    checks: list[Check] = []
    platform = tried = wanted_platform(env)
    if sys.platform.startswith("linux") and platform == "xcb":
        libraries = _xcb_libraries(ldd)
        checks.append(libraries)
        no_window = display_check.display_problem(env, ldd=lambda _plugin: None)  # libraries: said above
        if no_window is not None:
            checks.append(Check("Display", "problem", no_window.split(": ", 1)[0], _display_fix(no_window)))
        if libraries.status == "problem" or no_window is not None:
            tried = "offscreen"  # xcb cannot start here; still check that Qt itself loads
    loaded, output = probe(tried)
    untried = f"; '{platform}' not tried until the problems above are fixed" if tried != platform else ""
    if loaded:
        started = output.strip() or "Qt started"
        checks.append(Check("Qt platform plugin", "ok", f"'{tried}' loads ({started}){untried}"))
    else:
        last = [line.strip() for line in output.splitlines() if line.strip()][-3:]
        checks.append(
            Check(
                "Qt platform plugin",
                "problem",
                f"'{tried}' does not load: " + (" / ".join(last) if last else "Qt stopped without a message"),
                "check QT_QPA_PLATFORM and the libraries above; QT_DEBUG_PLUGINS=1 reviewapp doctor shows what Qt "
                "tried",
            )
        )
    return checks


def _display_fix(problem: str) -> str:
    return problem.split(": ", 1)[1] if ": " in problem else "run reviewapp on a graphical desktop"


def _xcb_libraries(ldd: Ldd) -> Check:
    plugin = display_check.qt_plugin("libqxcb.so")
    if plugin is None:
        return Check("X11 libraries", "note", "Qt's xcb plugin not found; nothing to check")
    output = ldd(plugin)
    if output is None:
        return Check("X11 libraries", "note", "ldd is not available; cannot list what Qt's X11 support needs")
    missing = display_check.missing_libraries(output)
    if not missing:
        return Check("X11 libraries", "ok", "every library Qt's X11 support needs is installed")
    packages = " ".join(dict.fromkeys(display_check.package_for(lib) for lib in missing))
    return Check(
        "X11 libraries",
        "problem",
        f"missing {', '.join(missing)}",
        f"Debian/Ubuntu: sudo apt-get install {packages}",
    )


def _child_processes(child_probe: Callable[[], str | None]) -> Check:
    problem = child_probe()
    if problem is None:
        return Check("Child processes", "ok", "start and answer (big traces are read in one)")
    return Check(
        "Child processes",
        "note",
        f"cannot be used: {problem}; big traces are read in the window's own process, which then responds slower",
        "check that nothing (a sandbox, a security policy) stops reviewapp from starting itself again",
    )


def _git() -> Check:
    git = shutil.which("git")
    if git is None:
        return Check(
            "git",
            "problem",
            "not found: reviews cannot be committed to a git repository (reviewing and the Hub still work)",
            "install git (Debian/Ubuntu: sudo apt-get install git; macOS: xcode-select --install)",
        )
    try:
        done = subprocess.run([git, "--version"], capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.SubprocessError) as exc:
        return Check("git", "problem", f"{git} does not run: {exc}", "reinstall git")
    if done.returncode != 0:
        return Check("git", "problem", f"{git} --version failed: {done.stderr.strip()}", "reinstall git")
    return Check("git", "ok", done.stdout.strip())


def _writable(name: str, folder: Path, variable: str) -> Check:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".doctor-", delete=True) as handle:
            handle.write(b"ok")
            handle.flush()
    except OSError as exc:
        return Check(
            name,
            "problem",
            f"{folder} is not writable ({exc.strerror or exc})",
            f"make it writable (chmod u+w), or set {variable} to a folder you can write",
        )
    return Check(name, "ok", f"{folder} is writable")


def _hub_token(env: dict[str, str]) -> Check:
    offline = " (HF_HUB_OFFLINE is set: only downloaded logbooks open)" if env.get("HF_HUB_OFFLINE") == "1" else ""
    if not known_secrets():
        return Check(
            "Hub token",
            "ok",
            "not logged in: public Spaces and datasets open without one; to commit to the Hub or open private "
            f"ones, run 'hf auth login'{offline}",
        )
    where = "HF_TOKEN" if env.get("HF_TOKEN") or env.get("HUGGING_FACE_HUB_TOKEN") else "the Hugging Face token file"
    return Check(
        "Hub token",
        "ok",
        f"present (from {where}); doctor works offline, so whether the Hub accepts it is not checked{offline}",
    )


def probe_command(platform: str) -> list[str]:
    if getattr(sys, "frozen", False):  # a bundle: the executable is reviewapp itself
        return [sys.executable, "doctor", "--probe-platform", platform]
    return [sys.executable, "-m", "reviewapp", "doctor", "--probe-platform", platform]


def probe_platform(platform: str) -> tuple[bool, str]:
    """Start Qt on `platform` in a child process: (it loaded, what it printed)."""
    env = dict(os.environ, QT_QPA_PLATFORM=platform)
    try:
        done = subprocess.run(
            probe_command(platform), capture_output=True, text=True, timeout=PROBE_TIMEOUT_S, env=env, check=False
        )
    except subprocess.TimeoutExpired:
        return False, f"Qt did not start within {PROBE_TIMEOUT_S} s"
    except OSError as exc:
        return False, str(exc)
    if done.returncode == 0:
        return True, done.stdout
    return False, done.stderr + done.stdout


def problems(checks: Sequence[Check]) -> list[Check]:
    return [c for c in checks if c.status == "problem"]
