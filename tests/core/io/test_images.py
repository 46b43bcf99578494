"""Untrusted images are decoded only inside the root, under byte and pixel caps, in the listed formats."""

from __future__ import annotations

import base64
import io
import os
import struct
import zlib
from pathlib import Path

import pytest
from PIL import Image

from reviewapp.core.io.untrusted_images import (
    ImageRefused,
    data_uri_bytes,
    decode_image,
    read_image_file,
    read_local_image,
    svg_refusal,
)


def png_of(width: int, height: int) -> bytes:
    """A 1-bit PNG declaring any size, built row by row so that huge declarations stay small."""
    row = b"\0" * (1 + (width + 7) // 8)
    packer = zlib.compressobj(9)
    data = b"".join(packer.compress(row) for _ in range(height)) + packer.flush()

    def chunk(kind: bytes, payload: bytes) -> bytes:
        return struct.pack(">I", len(payload)) + kind + payload + struct.pack(">I", zlib.crc32(kind + payload))

    ihdr = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", data) + chunk(b"IEND", b"")


def encoded(image: Image.Image, fmt: str) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format=fmt)
    return buffer.getvalue()


def test_decodes_to_rgba_pixels() -> None:
    decoded = decode_image(encoded(Image.new("RGB", (3, 2), (10, 20, 30)), "PNG"))
    assert (decoded.width, decoded.height, decoded.format) == (3, 2, "PNG")
    assert decoded.rgba[:4] == bytes([10, 20, 30, 255]) and len(decoded.rgba) == 3 * 2 * 4


def test_large_images_are_scaled_down_once_decoded() -> None:
    decoded = decode_image(encoded(Image.new("RGB", (1000, 400)), "PNG"), max_side=250)
    assert (decoded.width, decoded.height) == (250, 100)
    assert (decoded.source_width, decoded.source_height) == (1000, 400)


def test_pixel_cap_is_checked_before_decoding() -> None:
    with pytest.raises(ImageRefused, match="6000x5000 pixels, over the 25,000,000-pixel limit"):
        decode_image(png_of(6000, 5000))
    with pytest.raises(ImageRefused, match="too many pixels"):
        decode_image(png_of(20000, 20000))  # Pillow's own bomb check fires first; either way, no decode
    assert decode_image(png_of(600, 500), max_pixels=300_000).width == 600


@pytest.mark.parametrize("data", [b"", b"not an image", b"GIF89a" + b"\0" * 4, b"%PDF-1.7\n"])
def test_non_images_are_refused(data: bytes) -> None:
    with pytest.raises(ImageRefused):
        decode_image(data)


def test_formats_outside_the_list_are_refused() -> None:
    tiff = encoded(Image.new("RGB", (4, 4)), "TIFF")
    with pytest.raises(ImageRefused, match="not a supported image"):
        decode_image(tiff)


def test_local_images_resolve_only_inside_the_root(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (root / "ok.png").write_bytes(encoded(Image.new("RGB", (5, 5)), "PNG"))
    (tmp_path / "secret.png").write_bytes(encoded(Image.new("RGB", (5, 5)), "PNG"))
    os.symlink(tmp_path / "secret.png", root / "link.png")
    assert read_local_image(root, "ok.png").width == 5
    for reference in ("../secret.png", str(tmp_path / "secret.png"), "file:///etc/hostname", "link.png"):
        with pytest.raises(ImageRefused):
            read_local_image(root, reference)
    with pytest.raises(ImageRefused, match="file not found"):
        read_local_image(root, "missing.png")


def test_byte_cap_and_special_files_are_refused_without_reading(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    with (root / "big.png").open("wb") as handle:
        handle.truncate(50_000_000)
    os.mkfifo(root / "pipe.png")  # opening this for reading would block: refusing must not open it
    with pytest.raises(ImageRefused, match="50,000,000 bytes, over the 1,000-byte limit"):
        read_local_image(root, "big.png", max_bytes=1000)
    with pytest.raises(ImageRefused, match="not a regular file"):
        read_local_image(root, "pipe.png")


def test_an_image_file_must_really_be_inside_the_root(tmp_path: Path) -> None:
    (tmp_path / "root").mkdir()
    (tmp_path / "outside.png").write_bytes(encoded(Image.new("RGB", (5, 5)), "PNG"))
    with pytest.raises(ImageRefused, match="leads outside"):
        read_image_file(tmp_path / "root", tmp_path / "root" / ".." / "outside.png")


def test_data_uris_are_size_checked_before_decoding() -> None:
    payload = base64.b64encode(encoded(Image.new("RGB", (2, 2)), "PNG")).decode()
    assert decode_image(data_uri_bytes(f"data:image/png;base64,{payload}")).width == 2
    with pytest.raises(ImageRefused, match="over 10"):
        data_uri_bytes(f"data:image/png;base64,{payload}", max_bytes=10)
    for uri in ("data:text/html;base64,PGI+", "data:image/png,rawbytes", "data:image/png;base64,@@@"):
        with pytest.raises(ImageRefused):
            data_uri_bytes(uri)


@pytest.mark.parametrize(
    ("svg", "refused"),
    [
        ('<svg><rect width="3" height="3"/></svg>', False),
        ('<svg><use xlink:href="#a"/><g id="a"/></svg>', False),
        ('<svg><image href="/etc/passwd"/></svg>', True),
        ('<svg><use xlink:href="other.svg#a"/></svg>', True),
        ("<svg><style>@import url(x.css);</style></svg>", True),
        ('<svg><rect fill="url(http://x/y)"/></svg>', True),
        ('<!DOCTYPE svg [<!ENTITY e SYSTEM "file:///etc/passwd">]><svg>&e;</svg>', True),
    ],
)
def test_svgs_that_refer_outside_themselves_are_refused(svg: str, refused: bool) -> None:
    assert (svg_refusal(svg) is not None) == refused
