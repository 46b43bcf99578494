"""Blind mode: every place a participant's identity can leak is scrubbed, with a stable pseudonym."""

from __future__ import annotations

from pathlib import Path

from reviewapp.core.logbook.model import TraceEvent
from reviewapp.core.logbook.reader import read_logbook
from reviewapp.core.queue.blind import Blinder, identity_names, pseudonym
from reviewapp.core.queue.blind_logbook import blind_event, blind_logbook, blinder_of, logbook_authors
from tests.support.queue_fixtures import owner_leaks, write_named_logbook

LOGBOOK_ID = "hf:space/ada-lovelace/icml26-repro-flat-minima"


def blinder() -> Blinder:
    names = identity_names(
        LOGBOOK_ID, space_ids=["ada-lovelace/other-space-2"], authors=["Ada Lovelace <ada.l@example.org>"]
    )
    return Blinder.for_logbook(LOGBOOK_ID, names)


def test_the_pseudonym_is_stable_and_differs_between_logbooks() -> None:
    assert pseudonym(LOGBOOK_ID) == pseudonym(LOGBOOK_ID)
    assert pseudonym(LOGBOOK_ID) != pseudonym("hf:space/someone/else")
    assert pseudonym(LOGBOOK_ID).startswith("Participant ")


def test_names_handles_urls_and_home_paths_are_replaced() -> None:
    b = blinder()
    text = (
        "Reproduced by Ada Lovelace (ada_lovelace on the Hub, ada.l@example.org).\n"
        "$ python /home/ada/work/train.py --out C:\\Users\\ada\\runs\n"
        "See https://huggingface.co/spaces/ada-lovelace/icml26-repro-flat-minima and github.com/Ada-Lovelace/x,\n"
        "the Space ada-lovelace-icml26-repro-flat-minima.hf.space, and ada-lovelace/other-space-2."
    )
    out = b.scrub(text)
    for leak in ("Ada", "ada", "Lovelace", "lovelace", "example.org", "flat-minima", "other-space-2"):
        assert leak not in out, (leak, out)
    assert out.count(b.alias) >= 3 and f"/home/{b.slug}/work/train.py" in out
    assert f"C:\\Users\\{b.slug}\\runs" in out


def test_ordinary_words_and_other_peoples_urls_survive() -> None:
    b = blinder()
    text = "The adaptive Lovelaces method; see https://github.com/pytorch/pytorch and /usr/lib/python3."
    assert b.scrub(text) == text  # a name inside a word is kept


def test_a_name_joined_to_other_words_by_a_dash_is_scrubbed() -> None:
    b = blinder()  # a folder named after its owner leaks who it is: over-scrubbing is the safe side
    assert b.scrub("/data/lovelace-repro/pages") == f"/data/{b.alias}-repro/pages"


def test_git_remote_ids_give_the_owner() -> None:
    names = identity_names("git:github.com/grace-hopper/compilers/logbooks/nape")
    assert "grace-hopper" in names and "grace-hopper/compilers" in names
    assert Blinder.for_logbook("x", names).scrub("by grace_hopper") == f"by {pseudonym('x')}"


def test_a_whole_logbook_seeded_with_its_owners_name_is_blinded(tmp_path: Path) -> None:
    owner, full_name, email = "grace-hopper", "Grace Hopper", "ghopper@navy.example"
    root = write_named_logbook(tmp_path / "grace-hopper-repro", owner, full_name, email)
    logbook = read_logbook(root)
    assert logbook_authors(logbook) == [f"{full_name} <{email}>"]
    blinder = blinder_of(logbook)
    shown = blind_logbook(logbook, blinder)
    texts = [shown.title, *(p.title for p in shown.pages), *(p.preamble for p in shown.pages)]
    # every value of the metadata and manifest but `space_id`, kept (never shown) to find Logbook Judge imports
    hint_free = {k: v for k, v in (shown.manifest or {}).items() if k != "space_id"}
    texts += [c.title for c in shown.claims] + [str(shown.metadata.get("paper")), str(hint_free)]
    texts += [f"{c.title} {c.body} {c.header}" for p in shown.pages for c in p.cells]
    texts += [m.text for c in shown.claims for m in ([c.verdict_mention] if c.verdict_mention else [])]
    texts += [m.text for c in shown.claims for m in [*c.considered, *c.candidates, *c.other_mentions]]
    everything = "\n".join(texts)
    for leak in owner_leaks(owner, full_name, email):
        assert leak.lower() not in everything.lower(), leak
    assert blinder.alias in shown.title and f"/home/{blinder.slug}/work/check_1.py" in everything
    # what the program needs is kept: the folder, the id the records are filed under, the Space id hint
    assert shown.root == logbook.root and shown.logbook_id == logbook.logbook_id
    assert shown.space_id == logbook.space_id
    assert [c.key for c in shown.claims] == [c.key for c in logbook.claims]
    assert [c.verdict for c in shown.claims] == [c.verdict for c in logbook.claims]
    assert owner in logbook.title.lower() or full_name in logbook.title  # the original is untouched


def test_the_judges_own_commits_do_not_count_as_the_participants(tmp_path: Path) -> None:
    root = write_named_logbook(tmp_path / "repro", "ada-l", "Ada Lovelace", "ada@example.org")
    logbook = read_logbook(root)
    assert logbook_authors(logbook, exclude=("Ada Lovelace",)) == []
    assert (
        logbook_authors(read_logbook(write_named_logbook(tmp_path / "plain", "x-y", "Xa Ya", "x@y.z", git=False))) == []
    )


def test_a_trace_event_is_blinded_field_by_field() -> None:
    b = blinder()
    event = TraceEvent(3, "tool_call", "ls /home/ada", "by Ada Lovelace", input="cd /home/ada", output="ada-lovelace")
    shown = blind_event(event, b)
    assert "ada" not in f"{shown.title}{shown.text}{shown.input}{shown.output}".lower()
    assert shown.sequence == 3 and shown.kind == "tool_call"


def test_every_candidate_of_a_claim_is_blinded(tmp_path: Path) -> None:
    """Candidates are shown in passing too (inspect, the evidence header): their sentences are scrubbed as well."""
    owner, full_name, email = "grace-hopper", "Grace Hopper", "ghopper@navy.example"
    root = write_named_logbook(tmp_path / "grace-hopper-repro", owner, full_name, email)
    page = next((root / "pages").glob("claim-1-*/page.md"))
    page.write_text(page.read_text(encoding="utf-8") + f"\n\n{full_name} reran it; the rerun confirms the bound.\n")
    logbook = read_logbook(root)
    assert any(full_name in m.text for c in logbook.claims for m in c.considered)  # the leak the test guards
    shown = blind_logbook(logbook, blinder_of(logbook))
    texts = "\n".join(m.text for c in shown.claims for m in [*c.considered, *c.candidates, *c.other_mentions])
    for leak in owner_leaks(owner, full_name, email):
        assert leak.lower() not in texts.lower(), leak
