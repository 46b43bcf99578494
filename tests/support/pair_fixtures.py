"""Pair sets for the pair-rating tests: a small logbook with baseline/ and quantized/ images and a manifest,
plus broken images of every kind the loader must report (written with the core's own writers)."""

from __future__ import annotations

import json
import random
import struct
import zlib
from pathlib import Path
from typing import Any

from PIL import Image

from reviewapp.core.logbook.demo import degrade, photo_like_image
from reviewapp.core.logbook.reader import read_logbook
from reviewapp.core.logbook.writer import LogbookDraft
from reviewapp.core.review.identity import Identity
from reviewapp.core.review.logbook_review import LogbookReview

CONDITIONS = ("baseline", "quantized")
QUESTION = "Which image is more usable?"
INSTRUCTIONS = "Pick the image you would rather use. Mark an image unusable if you would not accept it."


def png_declaring(width: int, height: int) -> bytes:
    """A tiny, well-formed PNG whose header declares `width` x `height` pixels (a decompression bomb)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"\0" * 64)) + chunk(b"IEND", b"")
    )


def write_pair_logbook(
    workspace: Path,
    count: int = 6,
    *,
    size: int = 96,
    controls: dict[str, Any] | None = None,
    manifest: str = "json",
    extra: dict[str, Any] | None = None,
) -> Path:
    """A logbook whose claim 1 has `count` image pairs under samples/; returns the workspace folder."""
    draft = LogbookDraft("Reproduction: Pair Widgets")
    draft.page("Claim 1: Quantized images stay usable").markdown("Status: **INCONCLUSIVE** until rated.", title="V")
    draft.write(workspace)
    rng = random.Random(count * 1000 + size)
    rows = []
    for index in range(1, count + 1):
        base = photo_like_image(rng, size)
        for condition, image in zip(CONDITIONS, (base, degrade(base, rng)), strict=True):
            path = workspace / "samples" / condition / f"p{index:02d}.png"
            path.parent.mkdir(parents=True, exist_ok=True)
            image.save(path, format="PNG")
        rows.append(
            {
                "id": f"p{index:02d}",
                "left": f"baseline/p{index:02d}.png",
                "right": f"quantized/p{index:02d}.png",
                "prompt": f"scene number {index}",
            }
        )
    samples = workspace / "samples"
    if manifest == "csv":
        lines = ["pair_id,left,right,prompt,seed"]
        lines += [f"{r['id']},{r['left']},{r['right']},{r['prompt']},{i}" for i, r in enumerate(rows)]
        (samples / "test-pairs.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    else:
        spec: dict[str, Any] = {
            "claim": "1",
            "question": QUESTION,
            "instructions": INSTRUCTIONS,
            "conditions": list(CONDITIONS),
            "controls": controls if controls is not None else {"rate": 0.3},
            "pairs": rows,
            **(extra or {}),
        }
        (samples / "test-pairs.json").write_text(json.dumps(spec, indent=2), encoding="utf-8")
    return workspace


def break_images(workspace: Path) -> dict[str, str]:
    """Damage pairs p01..p06 in every way the loader must report; returns pair id -> what was done."""
    samples = workspace / "samples"
    (samples / "quantized" / "p01.png").unlink()
    (samples / "quantized" / "p02.png").write_bytes(b"\x89PNG\r\n\x1a\nthis is not really a png")
    folder = samples / "baseline" / "p03.png"
    folder.unlink()
    folder.mkdir()
    (samples / "quantized" / "p04.png").write_bytes(png_declaring(20000, 20000))
    Image.new("RGB", (48, 32), "white").save(samples / "quantized" / "p05.png")
    (samples / "baseline" / "p06.png").write_bytes(png_declaring(10000, 10000))  # in Pillow's warning range
    return {
        "p01": "missing",
        "p02": "corrupt",
        "p03": "folder",
        "p04": "bomb",
        "p05": "size mismatch",
        "p06": "bomb (warning range)",
    }


def open_annotations(workspace: Path, name: str = "Rita Rater") -> LogbookReview:
    return LogbookReview.open(read_logbook(workspace), Identity(name, "command line"), "participant")
