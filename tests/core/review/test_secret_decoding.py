"""Secrets hidden from a raw scan: the decoded text of every field and the record as a whole are scanned, at
annotate time and at commit time, while the hashes the app writes itself never trigger. Fake tokens are
assembled at run time so this file holds none."""

from __future__ import annotations

import base64
import json
import urllib.parse

import pytest

from reviewapp.core.review.records import RecordBase, Revision, Target, make_record
from reviewapp.core.review.secret_scan import scan_fields

ALNUM = "aB3dE5fG7hJ9kL2mN4pQ6rS8tU0vW1xY3zA5"
HF = "hf" + "_" + ALNUM[:34]
AWS_SECRET = "wJalr" + "XUtnFEMI/K7MDENG/bPxRfiCY" + "EXAMPLEKEY"[:9] + "1"
JWT = "ey" + "JhbGciOiJIUzI1NiJ9." + "ey" + "JzdWIiOiIxMjM0NTY3ODkwIn0." + "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV"


def hidden_forms() -> dict[str, list[tuple[str, str]]]:
    zero_width = HF[:5] + "\u200b" + HF[5:]
    fullwidth = "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in HF)
    return {
        "JSON escape": [("rationale", HF.replace("_", "\\u005f"))],
        "base64": [("rationale", "see " + base64.b64encode(HF.encode()).decode())],
        "hex": [("rationale", "see " + HF.encode().hex())],
        "URL-encoding": [("rationale", "see " + urllib.parse.quote(HF, safe="").replace("_", "%5F"))],
        "zero-width space": [("rationale", zero_width)],
        "fullwidth letters": [("rationale", fullwidth)],
        "split across a tag and the rationale": [("tags[0]", HF[:12]), ("rationale", HF[12:])],
        "JWT": [("rationale", f"header was {JWT}")],
        "password in a URL": [("rationale", "cloned https://ada:hunter2secret@example.invalid/repo")],
        "bare AWS secret key": [("rationale", f"key {AWS_SECRET} in the env")],
    }


@pytest.mark.parametrize("how", sorted(hidden_forms()))
def test_a_hidden_token_is_found(how: str) -> None:
    assert scan_fields(hidden_forms()[how]), how


def test_the_users_own_token_is_found_in_common_encodings() -> None:
    mine = "plain-custom-credential-42"
    for form in (base64.b64encode(mine.encode()).decode(), mine.encode().hex(), urllib.parse.quote(mine + "/")):
        assert scan_fields([("rationale", f"x {form} y")], [mine]), form


ANCHOR = {"ordinal": 2, "id": "cell_0123456789ab", "content_hash": "9f86d081884c7d65"}


def test_hashes_and_ids_the_app_writes_never_trigger() -> None:
    import hashlib

    record = make_record(
        "verdict", annotator="Ada Lovelace", role="judge",
        target=Target(claim="claim-3-scaling#3", page="claim-3-scaling", cell=ANCHOR),
        payload={"verdict": "verified", "rationale": "Re-ran the sweep; the numbers match table 2.",
                 "tags": ["scale below paper"], "confidence": 3},
        revision=Revision(git_head="3f786850e387550fdab836ed7e6dc881de23001b",
                          page_sha256=hashlib.sha256(b"page").hexdigest()),
    )  # fmt: skip
    fields = list(_strings(record))
    assert scan_fields(fields) == []
    for n in range(200):  # many digests, each alone and next to every other field
        digest = hashlib.sha256(str(n).encode()).hexdigest()
        head = hashlib.sha1(str(n).encode()).hexdigest()
        b64 = base64.b64encode(hashlib.sha256(str(n).encode()).digest()).decode()
        assert scan_fields([*fields, ("revision.page_sha256", digest), ("revision.git_head", head),
                            ("content_sha256", b64)]) == []  # fmt: skip


def _strings(record: RecordBase):  # type: ignore[no-untyped-def]
    from reviewapp.core.review.secret_scan import json_strings

    return json_strings(record.model_dump(mode="json", by_alias=True))


def test_annotate_refuses_each_hidden_form_and_saves_nothing(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from reviewapp.core.review.store import AnnotationStore, SecretInRecord
    from tests.core.annotation_helpers import small_logbook

    monkeypatch.setenv("REVIEWAPP_DATA_DIR", str(tmp_path / "data"))
    from reviewapp.core.logbook.reader import read_logbook

    root = read_logbook(small_logbook(tmp_path)).root
    store = AnnotationStore(root)
    store.known_secrets = []
    for how, fields in hidden_forms().items():
        values = dict(fields)
        payload = {"verdict": "verified", "rationale": values.get("rationale", "ok"),
                   "tags": [values["tags[0]"]] if "tags[0]" in values else []}  # fmt: skip
        record = make_record("verdict", annotator="Ada", role="judge", target=Target(claim="c#1"), payload=payload)
        with pytest.raises(SecretInRecord):
            store.append(record, "ada")
        assert not (root / "reviews" / "ada.jsonl").exists(), how


def test_commit_scan_reads_json_escapes_in_the_file(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from reviewapp.core.commit.plan import _decoded_record_findings
    from reviewapp.core.review.secret_scan import scan_bytes

    line = json.dumps({"payload": {"rationale": HF}})  # json.dumps leaves it raw; escape it as an attacker would
    escaped = line.replace("_", "\\u005f").encode()
    assert scan_bytes(escaped) == []  # what the commit used to see
    [finding] = _decoded_record_findings(escaped + b"\n", [])
    assert finding.line == 1 and "Hugging Face token" in finding.kind
