"""`reviewapp annotate` and `reviewapp annotations`, in-process for speed and as real subprocesses, plus the
promise that headless commands never import Qt."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from reviewapp.cli import main
from reviewapp.core.logbook.reader import read_logbook
from reviewapp.core.review.preferences import Preferences, load_preferences, save_preferences
from reviewapp.core.review.store import fallback_folder
from tests.core.annotation_helpers import CLAIM_PAGES, small_logbook, subprocess_env

REPO = Path(__file__).resolve().parents[3]


@pytest.fixture(autouse=True)
def no_ambient_identity(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(tmp_path / "gitconfig"))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.delenv("HF_TOKEN", raising=False)


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    return small_logbook(tmp_path)


def annotate(workspace: Path, *extra: str, claim: str = "3", verdict: str = "partial", rationale: str = "proxy only"):
    return main(["annotate", str(workspace), "--claim", claim, "--verdict", verdict, "--rationale", rationale, *extra])


def records(workspace: Path, slug: str = "ada-lovelace") -> list[dict]:
    path = read_logbook(workspace).root / "reviews" / f"{slug}.jsonl"
    return [json.loads(line) for line in path.read_bytes().splitlines()] if path.exists() else []


def test_annotate_prints_the_id_of_the_saved_record(workspace: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = annotate(workspace, "--annotator", "Ada Lovelace", "--remember", "--confidence", "2", "--tag",
                    "scale below paper")  # fmt: skip
    captured = capsys.readouterr()
    out = captured.out.strip()
    assert code == 0
    assert "saved as Ada Lovelace (judge)" in captured.err
    [record] = records(workspace)
    assert out == record["id"]
    assert record["target"]["claim"] == f"{CLAIM_PAGES[3]}#3"
    assert record["payload"] == {"verdict": "partial", "rationale": "proxy only", "confidence": 2,
                                 "tags": ["scale below paper"]}  # fmt: skip
    assert (record["annotator"], record["role"]) == ("Ada Lovelace", "judge")
    assert load_preferences().annotator == "Ada Lovelace"  # remembered: the next call needs no --annotator


def test_annotator_applies_to_that_command_only_unless_remembered(
    workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    save_preferences(Preferences(annotator="Ada Lovelace", role="participant"))
    assert annotate(workspace, "--annotator", "Bob") == 0
    assert "saved as Bob (participant)" in capsys.readouterr().err
    assert load_preferences().annotator == "Ada Lovelace"  # Bob was for that one command
    assert annotate(workspace, claim="1", verdict="verified") == 0
    assert "saved as Ada Lovelace (participant)" in capsys.readouterr().err
    assert [r["annotator"] for r in records(workspace, "bob")] == ["Bob"]
    assert [r["payload"]["verdict"] for r in records(workspace)] == ["verified"]
    assert annotate(workspace, "--remember") == 2
    assert "--remember goes with --annotator" in capsys.readouterr().err


def test_second_verdict_supersedes_and_claim_key_works(workspace: Path, capsys: pytest.CaptureFixture[str]) -> None:
    save_preferences(Preferences(annotator="Ada Lovelace", role="author"))
    assert annotate(workspace) == 0
    assert annotate(workspace, claim=f"{CLAIM_PAGES[3]}#3", verdict="toy", rationale="changed my mind") == 0
    first, second = records(workspace)
    assert second["supersedes"] == first["id"] and second["role"] == "author"
    assert annotate(workspace, "--role", "participant", claim="1", verdict="verified") == 0
    assert records(workspace)[-1]["role"] == "participant"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--claim", "9"], "no claim '9' in this logbook (claims: 1, 2, 3)"),
        (["--verdict", "maybe"], "unknown verdict 'maybe'"),
        (["--verdict", "unstated"], "a reviewer's verdict is one of"),
        (["--rationale", "  "], "rationale"),
    ],
)
def test_bad_input_exits_2_and_saves_nothing(workspace: Path, capsys, args: list[str], message: str) -> None:  # type: ignore[no-untyped-def]
    values = {"--claim": "3", "--verdict": "partial", "--rationale": "r"}
    values.update(dict(zip(args[::2], args[1::2], strict=True)))
    code = main(["annotate", str(workspace), "--annotator", "Ada Lovelace", *[x for kv in values.items() for x in kv]])
    captured = capsys.readouterr()
    assert code == 2 and captured.out == ""
    assert message in captured.err
    assert records(workspace) == []


def test_no_identity_exits_2_and_says_how_to_set_it(workspace: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert annotate(workspace) == 2
    err = capsys.readouterr().err
    assert "--annotator NAME" in err and "git config --global user.name" in err
    assert records(workspace) == []


def test_secret_is_refused_with_kind_and_place(workspace: Path, capsys: pytest.CaptureFixture[str]) -> None:
    token = "gh" + "p_" + "Zx9" * 12
    assert annotate(workspace, "--annotator", "Ada", rationale=f"cloned with {token}") == 2
    err = capsys.readouterr().err
    assert "GitHub token" in err and "rationale" in err and "Remove it" in err and token not in err
    assert records(workspace, "ada") == []


def test_not_a_logbook_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert annotate(tmp_path, "--annotator", "Ada") == 2
    assert "not a logbook" in capsys.readouterr().err
    assert main(["annotations", str(tmp_path)]) == 2


def test_annotations_json_shows_state_and_validates(workspace: Path, capsys: pytest.CaptureFixture[str]) -> None:
    annotate(workspace, "--annotator", "Ada Lovelace", "--tag", "units mismatch")
    capsys.readouterr()
    assert main(["annotations", str(workspace), "--json"]) == 0
    state = json.loads(capsys.readouterr().out)
    assert state["valid"] and state["records"] == 1 and state["problems"] == []
    rows = {row["key"]: row for row in state["claims"]}
    row = rows[f"{CLAIM_PAGES[3]}#3"]
    assert (row["agent_verdict"], row["human_verdict"], row["annotator"]) == ("toy", "partial", "Ada Lovelace")
    assert row["tags"] == ["units mismatch"]
    assert main(["annotations", str(workspace)]) == 0
    text = capsys.readouterr().out
    assert "agent toy · judge — · human partial (Ada Lovelace)" in text


def test_invalid_record_exits_1_naming_file_and_line(workspace: Path, capsys: pytest.CaptureFixture[str]) -> None:
    annotate(workspace, "--annotator", "Ada Lovelace")
    annotate(workspace, "--annotator", "Ada Lovelace", claim="1", verdict="toy")
    path = read_logbook(workspace).root / "reviews" / "ada-lovelace.jsonl"
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(lines[0] + b'{"schema": 1, "kind": "verdict"}\n' + lines[1])
    capsys.readouterr()
    assert main(["annotations", str(workspace), "--json"]) == 1
    captured = capsys.readouterr()
    assert f"{path}:2:" in captured.err
    state = json.loads(captured.out)
    assert not state["valid"] and state["records"] == 2  # the rest still loads
    assert {p["line"] for p in state["problems"] if p["severity"] == "error"} == {2}


def test_torn_last_line_is_a_warning_not_a_failure(workspace: Path, capsys: pytest.CaptureFixture[str]) -> None:
    annotate(workspace, "--annotator", "Ada Lovelace")
    path = read_logbook(workspace).root / "reviews" / "ada-lovelace.jsonl"
    with path.open("ab") as handle:
        handle.write(b'{"schema":1,"id":"01M8PZ')
    capsys.readouterr()
    assert main(["annotations", str(workspace)]) == 0
    err = capsys.readouterr().err
    assert "warning:" in err and "torn last line" in err and ":2:" in err
    assert len(list(path.parent.glob("ada-lovelace.jsonl.torn-*"))) == 1
    assert main(["annotations", str(workspace)]) == 0
    assert capsys.readouterr().err == ""  # set aside once, then clean


def test_export_csv_and_jsonl(workspace: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    annotate(workspace, "--annotator", "Ada Lovelace", "--tag", "units mismatch", "--tag", "scale below paper")
    capsys.readouterr()
    out = tmp_path / "review.csv"
    assert main(["annotations", str(workspace), "--export", "csv", "--out", str(out)]) == 0
    assert capsys.readouterr().out == ""
    text = out.read_text(encoding="utf-8").splitlines()
    assert text[0].startswith("key,n,title,page,origin,agent_verdict") and len(text) == 4
    assert any("units mismatch; scale below paper" in line and "partial" in line for line in text)
    assert main(["annotations", str(workspace), "--export", "jsonl"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["n"] for r in rows] == [1, 2, 3] and rows[2]["human_verdict"] == "partial"
    assert main(["annotations", str(workspace), "--out", str(out)]) == 2


def test_read_only_logbook_uses_the_data_folder(workspace: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = read_logbook(workspace).root
    (root / "reviews").write_text("in the way", encoding="utf-8")
    assert annotate(workspace, "--annotator", "Ada Lovelace") == 0
    record_id = capsys.readouterr().out.strip()
    saved = (fallback_folder(root) / "ada-lovelace.jsonl").read_text(encoding="utf-8")
    assert record_id in saved
    assert main(["annotations", str(workspace), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["records"] == 1


def run_cli(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "reviewapp", *args],
        capture_output=True,
        text=True,
        env=subprocess_env(home),
        cwd=home,
        timeout=60,
        check=False,
    )


def test_end_to_end_in_subprocesses(workspace: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    done = run_cli(home, "annotate", str(workspace), "--claim", "2", "--verdict", "toy", "--rationale", "tiny",
                   "--annotator", "Sub Process", "--confidence", "3")  # fmt: skip
    assert done.returncode == 0, done.stderr
    record_id = done.stdout.strip()
    shown = run_cli(home, "annotations", str(workspace), "--json")
    assert shown.returncode == 0, shown.stderr
    state = json.loads(shown.stdout)
    [row] = [r for r in state["claims"] if r["record_id"] == record_id]
    assert (row["human_verdict"], row["confidence"], row["annotator"]) == ("toy", 3, "Sub Process")
    again = run_cli(home, "annotate", str(workspace), "--claim", "1", "--verdict", "verified", "--rationale", "ok")
    assert again.returncode == 2 and "--annotator NAME" in again.stderr  # the first call's name was for it only
    remembered = run_cli(home, "annotate", str(workspace), "--claim", "1", "--verdict", "verified", "--rationale",
                         "ok", "--annotator", "Sub Process", "--remember", "--role", "author")  # fmt: skip
    assert remembered.returncode == 0 and "saved as Sub Process (author)" in remembered.stderr
    again = run_cli(home, "annotate", str(workspace), "--claim", "1", "--verdict", "verified", "--rationale", "ok")
    assert again.returncode == 0, again.stderr  # remembered by the call with --remember
    assert "saved as Sub Process (judge)" in again.stderr
    (tmp_path / "nobody").mkdir()
    missing = run_cli(tmp_path / "nobody", "annotate", str(workspace), "--claim", "1", "--verdict", "toy",
                      "--rationale", "x")  # fmt: skip
    assert missing.returncode == 2 and "--annotator NAME" in missing.stderr


def test_headless_commands_never_import_qt(workspace: Path, tmp_path: Path) -> None:
    script = (
        "import sys\n"
        "from reviewapp.cli import main\n"
        "extra = ['--annotator', 'Ada', '--claim', '1', '--verdict', 'toy', '--rationale', 'x']\n"
        "codes = [main(sys.argv[1:5] + extra),\n"
        "         main(['annotations', sys.argv[2], '--json']), main(['inspect', sys.argv[2]])]\n"
        "assert codes == [0, 0, 0], codes\n"
        "qt = sorted(m for m in sys.modules if m.startswith(('PySide6', 'shiboken6', 'reviewapp.qt')))\n"
        "print('QT:' + ','.join(qt))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, "annotate", str(workspace), "--role", "judge"],
        capture_output=True,
        text=True,
        env=subprocess_env(tmp_path),
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "QT:"


def test_bad_input_is_explained_in_our_words(workspace: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    empty = run_cli(home, "annotate", str(workspace), "--claim", "1", "--verdict", "toy", "--rationale", "",
                    "--annotator", "Ada")  # fmt: skip
    assert empty.returncode == 2
    assert empty.stderr.strip() == "error: the rationale is empty: say why you chose this verdict"
    tag = run_cli(home, "annotate", str(workspace), "--claim", "1", "--verdict", "toy", "--rationale", "r",
                  "--tag", " ", "--annotator", "Ada")  # fmt: skip
    assert tag.returncode == 2 and "Value error" not in tag.stderr and "tag" in tag.stderr
    assert records(workspace, "ada") == []


def test_blind_takes_the_reviewer_from_the_settings_and_says_so_when_nobody_is_known(
    workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["annotations", str(workspace), "--json", "--blind"]) == 2
    assert "--blind needs the reviewer's name" in capsys.readouterr().err
    save_preferences(Preferences(annotator="Ada Lovelace"))
    assert annotate(workspace, "--annotator", "Ada Lovelace") == 0
    capsys.readouterr()
    assert main(["annotations", str(workspace), "--json", "--blind"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert [row["annotator"] for row in shown["claims"] if row["annotator"]] == ["Ada Lovelace"]
    assert not Path(shown["logbook"]).is_absolute()  # the folder (its name can name the team) is not shown
