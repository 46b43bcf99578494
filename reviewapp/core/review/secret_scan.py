"""Find access tokens, keys and passwords in text or bytes before they are written somewhere that cannot forget
them (an append-only annotation file, a git commit, a Hub upload).

Findings carry a kind, a position and a redacted preview; never the secret itself, so they are safe to print
and log. Named `secret_scan` rather than `secrets` so that it never shadows the standard library module.

`scan_fields` (records before they are appended, and every JSON line of a file before it is committed) looks at
the decoded text, not only the raw characters: each field as written, with invisible characters removed and
look-alike forms (fullwidth letters) folded by NFKC, with JSON escapes and URL-encoding undone, and the text
inside base64 and hex runs that decodes to printable text; and the record as a whole (every two fields joined,
so a token split between a tag and the rationale is found). Hashes the app itself writes (git heads, sha256
hex digests, record ids) are not text once decoded and never match a rule.
"""

from __future__ import annotations

import base64
import binascii
import configparser
import contextlib
import os
import re
import unicodedata
import urllib.parse
from collections.abc import Iterable, Iterator, Sequence
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
    mixed_case: bool = False  # a bare key: upper, lower and digits together (hex digests are lower case only)


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
    _Rule(
        "AWS secret access key",
        r"(?<![A-Za-z0-9/+=])(?P<secret>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])",
        needs_digit=True,
        mixed_case=True,
    ),
    _Rule(
        "JSON web token", r"(?<![A-Za-z0-9_-])(?P<secret>eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,})"
    ),
    _Rule("password in a URL", r"(?i)\b[a-z][a-z0-9+.-]{0,20}://[^\s:/@]{1,100}:(?P<secret>[^\s/@]{1,200})@[^\s/@]"),
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


def scan_text(text: str, known: Iterable[str] = (), *, bare_keys: bool = True) -> list[SecretFinding]:
    """Secrets in `text`, in order of position. `known` are exact strings to find too (the user's own tokens).

    Without `bare_keys`, shapes that only a bare 40-character key has are not looked for (used on text joined
    from several fields, where an id and a word could meet in that shape).
    """
    return _locate(_text_spans(text, known, bare_keys), text)


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


def _text_spans(text: str, known: Iterable[str], bare_keys: bool = True) -> list[tuple[int, int, str, str]]:
    spans: list[tuple[int, int, str, str]] = []
    for secret in _usable(known):
        start = text.find(secret)
        while start >= 0:
            spans.append((start, start + len(secret), "your own access token", _redact(secret)))
            start = text.find(secret, start + 1)
    for rule, regex in _TEXT_RULES:
        if rule.mixed_case and not bare_keys:
            continue
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


def _finding(rule: _Rule, match: re.Match[str] | re.Match[bytes]) -> str | None:
    """The redacted preview of a match, or None when it is clearly not a secret."""
    groups = match.groupdict()
    secret = groups.get("secret")
    if secret is None:  # the whole match is the marker (private key blocks)
        return _as_str(match.group(0))
    value = _as_str(secret)
    if rule.needs_digit and not any(c.isdigit() for c in value):
        return None
    if rule.mixed_case and not (any(c.isupper() for c in value) and any(c.islower() for c in value)):
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


# -- decoded text -------------------------------------------------------------------------------------------------

_INVISIBLE = re.compile("[\u00ad\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff]")
_JSON_ESCAPE = re.compile(r"\\u([0-9a-fA-F]{4})|\\([\\/\"bfnrt])")
_BASE64_RUN = re.compile(r"[A-Za-z0-9+/_-]{16,}={0,2}")
_HEX_RUN = re.compile(r"(?<![0-9a-fA-F])(?:[0-9a-fA-F]{2}){12,}(?![0-9a-fA-F])")
_SIMPLE_ESCAPES = {"b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
_MAX_DECODE = 64 * 1024  # a field longer than this is scanned as written only
_MAX_JOINED_FIELDS = 40
_PLAIN_KEY = re.compile(r"^[a-z][a-z0-9_]{0,39}$")


def decoded_forms(text: str, depth: int = 2) -> Iterator[tuple[str, str]]:
    """(how it was decoded, text) for every readable form of `text` other than itself."""
    if len(text) > _MAX_DECODE:
        return
    forms: dict[str, str] = {}
    folded = _INVISIBLE.sub("", unicodedata.normalize("NFKC", text))
    forms.setdefault(folded, "with invisible or look-alike characters")
    if "\\" in folded:
        forms.setdefault(_JSON_ESCAPE.sub(_unescape, folded), "written as JSON escapes")
    if "%" in folded:
        once = urllib.parse.unquote(folded)
        forms.setdefault(once, "URL-encoded")
        forms.setdefault(urllib.parse.unquote(once), "URL-encoded")
    forms.pop(text, None)
    yield from ((how, form) for form, how in forms.items())
    if depth <= 0:
        return
    for source in (text, *forms):
        for how, inner in _encoded_runs(source):
            yield how, inner
            for deeper_how, deeper in decoded_forms(inner, depth - 1):
                yield f"{deeper_how}, {how}", deeper


def _unescape(match: re.Match[str]) -> str:
    if match.group(1):
        return chr(int(match.group(1), 16))
    return _SIMPLE_ESCAPES.get(match.group(2), match.group(2))


def _encoded_runs(text: str) -> Iterator[tuple[str, str]]:
    """Printable text hidden in base64 and hex runs; a digest or random bytes decode to nothing printable."""
    for match in _HEX_RUN.finditer(text):
        plain = _printable(binascii.unhexlify(match.group(0)))
        if plain is not None:
            yield "hex-encoded", plain
    for match in _BASE64_RUN.finditer(text):
        run = match.group(0).rstrip("=")
        padded = run + "=" * (-len(run) % 4)
        for decode in (base64.b64decode, base64.urlsafe_b64decode):
            try:
                raw = decode(padded)
            except (binascii.Error, ValueError):
                continue
            plain = _printable(raw)
            if plain is not None:
                yield "base64-encoded", plain
                break


def _printable(raw: bytes) -> str | None:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if len(text) < 8 or sum(c.isprintable() for c in text) < 0.95 * len(text):
        return None
    return text


def json_strings(value: object, path: str = "") -> Iterator[tuple[str, str]]:
    """Every string in parsed JSON (keys too) with a readable name of where it is ("payload.rationale")."""
    if isinstance(value, str):
        yield path or "record", value
    elif isinstance(value, dict):
        for key, item in value.items():
            where = f"{path}.{key}" if path else str(key)
            if not _PLAIN_KEY.match(str(key)):  # the schema's own names are not worth scanning or joining
                yield f"{where} (name)", str(key)
            yield from json_strings(item, where)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from json_strings(item, f"{path}[{index}]")


def scan_fields(fields: Sequence[tuple[str, str]], known: Iterable[str] = ()) -> list[tuple[str, SecretFinding]]:
    """Secrets in named text fields: each field raw and decoded, and every two fields joined (the record whole).

    Returns (field name, finding) pairs; a decoded finding's kind says how it was hidden.
    """
    known = _usable(known)
    found: list[tuple[str, SecretFinding]] = []
    seen: set[tuple[str, str]] = set()

    def add(name: str, text: str, how: str | None, bare_keys: bool = True) -> None:
        for finding in scan_text(text, known, bare_keys=bare_keys):
            if (finding.kind, finding.preview) in seen:
                continue
            seen.add((finding.kind, finding.preview))
            if how is not None:
                finding = SecretFinding(f"{finding.kind} ({how})", finding.line, finding.column, finding.preview)
            found.append((name, finding))

    texts = [(name, text) for name, text in fields if text]
    for name, text in texts:
        add(name, text, None)
        for how, form in decoded_forms(text):
            add(name, form, how)
    joinable = [(n, _INVISIBLE.sub("", unicodedata.normalize("NFKC", t))) for n, t in texts[:_MAX_JOINED_FIELDS]]
    joinable = [(n, t) for n, t in joinable if len(t) <= _MAX_DECODE]
    for first_name, first in joinable:
        for second_name, second in joinable:
            if first_name != second_name:
                joined = first.rstrip() + second.lstrip()
                add(f"{first_name} and {second_name}", joined, "split across fields", bare_keys=False)
    return found
