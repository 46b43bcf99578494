"""Type-specific reading of a cell body, done on demand rather than at load.

Run outputs and figure payloads are most of a logbook's bytes; keeping only the body at load time and slicing
it here when a cell is shown keeps loading fast and memory close to the logbook's size on disk.
"""

from __future__ import annotations

import base64
import binascii
import re
import shlex
from collections.abc import Iterator
from dataclasses import dataclass, field

from reviewapp.core.io.coerce import as_float, as_int
from reviewapp.core.logbook.model import Cell

_FENCE_OPEN = re.compile(r"^(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[^\n`]*)$", re.MULTILINE)
_STATUS = re.compile(r"^exit[ \t]+(?P<code>-?\d+)(?:[ \t]*·[ \t]*(?P<rest>[^\n]*))?[ \t]*$", re.MULTILINE)
_DATA_URI = re.compile(r"data:(?P<mime>image/[A-Za-z0-9.+-]+);base64,", re.IGNORECASE)
_SVG = re.compile(r"<svg\b.*?</svg\s*>", re.IGNORECASE | re.DOTALL)
_SIZE_TEXT = re.compile(r"(?P<num>\d+(?:\.\d+)?)\s*(?P<unit>B|kB|KB|KiB|MB|MiB|GB|GiB)\b")
_URI = re.compile(r"(?P<uri>(?:trackio-[a-z-]+|https?)://[^\s)>\]]+)")
_TITLE = re.compile(r"\btitle=(\S+)")
_ELIDED = re.compile(r"^\.\.\. \[(\d[\d,]*) chars elided\] \.\.\.$", re.MULTILINE)
_UNITS = {"B": 1, "kB": 1000, "KB": 1000, "KiB": 1024, "MB": 10**6, "MiB": 2**20, "GB": 10**9, "GiB": 2**30}


@dataclass(frozen=True, slots=True)
class Fence:
    lang: str
    title: str | None
    text: str
    line: int  # 1-based line of the opening fence within the cell body


def fences(body: str) -> list[Fence]:
    """Fenced blocks in order; a closing fence repeats the opening one exactly (Trackio's rule)."""
    return _fences_of(body, fence_spans(body))


def _fences_of(body: str, spans: list[FenceSpan]) -> list[Fence]:
    found: list[Fence] = []
    line, counted = 1, 0
    for span in spans:
        line += body.count("\n", counted, span.start)
        counted = span.start
        found.append(_fence_at(body, span, line))
    return found


def _fence_at(body: str, span: FenceSpan, line: int) -> Fence:
    info = span.info.strip()
    lang, _, rest = info.partition(" ")
    title_match = _TITLE.search(rest) or _TITLE.search(info)
    text = body[span.content_start : span.content_end] if span.content_start <= span.content_end else ""
    return Fence(
        lang=lang if not lang.startswith("title=") else "",
        title=title_match.group(1) if title_match else None,
        text=text[:-1] if text.endswith("\n") else text,
        line=line,
    )


_OUTPUT_LANGS = ("output", "result")


def _fence_lang(info: str) -> str:
    """A fence's language as `Fence.lang` reads it from the opening line's info."""
    lang = info.strip().partition(" ")[0]
    return lang if not lang.startswith("title=") else ""


def output_fence(cell: Cell) -> Fence | None:
    """`code_details(cell).output` alone: the claim reader asks only for a run's output, and slicing out every
    other fence (the code files a run attaches) and reading the command and status was most of its cost."""
    span = _output_span(cell.body)
    return _fence_at(cell.body, span, 1 + cell.body.count("\n", 0, span.start)) if span is not None else None


def output_text(cell: Cell) -> tuple[str, int] | None:
    """`output_fence(cell)`'s text and the offset in the cell's body where it starts, found without the rest of
    what a Fence holds: the claim reader reads every run's output, which is most of a logbook's bytes."""
    span = _output_span(cell.body)
    if span is None:
        return None
    end = span.content_end
    if end > span.content_start and cell.body[end - 1] == "\n":
        end -= 1
    return cell.body[span.content_start : end], span.content_start


def _output_span(body: str) -> FenceSpan | None:
    """The first fence whose language is an output's; the fences after it are never looked for."""
    return next((span for span in _spans(body) if _fence_lang(span.info) in _OUTPUT_LANGS), None)


@dataclass(frozen=True, slots=True)
class FenceSpan:
    """Where one fenced block sits in a body: offsets only, so finding fences copies no text."""

    start: int  # the opening line's first character
    info: str  # the opening line after its fence characters
    content_start: int
    content_end: int  # the closing line's start, or the body's end when the block is never closed
    end: int  # the closing line's end (before its newline), or the body's end


def fence_spans(body: str) -> list[FenceSpan]:
    """Every fenced block of `body`, in order."""
    return list(_spans(body))


def _spans(body: str) -> Iterator[FenceSpan]:
    """Fenced blocks one by one, found with plain substring searches: a run output is tens of kilobytes, and a
    line-anchored regex tried at each of its characters was most of the time spent reading a logbook."""
    if "```" not in body and "~~~" not in body:
        return
    size = len(body)
    pos = 0
    line_starts = _LineStarts(body)
    while (start := line_starts.next_from(pos)) >= 0:
        run_end = start + 3
        while run_end < size and body[run_end] == body[start]:
            run_end += 1
        line_end = body.find("\n", run_end)
        line_end = size if line_end < 0 else line_end
        info = body[run_end:line_end]
        if "`" in info:  # not an opening fence (an inline code span, say); look on the next line
            pos = line_end + 1
            continue
        content_start = line_end + 1
        close = _closing_line(body, body[start:run_end], content_start)
        content_end, end = close if close else (size, size)
        yield FenceSpan(start, info, content_start, content_end, end)
        pos = end


class _LineStarts:
    """Lines that begin with ``` or ~~~, in order. The next ``` is kept until passed, and ~~~ (the rarer marker) is
    looked for only up to it, so each character is searched at most once for each marker, and none after the
    fence a caller stops at."""

    def __init__(self, body: str) -> None:
        self.body = body
        self.ticks = -2  # the next ``` (-1: none left; -2: not looked for yet)
        self.tildes = -2  # the next ~~~ (-1: none left; -2: none before `clear`, after it not looked for yet)
        self.clear = 0

    def next_from(self, pos: int) -> int:
        """The start of the first line at or after `pos` that begins with a marker, or -1."""
        body = self.body
        while True:
            if self.ticks == -2 or 0 <= self.ticks < pos:
                self.ticks = body.find("```", pos)
            hit = self.ticks
            tilde = self._tildes_before(pos, hit if hit >= 0 else len(body))
            if tilde >= 0:
                hit = tilde
            if hit < 0:
                return -1
            if hit == 0 or body[hit - 1] == "\n":
                return hit
            newline = body.find("\n", hit)
            if newline < 0:
                return -1
            pos = newline + 1

    def _tildes_before(self, pos: int, bound: int) -> int:
        """The first ~~~ that starts at or after `pos` and before `bound`, or -1."""
        if self.tildes == -1:
            return -1
        if self.tildes >= pos:
            return self.tildes if self.tildes < bound else -1
        start = max(pos, self.clear)
        if start >= bound:
            return -1
        found = self.body.find("~~~", start, bound + 2)  # + 2: a ~~~ that starts before `bound` and ends past it
        if found >= 0:
            self.tildes = found
            return found
        self.clear = bound
        self.tildes = -1 if bound >= len(self.body) else -2
        return -1


def _closing_line(body: str, fence: str, start: int) -> tuple[int, int] | None:
    """(start, end) of the first line from `start` (just past a newline) that is `fence` and blanks only."""
    pos = start - 1
    while (hit := body.find("\n" + fence, pos)) >= 0:
        line_start = hit + 1
        line_end = body.find("\n", line_start)
        line_end = len(body) if line_end < 0 else line_end
        if not body[line_start + len(fence) : line_end].strip(" \t"):
            return line_start, line_end
        pos = line_end
    return None


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
    spans = fence_spans(cell.body)
    for fence in _fences_of(cell.body, spans):
        if fence.lang in _OUTPUT_LANGS and output is None:
            output = fence
        elif fence.title:
            attachments.append(fence)
        elif fence.lang in ("bash", "sh", "shell", "console") and fence.text.startswith("$ ") and command_line is None:
            command_line = fence.text[2:].split("\n", 1)[0]
        elif fence.lang in ("bash", "sh", "shell", "console") and fence.text.startswith("$ "):
            continue
        elif code is None:
            code = fence
    outside = _outside_fences(cell.body, spans)
    status = _STATUS.search(outside) if "exit" in outside else None
    exit_code = as_int(header.get("exit_code"))
    if exit_code is None and status:
        exit_code = int(status.group("code"))
    elided = _ELIDED.search(output.text) if output and " chars elided] ..." in output.text else None
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


def _outside_fences(body: str, spans: list[FenceSpan] | None = None) -> str:
    if spans is None:
        spans = fence_spans(body)
    if not spans:
        return body
    parts: list[str] = []
    pos = 0
    for span in spans:
        parts.append(body[pos : span.start])
        pos = span.end
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
