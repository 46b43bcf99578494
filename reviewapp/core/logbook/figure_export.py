"""Hand a figure's HTML to the system browser, on the reviewer's explicit request only.

The app itself never runs figure HTML. When asked to open one in a browser, the HTML is written, unchanged, to a
file in the user's data folder (named by its content hash, so repeated requests reuse it) and that file is what
the browser opens.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from reviewapp.core.io.paths import user_data_dir


def export_figure_html(html: str) -> Path:
    data = html.encode("utf-8", "surrogatepass")
    folder = user_data_dir() / "figure-html"
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"{hashlib.sha256(data).hexdigest()[:20]}.html"
    if not target.is_file() or target.stat().st_size != len(data):
        partial = target.with_suffix(".partial")
        partial.write_bytes(data)
        partial.replace(target)
    return target
