"""Write logbooks in Trackio's on-disk format: the built-in demo and test fixtures are made with this.

The output follows logbook-format.md §6.1 exactly (compact JSON headers, four-backtick fences, `exit N · Ts`
status lines) so that anything made here also opens in Trackio's own viewer.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

_SLUG = re.compile(r"[^a-z0-9]+")


def slugify(title: str) -> str:
    return _SLUG.sub("-", title.lower()).strip("-") or "page"


def cell_text(header: dict[str, Any], body: str) -> str:
    return f"\n---\n<!-- trackio-cell\n{json.dumps(header, ensure_ascii=False)}\n-->\n{body.strip()}\n"


@dataclass
class PageDraft:
    title: str
    slug: str
    cells: list[str] = field(default_factory=list)
    _count: int = 0

    def _header(self, kind: str, title: str | None, **extra: Any) -> dict[str, Any]:
        self._count += 1
        header: dict[str, Any] = {
            "type": kind,
            "id": "cell_" + hashlib.sha256(f"{self.slug}/{self._count}".encode()).hexdigest()[:12],
            "created_at": "2026-07-20T10:00:00+00:00",
        }
        if title is not None:
            header["title"] = title
        header.update(extra)
        return header

    def markdown(self, body: str, title: str | None = None) -> PageDraft:
        self.cells.append(cell_text(self._header("markdown", title), body))
        return self

    def run(
        self, command: list[str], output: str, exit_code: int = 0, duration_s: float = 1.0, title: str | None = None
    ) -> PageDraft:
        shown = " ".join(command)
        body = f"````bash\n$ {shown}\n````\n\nexit {exit_code} · {duration_s:.1f}s\n\n````output\n{output}\n````"
        header = self._header("code", title, command=command, exit_code=exit_code, duration_s=round(duration_s, 3))
        self.cells.append(cell_text(header, body))
        return self

    def figure_png(self, png: bytes, title: str, raw: str | None = None, alt: str = "figure") -> PageDraft:
        data = base64.b64encode(png).decode("ascii")
        img = f'<img src="data:image/png;base64,{data}" alt="{alt}" style="max-width:100%;height:auto;" />'
        body = f"````html\n{img}\n````"
        if raw is not None:
            body += f"\n\n````raw\n{raw}\n````"
        self.cells.append(cell_text(self._header("figure", title), body))
        return self

    def figure_html(self, html: str, title: str, raw: str | None = None) -> PageDraft:
        body = f"````html\n{html}\n````" + (f"\n\n````raw\n{raw}\n````" if raw is not None else "")
        self.cells.append(cell_text(self._header("figure", title), body))
        return self

    def artifact_path(self, path: str, size: int, artifact_type: str = "dataset") -> PageDraft:
        body = f"**📦 Output** `{path}` · {artifact_type} · {size:,} B\n\ntrackio-local-path://{path}"
        header = self._header(
            "artifact", f"Output: {path}", path=path, size=size, artifact_type=artifact_type, auto=True
        )
        self.cells.append(cell_text(header, body))
        return self

    def raw_cell(self, header: dict[str, Any] | str, body: str) -> PageDraft:
        """A cell with a header as given (dict or literal text), for fixtures that need odd headers."""
        header_text = header if isinstance(header, str) else json.dumps(header, ensure_ascii=False)
        self.cells.append(f"\n---\n<!-- trackio-cell\n{header_text}\n-->\n{body.strip()}\n")
        return self

    def text(self) -> str:
        return f"# {self.title}\n\n" + "".join(self.cells)


@dataclass
class LogbookDraft:
    title: str
    metadata: dict[str, Any] = field(default_factory=dict)
    pages: list[PageDraft] = field(default_factory=list)
    intro: str = ""

    def page(self, title: str, slug: str | None = None) -> PageDraft:
        draft = PageDraft(title, slug or slugify(title))
        self.pages.append(draft)
        return draft

    def index_text(self) -> str:
        rows = "".join(f"| [{p.title}](#/{p.slug}) |\n" for p in self.pages)
        intro = f"{self.intro.strip()}\n\n" if self.intro.strip() else ""
        return f"# {self.title}\n\n{intro}## Pages\n\n| Page |\n| --- |\n{rows}"

    def manifest(self, traces: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        children = [
            {"slug": p.slug, "title": p.title, "file": f"pages/{p.slug}/page.md", "children": []} for p in self.pages
        ]
        return {
            "schema_version": 2,
            "title": self.title,
            "space_id": self.metadata.get("space_id"),
            "paper": self.metadata.get("paper"),
            "tags": self.metadata.get("tags", []),
            "updated_at": "2026-07-20T18:00:00+00:00",
            "root": {"slug": "index", "title": self.title, "file": "pages/index.md", "children": children},
            "traces": traces or [],
        }

    def write(self, workspace: Path, *, manifest: bool = True, traces: list[dict[str, Any]] | None = None) -> Path:
        """Write `<workspace>/.trackio/{metadata.json,logbook/...}`; returns the logbook root."""
        root = workspace / ".trackio" / "logbook"
        (root / "pages").mkdir(parents=True, exist_ok=True)
        (workspace / ".trackio" / "metadata.json").write_text(json.dumps(self.metadata, indent=2), encoding="utf-8")
        (root / "pages" / "index.md").write_text(self.index_text(), encoding="utf-8")
        for draft in self.pages:
            folder = root / "pages" / draft.slug
            folder.mkdir(parents=True, exist_ok=True)
            (folder / "page.md").write_text(draft.text(), encoding="utf-8")
        if manifest:
            (root / "logbook.json").write_text(json.dumps(self.manifest(traces), indent=2), encoding="utf-8")
        return root


def write_trace(
    root: Path, trace_id: str, events: list[dict[str, Any]], chunk_size: int = 200, **summary: Any
) -> dict[str, Any]:
    """Write traces/index.json, traces/<id>/index.json and event chunks as Trackio does; returns the summary."""
    folder = root / "traces" / trace_id
    folder.mkdir(parents=True, exist_ok=True)
    chunks = []
    for number, start in enumerate(range(0, len(events), chunk_size)):
        part = events[start : start + chunk_size]
        name = f"traces/{trace_id}/events-{number:04d}.json"
        (root / name).write_text(json.dumps({"events": part}), encoding="utf-8")
        chunks.append(
            {
                "file": name,
                "count": len(part),
                "first_sequence": part[0]["sequence"],
                "last_sequence": part[-1]["sequence"],
            }
        )
    info = {
        "id": trace_id,
        "title": summary.get("title", "Agent session"),
        "provider": summary.get("provider", "Claude Code"),
        "model": summary.get("model", "demo-model"),
        "started_at": summary.get("started_at", "2026-07-20T10:00:00+00:00"),
        "ended_at": summary.get("ended_at", "2026-07-20T11:00:00+00:00"),
        "event_count": len(events),
        "turn_count": max((e.get("turn") or 0) for e in events) if events else 0,
        "source_available": True,
        "index_file": f"traces/{trace_id}/index.json",
    }
    (folder / "index.json").write_text(
        json.dumps({**info, "schema_version": 1, "chunks": chunks}, indent=2), encoding="utf-8"
    )
    index_path = root / "traces" / "index.json"
    sessions = json.loads(index_path.read_text(encoding="utf-8"))["sessions"] if index_path.exists() else []
    sessions = [s for s in sessions if s.get("id") != trace_id] + [info]
    index_path.write_text(json.dumps({"schema_version": 1, "sessions": sessions}, indent=2), encoding="utf-8")
    return info


def png_bytes(image: Any) -> bytes:
    """Encode a Pillow image as PNG."""
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()
