"""Find access tokens, keys and passwords in text or bytes before they are written somewhere that cannot forget
them (an append-only annotation file, a git commit, a Hub upload).

Findings carry a kind, a position and a redacted preview; never the secret itself, so they are safe to print
and log. Named `secret_scan` rather than `secrets` so that it never shadows the standard library module.
"""

from __future__ import annotations

import configparser
import contextlib
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class SecretFinding:
    kind: str  # "GitHub token", "private key", ...
    line: int  # 1-based
    column: int  # 1-based, in characters for text and bytes for bytes
    preview: str  # redacted, e.g. "ghp_… (40 characters)"

    def __str__(self) -> str:
        return f"{self.kind} ({self.preview}) at line {self.line}, column {self.column}"


@dataclass(frozen=True)
class _Rule:
    kind: str
    pattern: str
    needs_digit: bool = False  # opaque tokens without a fixed length: ordinary hyphenated words are not keys


_WORD_BEFORE = r"(?<![A-Za-z0-9_-])"
_CREDENTIAL_NAME = (
    r"(?:token|secret|password|passwd|pwd|api[_-]?key|access[_-]?key|auth[_-]?key|private[_-]?key|client[_-]?secret)"
)
_RULES: tuple[_Rule, ...] = (
    _Rule("private key", r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----"),
    _Rule("Hugging Face token", _WORD_BEFORE + r"(?P<secret>(?:hf_|api_org_)[A-Za-z0-9]{30,})"),
    _Rule("GitHub token", _WORD_BEFORE + r"(?P<secret>gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})"),
    _Rule("AWS access key id", r"(?<![A-Z0-9])(?P<secret>(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16})(?![A-Z0-9])"),
    _Rule(
        "AWS secret access key",
        r"(?i)aws[A-Za-z0-9_. -]{0,20}?(?:secret|sk)[A-Za-z0-9_. -]{0,20}?[\"']?\s*[=:]\s*[\"']?"
        r"(?P<secret>[A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])",
    ),
    _Rule("OpenAI-style API key", _WORD_BEFORE + r"(?P<secret>sk-[A-Za-z0-9_-]{20,})", needs_digit=True),
    _Rule("Slack token", r"(?<![A-Za-z0-9])(?P<secret>xox[abposre]-[A-Za-z0-9-]{10,})", needs_digit=True),
    _Rule("Google API key", _WORD_BEFORE + r"(?P<secret>AIza[0-9A-Za-z_-]{35})"),
    _Rule("bearer token", r"(?i)\bbearer\s+(?P<secret>[A-Za-z0-9._~+/-]{20,}=*)", needs_digit=True),
    _Rule(
        "credential assignment",
        r"(?i)(?<![A-Za-z0-9])(?P<name>[A-Za-z0-9_.-]*" + _CREDENTIAL_NAME + r")[\"']?\s*[=:]\s*[\"']?"
        r"(?P<secret>[^\s\"'`,;<>(){}$]{16,})",
    ),
)

_TEXT_RULES = [(rule, re.compile(rule.pattern)) for rule in _RULES]
_BYTES_RULES = [(rule, re.compile(rule.pattern.encode("ascii"))) for rule in _RULES]
_PLACEHOLDER = re.compile(r"^(?:(.)\1+|[xX*.#-]+|your[_-].*|.*(?:here|example|placeholder).*)$", re.IGNORECASE)
_KNOWN_MIN_LENGTH = 8


def scan_text(text: str, known: Iterable[str] = ()) -> list[SecretFinding]:
    """Secrets in `text`, in order of position. `known` are exact strings to find too (the user's own tokens)."""
    return _locate(_text_spans(text, known), text)


def mask_secrets(text: str, known: Iterable[str] = ()) -> str:
    """`text` with every secret replaced by its redacted preview, for showing or quoting untrusted text."""
    spans = _text_spans(text, known)
    if not spans:
        return text
    spans.sort(key=lambda s: (s[0], -(s[1] - s[0])))
    parts: list[str] = []
    done = 0
    for start, end, _kind, preview in spans:
        if start < done:
            continue
        parts.append(text[done:start])
        parts.append(f"[masked {preview}]")
        done = end
    parts.append(text[done:])
    return "".join(parts)


def _text_spans(text: str, known: Iterable[str]) -> list[tuple[int, int, str, str]]:
    spans: list[tuple[int, int, str, str]] = []
    for secret in _usable(known):
        start = text.find(secret)
        while start >= 0:
            spans.append((start, start + len(secret), "your own access token", _redact(secret)))
            start = text.find(secret, start + 1)
    for rule, regex in _TEXT_RULES:
        for match in regex.finditer(text):
            found = _finding(rule, match)
            if found is not None:
                spans.append((match.start(), match.end(), rule.kind, found))
    return spans


def scan_bytes(data: bytes, known: Iterable[str] = ()) -> list[SecretFinding]:
    """Like scan_text for file contents of any encoding; columns count bytes."""
    spans: list[tuple[int, int, str, str]] = []
    for secret in _usable(known):
        needle = secret.encode("utf-8")
        start = data.find(needle)
        while start >= 0:
            spans.append((start, start + len(needle), "your own access token", _redact(secret)))
            start = data.find(needle, start + 1)
    for rule, regex in _BYTES_RULES:
        for match in regex.finditer(data):
            found = _finding(rule, match)
            if found is not None:
                spans.append((match.start(), match.end(), rule.kind, found))
    return _locate(spans, data)


def known_secrets() -> list[str]:
    """The user's own Hugging Face tokens, to be found even if their format changes.

    Read the way huggingface_hub finds them (HF_TOKEN, then the token file and the stored tokens under
    HF_TOKEN_PATH / HF_HOME) without importing it: this runs before every append, also in headless commands.
    """
    found = [os.environ.get(name, "") for name in ("HF_TOKEN", "HUGGING_FACE_HUB_TOKEN")]
    token_file = _hf_token_path()
    with contextlib.suppress(OSError):
        found.append(token_file.read_text(encoding="utf-8", errors="replace"))
    stored = configparser.ConfigParser(interpolation=None)
    try:
        stored.read(token_file.with_name("stored_tokens"), encoding="utf-8")
    except (configparser.Error, OSError, UnicodeError):
        pass
    else:
        found.extend(section.get("hf_token", "") for section in stored.values())
    return [t for t in dict.fromkeys(t.strip() for t in found) if t]


def _hf_token_path() -> Path:
    home = os.environ.get("HF_HOME") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "huggingface"
    )
    path = os.environ.get("HF_TOKEN_PATH") or os.path.join(os.path.expanduser(os.path.expandvars(home)), "token")
    return Path(os.path.expanduser(os.path.expandvars(path)))


def _usable(known: Iterable[str]) -> list[str]:
    return [s for s in dict.fromkeys(known) if s and len(s) >= _KNOWN_MIN_LENGTH]


def _finding(rule: _Rule, match: re.Match) -> str | None:
    """The redacted preview of a match, or None when it is clearly not a secret."""
    groups = match.groupdict()
    secret = groups.get("secret")
    if secret is None:  # the whole match is the marker (private key blocks)
        return _as_str(match.group(0))
    value = _as_str(secret)
    if rule.needs_digit and not any(c.isdigit() for c in value):
        return None
    if groups.get("name") is not None:
        if _PLACEHOLDER.match(value):
            return None
        return f"{_as_str(groups['name'])}={_redact(value)}"
    return _redact(value)


def _as_str(value: str | bytes) -> str:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else value


def _redact(secret: str) -> str:
    shown = secret[:4] if len(secret) >= 20 else secret[:2]
    return f"{shown}… ({len(secret)} characters)"


def _locate(spans: list[tuple[int, int, str, str]], haystack: str | bytes) -> list[SecretFinding]:
    """Drop findings inside an earlier, wider one (a known token is also an hf_ token) and add line/column."""
    spans.sort(key=lambda s: (s[0], -(s[1] - s[0])))
    findings: list[SecretFinding] = []
    covered_to = -1
    for start, end, kind, preview in spans:
        if start < covered_to:
            continue
        covered_to = end
        if isinstance(haystack, str):
            line, line_start = haystack.count("\n", 0, start) + 1, haystack.rfind("\n", 0, start) + 1
        else:
            line, line_start = haystack.count(b"\n", 0, start) + 1, haystack.rfind(b"\n", 0, start) + 1
        column = start - line_start + 1
        findings.append(SecretFinding(kind, line, column, preview))
    return findings
