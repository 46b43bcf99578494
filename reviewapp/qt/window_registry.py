"""Every window the app has, by name: how to open it on what a command asked for, and when it is ready to be seen.

The command line opens (or screenshots) a window through this table only, so a new window is reachable from the
CLI, by `--screenshot` and by the look test once it is in the table (`register_window`; the app's own are listed by
`window_factories.builtin_windows`, read on first use so that naming a window imports no widget).
A factory opens its window on the request and returns it with a readiness check; one that needs another window
first (a dialog of the queue, say) waits for it with `running.wait`, which runs the event loop.
"""

from __future__ import annotations

from reviewapp.qt.window_kinds import WindowFactory, WindowKind

WINDOWS: dict[str, WindowKind] = {}
_builtin: list[bool] = []  # the app's own windows are added on first use (importing them imports Qt widgets)


def register_window(name: str, command: str, factory: WindowFactory) -> None:
    WINDOWS[name] = WindowKind(name, command, factory)


def window_named(name: str) -> WindowKind:
    _register_builtin()
    return WINDOWS[name]


def window_names() -> list[str]:
    _register_builtin()
    return list(WINDOWS)


def _register_builtin() -> None:
    if _builtin:
        return
    _builtin.append(True)
    from reviewapp.qt.window_factories import builtin_windows

    for kind in builtin_windows():
        WINDOWS.setdefault(kind.name, kind)
