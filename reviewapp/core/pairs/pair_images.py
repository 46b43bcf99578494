"""Decode the images of a pair set under byte and pixel caps, into plain pixel buffers the Qt layer wraps.

Pair images are untrusted files: a tiny PNG can declare 20000x20000 pixels, a "picture" can be a folder or a
truncated download. The declared size is checked before any pixel is decoded, Pillow's decompression-bomb
warning is an error here, and only the raster formats listed are opened. Decoding releases the GIL, so the
rating window runs it in worker threads.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from PIL import ExifTags, Image, ImageChops, ImageOps

from reviewapp.core.io.safepath import UnsafeReference, read_capped
from reviewapp.core.io.untrusted_images import ImageRefused, open_untrusted

MAX_PAIR_IMAGE_BYTES = 64 * 1024 * 1024
MAX_PAIR_IMAGE_PIXELS = 40_000_000  # e.g. 8000x5000; above Pillow's warning threshold nothing is ever decoded
FORMATS: tuple[str, ...] = ("PNG", "JPEG", "WEBP", "BMP", "GIF", "TIFF")
DIFFERENCE_GAIN = 4  # small differences are what a rater looks for; x4 makes a 1-level change visible

_ORIENTATION = ExifTags.Base.Orientation


class ImageProblem(ImageRefused):
    """The image cannot be used; the message says why in words a rater understands."""


@dataclass(frozen=True, slots=True)
class ImageInfo:
    width: int  # after EXIF orientation is applied
    height: int
    format: str
    sha256: str
    size: int  # bytes

    @property
    def dimensions(self) -> str:
        return f"{self.width}x{self.height}"


@dataclass(frozen=True, slots=True)
class PixelBuffer:
    """Packed rows of 8-bit pixels: mode "RGB" (3 bytes a pixel) or "RGBA" (4, not premultiplied)."""

    width: int
    height: int
    mode: str
    data: bytes

    @property
    def stride(self) -> int:
        return self.width * len(self.mode)

    @property
    def nbytes(self) -> int:
        return len(self.data)


def read_image_bytes(path: Path, limit: int = MAX_PAIR_IMAGE_BYTES) -> bytes:
    """The file's bytes; ImageProblem for a missing file, a folder, a device or a file over `limit`."""
    if not path.exists() and not path.is_symlink():
        raise ImageProblem("file not found")
    if path.is_dir():
        raise ImageProblem("is a folder, not an image file")
    try:
        return read_capped(path, limit)
    except UnsafeReference as exc:
        raise ImageProblem(str(exc)) from exc


def _open(data: bytes, max_pixels: int) -> Image.Image:
    try:
        return open_untrusted(data, formats=FORMATS, max_pixels=max_pixels)
    except ImageRefused as exc:
        raise ImageProblem(str(exc)) from exc


def _orientation(image: Image.Image, *, decoded: bool) -> int:
    try:
        if image.format == "PNG" and not decoded:
            # getexif() on a PNG not yet decoded decodes it all, looking for an eXIf chunk after the pixels;
            # before decoding, only an eXIf chunk ahead of the pixels (the usual place) is looked at
            raw = image.info.get("exif")
            if not raw:
                return 1
            exif = Image.Exif()
            exif.load(raw)
        else:
            exif = image.getexif()
        value = exif.get(_ORIENTATION, 1)
    except (OSError, ValueError, SyntaxError, KeyError, TypeError):
        return 1
    return value if isinstance(value, int) and 1 <= value <= 8 else 1


def probe_image(data: bytes, *, max_pixels: int = MAX_PAIR_IMAGE_PIXELS) -> ImageInfo:
    """Check an image without decoding its pixels: format, declared size, and structure (chunk CRCs for PNG)."""
    image = _open(data, max_pixels)
    with image:
        width, height = image.size
        fmt = image.format or ""
        try:
            image.verify()  # must come first after open, and leaves the image unusable
        except Exception as exc:  # verify raises whatever the plugin's parser hits on damaged data
            raise ImageProblem(f"image data is damaged ({type(exc).__name__}: {exc})") from exc
    with _open(data, max_pixels) as image:
        if _orientation(image, decoded=False) in (5, 6, 7, 8):  # rotated by 90 degrees: width and height trade places
            width, height = height, width
    return ImageInfo(width, height, fmt, hashlib.sha256(data).hexdigest(), len(data))


def decode_pixels(data: bytes, *, max_pixels: int = MAX_PAIR_IMAGE_PIXELS) -> PixelBuffer:
    """Decode to RGB (RGBA when the image has transparency), EXIF orientation applied."""
    image = _open(data, max_pixels)
    with image:
        try:
            image.load()
            orientation = _orientation(image, decoded=True)
            shown: Image.Image = image
            if orientation != 1:
                shown = ImageOps.exif_transpose(image)
            has_alpha = shown.mode in ("RGBA", "LA", "PA") or (shown.mode == "P" and "transparency" in shown.info)
            mode = "RGBA" if has_alpha else "RGB"
            if shown.mode != mode:
                shown = shown.convert(mode)
            return PixelBuffer(shown.width, shown.height, mode, shown.tobytes())
        except (OSError, ValueError, SyntaxError, EOFError, Image.DecompressionBombError) as exc:
            raise ImageProblem(f"image data could not be decoded ({exc})") from exc


def to_image(buffer: PixelBuffer) -> Image.Image:
    return Image.frombuffer(buffer.mode, (buffer.width, buffer.height), buffer.data, "raw", buffer.mode, 0, 1)


def difference(first: PixelBuffer, second: PixelBuffer, gain: int = DIFFERENCE_GAIN) -> PixelBuffer:
    """Per-channel absolute difference, amplified by `gain`: black where the two images agree exactly."""
    if (first.width, first.height) != (second.width, second.height):
        raise ImageProblem(
            f"the images differ in size ({first.width}x{first.height} vs {second.width}x{second.height})"
        )
    a, b = to_image(first).convert("RGB"), to_image(second).convert("RGB")
    diff = ImageChops.difference(a, b)
    if gain != 1:
        table = [min(255, value * gain) for value in range(256)] * 3
        diff = diff.point(table)
    return PixelBuffer(diff.width, diff.height, "RGB", diff.tobytes())
