"""Type-specific reading of a cell body, done on demand rather than at load.

Run outputs and figure payloads are most of a logbook's bytes; keeping only the body at load time and slicing
it here when a cell is shown keeps loading fast and memory close to the logbook's size on disk.
"""

from __future__ import annotations

import base64
import binascii
import re
import shlex
from dataclasses import dataclass, field

from reviewapp.core.io.coerce import as_float, as_int
from reviewapp.core.logbook.model import Cell

_FENCE_OPEN = re.compile(r"^(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[^\n`]*)$", re.MULTILINE)
_STATUS = re.compile(r"^exit[ \t]+(?P<code>-?\d+)(?:[ \t]*·[ \t]*(?P<rest>[^\n]*))?[ \t]*$", re.MULTILINE)
_DATA_URI = re.compile(r"data:(?P<mime>image/[A-Za-z0-9.+-]+);base64,", re.IGNORECASE)
_SVG = re.compile(r"<svg\b.*?</svg\s*>", re.IGNORECASE | re.DOTALL)
_SIZE_TEXT = re.compile(r"(?P<num>\d+(?:\.\d+)?)\s*(?P<unit>B|kB|KB|KiB|MB|MiB|GB|GiB)\b")
_URI = re.compile(r"(?P<uri>(?:trackio-[a-z-]+|https?)://[^\s)>\]]+)")
_UNITS = {"B": 1, "kB": 1000, "KB": 1000, "KiB": 1024, "MB": 10**6, "MiB": 2**20, "GB": 10**9, "GiB": 2**30}


@dataclass(frozen=True, slots=True)
class Fence:
    lang: str
    title: str | None
    text: str
    line: int  # 1-based line of the opening fence within the cell body


def fences(body: str) -> list[Fence]:
    """Fenced blocks in order; a closing fence repeats the opening one exactly (Trackio's rule)."""
    found: list[Fence] = []
    pos = 0
    while True:
        opening = _FENCE_OPEN.search(body, pos)
        if opening is None:
            return found
        fence = opening.group("fence")
        content_start = opening.end() + 1
        close = re.compile(rf"^{re.escape(fence)}[ \t]*$", re.MULTILINE).search(body, content_start)
        content_end = close.start() if close else len(body)
        info = opening.group("info").strip()
        lang, _, rest = info.partition(" ")
        title_match = re.search(r"\btitle=(\S+)", rest) or re.search(r"\btitle=(\S+)", info)
        text = body[content_start:content_end] if content_start <= content_end else ""
        found.append(
            Fence(
                lang=lang if not lang.startswith("title=") else "",
                title=title_match.group(1) if title_match else None,
                text=text[:-1] if text.endswith("\n") else text,
                line=body.count("\n", 0, opening.start()) + 1,
            )
        )
        pos = close.end() if close else len(body)


@dataclass(frozen=True, slots=True)
class CodeDetails:
    command: list[str] | None
    command_line: str | None  # "$ python train.py" as shown, without the "$ "
    exit_code: int | None
    duration_s: float | None
    language: str | None
    code: Fence | None  # the cell's own code, for `cell code` cells
    attachments: list[Fence]  # files named on the command line, shown collapsed
    output: Fence | None
    status_line: str | None
    elided_chars: int | None  # Trackio keeps head and tail of outputs over 20,000 chars


def code_details(cell: Cell) -> CodeDetails:
    header = cell.header
    command = header.get("command")
    command_list = [str(part) for part in command] if isinstance(command, list) else None
    command_line: str | None = shlex.join(command_list) if command_list else None
    code: Fence | None = None
    output: Fence | None = None
    attachments: list[Fence] = []
    for fence in fences(cell.body):
        if fence.lang in ("output", "result") and output is None:
            output = fence
        elif fence.title:
            attachments.append(fence)
        elif fence.lang in ("bash", "sh", "shell", "console") and fence.text.startswith("$ ") and command_line is None:
            command_line = fence.text[2:].split("\n", 1)[0]
        elif fence.lang in ("bash", "sh", "shell", "console") and fence.text.startswith("$ "):
            continue
        elif code is None:
            code = fence
    status = _STATUS.search(_outside_fences(cell.body))
    exit_code = as_int(header.get("exit_code"))
    if exit_code is None and status:
        exit_code = int(status.group("code"))
    elided = re.search(r"^\.\.\. \[(\d[\d,]*) chars elided\] \.\.\.$", output.text, re.MULTILINE) if output else None
    language = header.get("language")
    return CodeDetails(
        command=command_list,
        command_line=command_line,
        exit_code=exit_code,
        duration_s=as_float(header.get("duration_s")),
        language=language if isinstance(language, str) else (code.lang or None) if code else None,
        code=code,
        attachments=attachments,
        output=output,
        status_line=status.group(0).strip() if status else None,
        elided_chars=int(elided.group(1).replace(",", "")) if elided else None,
    )


def _outside_fences(body: str) -> str:
    if "```" not in body and "~~~" not in body:
        return body
    parts: list[str] = []
    pos = 0
    for opening in _FENCE_OPEN.finditer(body):
        if opening.start() < pos:
            continue
        parts.append(body[pos : opening.start()])
        close = re.compile(rf"^{re.escape(opening.group('fence'))}[ \t]*$", re.MULTILINE).search(
            body, opening.end() + 1
        )
        pos = close.end() if close else len(body)
    parts.append(body[pos:])
    return "\n".join(parts)


def prose(body: str) -> str:
    """The body without its fenced blocks."""
    return _outside_fences(body)


@dataclass(frozen=True, slots=True)
class EmbeddedImage:
    """A base64 image inside figure HTML; decoded only when asked."""

    mime: str
    _source: str = field(repr=False)
    _start: int = field(repr=False)
    _end: int = field(repr=False)

    @property
    def encoded_size(self) -> int:
        return self._end - self._start

    def decoded_size_estimate(self) -> int:
        return self.encoded_size * 3 // 4

    def data(self, limit: int) -> bytes:
        """The image bytes; ValueError when they would exceed `limit` or are not valid base64."""
        if self.encoded_size == 0:
            raise ValueError("embedded image is empty")
        if self.decoded_size_estimate() > limit:
            raise ValueError(f"embedded image is about {self.decoded_size_estimate():,} bytes, over {limit:,}")
        payload = re.sub(r"\s+", "", self._source[self._start : self._end])
        try:
            return base64.b64decode(payload + "=" * (-len(payload) % 4), validate=True)
        except (binascii.Error, ValueError) as exc:
            raise ValueError(f"embedded image is not valid base64: {exc}") from exc


@dataclass(frozen=True, slots=True)
class FigureDetails:
    html: str | None
    raw: str | None
    images: list[EmbeddedImage]
    svgs: list[str]
    has_script: bool
    is_full_document: bool  # a complete HTML page (posters, Plotly exports): never executed, offered to a browser
    remote_urls: list[str]

    @property
    def is_poster(self) -> bool:
        return self.is_full_document and bool(self.images)


def figure_details(cell: Cell) -> FigureDetails:
    html: str | None = None
    raw: str | None = None
    for fence in fences(cell.body):
        if fence.lang == "html" and html is None:
            html = fence.text
        elif fence.lang == "raw" and raw is None:
            raw = fence.text
    if html is None and raw is None and "<" in cell.body:
        html = cell.body  # hand-written figure cells sometimes drop the fence
    images: list[EmbeddedImage] = []
    svgs: list[str] = []
    has_script = False
    full = False
    remote: list[str] = []
    if html:
        for match in _DATA_URI.finditer(html):
            start = match.end()
            end = start
            stop = re.compile(r"[^A-Za-z0-9+/=\s]")
            tail = stop.search(html, start)
            end = tail.start() if tail else len(html)
            images.append(EmbeddedImage(match.group("mime").lower(), html, start, end))
        svgs = [m.group(0) for m in _SVG.finditer(html)] if "<svg" in html.lower() else []
        lowered = html[:4096].lower()
        full = "<html" in lowered or "<!doctype" in lowered or "<body" in lowered
        has_script = "<script" in html.lower()
        remote = sorted(set(re.findall(r"""(?:src|href)\s*=\s*["']?(https?://[^"'\s>]+)""", html, re.IGNORECASE)))
    return FigureDetails(html, raw, images, svgs, has_script, full, remote)


@dataclass(frozen=True, slots=True)
class ArtifactDetails:
    name: str | None  # qualified Trackio name ("project/name:v2") or path
    artifact_type: str | None
    uri: str | None
    scheme: str | None  # "trackio-artifact", "trackio-local-path", "https", ...
    path: str | None
    size_bytes: int | None
    summary: str


def artifact_details(cell: Cell) -> ArtifactDetails:
    header = cell.header
    uri_match = _URI.search(cell.body)
    uri = uri_match.group("uri") if uri_match else None
    scheme = uri.split("://", 1)[0] if uri else None
    path = header.get("path") if isinstance(header.get("path"), str) else None
    size = as_int(header.get("size"))
    summary = next((line.strip() for line in cell.body.splitlines() if line.strip()), "")
    if size is None:
        size_match = _SIZE_TEXT.search(summary)
        if size_match:
            size = int(float(size_match.group("num")) * _UNITS[size_match.group("unit")])
    name = header.get("artifact") if isinstance(header.get("artifact"), str) else path
    artifact_type = header.get("artifact_type")
    return ArtifactDetails(
        name=name,
        artifact_type=artifact_type if isinstance(artifact_type, str) else None,
        uri=uri,
        scheme=scheme,
        path=path,
        size_bytes=size,
        summary=summary,
    )


@dataclass(frozen=True, slots=True)
class DashboardDetails:
    project: str | None
    uri: str | None


def dashboard_details(cell: Cell) -> DashboardDetails:
    project = cell.header.get("dashboard_project")
    uri_match = _URI.search(cell.body)
    return DashboardDetails(
        project if isinstance(project, str) else None, uri_match.group("uri") if uri_match else None
    )
