"""Decoding pair images: formats whitelist, pixel and byte caps, EXIF orientation, and the difference image."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from reviewapp.core.pairs.pair_images import (
    ImageProblem,
    decode_pixels,
    difference,
    probe_image,
    read_image_bytes,
    to_image,
)
from tests.support.pair_fixtures import png_declaring


def encoded(image: Image.Image, fmt: str = "PNG", **options) -> bytes:
    out = io.BytesIO()
    image.save(out, format=fmt, **options)
    return out.getvalue()


def test_rgb_and_transparent_images_decode_to_packed_buffers() -> None:
    rgb = decode_pixels(encoded(Image.new("RGB", (5, 3), (10, 20, 30))))
    assert (rgb.width, rgb.height, rgb.mode, rgb.stride) == (5, 3, "RGB", 15)
    assert rgb.data[:3] == bytes([10, 20, 30]) and rgb.nbytes == 45
    rgba = decode_pixels(encoded(Image.new("RGBA", (2, 2), (1, 2, 3, 128))))
    assert rgba.mode == "RGBA" and rgba.data[:4] == bytes([1, 2, 3, 128])
    grey = decode_pixels(encoded(Image.new("L", (2, 2), 200)))
    assert grey.mode == "RGB" and grey.data[:3] == bytes([200, 200, 200])


def test_exif_orientation_is_applied() -> None:
    image = Image.new("RGB", (40, 20), (255, 0, 0))
    image.paste((0, 0, 255), (0, 0, 20, 20))  # left half blue
    exif = Image.Exif()
    exif[0x0112] = 6  # rotate 90 degrees clockwise to display
    data = encoded(image, "JPEG", exif=exif.tobytes(), quality=95)
    info = probe_image(data)
    assert (info.width, info.height) == (20, 40)
    decoded = to_image(decode_pixels(data))
    assert decoded.size == (20, 40)
    top = decoded.getpixel((10, 5))
    assert top[2] > 200 and top[0] < 60  # the blue half is on top after rotating clockwise


@pytest.mark.parametrize(("width", "height"), [(20000, 20000), (10000, 10000), (8000, 6000)])
def test_decompression_bombs_are_refused_before_decoding(width: int, height: int) -> None:
    data = png_declaring(width, height)
    assert len(data) < 200
    for call in (probe_image, decode_pixels):
        with pytest.raises(ImageProblem, match="pixel"):
            call(data)


def test_formats_outside_the_whitelist_are_refused() -> None:
    ico = encoded(Image.new("RGB", (16, 16)), "ICO")
    assert Image.open(io.BytesIO(ico)).format == "ICO"  # Pillow itself would open it
    with pytest.raises(ImageProblem, match="not a supported image"):
        probe_image(ico)


def test_files_are_read_under_a_byte_cap(tmp_path: Path) -> None:
    path = tmp_path / "big.png"
    path.write_bytes(encoded(Image.new("RGB", (64, 64))))
    with pytest.raises(ImageProblem, match="over the 10-byte limit"):
        read_image_bytes(path, limit=10)
    with pytest.raises(ImageProblem, match="is a folder"):
        read_image_bytes(tmp_path)
    with pytest.raises(ImageProblem, match="file not found"):
        read_image_bytes(tmp_path / "absent.png")


def test_difference_is_black_where_equal_and_amplified_elsewhere() -> None:
    a = Image.new("RGB", (4, 1), (100, 100, 100))
    b = a.copy()
    b.putpixel((1, 0), (103, 90, 100))
    b.putpixel((2, 0), (0, 255, 100))
    diff = to_image(difference(decode_pixels(encoded(a)), decode_pixels(encoded(b))))
    assert diff.getpixel((0, 0)) == (0, 0, 0)
    assert diff.getpixel((1, 0)) == (12, 40, 0)  # |3| and |10| times 4
    assert diff.getpixel((2, 0)) == (255, 255, 0)  # capped
    with pytest.raises(ImageProblem, match="differ in size"):
        difference(decode_pixels(encoded(a)), decode_pixels(encoded(Image.new("RGB", (3, 1)))))
