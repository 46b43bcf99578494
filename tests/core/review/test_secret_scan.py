"""Secret detection for text and bytes: every kind is found with its position, previews never hold the secret,
and ordinary review prose is left alone. Fake tokens are assembled at run time so this file holds none."""

from __future__ import annotations

import pytest

from reviewapp.core.review.secret_scan import known_secrets, scan_bytes, scan_text

ALNUM = "aB3dE5fG7hJ9kL2mN4pQ6rS8tU0vW1xY3zA5"


def fake(prefix: str, length: int, alphabet: str = ALNUM) -> str:
    body = (alphabet * (length // len(alphabet) + 1))[:length]
    return prefix + body


CASES = [
    ("Hugging Face token", fake("hf" + "_", 34)),
    ("Hugging Face token", fake("api" + "_org_", 34)),
    ("GitHub token", fake("gh" + "p_", 36)),
    ("GitHub token", fake("gh" + "s_", 36)),
    ("GitHub token", fake("github" + "_pat_", 60, ALNUM + "_")),
    ("AWS access key id", "AK" + "IA" + "QWERTYUIOP234567"),
    ("OpenAI-style API key", fake("s" + "k-proj-", 40)),
    ("Slack token", "xo" + "xb-" + "1234567890-" + "abcdefghijkl"),
    ("Google API key", fake("AI" + "za", 35)),
]


@pytest.mark.parametrize(("kind", "secret"), CASES)
def test_each_kind_is_found_with_its_position(kind: str, secret: str) -> None:
    text = f"first line\nthe run used {secret} for access"
    [finding] = scan_text(text)
    assert finding.kind == kind
    assert (finding.line, finding.column) == (2, len("the run used ") + 1)
    assert secret not in str(finding) and secret[6:] not in finding.preview
    assert f"({len(secret)} characters)" in finding.preview


def test_aws_secret_key_private_key_and_assignments() -> None:
    aws = "aws_secret_access_key = " + fake("", 40, "AbCd/1234+EfGh")
    key = "-----BEGIN " + "OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----"
    assign = 'password: "' + "correct-horse-battery-staple" + '"'
    bearer = "Authorization: Bearer " + fake("", 32)
    kinds = [f.kind for f in scan_text("\n".join([aws, key, assign, bearer]))]
    assert kinds == ["AWS secret access key", "private key", "credential assignment", "bearer token"]


@pytest.mark.parametrize(
    "text",
    [
        "The model stopped too early: loss still falling at epoch 20 (lr=3e-4, batch 256).",
        "max_tokens=4096, num_tokens: 1200, tokenizer=gpt2, token: yes",
        "we used sk-learn and scikit-learn-intelex for the baseline",
        "password=xxxxxxxxxxxxxxxxxxxx and api_key=<your-api-key-goes-here> and token=${HF_TOKEN_FROM_ENV}",
        "commit a1b2c3d4e5f6a7b8c9d0a1b2c3d4e5f6a7b8c9d0, sha256 " + "ab" * 32,
        "see https://huggingface.co/spaces/someone/repro-logbook#/claim-3",
    ],
)
def test_ordinary_review_text_is_not_flagged(text: str) -> None:
    assert scan_text(text) == []


def test_bytes_api_matches_text_api_and_counts_bytes() -> None:
    secret = fake("gh" + "o_", 36)
    text = f"é line one\nnaïve {secret}"
    [from_text] = scan_text(text)
    [from_bytes] = scan_bytes(text.encode("utf-8"))
    assert from_text.kind == from_bytes.kind and from_text.line == from_bytes.line == 2
    assert from_bytes.column == len("naïve ".encode()) + 1 and from_text.column == len("naïve ") + 1
    assert scan_bytes(b"\xff\xfe binary \x00 " + secret.encode()) != []


def test_known_token_is_found_whatever_its_format_and_reported_once() -> None:
    mine = "custom-token-value-1234"
    assert scan_text(f"x {mine} y") == []
    [finding] = scan_text(f"x {mine} y", known=[mine])
    assert finding.kind == "your own access token" and mine not in str(finding)
    hf = fake("hf" + "_", 34)
    [overlap] = scan_text(f"token {hf}", known=[hf])
    assert overlap.kind == "your own access token"


def test_known_secrets_are_the_users_hugging_face_tokens(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("HF_HOME", str(tmp_path))
    monkeypatch.delenv("HF_TOKEN_PATH", raising=False)
    monkeypatch.setenv("HF_TOKEN", "env-token-abcdef123456")
    (tmp_path / "token").write_text("file-token-abcdef123456\n", encoding="utf-8")
    (tmp_path / "stored_tokens").write_text(
        "[work]\nhf_token = stored-token-abcdef123456\n\n[home]\nhf_token = file-token-abcdef123456\n",
        encoding="utf-8",
    )
    assert known_secrets() == ["env-token-abcdef123456", "file-token-abcdef123456", "stored-token-abcdef123456"]
    monkeypatch.delenv("HF_TOKEN")
    monkeypatch.setenv("HF_TOKEN_PATH", str(tmp_path / "other" / "token"))
    assert known_secrets() == []  # stored_tokens lives beside the token file


def test_known_secrets_agree_with_huggingface_hub(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    """What huggingface_hub would send as the user's token is among the known secrets."""
    from huggingface_hub import get_token

    monkeypatch.setenv("HF_TOKEN", "agreed-token-abcdef123456")
    assert get_token() == "agreed-token-abcdef123456"
    assert get_token() in known_secrets()
