"""tests/core mirrors reviewapp/core: a folder of tests per core subpackage, and no test folder without a core
package of its path.

Tests of the core's top-level modules (verdicts, progress) and of the app's own (command line, crash report, doctor)
sit in tests/core itself.
"""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def subpackages(core: Path) -> set[Path]:
    """Every package below the core package, as a path relative to it."""
    return {init.parent.relative_to(core) for init in core.rglob("__init__.py") if init.parent != core}


def folders_with_tests(tests: Path) -> set[Path]:
    """Every folder below the core tests that holds a test module, as a path relative to them."""
    return {module.parent.relative_to(tests) for module in tests.rglob("test_*.py") if module.parent != tests}


def mirror_problems(core: Path, tests: Path) -> list[str]:
    packages = subpackages(core)
    folders = folders_with_tests(tests)
    problems = [f"{tests / folder}: no core subpackage {folder.as_posix()}" for folder in sorted(folders - packages)]
    # a package inside a subpackage (trace/formats) may have its tests in its parent's folder
    required = {package for package in packages if len(package.parts) == 1}
    problems += [f"{core / package}: no test folder {tests / package}" for package in sorted(required - folders)]
    # without an __init__.py, two test modules of one name in different folders would clash on import
    problems += [
        f"{tests / folder}: no __init__.py"
        for folder in sorted(folders)
        if not (tests / folder / "__init__.py").is_file()
    ]
    return problems


def _package(folder: Path) -> Path:
    folder.mkdir(parents=True)
    (folder / "__init__.py").write_text("")
    return folder


def test_the_core_tests_mirror_the_core_subpackages() -> None:
    assert mirror_problems(REPO / "reviewapp" / "core", REPO / "tests" / "core") == []


def test_a_test_folder_without_a_core_subpackage_is_named(tmp_path: Path) -> None:
    core, tests = _package(tmp_path / "core"), _package(tmp_path / "tests")
    _package(core / "logbook")
    (_package(tests / "logbook") / "test_reader.py").write_text("")
    (_package(tests / "misc") / "test_other.py").write_text("")
    assert mirror_problems(core, tests) == [f"{tests / 'misc'}: no core subpackage misc"]


def test_a_core_subpackage_without_tests_is_named(tmp_path: Path) -> None:
    core, tests = _package(tmp_path / "core"), _package(tmp_path / "tests")
    _package(core / "logbook")
    _package(core / "trace")
    (_package(tests / "logbook") / "test_reader.py").write_text("")
    (tests / "test_top_level.py").write_text("")
    # a folder with only helpers in it holds no tests
    (_package(tests / "trace") / "trace_helpers.py").write_text("")
    assert mirror_problems(core, tests) == [f"{core / 'trace'}: no test folder {tests / 'trace'}"]


def test_a_nested_package_may_keep_its_tests_in_its_parents_folder_or_its_own(tmp_path: Path) -> None:
    core, tests = _package(tmp_path / "core"), _package(tmp_path / "tests")
    _package(_package(core / "trace") / "formats")
    (_package(tests / "trace") / "test_readers.py").write_text("")
    assert mirror_problems(core, tests) == []
    (_package(tests / "trace" / "formats") / "test_detect.py").write_text("")
    assert mirror_problems(core, tests) == []
    (_package(tests / "trace" / "other") / "test_x.py").write_text("")
    assert mirror_problems(core, tests) == [f"{tests / 'trace' / 'other'}: no core subpackage trace/other"]


def test_a_test_folder_without_an_init_is_named(tmp_path: Path) -> None:
    core, tests = _package(tmp_path / "core"), _package(tmp_path / "tests")
    _package(core / "queue")
    (tests / "queue").mkdir()
    (tests / "queue" / "test_ranking.py").write_text("")
    assert mirror_problems(core, tests) == [f"{tests / 'queue'}: no __init__.py"]
