"""Signed review records: each record a reviewer writes carries an Ed25519 signature made with her key, and a
roster of reviewers' public keys that the judges hold says whose key is whose.

The judged team controls the repository the review files are committed to, so a name in a record and the name of
the file holding it prove nothing: the team can write both. A signature over the record's content, checked
against a key the judges listed for that name, does. Ed25519 (through the `cryptography` package): small keys and
signatures, deterministic, no external program (git's SSH signatures need `ssh-keygen` and sign commits, while
review records also travel as Hub commits and pull requests, which carry no git signature).

    key: <config folder>/signing-key.pem   (PKCS#8 PEM, unencrypted, mode 0600; never in a repository or log)
    roster line: ed25519:<base64 public key> <display name>      (`#` starts a comment)

The signature covers the record's canonical JSON (sorted keys, no blanks) without its `signature` field, so it
survives re-serialization and breaks on any change of content, date, name or target.
"""

from __future__ import annotations

import base64
import binascii
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from reviewapp.core.io.durable import atomic_write
from reviewapp.core.io.paths import user_config_dir
from reviewapp.core.io.safepath import FileTooLarge, UnsafeReference, read_capped, why_unreadable
from reviewapp.core.review.identity import annotator_slug
from reviewapp.core.review.records import RecordBase, RecordSignature, record_line

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

KEY_FILE = "signing-key.pem"
KEY_PREFIX = "ed25519:"
MAX_ROSTER_BYTES = 1024 * 1024


class RosterError(ValueError):
    """The roster file cannot be used; the message names the file and the line."""


def key_path() -> Path:
    return user_config_dir() / KEY_FILE


def load_signing_key() -> Ed25519PrivateKey | None:
    """This person's signing key, or None when she has none (records are then unsigned)."""
    path = key_path()
    try:
        data = path.read_bytes()
    except OSError:
        return None
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.serialization import load_pem_private_key

    try:
        key = load_pem_private_key(data, password=None)
    except (ValueError, TypeError):
        return None
    return key if isinstance(key, Ed25519PrivateKey) else None


def create_signing_key() -> Ed25519PrivateKey:
    """A new key in the config folder (readable by this user only); an existing key is kept and returned."""
    existing = load_signing_key()
    if existing is not None:
        return existing
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    key = Ed25519PrivateKey.generate()
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    path = key_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, pem)
    os.chmod(path, 0o600)
    return key


def public_key_text(key: Ed25519PrivateKey) -> str:
    from cryptography.hazmat.primitives import serialization

    raw = key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return KEY_PREFIX + base64.b64encode(raw).decode("ascii")


def signed(record: RecordBase) -> RecordBase:
    """`record` signed with this person's key, or as it is when she has none."""
    key = load_signing_key()
    return record if key is None else sign_record(record, key)


def signed_bytes(record: RecordBase) -> bytes:
    """What a signature covers: the record as written, in canonical JSON, without its signature."""
    data = json.loads(record_line(record))
    data.pop("signature", None)
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def sign_record(record: RecordBase, key: Ed25519PrivateKey) -> RecordBase:
    unsigned = record.model_copy(update={"signature": None})
    value = base64.b64encode(key.sign(signed_bytes(unsigned))).decode("ascii")
    return record.model_copy(update={"signature": RecordSignature(key=public_key_text(key), value=value)})


def signature_valid(record: RecordBase) -> bool:
    """Whether the record's signature was made, over this content, by the key it names."""
    signature = record.signature
    if signature is None or not signature.key.startswith(KEY_PREFIX):
        return False
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    try:
        public = Ed25519PublicKey.from_public_bytes(base64.b64decode(signature.key[len(KEY_PREFIX) :], validate=True))
        public.verify(base64.b64decode(signature.value, validate=True), signed_bytes(record))
    except (InvalidSignature, ValueError, binascii.Error):
        return False
    return True


@dataclass(frozen=True)
class Roster:
    """Reviewers' public keys as the judges listed them: key -> the name it speaks for."""

    path: Path
    names: dict[str, str]  # public key text -> display name

    def vouches(self, record: RecordBase, own_key: str | None = None, me: str | None = None) -> bool:
        """Whether `record` provably comes from the reviewer it names: signed, over its content, by a key the
        roster (or, for this reviewer, her own key) lists for that name."""
        signature = record.signature
        if signature is None:
            return False
        named = self.names.get(signature.key)
        if named is None and own_key is not None and signature.key == own_key:
            named = me
        if named is None or annotator_slug(named) != annotator_slug(record.annotator):
            return False
        return signature_valid(record)


def read_roster(path: Path) -> Roster:
    """The roster in `path`; raise RosterError naming the file and the line of the first problem."""
    try:
        data = read_capped(path, MAX_ROSTER_BYTES)
    except FileTooLarge:
        raise RosterError(f"{path}: a roster of reviewers' keys is at most {MAX_ROSTER_BYTES:,} bytes") from None
    except (UnsafeReference, OSError) as exc:
        raise RosterError(f"{path}: cannot read the roster of reviewers' keys ({why_unreadable(exc)})") from None
    names: dict[str, str] = {}
    for number, raw in enumerate(data.decode("utf-8", "replace").splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        key, _, name = line.partition(" ")
        if not key.startswith(KEY_PREFIX) or not name.strip() or not _is_key(key):
            raise RosterError(f"{path}:{number}: expected `ed25519:<base64 public key> <name>`")
        if key in names and names[key] != name.strip():
            raise RosterError(f"{path}:{number}: this key is listed for {names[key]!r} already")
        names[key] = name.strip()
    return Roster(path, names)


def _is_key(text: str) -> bool:
    try:
        return len(base64.b64decode(text[len(KEY_PREFIX) :], validate=True)) == 32
    except (ValueError, binascii.Error):
        return False
