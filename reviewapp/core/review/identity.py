"""Who is annotating: resolved once and kept in the preferences, so going offline never splits one person into two
annotation files.

Order: a name given on the command line (for that command only, unless it is to be remembered), the saved
name, the Hugging Face user name when a token is configured, git's user.name, then asking the user (the GUI
passes `ask`; headless commands do not and stop with
HOW_TO_SET instead). Never a token or an e-mail address unless the user typed it themselves.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import sys
import threading
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from reviewapp.core.io import gitcmd
from reviewapp.core.review.preferences import load_preferences, update_preferences
from reviewapp.core.review.secret_scan import known_secrets, scan_text

HOW_TO_SET = (
    "no annotator name is known: pass --annotator NAME --remember once (it is saved for next time), "
    "or log in with `hf auth login`, or set `git config --global user.name`"
)
HF_TIMEOUT = 3.0
MAX_NAME = 200

_EMAIL = re.compile(r"[^\s@]+@[^\s@]+\.[^\s@]+")
_SLUG_DROP = re.compile(r"[^a-z0-9]+")
_WINDOWS_RESERVED = {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(1, 10)), *(f"lpt{i}" for i in range(1, 10))}


@dataclass(frozen=True)
class Identity:
    name: str  # display name, written into records
    source: str  # "command line", "preferences", "huggingface", "git" or "asked"

    @property
    def slug(self) -> str:
        return annotator_slug(self.name)


def annotator_slug(name: str) -> str:
    """A file-name-safe, lower-case ASCII form of a display name ("Ada Lovelace" -> "ada-lovelace")."""
    ascii_text = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii").lower()
    slug = _SLUG_DROP.sub("-", ascii_text).strip("-")[:64].strip("-")
    if not slug or slug in _WINDOWS_RESERVED:
        slug = "annotator-" + hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:10]
    return slug


# Look-alikes of Latin letters among Cyrillic and Greek (after casefolding, so capitals map by their lower case:
# Cyrillic в and Greek η stand for their capitals B and H). Enough to catch a name typed to pass for another.
_CONFUSABLES = str.maketrans(
    {
        **dict(zip("авеёһіјкмнорсѕтухԁԛԝӏ", "abeehijkmhopcstyxdqwl", strict=True)),
        **dict(zip("αβεζηικμνορτυχϲ", "abezhikmnoptyxc", strict=True)),
        "0": "o",
        "1": "l",
        "|": "l",
    }
)
_SEPARATORS = re.compile(r"[\s._\-‐-―]+")


def normalize_name(name: str) -> str:
    """NFKC, without bidi controls, invisible formatting characters or control characters, blanks collapsed.

    A right-to-left override could make one person's name display as another's; fullwidth letters would make
    a second spelling of the same name.
    """
    folded = unicodedata.normalize("NFKC", name)
    kept = "".join(c for c in folded if unicodedata.category(c) not in ("Cf", "Cc", "Cs", "Co", "Cn") or c in "\t\n")
    return " ".join(kept.split())


def name_skeleton(name: str) -> str:
    """What a name looks like: case, accents, separators and Latin look-alikes folded away."""
    text = unicodedata.normalize("NFKD", normalize_name(name).casefold())
    text = "".join(c for c in text if not unicodedata.combining(c))
    return _SEPARATORS.sub("-", text.translate(_CONFUSABLES)).strip("-")


def lookalike_of(name: str, existing: Iterable[str]) -> str | None:
    """An existing annotator `name` could be mistaken for, or would share a review file with; None when none."""
    skeleton, slug = name_skeleton(name), annotator_slug(name)
    for other in existing:
        if other != name and (name_skeleton(other) == skeleton or annotator_slug(other) == slug):
            return other
    return None


def check_name(name: str) -> str:
    """A usable display name, normalized and trimmed; raise ValueError saying what is wrong."""
    cleaned = normalize_name(name)
    if not cleaned:
        raise ValueError("the annotator name is empty")
    if len(cleaned) > MAX_NAME:
        raise ValueError(f"the annotator name has more than {MAX_NAME} characters")
    if scan_text(cleaned):
        raise ValueError("the annotator name looks like an access token; use your name instead")
    return cleaned


def resolve_identity(
    *,
    explicit: str | None = None,
    remember: bool = False,
    ask: Callable[[], str | None] | None = None,
    cwd: Path | None = None,
    hf_endpoint: str | None = None,
    hf_timeout: float = HF_TIMEOUT,
) -> Identity | None:
    """The annotator's identity, saving it to the preferences whenever it was found some other way.

    `explicit` names the annotator of one command: it is saved only with `remember`, so that a name given once
    never silently becomes the identity of later commands. Raises ValueError when `explicit` (or an answer to
    `ask`) is not a usable name.
    """
    if explicit is not None:
        name = check_name(explicit)
        return _remember(name, "command line") if remember else Identity(name, "command line")
    preferences = load_preferences()
    if preferences.annotator:
        return Identity(preferences.annotator, "preferences")
    lookups: tuple[tuple[str, Callable[[], str | None]], ...] = (
        ("huggingface", lambda: hf_user_name(hf_endpoint, hf_timeout)),
        ("git", lambda: git_user_name(cwd)),
    )
    for source, lookup in lookups:
        found = lookup()
        if found:
            return _remember(found, source)
    if ask is not None:
        answer = ask()
        if answer:
            return _remember(check_name(answer), "asked")
    return None


def _remember(name: str, source: str) -> Identity:
    preferences = load_preferences()
    if preferences.annotator != name:
        update_preferences(lambda p: p.model_copy(update={"annotator": name, "annotator_source": source}))
    return Identity(name, source)


def hf_user_name(endpoint: str | None = None, timeout: float = HF_TIMEOUT) -> str | None:
    """The Hugging Face user name of the configured token; None without a token, offline, or on any error.

    whoami has no timeout of its own, so it runs in a daemon thread that is abandoned after `timeout`. Without a
    token in sight (see `_hub_token_possible`) huggingface_hub is not even imported: importing it holds the
    interpreter for about half a second, which a logbook's first open spent while the window waited to paint.
    """
    if not _hub_token_possible():
        return None
    try:
        from huggingface_hub import HfApi, get_token

        token = get_token()
    except Exception:
        return None
    if not token:
        return None
    found: dict[str, object] = {}

    def call() -> None:
        with contextlib.suppress(Exception):  # offline, revoked token, server error: try the next source
            found["name"] = HfApi(endpoint=endpoint).whoami(token=token).get("name")

    worker = threading.Thread(target=call, name="hf-whoami", daemon=True)
    worker.start()
    worker.join(timeout)
    return _plausible(found.get("name"))


def _hub_token_possible() -> bool:
    """Whether huggingface_hub's get_token could find a token: HF_TOKEN, the token file (as secret_scan finds
    them, without importing huggingface_hub), or the ways it has that this cannot check cheaply (OIDC, Colab)."""
    if os.environ.get("HF_OIDC_RESOURCE") or "google.colab" in sys.modules:
        return True
    return bool(known_secrets())


def git_user_name(cwd: Path | None = None) -> str | None:
    """git's user.name as seen from `cwd` (repository config first, then global); None when unset."""
    folder = cwd if cwd is not None and cwd.is_dir() else Path.home()
    try:
        result = gitcmd.run(["config", "--get", "user.name"], folder, timeout=5)
    except gitcmd.GitError:
        return None
    return _plausible(result.stdout.strip()) if result.ok else None


def _plausible(name: object) -> str | None:
    """A name found automatically, unless it is an e-mail address or a token (the user did not choose those)."""
    if not isinstance(name, str):
        return None
    try:
        cleaned = check_name(name)
    except ValueError:
        return None
    return None if _EMAIL.search(cleaned) else cleaned
