"""Blind mode: every place a participant's identity can leak is scrubbed, with a stable pseudonym."""

from __future__ import annotations

from reviewapp.core.queue.blind import Blinder, identity_names, pseudonym

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
    text = "The adaptive lovelace-free method; see https://github.com/pytorch/pytorch and /usr/lib/python3."
    assert b.scrub(text) == text.replace("lovelace-free", "lovelace-free")  # a name inside a word is kept


def test_git_remote_ids_give_the_owner() -> None:
    names = identity_names("git:github.com/grace-hopper/compilers/logbooks/nape")
    assert "grace-hopper" in names and "grace-hopper/compilers" in names
    assert Blinder.for_logbook("x", names).scrub("by grace_hopper") == f"by {pseudonym('x')}"
