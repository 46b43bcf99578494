"""Commit plans: which files, the bytes committed, the message and the readable diff of what changed."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

import pytest

from reviewapp.core.commit.plan import CommitPlan, SecretsFound, build_plan, collect_sources
from reviewapp.core.logbook.reader import read_logbook
from reviewapp.core.review.store import fallback_folder
from tests.core.annotation_helpers import open_review, small_logbook


def _plan(workspace: Path, committed: Mapping[str, bytes] | None = None, *, hub: bool = False) -> CommitPlan:
    """A plan against `committed` (path in repo -> bytes): what a previous commit held."""
    logbook = read_logbook(workspace)
    return build_plan(
        logbook,
        target="hub" if hub else "git",
        prefix="",
        read_base=lambda local: {path: (committed or {}).get(path) for path in local},
        destination="test",
        base_revision="0" * 40,
        keep_remote_lines=hub,
    )


def _committed(plan: CommitPlan) -> dict[str, bytes]:
    return {f.path: f.data for f in plan.files}


def test_only_review_files_are_planned(tmp_path: Path) -> None:
    workspace = small_logbook(tmp_path)
    review = open_review(workspace)
    review.set_verdict(1, "verified", "ok")
    reviews = review.store.folder
    (reviews / "ada-lovelace.jsonl.torn-20260101T000000Z-abc123").write_bytes(b'{"half')
    (reviews / ".ada-lovelace.jsonl.1a2b3c4d.tmp").write_bytes(b"temp")
    (reviews / "notes.txt").write_text("not a review file", encoding="utf-8")
    (reviews / "pairs").mkdir()
    (reviews / "pairs" / "faces-ada.csv").write_text("trial,pair_id\n0,p1\n", encoding="utf-8")
    (reviews / "pairs" / "faces-ada.protocol.json").write_text("{}\n", encoding="utf-8")
    (reviews / "pairs" / ".faces-ada.csv.99.tmp").write_text("temp", encoding="utf-8")
    (reviews / "pairs" / "deeper").mkdir()
    (reviews / "pairs" / "deeper" / "x.csv").write_text("not a result file", encoding="utf-8")
    (reviews / ".hidden").mkdir()
    (reviews / ".hidden" / "x.jsonl").write_text("{}\n", encoding="utf-8")
    outside = tmp_path / "outside.jsonl"
    outside.write_text('{"outside": true}\n', encoding="utf-8")
    os.symlink(outside, reviews / "linked.jsonl")
    open_review(workspace, "Bob", writable=False).set_verdict(2, "toy", "kept aside")  # fallback folder

    sources = collect_sources(read_logbook(workspace).root)

    assert list(sources) == [
        ".gitattributes",
        "SCHEMA.json",
        "ada-lovelace.jsonl",
        "bob.jsonl",
        "pairs/faces-ada.csv",
        "pairs/faces-ada.protocol.json",
    ]
    assert [s.fallback for s in sources[".gitattributes"]] == [False, True]
    assert [s.fallback for s in sources["bob.jsonl"]] == [True]
    plan = _plan(workspace)
    assert [f.path for f in plan.changed_files] == [
        "reviews/ada-lovelace.jsonl",
        "reviews/bob.jsonl",
        "reviews/pairs/faces-ada.csv",
        "reviews/pairs/faces-ada.protocol.json",
        "reviews/.gitattributes",
        "reviews/SCHEMA.json",
    ]
    assert plan.changed_files[2].describe() == "1 row (new file)"


def test_a_record_file_in_both_folders_is_committed_with_every_line(tmp_path: Path) -> None:
    workspace = small_logbook(tmp_path)
    aside = open_review(workspace, writable=False).set_verdict(1, "verified", "aside").id
    in_place = open_review(workspace).set_verdict(2, "toy", "in place").id
    root = read_logbook(workspace).root
    (fallback_folder(root) / "SCHEMA.json").write_text("{}\n", encoding="utf-8")

    plan = _plan(workspace)

    (ada,) = [f for f in plan.files if f.rel == "ada-lovelace.jsonl"]
    assert ada.from_fallback and len(ada.sources) == 2
    text = ada.data.decode()
    assert text.count("\n") == 2 and aside in text and in_place in text
    (schema,) = [f for f in plan.files if f.rel == "SCHEMA.json"]
    assert schema.data == (root / "reviews" / "SCHEMA.json").read_bytes()  # the logbook's copy wins
    assert any("differs" in note and "SCHEMA.json" in note for note in plan.notes)


def test_an_unfinished_last_line_is_never_committed(tmp_path: Path) -> None:
    workspace = small_logbook(tmp_path)
    review = open_review(workspace)
    review.set_verdict(1, "verified", "ok")
    path = review.store.file_for(review.identity.slug)
    complete = path.read_bytes()
    with path.open("ab") as handle:
        handle.write(b'{"schema":1,"id":"half-writ')
    (ada,) = [f for f in _plan(workspace).files if f.rel == "ada-lovelace.jsonl"]
    assert ada.data == complete


def test_message_and_readable_diff_describe_what_changed_since_the_last_commit(tmp_path: Path) -> None:
    workspace = small_logbook(tmp_path)
    review = open_review(workspace)
    review.set_verdict(1, "verified", "first look")
    doomed = review.add_note(review.claim_target(2), "to be removed")
    first = _plan(workspace)
    assert first.message.splitlines()[0] == "Review of claims 1 and 2 by Ada Lovelace: 1 verdict, 1 note"

    review.set_verdict(1, "falsified", "the table does not match")
    review.set_verdict(3, "partial", "draft")
    review.set_verdict(3, "partial", "Only the small model was run.", tags=["scale below paper"])
    review.delete(doomed.id)
    review.add_note(review.cell_target("claim-1-pruning-keeps-accuracy", 1), "epoch 7 looks off")
    review.add_note(review.claim_target(2), "undone before committing")
    review.history.undo()
    plan = _plan(workspace, _committed(first))

    assert plan.message == (
        "Review of claims 1–3 by Ada Lovelace: 2 verdicts, 1 note, 1 removal\n"
        "\n"
        "- Claim 1: verdict falsified (was verified) — the table does not match\n"
        "- Claim 3: verdict partial (was toy) — Only the small model was run. [scale below paper]\n"
        "- Claim 2: note “to be removed” removed\n"
        "- Cell 2 of claim 1: note “epoch 7 looks off”\n"
    )
    assert plan.readable_diff().splitlines() == [
        "reviews/ada-lovelace.jsonl — 7 new records",
        "    Claim 1: verdict falsified (was verified) — the table does not match",
        "    Claim 3: verdict partial (was toy) — Only the small model was run. [scale below paper]",
        "    Claim 2: note “to be removed” removed",
        "    Cell 2 of claim 1: note “epoch 7 looks off”",
    ]
    raw = plan.raw_diff().splitlines()
    assert raw[:2] == ["--- a/reviews/ada-lovelace.jsonl", "+++ b/reviews/ada-lovelace.jsonl"]
    assert raw[2] == "@@ -2,0 +3,7 @@"
    assert len([line for line in raw if line.startswith('+{"schema"')]) == 7


def test_several_reviewers_are_named_and_listed(tmp_path: Path) -> None:
    workspace = small_logbook(tmp_path)
    open_review(workspace, "Ada Lovelace").set_verdict(1, "verified", "agree")
    bob = open_review(workspace, "Bob")
    bob.set_verdict(2, "falsified", "agree with the agent")
    bob.add_note(bob.claim_target(3), "proxy only")

    message = _plan(workspace).message.splitlines()

    assert message[0] == "Review of claims 1–3 by Ada Lovelace and Bob: 2 verdicts, 1 note"
    assert message[2:4] == ["Ada Lovelace: 1 verdict (claim 1)", "Bob: 1 verdict, 1 note (claims 2 and 3)"]
    assert "- Claim 1: verdict verified (agrees with the agent) — agree" in message


def test_files_without_new_records_get_a_plain_message(tmp_path: Path) -> None:
    workspace = small_logbook(tmp_path)
    review = open_review(workspace)
    review.set_verdict(1, "verified", "ok")
    committed = _committed(_plan(workspace))
    (review.store.folder / "pairs").mkdir()
    (review.store.folder / "pairs" / "faces-ada.csv").write_text("trial\n", encoding="utf-8")
    plan = _plan(workspace, committed)
    assert [f.rel for f in plan.changed_files] == ["pairs/faces-ada.csv"]
    assert plan.message == "Update review files (1 file)\n"
    assert _plan(workspace, _committed(plan)).empty
    assert _plan(workspace, _committed(plan)).readable_diff() == "Nothing changed since the last commit."


def test_a_hand_edited_line_shows_in_the_raw_diff_and_invalid_lines_are_noted(tmp_path: Path) -> None:
    workspace = small_logbook(tmp_path)
    review = open_review(workspace)
    review.set_verdict(1, "verified", "original")
    committed = _committed(_plan(workspace))
    path = review.store.file_for(review.identity.slug)
    path.write_bytes(path.read_bytes().replace(b"original", b"reworded") + b'{"not": "a record"}\n')
    plan = _plan(workspace, committed)
    raw = plan.raw_diff()
    assert '-{"schema"' in raw and '+{"schema"' in raw and "reworded" in raw
    assert plan.summary.invalid == ["reviews/ada-lovelace.jsonl:2: missing or invalid 'schema' (a positive integer)"]
    assert any("not a valid record" in note for note in plan.notes)


def test_hub_plans_keep_lines_only_the_remote_has(tmp_path: Path) -> None:
    workspace = small_logbook(tmp_path)
    review = open_review(workspace)
    review.set_verdict(1, "verified", "ok")
    remote_only = b'{"written": "on another machine"}\n'
    local = review.store.file_for(review.identity.slug).read_bytes()
    plan = _plan(workspace, {"reviews/ada-lovelace.jsonl": remote_only}, hub=True)
    (ada,) = [f for f in plan.files if f.rel == "ada-lovelace.jsonl"]
    assert ada.data == remote_only + local


def test_secrets_in_the_bytes_to_commit_are_found_by_file_and_line(tmp_path: Path) -> None:
    workspace = small_logbook(tmp_path)
    review = open_review(workspace)
    review.set_verdict(1, "verified", "ok")
    review.set_verdict(2, "toy", "fine")
    path = review.store.file_for(review.identity.slug)
    path.write_bytes(path.read_bytes().replace(b'"fine"', b'"fine, and my key is AKIAABCDEFGHIJKLMNOP"'))
    plan = _plan(workspace)
    with pytest.raises(SecretsFound, match=r"reviews/ada-lovelace.jsonl line 2: AWS access key id") as found:
        plan.check_secrets(["some-other-token-xyz"])
    assert [(path, f.line) for path, f in found.value.findings] == [("reviews/ada-lovelace.jsonl", 2)]
    assert "AKIAABCDEFGHIJKLMNOP" not in str(found.value)
    path.write_bytes(path.read_bytes().replace(b"AKIAABCDEFGHIJKLMNOP", b"some-other-token-xyz"))
    with pytest.raises(SecretsFound, match=r"line 2: your own access token"):
        _plan(workspace).check_secrets(["some-other-token-xyz"])
    _plan(workspace).check_secrets([])
    with pytest.raises(SecretsFound, match="the commit message line 3: your own access token"):
        _plan(workspace).check_secrets(["some-other-token-xyz"], "Review\n\nsee some-other-token-xyz")
