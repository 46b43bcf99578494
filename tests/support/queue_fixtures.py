"""Generated prize candidates for the judges' queue: logbooks whose pages, URLs, paths and git history name the
participant who made them, so that blind review has something to hide."""

from __future__ import annotations

import subprocess
from pathlib import Path

from reviewapp.core.logbook.writer import LogbookDraft

VERDICTS = ("VERIFIED", "TOY", "FALSIFIED", "INCONCLUSIVE")


def owner_leaks(owner: str, full_name: str, email: str) -> list[str]:
    """Every spelling of the participant that must not be seen in blind review."""
    first, last = full_name.split()
    return [owner, owner.replace("-", "_"), full_name, first, last, email, email.split("@")[0]]


def write_named_logbook(
    folder: Path,
    owner: str,
    full_name: str,
    email: str,
    *,
    claims: int = 3,
    git: bool = True,
) -> Path:
    """A logbook by `owner` (a Hub handle) that names them in its title, pages, run output, URLs and home paths;
    with `git`, committed by them. Returns the logbook root."""
    space = f"{owner}/flat-minima-repro"
    draft = LogbookDraft(
        f"Flat minima, reproduced by {full_name}",
        metadata={"space_id": space, "paper": {"openreview_id": "FlatMin123", "title": "Flat minima generalize"}},
        intro=f"Logbook of {full_name} (@{owner}, {email}). Published at https://huggingface.co/spaces/{space}.",
    )
    for n in range(1, claims + 1):
        page = draft.page(f"Claim {n}: sharpness predicts the gap ({n})")
        page.markdown(f"> Claim {n} of the paper, checked by {owner.replace('-', '_')} on a laptop.", title="Claim")
        page.run(
            ["python", f"/home/{owner}/work/check_{n}.py"],
            f"loading /home/{owner}/data/cifar10 ... done\nsaved https://{owner}-flat-minima-repro.hf.space/run{n}",
        )
        page.markdown(
            f"**Verdict: {VERDICTS[(n - 1) % len(VERDICTS)]}.** See github.com/{owner}/flatness and "
            f"{full_name.split()[1]}'s notes.",
            title="Verdict",
        )
    root = draft.write(folder)
    if git:
        env = {"GIT_AUTHOR_NAME": full_name, "GIT_AUTHOR_EMAIL": email, "GIT_COMMITTER_NAME": full_name,
               "GIT_COMMITTER_EMAIL": email, "HOME": str(folder), "PATH": "/usr/bin:/bin",
               "GIT_CONFIG_NOSYSTEM": "1"}  # fmt: skip
        for args in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-q", "-m", "logbook"]):
            subprocess.run(["git", *args], cwd=folder, env=env, check=True, capture_output=True)
    return root
