"""No import circle anywhere in reviewapp/, and every package of the window has a place in its layers.

The graph is read with `ast` (every import counts: module level, inside functions, under TYPE_CHECKING), so the
check needs nothing beyond the standard library and runs wherever the tests run.
"""

from __future__ import annotations

import ast
import tomllib
from collections.abc import Iterator, Mapping
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "reviewapp"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def all_modules() -> dict[str, Path]:
    return {module_name(path): path for path in PACKAGE.rglob("*.py")}


def imported_names(tree: ast.AST) -> Iterator[str]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.module
            yield from (f"{node.module}.{alias.name}" for alias in node.names)


def import_graph() -> dict[str, set[str]]:
    """Each module of reviewapp and the modules of reviewapp it imports directly."""
    modules = all_modules()
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        graph[name] = {target for target in imported_names(tree) if target in modules and target != name}
    return graph


def circles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan's algorithm, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, targets = work[-1]
            target = next(targets, None)
            if target is not None:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph[target]))))
                elif target in on_stack:
                    low[node] = min(low[node], index[target])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component: list[str] = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_circle_finder_finds_a_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert circles(graph) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_no_import_circle_in_reviewapp() -> None:
    found = circles(import_graph())
    assert found == [], "import circles (break each by moving what both sides need lower):\n" + "\n".join(
        " <-> ".join(component) for component in found
    )


def _window_layers() -> set[str]:
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    (layers,) = [c for c in config["contracts"] if c["type"] == "layers" and c["containers"] == ["reviewapp.qt"]]
    return {name.strip() for layer in layers["layers"] for name in layer.replace(":", "|").split("|")}


def test_every_window_package_has_a_layer() -> None:
    """lint-imports checks only the layers it is told about: a module of qt/ missing from them is unchecked."""
    qt = PACKAGE / "qt"
    present = {p.name for p in qt.iterdir() if (p / "__init__.py").is_file()}
    present |= {p.stem for p in qt.glob("*.py") if p.stem != "__init__"}
    missing = sorted(present - _window_layers())
    assert missing == [], (
        f"reviewapp/qt/{{{', '.join(missing)}}} has no place in the window layers: add it to the layers contract "
        "in pyproject.toml ('Window layers'), above everything it imports"
    )
